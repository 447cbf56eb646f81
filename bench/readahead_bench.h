// `pagecache-lab-cli bench readahead`: Morton's readahead-thrashing test from
// the multipage I/O and readahead thread (2002) swept over N, with Linux's
// ondemand readahead, Morton's 2002 shrink-on-thrash policy and no readahead
// side by side, and the speed of trace replay.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// `[--files LIST] [--file-pages P] [--memory-pages M] [--stream-pages S]
/// [--ra-pages R] [--policies LIST] [--request-ns N] [--page-ns N]
/// [--replays K] [--csv FILE]`. Returns a process exit code (0, 1 failure,
/// 2 bad arguments).
int run_readahead_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::bench
