// Test support: the records a ring holds, drained: those of one kind, or an
// index's structural events decoded into IndexEvents, one shape for all seven
// kinds, which the index tests compare against their oracles.
#pragma once

#include "events/event.h"
#include "events/event_ring.h"
#include "events/tracepoint.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pcl::test {

/// An index's structural change, decoded from its record (the Index* kinds
/// of events/event_kinds.h).
struct IndexEvent {
    enum class Kind : std::uint8_t {
        NodeAlloc,    ///< a node was allocated and linked (radix node, skip-list node)
        NodeFree,     ///< a node was unlinked (its memory is freed after a grace period)
        HeightGrow,   ///< the tree gained a level; value = new height
        HeightShrink, ///< the tree lost a level; value = new height
        TagSet,       ///< a tag bit was set in a node; tag says which, level where
        TagClear,     ///< a tag bit was cleared in a node
        ChainLength,  ///< a hash chain changed length; value = new length, node = bucket
    };
    Kind kind;
    FileId file = 0;        ///< the file whose index changed
    pgoff_t index = 0;      ///< the page index the operation was about
    int level = 0;          ///< tree level of the node (0 = leaves); tower height for a skip-list node
    int tag = -1;           ///< tag number for TagSet/TagClear
    std::int64_t value = 0; ///< new height or chain length
    std::uint64_t node = 0; ///< identity of the node or bucket (stable while it lives)
};

/// Decodes @e, which must satisfy is_index_event(e.kind), through its kind's view.
inline IndexEvent to_index_event(const Event& e)
{
    switch (e.kind) {
    case EventKind::IndexNodeAlloc:
    case EventKind::IndexNodeFree: {
        const ev::IndexNodeAlloc v { e }; // the two kinds declare the same fields
        return { e.kind == EventKind::IndexNodeAlloc ? IndexEvent::Kind::NodeAlloc : IndexEvent::Kind::NodeFree,
            v.file(), v.page(), v.level(), -1, 0, v.node() };
    }
    case EventKind::IndexHeightGrow:
    case EventKind::IndexHeightShrink: {
        const ev::IndexHeightGrow v { e };
        return { e.kind == EventKind::IndexHeightGrow ? IndexEvent::Kind::HeightGrow : IndexEvent::Kind::HeightShrink,
            v.file(), v.page(), v.level(), -1, v.height(), v.node() };
    }
    case EventKind::IndexTagSet:
    case EventKind::IndexTagClear: {
        const ev::IndexTagSet v { e };
        return { e.kind == EventKind::IndexTagSet ? IndexEvent::Kind::TagSet : IndexEvent::Kind::TagClear, v.file(),
            v.page(), v.level(), v.tag(), 0, v.node() };
    }
    default: {
        const ev::IndexChainLength v { e };
        return { IndexEvent::Kind::ChainLength, v.file(), v.page(), 0, -1, std::int64_t(v.length()), v.bucket() };
    }
    }
}

/// Drains @ring: its records, in order.
inline std::vector<Event> drain(EventRing& ring)
{
    std::vector<Event> out;
    ring.drain(out);
    return out;
}

/// Drains @ring and keeps the records of @kind, in order.
inline std::vector<Event> drain(EventRing& ring, EventKind kind)
{
    std::vector<Event> out;
    for (const Event& e : drain(ring))
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
/// events the indexes it works on recorded (trace::index_node_alloc and the
/// other Index* tracepoints), in order.
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

/// An index built twice by the same function, and the index events each
/// build recorded.
template <class Index> struct BuiltTwice {
    Index one, two;
    std::vector<IndexEvent> first, second;
    std::uint64_t dropped = 0; ///< records the recorder lost (none, or the events are incomplete)
};

/// Builds an index twice with @build (which returns it), recording each
/// build's index events. The second is built while the first lives, after
/// a block allocated in between moved the heap on: its objects lie at other
/// addresses, and a record naming one by its address would differ.
template <class Build> auto build_twice(Build build)
{
    IndexEventRecorder recorder;
    BuiltTwice<decltype(build())> r;
    r.one = build();
    r.first = recorder.take();
    const auto moved = std::make_unique<char[]>(std::size_t(1) << 16);
    r.two = build();
    r.second = recorder.take();
    r.dropped = recorder.dropped();
    return r;
}

} // namespace pcl::test
