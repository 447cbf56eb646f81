// `run --repeat N` and `compare --repeat N`: the statistics of repeated
// runs, as `perf stat -r` and hyperfine give them. Each headline figure's
// mean, standard deviation, min, max and 95 % interval (lib/sample_stats.h);
// compare's B/A is the mean of each repeat's own ratio, its A and B run side
// by side, with that mean's interval, and says whether the interval holds 1.
#pragma once

#include "lib/report.h"
#include "sim/run_figures.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// Each repeat's headline figures (run_figures()), in repeat order.
using RepeatFigures = std::vector<std::vector<RunFigure>>;

/// Runs @scenario @repeats times, one after another, until Ctrl+C; prints
/// each figure's statistics on @out in @format (table, json or csv). Returns
/// the exit code: 0, 1 when a run failed, 130 when Ctrl+C stopped it (the
/// statistics of the runs that finished are printed).
int run_repeated(const Scenario& scenario, const std::string& name, unsigned repeats, const std::string& format,
    std::ostream& out, std::ostream& err);

/// One row per figure: figure, unit, runs, mean, sd, min, max, ci95_low,
/// ci95_high; rounded for the table, exact for json and csv (with the
/// provenance columns).
Report repeat_stats_table(const RepeatFigures& runs, const std::string& format);

/// compare --repeat: one row per figure, each side's mean and interval, and
/// B/A's mean, interval and whether it differs from 1.
Report repeat_ratio_table(const RepeatFigures& a, const RepeatFigures& b, const std::string& format);

} // namespace pcl::cli
