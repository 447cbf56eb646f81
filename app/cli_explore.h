// `pagecache-lab-cli explore`: runs one scenario under many exploring
// schedules of a modelled machine (sched/schedule_strategy.h), checks the
// page cache after each (sim/run_audit.h), and stops at the first that
// breaks something, with the seed that replays it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `explore SCENARIO|PRESET [--schedules N] [--strategy random|pct]
/// [--depth D] [--seed S] [--replay SEED] [--ops N] [--set PATH=VALUE]...
/// [--format F]`. Exit code 0 every schedule held, 1 one broke an
/// invariant or failed (it is printed with its seed), 2 bad command line or
/// scenario, 130 stopped by Ctrl+C.
int run_explore_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
