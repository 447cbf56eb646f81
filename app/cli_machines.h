// `pagecache-lab-cli machines`: the modelled machines' profiles, listed,
// and one printed with every parameter's value, unit, basis and source
// (core/sched/machine_profile.h, docs/machines.md).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `machines [NAME] [--format table|json|csv]`. Exit code 0; 2 for bad
/// usage, an unknown name or a profile that does not read.
int run_machines_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
