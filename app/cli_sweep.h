// The commands of `pagecache-lab-cli` that run a scenario more than once:
// `sweep` runs a grid of parameter values (with repeats), tabulates each
// run's headline figures, summarises each cell by the median and spread of
// its repeats and draws the figure against the varied field; or writes the
// grid as one `run` command per run for a batch scheduler and merges their
// outputs afterwards (`--jobs`, `--collect`). `compare` runs two scenarios
// and divides B's figures by A's.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::cli {

/// `sweep SCENARIO|PRESET --vary FIELD=v1,v2,... [options]` and
/// `sweep --collect DIR`. Exit codes: 0 every run finished, 1 a run failed
/// or a cell's output is missing, 2 bad usage or bad input, 130 Ctrl+C.
int run_sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `compare A B [--set ...] [--out DIR]`. Exit codes as sweep's.
int run_compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
