// `pagecache-lab-cli bench indexes`: every page index x locking scheme, and
// the peer libraries of peers.h, on the same page sets and operation orders.
//
// Operations (each a CSV `op`): insert, lookup_hit, lookup_miss, erase, and
// gang_lookup (a walk over the whole index in gang lookups of 16, timed per
// page returned). Layouts: dense (indexes 0..N-1) and sparse (about one page
// in every 64 indexes). Concurrent lookup_hit runs at 1..T threads for every
// index x scheme and every concurrent peer. docs/benchmarks.md describes the
// method and the measured figures.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// Runs the benchmark with command-line style @args (the words after
/// "bench indexes"): `[--pages N] [--threads T] [--csv FILE] [--repeats R]
/// [--seed S] [--only LIST] [--quiet]`. Prints the tables and notes to @out,
/// progress and problems to @err. Returns a process exit code: 0 ok, 2 bad
/// arguments, 1 failure (an index returned a wrong result, the CSV could not
/// be written).
int run_index_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// The option lines of `bench indexes`, as its --help prints them.
std::string index_bench_usage();

} // namespace pcl::bench
