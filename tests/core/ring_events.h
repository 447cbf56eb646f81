// Test support: the records of one kind a ring holds, drained.
#pragma once

#include "sim/event.h"
#include "sim/event_ring.h"

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

} // namespace pcl::test
