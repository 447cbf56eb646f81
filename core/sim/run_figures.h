// A run's headline figures: the handful of numbers a sweep tabulates per
// run, a comparison divides B by A for, and a sweep's chart plots against
// the varied field; and the line of parameters a chart's caption gives.
// Each figure has a stable name (a CSV column, a --figure value)
// and a unit; the full result is in the result JSON.
#pragma once

#include "sim/run_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace pcl {

struct RunFigure {
    std::string name;    ///< "ops_per_s": the CSV column and the --figure value
    std::string unit;    ///< "ops/s", "pages", "" for a count or a ratio
    std::string meaning; ///< one line, for the help and the charts' axis
    double value = 0;
};

/// The headline figures of @r, always the same names in the same order
/// (run_figure_names()).
std::vector<RunFigure> run_figures(const RunResult& r);
/// Their names, in order: the same as run_figures(RunResult{}).
std::vector<std::string> run_figure_names();
/// The figure called @name of @figures, or nullptr.
const RunFigure* find_figure(const std::vector<RunFigure>& figures, std::string_view name);

/// The machine a run of @s is on, for a caption: "this computer's threads",
/// or "a modelled SGI Altix 3000 (Itanium 2, NUMAlink-3), 2005" (its
/// profile's title; its name if the profile cannot be read).
std::string machine_caption(const Scenario& s);
/// What a run of @s counts its time in: "running time", or "modelled time"
/// on a modelled machine (virtual, the same on every computer).
std::string time_caption(const Scenario& s);

/// @s's key parameters in one line, for a chart's caption: "hash index
/// (global), 4 CPUs, 1 GiB of memory, readahead none, unpaced", the CPUs
/// those of the modelled machine on one ("64 CPUs of a modelled SGI Altix
/// 3000 (Itanium 2, NUMAlink-3), 2005"); without the
/// parts whose fields (as --vary names them: "workload.cpus") are @varied.
std::string parameter_caption(const Scenario& s, const std::vector<std::string>& varied = {});

} // namespace pcl
