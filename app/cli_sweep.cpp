#include "cli_sweep.h"

#include "cli_progress.h"
#include "cli_render.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/report.h"
#include "sim/run_figures.h"
#include "sim/run_tables.h"
#include "sim/runner.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace pcl::cli {

namespace {

/// A field the sweep varies and the values it takes.
struct Axis {
    std::string field;
    std::vector<std::string> values;
};

/// The grid: what sweep.json records so that --collect can rebuild the
/// tables from the cells' directories.
struct Plan {
    std::string scenario; ///< the operand: a preset's name or a file (absolute)
    std::string name;     ///< for file names: the preset's name or the file's stem
    std::vector<std::string> sets;
    std::vector<Axis> axes;
    unsigned repeat = 1;
    std::string figure = "ops_per_s";

    std::size_t cells() const
    {
        std::size_t n = 1;
        for (const Axis& a : axes)
            n *= a.values.size();
        return n;
    }
    std::size_t runs() const { return cells() * repeat; }
    /// The value index of each axis in @cell; the last axis changes fastest.
    std::vector<std::size_t> coordinates(std::size_t cell) const
    {
        std::vector<std::size_t> c(axes.size());
        for (std::size_t i = axes.size(); i-- > 0;) {
            c[i] = cell % axes[i].values.size();
            cell /= axes[i].values.size();
        }
        return c;
    }
    std::vector<std::string> assignments(std::size_t cell) const
    {
        std::vector<std::string> a;
        const std::vector<std::size_t> c = coordinates(cell);
        for (std::size_t i = 0; i < axes.size(); ++i)
            a.push_back(axes[i].field + "=" + axes[i].values[c[i]]);
        return a;
    }
    std::string describe_cell(std::size_t cell) const
    {
        std::string s;
        for (const std::string& a : assignments(cell))
            s += (s.empty() ? "" : ", ") + a;
        return s;
    }
};

/// One run of the grid and what it gave.
struct SweepRun {
    std::size_t index = 0;
    std::size_t cell = 0;
    unsigned repeat = 0;
    std::string ended_by = "not run"; ///< the result's ended_by, "not run", or "missing" (--collect)
    std::string error;
    std::vector<std::pair<std::string, double>> figures;

    bool finished() const { return ended_by == "finished" || ended_by == "duration"; }
};

constexpr std::size_t kMaxRuns = 100000;

Axis parse_vary(const std::string& text)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ArgError("--vary: expected FIELD=v1,v2,..., got '" + text + "'");
    Axis a { text.substr(0, eq), {} };
    const std::string list = text.substr(eq + 1);
    std::size_t from = 0;
    while (true) {
        const std::size_t comma = list.find(',', from);
        const std::string v = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
        if (v.empty())
            throw ArgError("--vary " + a.field + ": an empty value in '" + list + "' (values are separated by commas)");
        if (std::find(a.values.begin(), a.values.end(), v) != a.values.end())
            throw ArgError("--vary " + a.field + ": the value '" + v + "' is given twice");
        a.values.push_back(v);
        if (comma == std::string::npos)
            break;
        from = comma + 1;
    }
    return a;
}

std::string shell_quote(const std::string& s)
{
    if (!s.empty()
        && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+")
            == std::string::npos)
        return s;
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

/// This program, as the job lines run it: its absolute path when the
/// system says it, else its name (found on PATH).
std::string self_path()
{
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(kProgram) : p.string();
}

std::string stem_of(const ScenarioInput& in)
{
    return in.preset ? in.origin : std::filesystem::path(in.origin).stem().string();
}

// --- sweep.json ---------------------------------------------------------

json::Value plan_to_json(const Plan& p)
{
    json::Array sets, axes, runs;
    for (const std::string& s : p.sets)
        sets.push_back(s);
    for (const Axis& a : p.axes) {
        json::Array values;
        for (const std::string& v : a.values)
            values.push_back(v);
        axes.push_back(json::Object { { "field", a.field }, { "values", std::move(values) } });
    }
    for (std::size_t k = 0; k < p.runs(); ++k)
        runs.push_back(json::Object { { "run", std::uint64_t(k) }, { "cell", std::uint64_t(k / p.repeat) },
            { "repeat", std::uint64_t(k % p.repeat) }, { "dir", "cell-" + std::to_string(k) },
            { "parameters", p.describe_cell(k / p.repeat) } });
    return json::Object { { "version", 1 }, { "scenario", p.scenario }, { "name", p.name }, { "set", std::move(sets) },
        { "vary", std::move(axes) }, { "repeat", std::uint64_t(p.repeat) }, { "figure", p.figure },
        { "runs", std::move(runs) } };
}

Plan plan_from_json(const json::Value& doc, const std::string& origin)
{
    auto bad = [&](const std::string& field, const std::string& what) {
        return std::runtime_error(origin + ": " + field + ": " + what);
    };
    auto member = [&](const char* name, bool (json::Value::*is)() const, const char* type) -> const json::Value& {
        const json::Value* v = doc.find(name);
        if (!v)
            throw bad(name, "missing");
        if (!((*v).*is)())
            throw bad(name, std::string("must be ") + type + ", got " + json::Value::type_name(v->type()));
        return *v;
    };
    if (!doc.is_object())
        throw std::runtime_error(origin + ": not a sweep description (a JSON object)");
    if (member("version", &json::Value::is_integer, "an integer").as_int() != 1)
        throw bad("version", "this build reads version 1");
    Plan p;
    p.scenario = member("scenario", &json::Value::is_string, "a string").as_string();
    p.name = member("name", &json::Value::is_string, "a string").as_string();
    p.figure = member("figure", &json::Value::is_string, "a string").as_string();
    const json::Value& repeat = member("repeat", &json::Value::is_integer, "an integer");
    if (repeat.as_int() < 1 || repeat.as_int() > 1000)
        throw bad("repeat", "must be between 1 and 1000");
    p.repeat = unsigned(repeat.as_int());
    for (const json::Value& s : member("set", &json::Value::is_array, "an array").as_array())
        p.sets.push_back(s.is_string() ? s.as_string() : throw bad("set", "every element must be a string"));
    const json::Array& vary = member("vary", &json::Value::is_array, "an array").as_array();
    if (vary.empty())
        throw bad("vary", "must name one field or more");
    for (std::size_t i = 0; i < vary.size(); ++i) {
        const std::string at = "vary[" + std::to_string(i) + "]";
        const json::Value* field = vary[i].find("field");
        const json::Value* values = vary[i].find("values");
        if (!field || !field->is_string() || !values || !values->is_array() || values->as_array().empty())
            throw bad(at, "must be {\"field\": NAME, \"values\": [V, ...]}");
        Axis a { field->as_string(), {} };
        for (const json::Value& v : values->as_array())
            a.values.push_back(v.is_string() ? v.as_string() : throw bad(at + ".values", "must be strings"));
        p.axes.push_back(std::move(a));
    }
    if (p.runs() > kMaxRuns)
        throw bad("vary", "more than " + std::to_string(kMaxRuns) + " runs");
    return p;
}

// --- tables -------------------------------------------------------------

std::vector<std::string> axis_columns(const Plan& p)
{
    std::vector<std::string> c;
    for (const Axis& a : p.axes)
        c.push_back(a.field);
    return c;
}

void set_axes(Report& t, const Plan& p, std::size_t cell)
{
    const std::vector<std::size_t> c = p.coordinates(cell);
    for (std::size_t i = 0; i < p.axes.size(); ++i)
        t.set(p.axes[i].field, p.axes[i].values[c[i]]);
}

/// One row per run: its place in the grid, how it ended, its figures.
Report runs_table(const Plan& p, const std::vector<SweepRun>& runs)
{
    std::vector<std::string> columns { "run", "cell", "repeat" };
    for (std::string& c : axis_columns(p))
        columns.push_back(std::move(c));
    columns.push_back("ended_by");
    for (std::string& f : run_figure_names())
        columns.push_back(std::move(f));
    Report t(columns);
    for (const SweepRun& r : runs) {
        t.add_row();
        t.set("run", std::uint64_t(r.index));
        t.set("cell", std::uint64_t(r.cell));
        t.set("repeat", std::uint64_t(r.repeat));
        set_axes(t, p, r.cell);
        t.set("ended_by", r.ended_by);
        for (const auto& [name, value] : r.figures)
            if (std::find(columns.begin(), columns.end(), name) != columns.end())
                t.set(name, csv_number(value));
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
Report summary_table(const Plan& p, const std::vector<SweepRun>& runs)
{
    std::vector<std::string> columns { "cell" };
    for (std::string& c : axis_columns(p))
        columns.push_back(std::move(c));
    columns.push_back("runs");
    for (const std::string& f : run_figure_names()) {
        columns.push_back(f);
        columns.push_back(f + "_spread");
    }
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
                t.set(f + "_spread", csv_number(c.spread()));
            }
        }
        t.set("runs", std::uint64_t(finished));
    }
    return t;
}

/// What the terminal shows: each cell's chosen figure, its spread and range.
Report brief_table(const Plan& p, const std::vector<SweepRun>& runs)
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
            t.set("spread", fixed(100 * c.spread(), 1) + " %");
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
LineChart sweep_chart(const Plan& p, const std::vector<SweepRun>& runs, const std::string& caption)
{
    const Axis& x = p.axes.front();
    const bool numeric = std::all_of(x.values.begin(), x.values.end(), is_number);
    const std::vector<RunFigure> figures = run_figures(RunResult {});
    const RunFigure* figure = find_figure(figures, p.figure);
    LineChart chart;
    const std::string what = figure ? figure->meaning : p.figure;
    chart.x_label = x.field;
    chart.y_label = p.figure + (figure && !figure->unit.empty() ? " (" + figure->unit + ")" : std::string());
    chart.title = what + ", against " + x.field;
    chart.caption = p.name + ": " + caption + "; median of " + std::to_string(p.repeat)
        + (p.repeat == 1 ? " run" : " runs") + " a point";
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
                line.points.push_back({ numeric ? json::parse(x.values[xi]).as_double() : double(xi), c.median });
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

/// Writes runs.csv, summary.csv and the chart into @dir; false if any failed.
bool write_outputs(const Plan& p, const std::vector<SweepRun>& runs, const std::string& dir, const std::string& caption,
    std::ostream& out, std::ostream& err)
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
        out << '\n' << list << " written to " << dir << '\n';
    return ok;
}

SweepRun run_of(const Plan& p, std::size_t k)
{
    SweepRun r;
    r.index = k;
    r.cell = k / p.repeat;
    r.repeat = unsigned(k % p.repeat);
    return r;
}

void take_figures(SweepRun& run, const json::Value& figures)
{
    if (!figures.is_object())
        return;
    for (const auto& [name, value] : figures.as_object())
        if (value.is_number())
            run.figures.emplace_back(name, value.as_double());
}

int sweep_usage_error(std::ostream& err, const std::string& message)
{
    err << kProgram << " sweep: " << message << '\n' << "Try '" << kProgram << " sweep --help' for the options.\n";
    return 2;
}

/// Prints the tables of a finished grid and says which runs did not finish.
int report_sweep(const Plan& p, const std::vector<SweepRun>& runs, const std::string& out_dir,
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
                << ", repeat " << r.repeat << ") " << (r.ended_by == "failed" ? "failed" : "did not finish") << ": "
                << (r.error.empty() ? r.ended_by : r.error) << '\n';
            if (r.ended_by != "not run" && r.ended_by != "cancelled")
                rc = 1;
        }
    if (unfinished)
        err << kProgram << " sweep: " << unfinished << " of " << runs.size()
            << " runs are missing from the tables; the others are in them\n";
    if (!out_dir.empty() && !write_outputs(p, runs, out_dir, caption, out, err))
        rc = 1;
    return rc;
}

/// `sweep --collect DIR`: the tables and chart of the runs a --jobs file
/// ran into DIR. @figure, when not empty, replaces the grid's own.
int collect(
    const std::string& dir, const std::string& figure, const std::string& format, std::ostream& out, std::ostream& err)
{
    Plan p;
    try {
        const std::string path = dir + "/sweep.json";
        std::string text;
        try {
            text = read_file(path);
        } catch (const std::exception& e) {
            return sweep_usage_error(
                err, "--collect: " + std::string(e.what()) + " (the directory 'sweep --jobs FILE --out DIR' wrote)");
        }
        try {
            p = plan_from_json(json::parse(text), path);
        } catch (const json::ParseError& e) {
            throw std::runtime_error(
                path + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
        }
    } catch (const std::runtime_error& e) {
        return sweep_usage_error(err, e.what());
    }
    if (!figure.empty())
        p.figure = figure;
    std::vector<SweepRun> runs;
    std::string caption;
    for (std::size_t k = 0; k < p.runs(); ++k) {
        SweepRun r = run_of(p, k);
        const std::string path = dir + "/cell-" + std::to_string(k) + "/summary.json";
        try {
            const json::Value doc = json::parse(read_file(path));
            const json::Value* ended = doc.find("ended_by");
            r.ended_by = ended && ended->is_string() ? ended->as_string() : "missing";
            if (const json::Value* error = doc.find("error"); error && error->is_string())
                r.error = error->as_string();
            if (const json::Value* figures = doc.find("figures"))
                take_figures(r, *figures);
            if (r.figures.empty()) {
                r.ended_by = "missing";
                r.error = path + ": no figures (not a result of 'run --out')";
            }
            // The caption from the first run whose scenario reads back; one
            // that does not costs the chart its caption, not the run its row.
            if (caption.empty())
                if (const json::Value* s = doc.find("scenario"))
                    try {
                        caption = parameter_caption(scenario_from_json(*s));
                    } catch (const std::exception&) {
                    }
        } catch (const std::exception& e) {
            r.ended_by = "missing";
            r.error = std::string(e.what()) + " (not run yet, or its run failed to start)";
        }
        runs.push_back(std::move(r));
    }
    out << "collected " << p.runs() << " runs of " << p.name << " from " << dir << '\n';
    int rc = report_sweep(p, runs, dir, caption, format, out, err);
    // Every run of the grid was to have finished: one that is missing, or
    // that its job's Ctrl+C cancelled, leaves the grid incomplete.
    if (!std::all_of(runs.begin(), runs.end(), [](const SweepRun& r) { return r.finished(); }))
        rc = 1;
    return rc;
}

} // namespace

int run_sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser("sweep");
    parser.add_list("set", "PATH=VALUE", "override a field of the scenario for every run (as 'run --set')");
    parser.add_list("vary", "FIELD=v1,v2,...",
        "run once for each value of FIELD (a scenario field, as --set names it); several --vary make a\n"
        "grid, the last changing fastest; the chart plots against the first");
    parser.add_uint("repeat", 1, 1, 1000, "N", "runs of each cell; the summary gives their median and spread");
    parser.add_uint("parallel", 1, 1, 64, "N",
        "runs at once; more than 1 finishes sooner but the runs share the CPUs and disturb each\n"
        "other's timings");
    parser.add_string("figure", "ops_per_s", "NAME", "the figure the terminal table and the chart show");
    parser.add_string("out", "", "DIR",
        "write runs.csv (one row per run), summary.csv (one row per cell: each figure's median and\n"
        "spread), sweep.json (the grid), cell-K/summary.json (each run's result) and\n"
        "charts/NAME_FIGURE-vs-FIELD.png, .svg and .pdf into DIR");
    parser.add_output("jobs", "FILE",
        "run nothing: write one '" + std::string(kProgram)
            + " run ... --out DIR/cell-K' command per run to FILE, for GNU parallel, a Slurm array or any\n"
              "batch scheduler (needs --out DIR); 'sweep --collect DIR' merges their outputs");
    parser.add_string("collect", "", "DIR", "run nothing: tabulate and chart the runs a --jobs file ran into DIR");
    parser.add_string("format", "table", "F", "what is printed: table, json or csv (the summary)");
    parser.allow_operands();
    parser.describe(
        "SCENARIO|PRESET --vary FIELD=v1,v2,... [options]\n       " + std::string(kProgram)
            + " sweep --collect DIR [--format F]",
        "Runs the scenario for every combination of the varied fields' values, --repeat times each,\n"
        "one run after another (runs sharing the machine's CPUs would disturb each other's timings;\n"
        "--parallel N trades that accuracy for time). Figures: "
            +
            [] {
                std::string s;
                for (const std::string& f : run_figure_names())
                    s += (s.empty() ? "" : ", ") + f;
                return s;
            }()
            + ".",
        "exit codes: 0 every run finished, 1 a run failed or a cell's output is missing, 2 bad\n"
        "command line or bad scenario (the message names the field and the cell), 130 stopped by\n"
        "Ctrl+C (the finished runs are written)");
    if (const auto code = parser.parse_command(args, out, err, [](const ArgParser& a) {
            check_format(a.get_string("format"));
            const std::vector<std::string> names = run_figure_names();
            if (std::find(names.begin(), names.end(), a.get_string("figure")) == names.end())
                throw ArgError("--figure: '" + a.get_string("figure") + "' is not a figure (see --help)");
            for (const std::string& o : a.get_list("set"))
                if (o.find('=') == std::string::npos)
                    throw ArgError("--set: expected PATH=VALUE, got '" + o + "'");
            if (a.given("collect")) {
                if (!a.operands().empty() || a.given("vary") || a.given("jobs") || a.given("out"))
                    throw ArgError("--collect DIR takes no scenario, --vary, --jobs or --out: the grid is in DIR");
                return;
            }
            if (a.operands().empty())
                throw ArgError("which scenario? (sweep SCENARIO.json --vary FIELD=v1,v2 or sweep PRESET ...)");
            if (a.operands().size() > 1)
                throw ArgError("unexpected argument '" + a.operands()[1] + "' (one scenario per sweep)");
            if (a.get_list("vary").empty())
                throw ArgError("what to vary? (--vary FIELD=v1,v2,...)");
            std::vector<std::string> fields;
            for (const std::string& v : a.get_list("vary")) {
                const Axis axis = parse_vary(v);
                if (std::find(fields.begin(), fields.end(), axis.field) != fields.end())
                    throw ArgError("--vary " + axis.field + ": the field is varied twice");
                fields.push_back(axis.field);
            }
            if (a.given("jobs") && !a.given("out"))
                throw ArgError("--jobs needs --out DIR: the directory the runs write their cells into");
            // A field both set and varied would have the run's value depend
            // on the order of the flags: refused.
            for (const std::string& o : a.get_list("set"))
                if (std::find(fields.begin(), fields.end(), o.substr(0, o.find('='))) != fields.end())
                    throw ArgError("--set " + o.substr(0, o.find('=')) + ": the field is also varied (--vary "
                        + o.substr(0, o.find('=')) + "=...); give its values in --vary only");
            if (const std::string& o = a.get_string("out"); !o.empty())
                prepare_out_dir(o, "sweep.json");
        }))
        return *code;
    const std::string format = parser.get_string("format");
    if (parser.given("collect"))
        return collect(
            parser.get_string("collect"), parser.given("figure") ? parser.get_string("figure") : "", format, out, err);

    Plan plan;
    plan.sets = parser.get_list("set");
    for (const std::string& v : parser.get_list("vary"))
        plan.axes.push_back(parse_vary(v));
    plan.repeat = unsigned(parser.get_uint("repeat"));
    plan.figure = parser.get_string("figure");
    if (plan.runs() > kMaxRuns)
        return sweep_usage_error(
            err, "--vary: " + std::to_string(plan.runs()) + " runs; at most " + std::to_string(kMaxRuns));

    ScenarioSource source;
    std::vector<Scenario> scenarios;
    try {
        source = load_scenario_source(parser.operands()[0]);
    } catch (const std::runtime_error& e) {
        return sweep_usage_error(err, e.what());
    }
    plan.name = stem_of(source.input);
    plan.scenario = source.input.preset ? source.input.origin
                                        : std::filesystem::absolute(source.input.origin).lexically_normal().string();
    // Every cell is checked before anything runs: a bad value is found now,
    // not after an hour of runs.
    std::size_t bad_cells = 0;
    for (std::size_t cell = 0; cell < plan.cells(); ++cell) {
        std::vector<std::string> overrides = plan.sets;
        for (std::string& a : plan.assignments(cell))
            overrides.push_back(std::move(a));
        try {
            scenarios.push_back(build_scenario(source, overrides));
        } catch (const std::runtime_error& e) {
            err << kProgram << " sweep: cell " << cell << " (" << plan.describe_cell(cell) << "): " << e.what() << '\n';
            ++bad_cells;
        }
    }
    if (bad_cells)
        return sweep_usage_error(err,
            std::to_string(bad_cells) + " of " + std::to_string(plan.cells())
                + " cells are not valid scenarios; nothing was run");
    // The caption gives the parameters every cell shares: the scenario's
    // with --set (each cell's varied fields are named beside it).
    std::string caption;
    try {
        caption = parameter_caption(build_scenario(source, plan.sets));
    } catch (const std::runtime_error&) {
        caption = parameter_caption(scenarios.front());
    }

    const std::string out_dir = parser.get_string("out");
    if (!out_dir.empty()) {
        try {
            write_file_atomically(out_dir + "/sweep.json", json::write(plan_to_json(plan)) + "\n");
            // A cell's result from an earlier sweep into the same directory
            // would be taken by --collect for this grid's: removed.
            for (std::size_t k = 0; k < plan.runs(); ++k) {
                std::error_code ec;
                const std::string stale = out_dir + "/cell-" + std::to_string(k) + "/summary.json";
                if (!std::filesystem::remove(stale, ec) && ec)
                    throw std::runtime_error(stale + ": cannot remove an earlier sweep's result: " + ec.message());
            }
        } catch (const std::exception& e) {
            err << kProgram << " sweep: " << e.what() << '\n';
            return 1;
        }
    }
    if (const std::string& jobs = parser.get_string("jobs"); !jobs.empty()) {
        std::string text;
        const std::string program = shell_quote(self_path());
        // The lines run wherever the scheduler starts them: the cells'
        // directory is given whole.
        const std::string cells_dir = std::filesystem::absolute(out_dir).lexically_normal().string();
        for (std::size_t k = 0; k < plan.runs(); ++k) {
            std::string line = program + " run " + shell_quote(plan.scenario);
            for (const std::string& s : plan.sets)
                line += " --set " + shell_quote(s);
            for (const std::string& a : plan.assignments(k / plan.repeat))
                line += " --set " + shell_quote(a);
            line += " --out " + shell_quote(cells_dir + "/cell-" + std::to_string(k)) + " --no-report > /dev/null\n";
            text += line;
        }
        try {
            write_file_atomically(jobs, text);
        } catch (const std::exception& e) {
            err << kProgram << " sweep: " << e.what() << '\n';
            return 1;
        }
        out << plan.runs() << " run commands (" << plan.cells() << " cells x " << plan.repeat << ") written to " << jobs
            << "; run them, e.g. 'parallel -j 4 < " << jobs << "', then '" << kProgram << " sweep --collect " << out_dir
            << "'\n";
        return 0;
    }

    const unsigned parallel = unsigned(std::min<std::uint64_t>(parser.get_uint("parallel"), plan.runs()));
    err << kProgram << " sweep: " << plan.runs() << " runs (" << plan.cells() << " cells x " << plan.repeat << ") of "
        << plan.name << ", "
        << (parallel == 1 ? std::string("one after another, so that no run shares the CPUs with another")
                          : std::to_string(parallel)
                       + " at once: they share the CPUs, so their timings disturb "
                         "each other")
        << '\n';

    install_interrupt_handler();
    ProgressBar bar(err);
    std::vector<SweepRun> runs;
    for (std::size_t k = 0; k < plan.runs(); ++k)
        runs.push_back(run_of(plan, k));
    std::atomic<std::size_t> next { 0 }, done { 0 };
    std::mutex mu; // runs[], and the files of a cell
    bool write_failed = false;
    auto worker = [&] {
        while (!interrupted().load()) {
            const std::size_t k = next.fetch_add(1);
            if (k >= plan.runs())
                return;
            const Scenario& s = scenarios[k / plan.repeat];
            RunOptions options;
            options.cancel = &interrupted();
            std::uint64_t ops = 0;
            options.progress = [&, k](const MetricsSample& sample) {
                ops += sample.operations;
                bar.update((double(done.load()) + run_fraction(s, sample, ops)) / double(plan.runs()),
                    "run " + std::to_string(k + 1) + " of " + std::to_string(plan.runs()) + ": "
                        + plan.describe_cell(k / plan.repeat));
            };
            SweepRun r = run_of(plan, k);
            json::Value doc;
            bool have_result = false;
            try {
                const RunResult result = run_scenario(s, options);
                r.ended_by = result.ended_by;
                r.error = result.error;
                doc = to_json(result);
                have_result = true;
                if (const json::Value* figures = doc.find("figures"))
                    take_figures(r, *figures);
            } catch (const std::exception& e) {
                r.ended_by = "failed";
                r.error = e.what();
            }
            // Each run's whole result, as 'run --out' writes it: a failed or
            // cancelled one too, whose ended_by says so.
            if (!out_dir.empty() && have_result)
                try {
                    const std::string cell_dir = out_dir + "/cell-" + std::to_string(k);
                    std::filesystem::create_directories(cell_dir);
                    write_file_atomically(cell_dir + "/summary.json", json::write(doc) + "\n");
                } catch (const std::exception& e) {
                    std::lock_guard g(mu);
                    err << kProgram << " sweep: " << e.what() << '\n';
                    write_failed = true;
                }
            std::lock_guard g(mu);
            runs[k] = std::move(r);
            ++done;
        }
    };
    std::vector<std::thread> threads;
    for (unsigned i = 1; i < parallel; ++i)
        threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads)
        t.join();
    bar.finish();

    int rc = report_sweep(plan, runs, out_dir, caption, format, out, err);
    if (write_failed)
        rc = 1;
    if (interrupted().load()) {
        const auto finished = std::count_if(runs.begin(), runs.end(), [](const SweepRun& r) { return r.finished(); });
        err << kProgram << " sweep: stopped by Ctrl+C with " << finished << " of " << plan.runs()
            << " runs finished; those are in the tables, the others are not\n";
        return kInterruptedExit;
    }
    return rc;
}

int run_compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser("compare");
    parser.add_list("set", "PATH=VALUE", "override a field of both scenarios (as 'run --set')");
    parser.add_list("set-a", "PATH=VALUE", "override a field of A only, after --set");
    parser.add_list("set-b", "PATH=VALUE",
        "override a field of B only, after --set: 'compare P P --set-b index.kind=radix' compares a\n"
        "preset with one change");
    parser.add_string("out", "", "DIR",
        "write compare.csv (the ratios), a/ and b/ (each run's summary.json, timeseries.csv and\n"
        "locks.csv) and charts/ (every series of both runs overlaid, as PNG, SVG and PDF) into DIR");
    parser.add_string("format", "table", "F", "what is printed: table, json or csv");
    parser.allow_operands();
    parser.describe("A B [options]",
        "Runs scenario (or preset) A, then B, one after the other so that neither disturbs the other's\n"
        "timings, and prints each headline figure of both with the ratio B/A.",
        "exit codes: 0 both runs finished, 1 a run failed, 2 bad command line or bad scenario (the\n"
        "message names the field), 130 stopped by Ctrl+C");
    if (const auto code = parser.parse_command(args, out, err, [](const ArgParser& a) {
            check_format(a.get_string("format"));
            for (const char* list : { "set", "set-a", "set-b" })
                for (const std::string& o : a.get_list(list))
                    if (o.find('=') == std::string::npos)
                        throw ArgError("--" + std::string(list) + ": expected PATH=VALUE, got '" + o + "'");
            if (a.operands().size() != 2)
                throw ArgError(a.operands().size() < 2 ? "compare what? (compare A B: two scenarios or presets)"
                                                       : "unexpected argument '" + a.operands()[2] + "' (compare A B)");
            if (const std::string& o = a.get_string("out"); !o.empty())
                prepare_out_dir(o, "compare.csv");
        }))
        return *code;
    const std::string format = parser.get_string("format");
    auto usage_error = [&](const std::string& message) {
        err << kProgram << " compare: " << message << '\n'
            << "Try '" << kProgram << " compare --help' for the options.\n";
        return 2;
    };
    Scenario scenarios[2];
    std::string names[2];
    for (int i = 0; i < 2; ++i) {
        try {
            const ScenarioSource source = load_scenario_source(parser.operands()[std::size_t(i)]);
            std::vector<std::string> overrides = parser.get_list("set");
            for (const std::string& o : parser.get_list(i ? "set-b" : "set-a"))
                overrides.push_back(o);
            scenarios[i] = build_scenario(source, overrides);
            names[i] = stem_of(source.input);
        } catch (const std::runtime_error& e) {
            return usage_error(std::string(i ? "B: " : "A: ") + e.what());
        }
    }
    if (names[0] == names[1]) {
        names[0] += " (A)";
        names[1] += " (B)";
    }

    install_interrupt_handler();
    ProgressBar bar(err);
    RunResult results[2];
    for (int i = 0; i < 2; ++i) {
        RunOptions options;
        options.cancel = &interrupted();
        std::uint64_t ops = 0;
        options.progress = [&, i](const MetricsSample& s) {
            ops += s.operations;
            bar.update((i + run_fraction(scenarios[i], s, ops)) / 2.0, std::string(i ? "B: " : "A: ") + names[i]);
        };
        try {
            results[i] = run_scenario(scenarios[i], options);
        } catch (const std::exception& e) {
            bar.finish();
            return usage_error(std::string(i ? "B: " : "A: ") + e.what());
        }
        if (interrupted().load())
            break;
    }
    bar.finish();
    if (interrupted().load()) {
        err << kProgram << " compare: stopped by Ctrl+C: "
            << (results[0].ended_by == "cancelled" ? "A did not finish; nothing was compared"
                                                   : "B did not finish; nothing was compared")
            << '\n';
        return kInterruptedExit;
    }

    Report table({ "figure", "unit", "A", "B", "B/A" });
    const std::vector<RunFigure> fa = run_figures(results[0]), fb = run_figures(results[1]);
    for (std::size_t i = 0; i < fa.size(); ++i) {
        table.add_row();
        table.set("figure", fa[i].name);
        table.set("unit", fa[i].unit);
        table.set("A", format == "table" ? significant(fa[i].value) : csv_number(fa[i].value));
        table.set("B", format == "table" ? significant(fb[i].value) : csv_number(fb[i].value));
        if (fa[i].value != 0)
            table.set(
                "B/A", format == "table" ? fixed(fb[i].value / fa[i].value, 3) : csv_number(fb[i].value / fa[i].value));
    }
    if (format == "table")
        out << "A: " << names[0] << " (" << parameter_caption(scenarios[0]) << ")\nB: " << names[1] << " ("
            << parameter_caption(scenarios[1]) << ")\n\n";
    print_table(out, table, format);

    int rc = 0;
    for (int i = 0; i < 2; ++i)
        if (results[i].state == "failed") {
            err << kProgram << " compare: " << (i ? "B" : "A") << " failed: " << results[i].error << '\n';
            rc = 1;
        }
    if (const std::string& dir = parser.get_string("out"); !dir.empty()) {
        std::vector<std::string> written;
        auto write = [&](const std::string& name, const std::string& text) {
            try {
                std::filesystem::create_directories(std::filesystem::path(dir + "/" + name).parent_path());
                write_file_atomically(dir + "/" + name, text);
                written.push_back(name);
            } catch (const std::exception& e) {
                err << kProgram << " compare: " << e.what() << '\n';
                rc = 1;
            }
        };
        write("compare.csv", table.csv());
        for (int i = 0; i < 2; ++i) {
            const std::string sub = i ? "b/" : "a/";
            write(sub + "summary.json", json::write(to_json(results[i])) + "\n");
            write(sub + "timeseries.csv", series_csv(results[i]));
            write(sub + "locks.csv", locks_csv(results[i]));
        }
        // Every series of both runs on one chart each, A and B named in
        // the legend, so that a figure's difference is seen over the run.
        std::size_t charts = 0;
        if (can_render()) {
            try {
                charts = write_comparison_charts(results[0], results[1], names[0], names[1], dir + "/charts").size();
            } catch (const std::exception& e) {
                err << kProgram << " compare: " << e.what() << '\n';
                rc = 1;
            }
        } else {
            err << kProgram << " compare: no charts: " << cannot_render_reason() << '\n';
        }
        out << '\n'
            << written.size() + charts << " files written to " << dir << " (" << written.size() << " tables and results"
            << (charts ? ", " + std::to_string(charts) + " charts in charts/" : std::string()) << ")\n";
    }
    return rc;
}

} // namespace pcl::cli
