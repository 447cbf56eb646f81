// The small engine most engine tests start from (one pattern, a few CPUs,
// a radix tree under RCU, 16K frames and a fast disk, so that a test says
// only what it changes), and a run of an engine to its end.
#pragma once

#include "sim/engine.h"
#include "sync/lock_stats.h"

namespace pcl::test {

inline EngineConfig small_engine(
    std::string_view pattern, unsigned cpus, pgoff_t pages, std::uint64_t ops, std::string_view access = "read")
{
    EngineConfig c;
    c.workload.pattern = parse_workload_pattern(pattern).value();
    c.workload.access = parse_workload_access(access).value();
    c.workload.cpus = cpus;
    c.workload.file_pages = pages;
    c.workload.operations_per_cpu = ops;
    c.index.kind = IndexKind::Radix;
    c.index.scheme = "rcu";
    c.memory_pages = 1 << 14;
    c.device = { 2'000, 200, 1.0 };
    return c;
}

/// An engine run to its end, with the registry its locks count into
/// (declared first, so that it outlives them).
struct EngineRun {
    sync::LockRegistry registry;
    Engine engine;

    explicit EngineRun(const EngineConfig& config)
        : engine(config, registry)
    {
        engine.start();
        engine.wait();
    }
};

} // namespace pcl::test
