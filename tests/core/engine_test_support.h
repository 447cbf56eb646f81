// The small engine most engine tests start from: one pattern, a few CPUs,
// a radix tree under RCU, 16K frames and a fast disk, so that a test says
// only what it changes.
#pragma once

#include "sim/engine.h"

namespace pcl::test {

inline EngineConfig small_engine(
    const char* pattern, unsigned cpus, pgoff_t pages, std::uint64_t ops, const char* access = "read")
{
    EngineConfig c;
    c.workload.pattern = pattern;
    c.workload.access = access;
    c.workload.cpus = cpus;
    c.workload.file_pages = pages;
    c.workload.operations_per_cpu = ops;
    c.index.kind = "radix";
    c.index.scheme = "rcu";
    c.memory_pages = 1 << 14;
    c.device = { 2'000, 200, 1.0 };
    return c;
}

} // namespace pcl::test
