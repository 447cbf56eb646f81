// What the run loop's tests share: a small sequential run at a given pace,
// and the operations its samples add up to.
#pragma once

#include "engine_test_support.h"
#include "sim/run_loop.h"

#include <cstdint>
#include <numeric>

namespace pcl::test {

/// @cpus CPUs reading one 256-page file in order, @ops operations each, at
/// @ops_per_second (0: as fast as they go), sampled every 10 ms.
inline Scenario run_loop_scenario(unsigned cpus, std::uint64_t ops, double ops_per_second = 0)
{
    Scenario s;
    s.engine = small_engine("sequential", cpus, 256, ops);
    s.engine.ops_per_second = ops_per_second;
    s.sample_interval_ms = 10;
    return s;
}

inline std::uint64_t sampled_operations(const RunLoop& loop)
{
    return std::accumulate(loop.samples().begin(), loop.samples().end(), std::uint64_t(0),
        [](std::uint64_t n, const MetricsSample& s) { return n + s.operations; });
}

} // namespace pcl::test
