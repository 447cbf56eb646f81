// Tracepoints: how the code being simulated writes into the event stream.
//
// A thread that the engine runs (a simulated CPU, the block device) has a
// ring of its own (event_ring.h); code in every layer above this one (the
// locks of sync, the indexes, mm) calls trace::emit() or one of the helpers
// below, which append to the calling thread's ring, or do nothing (one
// thread-local load and a branch) on a thread that is not traced: unit
// tests, benchmarks, an engine run with events off. Like the kernel's
// tracepoints, they cost nearly nothing when off and never block when on.
// There is no other path into the stream: no hook per lock or per index.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"
#include "events/event.h"
#include "events/event_ring.h"
#include "events/index_event.h"

#include <cstdint>

namespace pcl::trace {

namespace detail {
inline thread_local EventRing* t_ring = nullptr;
inline thread_local int t_cpu = -1;     ///< fixed CPU number for the records, -1: the thread's current simulated CPU
inline thread_local bool t_all = false; ///< record uneventful operations too (ThreadTrace all)
inline thread_local bool t_deferred = false; ///< t_deferred_event waits to be recorded
inline thread_local Event t_deferred_event;
} // namespace detail

/// Whether the calling thread records events.
inline bool enabled() noexcept
{
    return detail::t_ring != nullptr;
}

/// Whether the calling thread records everything (ThreadTrace's @all), not
/// only what is notable.
inline bool all() noexcept
{
    return detail::t_all;
}

/// The CPU number the calling thread's records carry.
inline std::uint16_t cpu() noexcept
{
    return static_cast<std::uint16_t>(detail::t_cpu >= 0 ? detail::t_cpu : current_cpu());
}

/// Records @e, already stamped (time and CPU) by the caller; a deferred
/// record goes first.
inline void push(const Event& e) noexcept
{
    if (EventRing* ring = detail::t_ring) [[unlikely]] {
        if (detail::t_deferred) {
            detail::t_deferred = false;
            ring->push(detail::t_deferred_event);
        }
        ring->push(e);
    }
}

/// A record of the calling thread stamped @time_ns.
inline Event make_event_at(std::uint64_t time_ns, EventKind kind, std::uint64_t object, FileId file, pgoff_t index,
    std::int64_t arg0, std::int32_t arg1) noexcept
{
    return pcl::make_event_at(time_ns, kind, cpu(), object, file, index, arg0, arg1);
}

/// Records an event stamped @time_ns, which must not be older than the
/// thread's previous record (each ring is in time order).
inline void emit_at(std::uint64_t time_ns, EventKind kind, std::uint64_t object = 0, FileId file = 0, pgoff_t index = 0,
    std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    if (detail::t_ring) [[unlikely]]
        push(make_event_at(time_ns, kind, object, file, index, arg0, arg1));
}

/// Holds a begin record (FaultBegin) back until the thread records anything
/// else, which flushes it first, so that an operation that waits on a lock,
/// a page or the disk shows as in progress. An operation that ends with
/// nothing in between calls end_deferred(), and only its end record is
/// kept, carrying the duration: half the records for the common case (a
/// minor fault) and the same spans for a reader of the stream.
inline void defer_at(std::uint64_t time_ns, EventKind kind, std::uint64_t object = 0, FileId file = 0,
    pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0) noexcept
{
    if (detail::t_ring) [[unlikely]] {
        detail::t_deferred_event = make_event_at(time_ns, kind, object, file, index, arg0, arg1);
        detail::t_deferred = true;
    }
}

/// An operation shorter than this during which nothing else was recorded is
/// uneventful: at benchmark speed (ThreadTrace without `all`) it is counted
/// but not recorded.
inline constexpr std::uint64_t kNotableNs = 10'000;

/// Records the end of the operation begun with defer_at(), which took
/// @duration_ns (the record's arg0), dropping its begin record if that was
/// never flushed. Without `all`, an uneventful operation leaves no record.
inline void end_deferred_at(std::uint64_t time_ns, std::uint64_t duration_ns, EventKind kind, std::uint64_t object = 0,
    FileId file = 0, pgoff_t index = 0, std::int32_t arg1 = 0) noexcept
{
    if (EventRing* ring = detail::t_ring) [[unlikely]] {
        const bool uneventful = detail::t_deferred && duration_ns < kNotableNs;
        detail::t_deferred = false;
        if (uneventful && !detail::t_all)
            return;
        ring->push(make_event_at(time_ns, kind, object, file, index, static_cast<std::int64_t>(duration_ns), arg1));
    }
}

/// Records an event stamped now.
inline void emit(EventKind kind, std::uint64_t object = 0, FileId file = 0, pgoff_t index = 0, std::int64_t arg0 = 0,
    std::int32_t arg1 = 0) noexcept
{
    if (detail::t_ring) [[unlikely]]
        emit_at(now_ns(), kind, object, file, index, arg0, arg1);
}

/// Records an index's structural change (node allocated or freed, height
/// changed, tag propagated, chain length changed). Indexes call it from
/// inside their operations, possibly under their locks: it only appends.
inline void index_event(const IndexEvent& ie) noexcept
{
    if (detail::t_ring) [[unlikely]]
        push(to_event(ie, cpu(), now_ns()));
}

/// Records a lock's tracepoint: @kind is LockWaitBegin, LockAcquired or
/// LockReleased; @lock is the lock's address (its identity while it lives,
/// as in snapshots), @lock_id its number in the registry (0 for an anonymous
/// lock such as a radix node's), @class_id its class's number. Which
/// acquisitions are recorded: sync/instrumented_lock.h.
inline void lock_event(
    EventKind kind, const void* lock, std::uint32_t lock_id, std::uint32_t class_id, std::int64_t value) noexcept
{
    if (detail::t_ring) [[unlikely]]
        emit_at(now_ns(), kind, reinterpret_cast<std::uintptr_t>(lock), 0, lock_id, value,
            static_cast<std::int32_t>(class_id));
}

/// Routes the calling thread's events, its locks' events included, into
/// @ring for the life of the scope (nullptr: the thread is not traced). With
/// @cpu >= 0 the records carry that number (the block device's lane) instead
/// of the thread's simulated CPU.
///
/// @all records everything: every lock acquisition and every fault. Without
/// it (benchmark speed) the stream keeps what is notable: contended locks
/// and the holds that made others wait, faults that waited or recorded
/// anything or took 10 us or more, and every I/O, page-lock sleep, index
/// change and readahead window. A minor fault then costs no record, which
/// keeps the cost of watching an unpaced run low; the counters are exact
/// either way.
/// Changes what the calling thread records (ThreadTrace's @all) from now on.
void set_all(bool all) noexcept;

class ThreadTrace {
public:
    ThreadTrace(EventRing* ring, int cpu = -1, bool all = false) noexcept;
    ~ThreadTrace();
    ThreadTrace(const ThreadTrace&) = delete;
    ThreadTrace& operator=(const ThreadTrace&) = delete;
};

} // namespace pcl::trace
