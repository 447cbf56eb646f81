#include "cli_sweep_report.h"

#include "lib/provenance.h"

#include "cli_render.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/provenance.h"
#include "lib/report.h"
#include "sim/run_figures.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <ostream>
#include <utility>

namespace pcl::cli {

namespace {

std::vector<std::string> axis_columns(const SweepPlan& p)
{
    std::vector<std::string> c;
    for (const SweepAxis& a : p.axes)
        c.push_back(a.field);
    return c;
}

void set_axes(Report& t, const SweepPlan& p, std::size_t cell)
{
    const std::vector<std::size_t> c = p.coordinates(cell);
    for (std::size_t i = 0; i < p.axes.size(); ++i)
        t.set(p.axes[i].field, p.axes[i].values[c[i]]);
}

/// One row per run: its place in the grid, how it ended, its figures.
Report runs_table(const SweepPlan& p, const std::vector<SweepRun>& runs)
{
    std::vector<std::string> columns { "run", "cell", "repeat" };
    for (std::string& c : axis_columns(p))
        columns.push_back(std::move(c));
    columns.push_back("ended_by");
    for (std::string& f : run_figure_names())
        columns.push_back(std::move(f));
    // Each run's own: a grid's jobs may have run on several computers.
    for (auto& [name, value] : provenance_columns({}))
        columns.push_back(name);
    Report t(columns);
    for (const SweepRun& r : runs) {
        t.add_row();
        t.set("run", std::uint64_t(r.index));
        t.set("cell", std::uint64_t(r.cell));
        t.set("repeat", std::uint64_t(r.repeat));
        set_axes(t, p, r.cell);
        t.set("ended_by", std::string(run_end_name(r.ended_by)));
        for (const auto& [name, value] : r.figures)
            if (std::find(columns.begin(), columns.end(), name) != columns.end())
                t.set(name, csv_number(value));
        for (const auto& [name, value] : provenance_columns(r.provenance))
            t.set(name, value);
    }
    return t;
}

/// A cell's figure over its finished repeats.
struct CellFigure {
    double median = std::nan("");
    double min = 0, max = 0;
    std::size_t runs = 0;
    /// (max - min) / |median|: 0 when the repeats agree.
    double spread() const { return runs && median != 0 ? (max - min) / std::fabs(median) : 0.0; }
};

CellFigure cell_figure(const std::vector<SweepRun>& runs, std::size_t cell, const std::string& figure)
{
    std::vector<double> v;
    for (const SweepRun& r : runs)
        if (r.cell == cell && r.finished())
            for (const auto& [name, value] : r.figures)
                if (name == figure)
                    v.push_back(value);
    CellFigure f;
    f.runs = v.size();
    if (!v.empty()) {
        f.median = median(v);
        f.min = *std::min_element(v.begin(), v.end());
        f.max = *std::max_element(v.begin(), v.end());
    }
    return f;
}

/// One row per cell: the median of each figure over the cell's finished
/// repeats, and its spread.
Report summary_table(const SweepPlan& p, const std::vector<SweepRun>& runs)
{
    std::vector<std::string> columns { "cell" };
    for (std::string& c : axis_columns(p))
        columns.push_back(std::move(c));
    columns.push_back("runs");
    for (const std::string& f : run_figure_names()) {
        columns.push_back(f);
        columns.push_back(f + "_spread");
    }
    // The table's: the command that made it, here and now.
    const auto made = provenance_columns(make_provenance());
    for (const auto& [name, value] : made)
        columns.push_back(name);
    Report t(columns);
    for (std::size_t cell = 0; cell < p.cells(); ++cell) {
        t.add_row();
        t.set("cell", std::uint64_t(cell));
        set_axes(t, p, cell);
        std::size_t finished = 0;
        for (const std::string& f : run_figure_names()) {
            const CellFigure c = cell_figure(runs, cell, f);
            finished = c.runs;
            if (c.runs) {
                t.set(f, csv_number(c.median));
                if (c.runs > 1)
                    t.set(f + "_spread", csv_number(c.spread()));
            }
        }
        t.set("runs", std::uint64_t(finished));
        for (const auto& [name, value] : made)
            t.set(name, value);
    }
    return t;
}

/// What the terminal shows: each cell's chosen figure, its spread and range.
Report brief_table(const SweepPlan& p, const std::vector<SweepRun>& runs)
{
    std::vector<std::string> columns { "cell" };
    for (std::string& c : axis_columns(p))
        columns.push_back(std::move(c));
    for (const char* c : { "runs", "median", "min", "max", "spread" })
        columns.push_back(c);
    Report t(columns);
    for (std::size_t cell = 0; cell < p.cells(); ++cell) {
        const CellFigure c = cell_figure(runs, cell, p.figure);
        t.add_row();
        t.set("cell", std::uint64_t(cell));
        set_axes(t, p, cell);
        t.set("runs", std::uint64_t(c.runs));
        if (c.runs) {
            t.set("median", significant(c.median));
            t.set("min", significant(c.min));
            t.set("max", significant(c.max));
            // One run has no spread to show, which "0.0 %" would claim.
            if (c.runs > 1)
                t.set("spread", fixed(100 * c.spread(), 1) + " %");
            else
                t.set("spread", std::string("-"));
        }
    }
    return t;
}

bool is_number(const std::string& s)
{
    try {
        return json::parse(s).is_number();
    } catch (const json::ParseError&) {
        return false;
    }
}

/// The figure's median against the first varied field, one line per
/// combination of the others.
LineChart sweep_chart(const SweepPlan& p, const std::vector<SweepRun>& runs, const std::string& caption)
{
    const SweepAxis& x = p.axes.front();
    const bool numeric = std::all_of(x.values.begin(), x.values.end(), is_number);
    const std::vector<RunFigure> figures = run_figures(RunResult {});
    const RunFigure* figure = find_figure(figures, p.figure);
    LineChart chart;
    const std::string what = figure ? figure->meaning : p.figure;
    chart.x_label = x.field;
    chart.y_label = p.figure + (figure && !figure->unit.empty() ? " (" + figure->unit + ")" : std::string());
    chart.title = what + ", against " + x.field;
    chart.caption = p.name + ": " + caption + "; "
        + (p.repeat == 1 ? std::string("one run a point")
                         : "median of " + std::to_string(p.repeat)
                    + " runs a point, the band from their least to "
                      "their greatest");
    if (!numeric)
        chart.x_names = x.values;
    const std::size_t lines = p.cells() / x.values.size();
    for (std::size_t l = 0; l < lines; ++l) {
        LineChart::Line line;
        for (std::size_t xi = 0; xi < x.values.size(); ++xi) {
            const std::size_t cell = xi * lines + l;
            if (line.name.empty() && p.axes.size() > 1) {
                const std::vector<std::string> a = p.assignments(cell);
                for (std::size_t i = 1; i < a.size(); ++i)
                    line.name += (line.name.empty() ? "" : ", ") + a[i];
            }
            const CellFigure c = cell_figure(runs, cell, p.figure);
            if (c.runs)
                line.points.push_back(
                    { numeric ? json::parse(x.values[xi]).as_double() : double(xi), c.median, c.min, c.max });
        }
        if (line.name.empty())
            line.name = p.figure;
        // A line is drawn through its points in order of x, whatever the
        // order the values were given in (--vary workload.cpus=4,1,2).
        if (numeric)
            std::sort(line.points.begin(), line.points.end());
        chart.lines.push_back(std::move(line));
    }
    return chart;
}

/// Writes runs.csv, summary.csv and the chart into @dir, says what it wrote
/// on @notes; false if any failed.
bool write_outputs(const SweepPlan& p, const std::vector<SweepRun>& runs, const std::string& dir,
    const std::string& caption, std::ostream& notes, std::ostream& err)
{
    bool ok = true;
    std::vector<std::string> written;
    for (const auto& [name, text] : { std::pair<std::string, std::string> { "runs.csv", runs_table(p, runs).csv() },
             { "summary.csv", summary_table(p, runs).csv() } }) {
        try {
            write_file_atomically(dir + "/" + name, text);
            written.push_back(name);
        } catch (const std::exception& e) {
            err << kProgram << " sweep: " << e.what() << '\n';
            ok = false;
        }
    }
    if (can_render()) {
        try {
            std::filesystem::create_directories(dir + "/charts");
            const std::string base = dir + "/charts/" + p.name + "_" + p.figure + "-vs-" + p.axes.front().field;
            for (const std::string& f : write_line_chart(sweep_chart(p, runs, caption), base))
                written.push_back(std::filesystem::path(f).lexically_relative(dir).string());
        } catch (const std::exception& e) {
            err << kProgram << " sweep: " << e.what() << '\n';
            ok = false;
        }
    } else {
        err << kProgram << " sweep: no chart: " << cannot_render_reason() << '\n';
    }
    std::string list;
    for (const std::string& w : written)
        list += (list.empty() ? "" : ", ") + w;
    if (!list.empty())
        notes << '\n' << list << " written to " << dir << '\n';
    return ok;
}

} // namespace

int sweep_usage_error(std::ostream& err, const std::string& message)
{
    err << kProgram << " sweep: " << message << '\n' << "Try '" << kProgram << " sweep --help' for the options.\n";
    return 2;
}

int report_sweep(const SweepPlan& p, const std::vector<SweepRun>& runs, const std::string& out_dir,
    const std::string& caption, const std::string& format, std::ostream& out, std::ostream& err)
{
    if (format == "table") {
        out << p.figure << " by cell, over " << p.repeat << (p.repeat == 1 ? " run" : " runs")
            << " each (spread: (max - min) / median):\n";
        brief_table(p, runs).print(out);
    } else {
        print_table(out, summary_table(p, runs), format);
    }
    int rc = 0;
    std::size_t unfinished = 0;
    for (const SweepRun& r : runs)
        if (!r.finished()) {
            ++unfinished;
            err << kProgram << " sweep: run " << r.index << " (cell " << r.cell << ": " << p.describe_cell(r.cell)
                << ", repeat " << r.repeat << ") " << (r.ended_by == RunEnd::Failed ? "failed" : "did not finish")
                << ": " << (r.error.empty() ? std::string(run_end_name(r.ended_by)) : r.error) << '\n';
            if (r.ended_by != RunEnd::NotRun && r.ended_by != RunEnd::Cancelled)
                rc = 1;
        }
    if (unfinished)
        err << kProgram << " sweep: " << unfinished << " of " << runs.size()
            << " runs are missing from the tables; the others are in them\n";
    if (!out_dir.empty() && !write_outputs(p, runs, out_dir, caption, notes_stream(format, out, err), err))
        rc = 1;
    return rc;
}

} // namespace pcl::cli
