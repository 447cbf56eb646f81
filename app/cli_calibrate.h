// `pagecache-lab-cli calibrate`: measures the machine the programs run on
// and writes its profile, "host" (core/probe/host_profile.h,
// docs/machines.md), so that a modelled run can stand for this machine.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `calibrate [--out FILE] [--quick] [--format table|json|csv]`. Exit code
/// 0 measured and written; 1 could not measure or write (the message says
/// why); 2 bad command line.
int run_calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
