// What `pagecache-lab-cli sweep` reports of a grid's runs, whether it ran
// them itself or collected them from a batch scheduler's jobs: the table
// on the terminal (each cell's figure, its spread and range), runs.csv (one
// row per run), summary.csv (one row per cell: each figure's median and
// spread over the cell's finished repeats) and the chart of the figure
// against the first varied field; and which runs did not finish.
#pragma once

#include "cli_sweep_plan.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// Prints the tables of a finished grid in @format and says on @err which
/// runs did not finish; with @out_dir, writes runs.csv, summary.csv and the
/// chart (captioned @caption) into it. Returns 0, or 1 when a run failed
/// or a file could not be written.
int report_sweep(const SweepPlan& plan, const std::vector<SweepRun>& runs, const std::string& out_dir,
    const std::string& caption, const std::string& format, std::ostream& out, std::ostream& err);

/// Says @message and where the options are described; returns 2.
int sweep_usage_error(std::ostream& err, const std::string& message);

} // namespace pcl::cli
