// One record of the engine's event stream: what happened, when, on which
// simulated CPU, to which lock, page or index node.
//
// Records are small, fixed-size and trivially copyable so a worker can append
// one to its CPU's ring (event_ring.h) in a few stores without allocating or
// blocking. The stream is for watching and tracing a run; exact totals live
// in the counters, which never depend on whether an event was dropped.
#pragma once

#include "base/clock.h"
#include "base/page.h"
#include "events/event_kinds.h"
#include "events/index_event.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace pcl {

/// The record. What each slot holds for each kind is declared in
/// event_kinds.h and read through the kind's view (ev::FaultEnd(e).duration_ns());
/// unused slots stay zero. The layout has no implicit padding so that a record's
/// bytes are fully determined by its fields (the ring copies it word by word).
struct Event {
    std::uint64_t time_ns = 0; ///< now_ns() when it happened
    std::uint64_t object = 0;  ///< lock id, page or node identity, I/O request id
    pgoff_t index = 0;         ///< page index the event is about
    std::int64_t arg0 = 0;     ///< kind-specific: a duration, a count, a height, a tag
    std::int32_t arg1 = 0;     ///< kind-specific: a level, a sub-kind
    FileId file = 0;           ///< file the event is about
    std::uint16_t cpu = 0;     ///< simulated CPU that recorded it
    EventKind kind = EventKind::LockWaitBegin;
    std::uint8_t detail = 0; ///< kind-specific small value: ReadaheadWindow: the RaRule that chose it; else 0

    friend bool operator==(const Event&, const Event&) = default;
};

static_assert(std::is_trivially_copyable_v<Event>);
static_assert(sizeof(Event) == 48, "Event must stay six words: the ring copies it as such");
static_assert(sizeof(Event) % sizeof(std::uint64_t) == 0);

/// Typed views of a record, one per kind, generated from event_kinds.h: the
/// view of kind K reads K's fields by name (ev::LockAcquired(e).wait_ns()).
/// A view is only meaningful on a record of its kind (e.kind == View::kind).
namespace ev {
#define PCL_FIELD_GETTER(slot, name, type, unit, meaning)                                                              \
    constexpr type name() const noexcept                                                                               \
    {                                                                                                                  \
        return static_cast<type>(e.slot);                                                                              \
    }
#define PCL_EVENT_VIEW(kind_, name, summary, ...)                                                                      \
    struct kind_ {                                                                                                     \
        static constexpr EventKind kind = EventKind::kind_;                                                            \
        const Event& e;                                                                                                \
        __VA_ARGS__                                                                                                    \
    };
PCL_EVENT_KINDS(PCL_EVENT_VIEW, PCL_FIELD_GETTER)
#undef PCL_EVENT_VIEW
#undef PCL_FIELD_GETTER
} // namespace ev

/// A record stamped @time_ns.
constexpr Event make_event_at(std::uint64_t time_ns, EventKind kind, std::uint16_t cpu, std::uint64_t object = 0,
    FileId file = 0, pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    return Event { .time_ns = time_ns,
        .object = object,
        .index = index,
        .arg0 = arg0,
        .arg1 = arg1,
        .file = file,
        .cpu = cpu,
        .kind = kind };
}

/// A record stamped now. Workers call this right before pushing, so each
/// ring's records are in time order (the stream's merge relies on it).
inline Event make_event(EventKind kind, std::uint16_t cpu, std::uint64_t object = 0, FileId file = 0, pgoff_t index = 0,
    std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    return make_event_at(now_ns(), kind, cpu, object, file, index, arg0, arg1);
}

constexpr EventKind event_kind(IndexEvent::Kind kind) noexcept
{
    switch (kind) {
    case IndexEvent::Kind::NodeAlloc:
        return EventKind::IndexNodeAlloc;
    case IndexEvent::Kind::NodeFree:
        return EventKind::IndexNodeFree;
    case IndexEvent::Kind::HeightGrow:
        return EventKind::IndexHeightGrow;
    case IndexEvent::Kind::HeightShrink:
        return EventKind::IndexHeightShrink;
    case IndexEvent::Kind::TagSet:
        return EventKind::IndexTagSet;
    case IndexEvent::Kind::TagClear:
        return EventKind::IndexTagClear;
    case IndexEvent::Kind::ChainLength:
        return EventKind::IndexChainLength;
    }
    return EventKind::IndexNodeAlloc;
}

constexpr bool is_index_event(EventKind kind) noexcept
{
    return kind >= EventKind::IndexNodeAlloc && kind <= EventKind::IndexChainLength;
}

/// An index's structural event as a stream record. Tag events carry the tag
/// in arg0 (they have no value); the others carry the value there, so the
/// conversion loses nothing an index reports.
constexpr Event to_event(const IndexEvent& ie, std::uint16_t cpu, std::uint64_t time_ns) noexcept
{
    Event e;
    e.time_ns = time_ns;
    e.kind = event_kind(ie.kind);
    e.cpu = cpu;
    e.object = ie.node;
    e.file = ie.file;
    e.index = ie.index;
    const bool tag_event = ie.kind == IndexEvent::Kind::TagSet || ie.kind == IndexEvent::Kind::TagClear;
    e.arg0 = tag_event ? ie.tag : ie.value;
    e.arg1 = ie.level;
    return e;
}

/// The reverse of to_event, for views that animate index changes from the
/// stream. @e must satisfy is_index_event(e.kind).
constexpr IndexEvent to_index_event(const Event& e) noexcept
{
    IndexEvent ie { IndexEvent::Kind::NodeAlloc };
    switch (e.kind) {
    case EventKind::IndexNodeFree:
        ie.kind = IndexEvent::Kind::NodeFree;
        break;
    case EventKind::IndexHeightGrow:
        ie.kind = IndexEvent::Kind::HeightGrow;
        break;
    case EventKind::IndexHeightShrink:
        ie.kind = IndexEvent::Kind::HeightShrink;
        break;
    case EventKind::IndexTagSet:
        ie.kind = IndexEvent::Kind::TagSet;
        break;
    case EventKind::IndexTagClear:
        ie.kind = IndexEvent::Kind::TagClear;
        break;
    case EventKind::IndexChainLength:
        ie.kind = IndexEvent::Kind::ChainLength;
        break;
    default:
        break;
    }
    ie.file = e.file;
    ie.index = e.index;
    ie.level = e.arg1;
    ie.node = e.object;
    if (ie.kind == IndexEvent::Kind::TagSet || ie.kind == IndexEvent::Kind::TagClear)
        ie.tag = static_cast<int>(e.arg0);
    else
        ie.value = e.arg0;
    return ie;
}

} // namespace pcl
