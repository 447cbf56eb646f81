// `pagecache-lab-cli bench seed003`: Peter Zijlstra's 2007 concurrent
// pagecache benchmark (seed 003) on one radix tree with 2 threads.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// Runs the benchmark with command-line style @args (after "bench seed003"):
/// `[--scale F] [--csv FILE]`. Prints the table to @out, problems to @err.
/// Returns a process exit code (0 ok, 2 bad arguments, 1 failure).
int run_seed003(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::bench
