// `pagecache-lab-cli bench machines`: how well the modelled machines
// predict. On this computer, modelled runs on its calibrated model beside
// the same runs on its threads; on the threads' machines, the runs their
// tables came from (Lameter's pft on the Altix, the 2002 readers on the
// 8-way Pentium III), beside those tables.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {

/// `[--part host-loop|pft|p3|all] [--repeats R] [--ops N] [--pft-faults N]
/// [--scales S,...] [--csv FILE]`. Returns a process exit code (0, 1 a run
/// failed or this computer is not calibrated, 2 bad arguments).
int run_machines_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::bench
