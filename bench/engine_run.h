// One engine run from start to end on the calling thread, timed: what every
// benchmark of a whole run (pft, the sharing question, writeback, Morton's
// streams, a trace replay) measures, set up once.
#pragma once

#include "base/clock.h"
#include "sim/engine.h"
#include "sync/lock_stats.h"

#include <algorithm>
#include <cstdint>
#include <ctime>

namespace pcl::bench {

/// CPU time of the whole process (every CPU thread of the engine), in ns.
inline std::uint64_t process_cpu_ns()
{
    timespec ts {};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return std::uint64_t(ts.tv_sec) * 1'000'000'000ull + std::uint64_t(ts.tv_nsec);
}

/// Builds an engine for @config with a lock registry of its own, runs it to
/// its end and keeps both for the caller to read. The times are at least
/// 1 ns, so a rate divides by them safely.
struct EngineRun {
    sync::LockRegistry registry;
    Engine engine;
    std::uint64_t wall_ns = 1;
    std::uint64_t cpu_ns = 1;

    explicit EngineRun(const EngineConfig& config)
        : engine(config, registry)
    {
        const std::uint64_t cpu0 = process_cpu_ns();
        const std::uint64_t t0 = now_ns();
        engine.start();
        engine.wait();
        wall_ns = std::max<std::uint64_t>(now_ns() - t0, 1);
        cpu_ns = std::max<std::uint64_t>(process_cpu_ns() - cpu0, 1);
    }

    bool finished() const { return engine.state() == Engine::State::Finished; }
};

} // namespace pcl::bench
