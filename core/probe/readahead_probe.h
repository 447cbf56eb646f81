// `pagecache-lab-cli probe readahead`: the running Linux kernel's real
// readahead, measured from outside.
//
// The file is evicted and read one page at a time; after each read the
// pages that arrived besides the one read are the kernel's readahead
// window(s) (the system calls are probe/residency_probe.h's, the inference
// probe/host_windows.h's), printed and exported in the simulator's
// readahead format so the two can be compared side by side, and with
// --compare replayed under each of the simulator's policies
// (probe/readahead_replay.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {

/// The command. Returns 0 measured, 1 cannot measure (the message names the
/// reason) or failure, 2 bad command line.
int run_probe_readahead(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Its options, for the CLI's --help.
std::string probe_readahead_usage();

} // namespace pcl
