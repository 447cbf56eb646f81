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
#include "events/index_event.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace pcl {

enum class EventKind : std::uint8_t {
    // Lock records: object = the lock's address, index = its number in the
    // LockRegistry (LockStats::id; 0 for an anonymous lock), arg1 = its
    // class's number (LockClass::id). Which acquisitions are recorded:
    // sync/instrumented_lock.h.
    LockWaitBegin,  ///< a CPU started waiting for a lock; arg0 = simulated CPU of the holder (-1 unknown)
    LockAcquired,   ///< it got the lock; arg0 = wait time in ns (0 if uncontended)
    LockReleased,   ///< it released the lock; arg0 = hold time in ns
    FaultBegin,     ///< a page fault started; object = virtual page, file/index = faulting page, arg1 = 1 if anonymous.
                    ///< Recorded only if the fault records something else before its end (sim/trace.h defer_at):
                    ///< a FaultEnd with no FaultBegin before it spans [time_ns - arg0, time_ns].
    FaultEnd,       ///< the fault finished; object, file, index as FaultBegin; arg0 = duration in ns, arg1 = FaultKind.
                    ///< At benchmark speed an uneventful fault (nothing else recorded, under 10 us) has no record.
    PageLockWait,   ///< a CPU went to sleep on a page's lock; object = page identity, file/index = the page
    PageLockWoken,  ///< it woke up; arg0 = time slept in ns
    IoSubmit,       ///< a read was submitted; object = request id, file/index = first page, arg0 = number of pages
    IoComplete,     ///< that read completed (device lane); object, file, index, arg0 as IoSubmit
    IndexNodeAlloc, ///< IndexEvent::NodeAlloc; object = node, arg1 = level
    IndexNodeFree,  ///< IndexEvent::NodeFree
    IndexHeightGrow,   ///< IndexEvent::HeightGrow; arg0 = new height
    IndexHeightShrink, ///< IndexEvent::HeightShrink; arg0 = new height
    IndexTagSet,       ///< IndexEvent::TagSet; arg0 = tag, arg1 = level
    IndexTagClear,     ///< IndexEvent::TagClear; arg0 = tag, arg1 = level
    IndexChainLength,  ///< IndexEvent::ChainLength; object = bucket, arg0 = new length
    ReadaheadWindow,   ///< a readahead window opened; file, index = start, arg0 = size, arg1 = async size,
                       ///< object = 1 if asynchronous (the marker was hit), 0 if synchronous (a miss),
                       ///< detail = the RaRule (mm/readahead.h) that chose it
    PageEvicted,       ///< reclaim removed a page from the cache; file/index = the page, object = page identity,
                       ///< arg0 = 1 if it was a readahead page never used (wasted readahead), arg1 = 1 if it was mapped
    PageRefault,       ///< a page evicted recently was read in again; file/index = the page,
    ///< arg0 = refault distance (evictions since it went), arg1 = 1 if that was within the active list
};

inline constexpr std::size_t kEventKindCount = static_cast<std::size_t>(EventKind::PageRefault) + 1;

constexpr std::string_view to_string(EventKind kind) noexcept
{
    switch (kind) {
    case EventKind::LockWaitBegin:
        return "lock_wait_begin";
    case EventKind::LockAcquired:
        return "lock_acquired";
    case EventKind::LockReleased:
        return "lock_released";
    case EventKind::FaultBegin:
        return "fault_begin";
    case EventKind::FaultEnd:
        return "fault_end";
    case EventKind::PageLockWait:
        return "page_lock_wait";
    case EventKind::PageLockWoken:
        return "page_lock_woken";
    case EventKind::IoSubmit:
        return "io_submit";
    case EventKind::IoComplete:
        return "io_complete";
    case EventKind::IndexNodeAlloc:
        return "index_node_alloc";
    case EventKind::IndexNodeFree:
        return "index_node_free";
    case EventKind::IndexHeightGrow:
        return "index_height_grow";
    case EventKind::IndexHeightShrink:
        return "index_height_shrink";
    case EventKind::IndexTagSet:
        return "index_tag_set";
    case EventKind::IndexTagClear:
        return "index_tag_clear";
    case EventKind::IndexChainLength:
        return "index_chain_length";
    case EventKind::ReadaheadWindow:
        return "readahead_window";
    case EventKind::PageEvicted:
        return "page_evicted";
    case EventKind::PageRefault:
        return "page_refault";
    }
    return "unknown";
}

/// The record. Field meanings per kind are documented on EventKind; unused
/// fields stay zero. The layout has no implicit padding so that a record's
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

/// A record stamped @time_ns.
constexpr Event make_event_at(std::uint64_t time_ns, EventKind kind, std::uint16_t cpu, std::uint64_t object = 0,
    FileId file = 0, pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    Event e;
    e.time_ns = time_ns;
    e.kind = kind;
    e.cpu = cpu;
    e.object = object;
    e.file = file;
    e.index = index;
    e.arg0 = arg0;
    e.arg1 = arg1;
    return e;
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
