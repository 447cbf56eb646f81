// Tracepoints: how the code being simulated writes into the event stream.
//
// A thread that the engine runs (a simulated CPU, the block device) has a
// ring of its own (event_ring.h); code in every layer above this one (the
// locks of sync, the indexes, mm) calls the tracepoint of the event's kind
// (trace::lock_acquired({...}), generated below from events/event_kinds.h),
// which appends to the calling thread's ring, or does nothing (one
// thread-local load and a branch) on a thread that is not traced: unit
// tests, benchmarks, an engine run with events off. Like the kernel's
// tracepoints, they cost nearly nothing when off and never block when on.
// There is no other path into the stream: no hook per lock or per index.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"
#include "base/task_local.h"
#include "events/event.h"
#include "events/event_ring.h"

#include <cstdint>

namespace pcl::trace {

namespace detail {
inline thread_local EventRing* t_ring = nullptr;
inline thread_local int t_cpu = -1;     ///< fixed CPU number for the records, -1: the thread's current simulated CPU
inline thread_local bool t_all = false; ///< record uneventful operations too (ThreadTrace all)
inline thread_local bool t_deferred = false; ///< t_deferred_event waits to be recorded
inline thread_local Event t_deferred_event;
// A task of a modelled machine records into its own ring, as a thread does.
PCL_TASK_LOCAL(t_ring);
PCL_TASK_LOCAL(t_cpu);
PCL_TASK_LOCAL(t_all);
PCL_TASK_LOCAL(t_deferred);
PCL_TASK_LOCAL(t_deferred_event);
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

namespace detail {
/// Records @e, already stamped (time and CPU) by a tracepoint; a deferred
/// record goes first.
inline void push(const Event& e) noexcept
{
    if (EventRing* ring = t_ring) [[unlikely]] {
        if (t_deferred) {
            t_deferred = false;
            ring->push(t_deferred_event);
        }
        ring->push(e);
    }
}

} // namespace detail

/// A record of kind View stamped @time_ns and the calling thread's CPU.
template <class View> inline Event record(std::uint64_t time_ns, const typename View::Fields& f) noexcept
{
    return View::record(time_ns, cpu(), f);
}

/// The tracepoints, one per kind, generated from event_kinds.h as Linux
/// generates trace_<name>() from TRACE_EVENT: trace::page_lock_wait(t0,
/// {.page_id = ..., .file = ..., .page = ...}) records at @time_ns, which
/// must not be older than the thread's previous record (each ring is in time
/// order); trace::page_evicted({...}) records now. The fields are the kind's
/// declaration, named (ev::K::Fields, events/event.h). On a thread that is
/// not traced a tracepoint reads one thread-local and branches away.
#define PCL_TRACEPOINT(kind, name, summary, ...)                                                                       \
    inline void name(std::uint64_t time_ns, const ev::kind::Fields& f) noexcept                                        \
    {                                                                                                                  \
        if (detail::t_ring) [[unlikely]]                                                                               \
            detail::push(record<ev::kind>(time_ns, f));                                                                \
    }                                                                                                                  \
    inline void name(const ev::kind::Fields& f) noexcept                                                               \
    {                                                                                                                  \
        if (detail::t_ring) [[unlikely]]                                                                               \
            detail::push(record<ev::kind>(now_ns(), f));                                                               \
    }
PCL_EVENT_KINDS(PCL_TRACEPOINT, PCL_FIELD_NONE)
#undef PCL_TRACEPOINT

/// Holds a begin record (FaultBegin) back until the thread records anything
/// else, which flushes it first, so that an operation that waits on a lock,
/// a page or the disk shows as in progress. An operation that ends with
/// nothing in between calls end_deferred(), and only its end record is
/// kept, carrying the duration: half the records for the common case (a
/// minor fault) and the same spans for a reader of the stream.
template <class View> inline void defer(std::uint64_t time_ns, const typename View::Fields& f) noexcept
{
    if (detail::t_ring) [[unlikely]] {
        detail::t_deferred_event = record<View>(time_ns, f);
        detail::t_deferred = true;
    }
}

/// An operation shorter than this during which nothing else was recorded is
/// uneventful: at benchmark speed (ThreadTrace without `all`) it is counted
/// but not recorded.
inline constexpr std::uint64_t kNotableNs = 10'000;

/// Records the end of the operation begun with defer(), whose duration is
/// the end record's duration_ns field, dropping its begin record if that
/// was never flushed. Without `all`, an uneventful operation leaves no record.
template <class View> inline void end_deferred(std::uint64_t time_ns, const typename View::Fields& f) noexcept
{
    if (EventRing* ring = detail::t_ring) [[unlikely]] {
        const Event e = record<View>(time_ns, f);
        const bool uneventful = detail::t_deferred && View(e).duration_ns() < kNotableNs;
        detail::t_deferred = false;
        if (uneventful && !detail::t_all)
            return;
        ring->push(e);
    }
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
