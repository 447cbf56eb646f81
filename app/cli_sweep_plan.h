// The grid of `pagecache-lab-cli sweep`: the fields it varies and their
// values, the repeats, and each run's place in it (cell, repeat); what a run
// of the grid gave; and sweep.json, the grid as written into the output
// directory so that `sweep --collect` can rebuild the tables from the
// cells' directories that a batch scheduler's jobs ran into.
#pragma once

#include "lib/json.h"
#include "lib/provenance.h"
#include "sim/run_end.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace pcl::cli {

/// A field the sweep varies and the values it takes.
struct SweepAxis {
    std::string field;
    std::vector<std::string> values;
};

/// The grid: what sweep.json records so that --collect can rebuild the
/// tables from the cells' directories.
struct SweepPlan {
    std::string scenario; ///< the operand: a preset's name or a file (absolute)
    std::string name;     ///< for file names: the preset's name or the file's stem
    std::vector<std::string> sets;
    std::vector<SweepAxis> axes;
    unsigned repeat = 1;
    std::string figure = "ops_per_s";

    /// sweep.json's version: 2 names a run's directory by its cell and
    /// repeat, 1 (earlier grids, still collected) by its run number.
    int version = 2;

    std::size_t cells() const;
    std::size_t runs() const { return cells() * repeat; }
    /// Run @k's directory under the output directory: "cell-3/repeat-1"
    /// (the cell and repeat of runs.csv), "cell-K" in a version 1 grid.
    std::string run_dir(std::size_t k) const;
    /// The fields the grid varies, as --vary names them.
    std::vector<std::string> varied_fields() const;
    /// The value index of each axis in @cell; the last axis changes fastest.
    std::vector<std::size_t> coordinates(std::size_t cell) const;
    /// "FIELD=VALUE" of each axis in @cell, as --set takes them.
    std::vector<std::string> assignments(std::size_t cell) const;
    /// The assignments of @cell joined by ", ", for messages.
    std::string describe_cell(std::size_t cell) const;
};

/// The most runs a grid may have.
inline constexpr std::size_t kMaxSweepRuns = 100000;

/// One run of the grid and what it gave.
struct SweepRun {
    std::size_t index = 0;
    std::size_t cell = 0;
    unsigned repeat = 0;
    RunEnd ended_by = RunEnd::NotRun; ///< the result's, NotRun, or Missing (--collect)
    std::string error;
    std::vector<std::pair<std::string, double>> figures;
    Provenance provenance; ///< the build, command and computer that made its result (empty: none)

    bool finished() const { return run_completed(ended_by); }
};

/// Run @k of @plan, not run yet: its cell and repeat.
SweepRun run_of(const SweepPlan& plan, std::size_t k);

/// Takes the numbers of a result's "figures" object into @run.
void take_figures(SweepRun& run, const json::Value& figures);

/// `--vary FIELD=v1,v2,...` as an axis. Throws ArgError naming --vary for
/// a missing field, an empty value or a value given twice.
SweepAxis parse_vary(const std::string& text);

/// sweep.json: the grid and each run's directory (run_dir).
json::Value plan_to_json(const SweepPlan& plan);

/// The grid sweep.json describes; @origin (its path) starts each message.
/// Throws std::runtime_error "ORIGIN: field: what".
SweepPlan plan_from_json(const json::Value& doc, const std::string& origin);

} // namespace pcl::cli
