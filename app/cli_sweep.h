// `pagecache-lab-cli sweep`, which runs a scenario many times: a grid of
// parameter values (with repeats), each run's headline figures tabulated,
// each cell summarised by the median and spread of its repeats and the
// figure drawn against the varied field; or the grid written as one `run`
// command per run for a batch scheduler, their outputs merged afterwards (`--jobs`, `--collect`). The grid and its
// sweep.json are cli_sweep_plan.h's, the tables and chart cli_sweep_report.h's,
// --collect cli_sweep_collect.h's.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `sweep SCENARIO|PRESET --vary FIELD=v1,v2,... [options]` and
/// `sweep --collect DIR`. Exit codes: 0 every run finished, 1 a run failed
/// or a cell's output is missing, 2 bad usage or bad input, 130 Ctrl+C.
int run_sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
