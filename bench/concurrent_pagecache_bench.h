// `pagecache-lab-cli bench concurrent-pagecache`: Peter Zijlstra's benchmark
// from the concurrent pagecache thread (2007) on one radix tree with 2 threads.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// Runs the benchmark with command-line style @args (after "bench
/// concurrent-pagecache"): `[--scale F] [--shift S] [--csv FILE]`. Prints the
/// tables to @out, problems to @err. Returns a process exit code (0 ok, 2 bad
/// arguments, 1 failure).
int run_concurrent_pagecache_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::bench
