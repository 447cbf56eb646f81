// `pagecache-lab-cli compare`: runs two scenarios (or presets), one after
// the other so that neither disturbs the other's timings, and divides B's
// headline figures by A's; with --out, writes both runs' results and every
// series of both overlaid on one chart each.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `compare A B [--set ...] [--out DIR]`. Exit codes: 0 both runs
/// finished, 1 a run failed, 2 bad usage or bad input, 130 Ctrl+C.
int run_compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
