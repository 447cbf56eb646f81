// `pagecache-lab-cli sweep --collect DIR`: the tables and chart of a grid
// whose runs a batch scheduler ran from the job lines of `sweep --jobs
// FILE --out DIR`, read back from DIR/sweep.json and each run's
// DIR/cell-C/repeat-R/summary.json (which `sweep --resume DIR` reads too).
#pragma once

#include "cli_sweep_plan.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace pcl::cli {

/// The grid @dir/sweep.json describes, or nothing once @err has been told
/// (as a usage error of @option, "--collect") why it cannot be read.
std::optional<SweepPlan> read_grid(const std::string& dir, const std::string& option, std::ostream& err);

/// Run @k of @plan as it was left in @dir/cell-C/repeat-R/summary.json (run_dir); "missing"
/// when there is none, or it is no result of 'run --out'. Sets @caption
/// from the run's scenario while it is empty.
SweepRun read_cell(const SweepPlan& plan, std::size_t k, const std::string& dir, std::string& caption);

/// Collects the grid in @dir; @figure, when not empty, replaces the grid's
/// own. Exit codes as sweep's: 0 every run finished, 1 a run is missing or
/// did not finish, 2 @dir holds no readable grid.
int collect_sweep(
    const std::string& dir, const std::string& figure, const std::string& format, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
