// `pagecache-lab-cli bench locks`: what lockstat-style instrumentation costs.
//
// For spin, ticket, mutex, rwlock (write and read side) and seqlock (write
// and read side): ns per lock+unlock of the bare algorithm (raw_locks.h) and
// of the instrumented type (a named lock, as mapping.tree_lock is, and an
// anonymous class-only lock, as the per-node locks are), side by side in one
// run, uncontended (1 thread) and under contention (T threads on one lock).
// docs/benchmarks.md describes the method and the measured figures.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// Runs the benchmark with command-line style @args (the words after
/// "bench locks"): `[--threads T] [--iters N] [--csv FILE] [--repeats R]
/// [--quiet]`. Prints the table to @out, progress and problems to @err.
/// Returns a process exit code: 0 ok, 2 bad arguments, 1 failure (a lock
/// let two holders in, the CSV could not be written).
int run_lock_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The option lines of `bench locks`, as its --help prints them.
std::string lock_bench_usage();

} // namespace pcl::bench
