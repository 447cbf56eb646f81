// core/events: every event kind declared once, with named fields; the typed
// tracepoints, records, views and the text come from that declaration.
#include "events/event.h"
#include "events/event_format.h"
#include "events/event_ring.h"
#include "events/tracepoint.h"

#include <catch2/catch.hpp>

#include <array>
#include <iterator>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace pcl;

namespace {

// A tracepoint's fields are named, complete and typed: a list that gives
// them by position, leaves one out or narrows a value does not compile.
template <class F>
concept named_page_fields = requires(std::uint64_t id, FileId file, pgoff_t page)
{
    F { .page_id = id, .file = file, .page = page };
};
template <class F>
concept positional_page_fields = requires(std::uint64_t id, FileId file, pgoff_t page)
{
    F { id, file, page };
};
template <class F>
concept page_fields_without_file = requires(std::uint64_t id, pgoff_t page)
{
    F { .page_id = id, .page = page };
};
template <class F>
concept page_fields_swapped = requires(std::uint64_t id, FileId file, pgoff_t page)
{
    F { .page_id = id, .file = page, .page = file }; // a pgoff_t does not fit a FileId
};
template <class F>
concept refault_active_from_int = requires(FileId file, pgoff_t page, int active)
{
    F { .file = file, .page = page, .distance = page, .active = active };
};
static_assert(named_page_fields<ev::PageLockWait::Fields>);
static_assert(!positional_page_fields<ev::PageLockWait::Fields>);
static_assert(!page_fields_without_file<ev::PageLockWait::Fields>);
static_assert(!page_fields_swapped<ev::PageLockWait::Fields>);
static_assert(!refault_active_from_int<ev::PageRefault::Fields>);

/// The raw content of @slot.
std::int64_t slot_value(const Event& e, EventSlot slot)
{
    switch (slot) {
    case EventSlot::Object:
        return static_cast<std::int64_t>(e.object);
    case EventSlot::File:
        return e.file;
    case EventSlot::Index:
        return static_cast<std::int64_t>(e.index);
    case EventSlot::Arg0:
        return e.arg0;
    case EventSlot::Arg1:
        return e.arg1;
    case EventSlot::Detail:
        return e.detail;
    }
    return 0;
}

constexpr std::array kSlots { EventSlot::Object, EventSlot::File, EventSlot::Index, EventSlot::Arg0, EventSlot::Arg1,
    EventSlot::Detail };

/// A probe's value for a field of type T: nonzero in the field under test
/// (@on), zero in the others, so a field stored in another's slot shows.
template <class T> constexpr T probe(bool on)
{
    if constexpr (std::is_same_v<T, bool>)
        return on;
    else
        return on ? T(0x5a) : T(0);
}

/// The one record @emit makes on a thread traced as CPU 3.
template <class Emit> Event traced(Emit emit)
{
    EventRing ring(8);
    {
        trace::ThreadTrace trace(&ring, 3);
        emit();
    }
    std::vector<Event> out;
    ring.drain(out);
    REQUIRE(out.size() == 1);
    return out.front();
}

// For every kind, from the declaration list: emit() records one through the
// kind's tracepoint with the field in slot @target nonzero, read() checks
// every field through the kind's view.
#define PCL_PROBE_FIELD(slot, name, type, unit, meaning) .name = probe<type>(detail::event_slot_##slot == target),
#define PCL_PROBE_EMIT(kind, name, summary, ...)                                                                       \
    Event emit_##kind(EventSlot target)                                                                                \
    {                                                                                                                  \
        return traced([&] { trace::name(7, { __VA_ARGS__ }); });                                                       \
    }
PCL_EVENT_KINDS(PCL_PROBE_EMIT, PCL_PROBE_FIELD)
#undef PCL_PROBE_EMIT
#undef PCL_PROBE_FIELD

#define PCL_CHECK_FIELD(slot, name, type, unit, meaning)                                                               \
    CHECK(view.name() == probe<type>(detail::event_slot_##slot == target));
#define PCL_PROBE_READ(kind, name, summary, ...)                                                                       \
    void read_##kind(const Event& e, EventSlot target)                                                                 \
    {                                                                                                                  \
        const ev::kind view { e };                                                                                     \
        __VA_ARGS__                                                                                                    \
    }
PCL_EVENT_KINDS(PCL_PROBE_READ, PCL_CHECK_FIELD)
#undef PCL_PROBE_READ
#undef PCL_CHECK_FIELD

struct RoundTrip {
    EventKind kind;
    Event (*emit)(EventSlot target);
    void (*read)(const Event& e, EventSlot target);
};
#define PCL_PROBE_ROW(kind, name, summary, ...) RoundTrip { EventKind::kind, emit_##kind, read_##kind },
constexpr RoundTrip kRoundTrips[] = { PCL_EVENT_KINDS(PCL_PROBE_ROW, PCL_FIELD_NONE) };
#undef PCL_PROBE_ROW

} // namespace

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

TEST_CASE("a tracepoint stores each field in the slot its declaration names", "[events][kinds]")
{
    STATIC_REQUIRE(std::size(kRoundTrips) == kEventKindCount);
    for (const RoundTrip& trip : kRoundTrips) {
        const EventFormat& format = event_format(trip.kind);
        for (const EventField& field : format) {
            INFO(format.name << "." << field.name);
            const Event e = trip.emit(field.slot);
            CHECK(e.kind == trip.kind);
            CHECK(e.time_ns == 7);
            CHECK(e.cpu == 3);
            for (EventSlot slot : kSlots)
                if (slot == field.slot)
                    CHECK(slot_value(e, slot) != 0);
                else
                    CHECK(slot_value(e, slot) == 0);
            trip.read(e, field.slot);
        }
    }
}

TEST_CASE("a kind's view reads the fields its declaration names", "[events][kinds]")
{
    const Event acquired
        = ev::LockAcquired::record(100, 2, { .lock = 0xabc0u, .lock_id = 7u, .class_id = 3u, .wait_ns = 1500u });
    CHECK(ev::LockAcquired { acquired }.lock() == 0xabc0);
    CHECK(ev::LockAcquired { acquired }.lock_id() == 7);
    CHECK(ev::LockAcquired { acquired }.class_id() == 3);
    CHECK(ev::LockAcquired { acquired }.wait_ns() == 1500);
    CHECK(ev::LockAcquired::kind == EventKind::LockAcquired);

    const Event wait
        = ev::LockWaitBegin::record(100, 2, { .lock = 0xabc0u, .lock_id = 7u, .class_id = 3u, .holder_cpu = -1 });
    CHECK(ev::LockWaitBegin { wait }.holder_cpu() == -1);

    const Event window = ev::ReadaheadWindow::record(200, 1,
        { .async = true, .file = FileId { 4 }, .start = pgoff_t { 64 }, .size = 32u, .async_size = 8u, .rule = 5 });
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
    const Event end = ev::FaultEnd::record(
        100, 2, { .vpn = 40u, .file = FileId { 3 }, .page = pgoff_t { 5 }, .duration_ns = 1200u, .fault_kind = 3 });
    CHECK(format_event(end) == "fault_end cpu=2 vpn=40 file=3 page=5 duration_ns=1200 fault_kind=3");
    const Event wait
        = ev::LockWaitBegin::record(100, 0, { .lock = 99u, .lock_id = 1u, .class_id = 2u, .holder_cpu = -1 });
    CHECK(format_event(wait) == "lock_wait_begin cpu=0 lock=99 lock_id=1 class_id=2 holder_cpu=-1");
}
