// `pagecache-lab-cli sweep --collect DIR`: the tables and chart of a grid
// whose runs a batch scheduler ran from the job lines of `sweep --jobs
// FILE --out DIR`, read back from DIR/sweep.json and each run's
// DIR/cell-K/summary.json.
#pragma once

#include <iosfwd>
#include <string>

namespace pcl::cli {

/// Collects the grid in @dir; @figure, when not empty, replaces the grid's
/// own. Exit codes as sweep's: 0 every run finished, 1 a run is missing or
/// did not finish, 2 @dir holds no readable grid.
int collect_sweep(
    const std::string& dir, const std::string& figure, const std::string& format, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
