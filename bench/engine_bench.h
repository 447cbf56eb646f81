// `pagecache-lab-cli bench engine`: the simulation engine's own speed.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// `[--pages N] [--max-threads T] [--repeats R] [--csv FILE]`: unpaced minor
/// faults per second on one CPU, and the pft sweep of the pagefault
/// scalability thread (2005; 1..T threads, anonymous faults) with
/// mm->page_table_lock against split PTE locks, beside the figures posted in
/// it. Returns a process exit code (0, 1 failure, 2 bad arguments).
int run_engine_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::bench
