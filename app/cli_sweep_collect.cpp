#include "cli_sweep_collect.h"

#include "cli_scenarios.h"
#include "cli_sweep_plan.h"
#include "cli_sweep_report.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "sim/run_figures.h"
#include "sim/scenario.h"

#include <algorithm>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace pcl::cli {

std::optional<SweepPlan> read_grid(const std::string& dir, const std::string& option, std::ostream& err)
{
    try {
        const std::string path = dir + "/sweep.json";
        std::string text;
        try {
            text = read_file(path);
        } catch (const std::exception& e) {
            sweep_usage_error(
                err, option + ": " + std::string(e.what()) + " (the directory 'sweep ... --out DIR' wrote)");
            return std::nullopt;
        }
        try {
            return plan_from_json(json::parse(text), path);
        } catch (const json::ParseError& e) {
            throw std::runtime_error(
                path + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
        }
    } catch (const std::runtime_error& e) {
        sweep_usage_error(err, e.what());
        return std::nullopt;
    }
}

SweepRun read_cell(const SweepPlan& plan, std::size_t k, const std::string& dir, std::string& caption)
{
    SweepRun r = run_of(plan, k);
    const std::string path = dir + "/" + plan.run_dir(k) + "/summary.json";
    try {
        const json::Value doc = json::parse(read_file(path));
        if (const json::Value* error = doc.find("error"); error && error->is_string())
            r.error = error->as_string();
        r.ended_by = RunEnd::Missing;
        if (const json::Value* ended = doc.find("ended_by"); ended && ended->is_string()) {
            if (const std::optional<RunEnd> end = parse_run_end(ended->as_string()))
                r.ended_by = *end;
            else
                r.error = path + ": ended_by: '" + ended->as_string()
                    + "' is not how a run ends (finished, duration, cancelled, stopped or failed)";
        }
        if (const json::Value* figures = doc.find("figures"))
            take_figures(r, *figures);
        if (const json::Value* host = doc.find("host"))
            r.provenance = provenance_from_json(*host);
        if (r.figures.empty()) {
            r.ended_by = RunEnd::Missing;
            r.error = path + ": no figures (not a result of 'run --out')";
        }
        // The caption from the first run whose scenario reads back; one
        // that does not costs the chart its caption, not the run its row.
        if (caption.empty())
            if (const json::Value* s = doc.find("scenario"))
                try {
                    caption = parameter_caption(scenario_from_json(*s), plan.varied_fields());
                } catch (const std::exception&) {
                }
    } catch (const std::exception& e) {
        r.ended_by = RunEnd::Missing;
        r.error = std::string(e.what()) + " (not run yet, or its run failed to start)";
    }
    return r;
}

int collect_sweep(
    const std::string& dir, const std::string& figure, const std::string& format, std::ostream& out, std::ostream& err)
{
    std::optional<SweepPlan> grid = read_grid(dir, "--collect", err);
    if (!grid)
        return 2;
    SweepPlan& p = *grid;
    if (!figure.empty())
        p.figure = figure;
    std::vector<SweepRun> runs;
    // The chart's caption: what every cell shares (the scenario with the
    // grid's --set), not one cell's parameters; the first run's scenario
    // when the grid's cannot be read here.
    std::string caption, first_run;
    try {
        caption = parameter_caption(build_scenario(load_scenario_source(p.scenario), p.sets), p.varied_fields());
    } catch (const std::exception&) {
    }
    for (std::size_t k = 0; k < p.runs(); ++k)
        runs.push_back(read_cell(p, k, dir, first_run));
    if (caption.empty())
        caption = first_run;
    const auto found
        = std::count_if(runs.begin(), runs.end(), [](const SweepRun& r) { return r.ended_by != RunEnd::Missing; });
    notes_stream(format, out, err) << "collected " << found << " of the " << p.runs() << " runs of " << p.name
                                   << " from " << dir << '\n';
    int rc = report_sweep(p, runs, dir, caption, format, out, err);
    // Every run of the grid was to have finished: one that is missing, or
    // that its job's Ctrl+C cancelled, leaves the grid incomplete.
    if (!std::all_of(runs.begin(), runs.end(), [](const SweepRun& r) { return r.finished(); }))
        rc = 1;
    return rc;
}

} // namespace pcl::cli
