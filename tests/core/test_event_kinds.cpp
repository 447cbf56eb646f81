// core/events: every event kind declared once, with named fields; the typed
// views and the text come from that declaration.
#include "events/event.h"
#include "events/event_format.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace pcl;

TEST_CASE("every kind is declared once, with distinct names and slots", "[events][kinds]")
{
    std::set<std::string_view> names;
    for (std::size_t k = 0; k < kEventKindCount; ++k) {
        const EventKind kind = static_cast<EventKind>(k);
        const EventFormat& f = event_format(kind);
        INFO("kind " << f.name);
        CHECK(f.kind == kind);
        CHECK(to_string(kind) == f.name);
        CHECK_FALSE(f.summary.empty());
        CHECK(f.field_count > 0);
        names.insert(f.name);
        std::set<std::string_view> fields;
        std::set<EventSlot> slots;
        for (const EventField& field : f) {
            INFO("field " << field.name);
            fields.insert(field.name);
            slots.insert(field.slot);
            CHECK_FALSE(field.meaning.empty());
            // A duration says so in its name, as the JSON result's fields do.
            if (field.unit == "ns")
                CHECK(field.name.substr(field.name.size() - 3) == "_ns");
        }
        CHECK(fields.size() == f.field_count);
        CHECK(slots.size() == f.field_count);
    }
    CHECK(names.size() == kEventKindCount);
    CHECK(to_string(static_cast<EventKind>(kEventKindCount)) == "unknown");
}

TEST_CASE("a kind's view reads the fields its declaration names", "[events][kinds]")
{
    const Event acquired = make_event_at(100, EventKind::LockAcquired, 2, 0xabc0, 0, 7, 1500, 3);
    CHECK(ev::LockAcquired { acquired }.lock() == 0xabc0);
    CHECK(ev::LockAcquired { acquired }.lock_id() == 7);
    CHECK(ev::LockAcquired { acquired }.class_id() == 3);
    CHECK(ev::LockAcquired { acquired }.wait_ns() == 1500);
    CHECK(ev::LockAcquired::kind == EventKind::LockAcquired);

    const Event wait = make_event_at(100, EventKind::LockWaitBegin, 2, 0xabc0, 0, 7, -1, 3);
    CHECK(ev::LockWaitBegin { wait }.holder_cpu() == -1);

    Event window = make_event_at(200, EventKind::ReadaheadWindow, 1, 1, 4, 64, 32, 8);
    window.detail = 5;
    const ev::ReadaheadWindow ra { window };
    CHECK(ra.async());
    CHECK(ra.file() == 4);
    CHECK(ra.start() == 64);
    CHECK(ra.size() == 32);
    CHECK(ra.async_size() == 8);
    CHECK(ra.rule() == 5);
}

TEST_CASE("a record prints as its kind and named fields", "[events][kinds]")
{
    const Event end = make_event_at(100, EventKind::FaultEnd, 2, 40, 3, 5, 1200, 3);
    CHECK(format_event(end) == "fault_end cpu=2 vpn=40 file=3 page=5 duration_ns=1200 fault_kind=3");
    const Event wait = make_event_at(100, EventKind::LockWaitBegin, 0, 99, 0, 1, -1, 2);
    CHECK(format_event(wait) == "lock_wait_begin cpu=0 lock=99 lock_id=1 class_id=2 holder_cpu=-1");
}
