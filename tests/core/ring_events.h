// Test support: the records a ring holds, drained: those of one kind, or an
// index's structural events decoded back into IndexEvents.
#pragma once

#include "events/event.h"
#include "events/event_ring.h"
#include "events/tracepoint.h"

#include <cstddef>
#include <vector>

namespace pcl::test {

/// Drains @ring and keeps the records of @kind, in order.
inline std::vector<Event> drain(EventRing& ring, EventKind kind)
{
    std::vector<Event> all, out;
    ring.drain(all);
    for (const Event& e : all)
        if (e.kind == kind)
            out.push_back(e);
    return out;
}

/// Traces the calling thread, as CPU 0, into a ring of its own for the
/// recorder's life; take() hands back the records of one kind.
class EventRecorder {
public:
    explicit EventRecorder(std::size_t capacity = 1024)
        : ring_(capacity)
        , trace_(&ring_, 0)
    {
    }

    /// The records of @kind recorded since the last call, in order (the
    /// others are drained with them).
    std::vector<Event> take(EventKind kind) { return drain(ring_, kind); }

private:
    EventRing ring_;
    trace::ThreadTrace trace_;
};

/// Traces the calling thread for its life and hands back the structural
/// events the indexes it works on recorded (trace::index_event), in order.
class IndexEventRecorder {
public:
    explicit IndexEventRecorder(std::size_t capacity = std::size_t(1) << 16)
        : ring_(capacity)
        , trace_(&ring_)
    {
    }

    /// The index events recorded since the last call. A ring that dropped
    /// records would lose events: the caller's capacity is too small.
    std::vector<IndexEvent> take()
    {
        std::vector<Event> all;
        ring_.drain(all);
        std::vector<IndexEvent> out;
        for (const Event& e : all)
            if (is_index_event(e.kind))
                out.push_back(to_index_event(e));
        return out;
    }
    std::uint64_t dropped() const noexcept { return ring_.dropped(); }

private:
    EventRing ring_;
    trace::ThreadTrace trace_;
};

} // namespace pcl::test
