#include "cli_sweep.h"

#include "cli_progress.h"
#include "cli_scenarios.h"
#include "cli_sweep_collect.h"
#include "cli_sweep_plan.h"
#include "cli_sweep_report.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/shell_quote.h"
#include "sim/run_figures.h"
#include "sim/runner.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace pcl::cli {

namespace {

/// This program, as the job lines run it: its absolute path when the
/// system says it, else its name (found on PATH).
std::string self_path()
{
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(kProgram) : p.string();
}

ArgParser make_sweep_parser()
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
        "spread), sweep.json (the grid), cell-C/repeat-R/summary.json (each run's result, by its cell\n"
        "and repeat) and charts/NAME_FIGURE-vs-FIELD.png, .svg and .pdf into DIR");
    parser.add_output("jobs", "FILE",
        "run nothing: write one '" + std::string(kProgram)
            + " run ... --out DIR/cell-C/repeat-R' command per run to FILE, for GNU parallel, a Slurm array or any\n"
              "batch scheduler (needs --out DIR); 'sweep --collect DIR' merges their outputs");
    parser.add_string("collect", "", "DIR", "run nothing: tabulate and chart the runs a --jobs file ran into DIR");
    parser.add_string("resume", "", "DIR",
        "go on with the sweep whose --out was DIR (stopped by Ctrl+C, or with runs that failed): run only\n"
        "the runs without a finished result there, then write the tables and chart of the whole grid");
    parser.add_string("format", "table", "F", "what is printed: table, json or csv (the summary)");
    parser.allow_operands();
    parser.describe(
        "SCENARIO|PRESET --vary FIELD=v1,v2,... [options]\n       " + std::string(kProgram)
            + " sweep --collect DIR [--format F]\n       " + std::string(kProgram)
            + " sweep --resume DIR [--parallel N] [--format F]",
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
    return parser;
}

/// The checks of the command line that need no scenario.
void check_sweep_args(const ArgParser& a)
{
    check_format(a.get_string("format"));
    const std::vector<std::string> names = run_figure_names();
    if (std::find(names.begin(), names.end(), a.get_string("figure")) == names.end())
        throw ArgError("--figure: '" + a.get_string("figure") + "' is not a figure (see --help)");
    check_overrides(a);
    for (const char* option : { "collect", "resume" })
        if (a.given(option)) {
            if (a.given("collect") && a.given("resume"))
                throw ArgError("--collect and --resume: one or the other");
            if (!a.operands().empty() || a.given("vary") || a.given("jobs") || a.given("out") || a.given("set")
                || a.given("repeat"))
                throw ArgError("--" + std::string(option)
                    + " DIR takes no scenario, --vary, --set, --repeat, --jobs or --out: the grid is in DIR");
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
        const SweepAxis axis = parse_vary(v);
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
}

/// The grid the command line asks for; its scenario and name are the
/// operand's (name_grid).
SweepPlan plan_of_args(const ArgParser& parser)
{
    SweepPlan plan;
    plan.sets = parser.get_list("set");
    for (const std::string& v : parser.get_list("vary"))
        plan.axes.push_back(parse_vary(v));
    plan.repeat = unsigned(parser.get_uint("repeat"));
    plan.figure = parser.get_string("figure");
    return plan;
}

/// The scenario of every cell, each checked before anything runs: a bad
/// value is found now, not after an hour of runs. Each bad cell is named on
/// @err; nothing when one was bad.
std::optional<std::vector<Scenario>> build_cells(const SweepPlan& plan, const ScenarioSource& source, std::ostream& err)
{
    std::vector<Scenario> scenarios;
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
    if (bad_cells) {
        sweep_usage_error(err,
            std::to_string(bad_cells) + " of " + std::to_string(plan.cells())
                + " cells are not valid scenarios; nothing was run");
        return std::nullopt;
    }
    return scenarios;
}

/// The parameters every cell shares: the scenario's with --set (each
/// cell's varied fields are named beside it).
std::string shared_caption(const SweepPlan& plan, const ScenarioSource& source, const Scenario& first_cell)
{
    try {
        return parameter_caption(build_scenario(source, plan.sets), plan.varied_fields());
    } catch (const std::runtime_error&) {
        return parameter_caption(first_cell, plan.varied_fields());
    }
}

/// Writes sweep.json into @out_dir and removes what an earlier grid left
/// in its cells; false once @err has been told what failed.
bool write_plan(const SweepPlan& plan, const std::string& out_dir, std::ostream& err)
{
    try {
        write_file_atomically(out_dir + "/sweep.json", json::write(plan_to_json(plan)) + "\n");
        // A cell's result from an earlier sweep into the same directory
        // would be taken by --collect for this grid's: removed.
        for (std::size_t k = 0; k < plan.runs(); ++k) {
            std::error_code ec;
            const std::string stale = out_dir + "/" + plan.run_dir(k) + "/summary.json";
            if (!std::filesystem::remove(stale, ec) && ec)
                throw std::runtime_error(stale + ": cannot remove an earlier sweep's result: " + ec.message());
        }
    } catch (const std::exception& e) {
        err << kProgram << " sweep: " << e.what() << '\n';
        return false;
    }
    return true;
}

/// `--jobs FILE`: one `run` command per run of the grid, each writing its
/// cell of @out_dir, instead of running them. Returns the exit code.
int write_jobs(
    const SweepPlan& plan, const std::string& jobs, const std::string& out_dir, std::ostream& out, std::ostream& err)
{
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
        // A cell needs its results, which are kilobytes; its report and its
        // trace (megabytes each) are left out.
        line += " --out " + shell_quote(cells_dir + "/" + plan.run_dir(k)) + " --no-report --no-trace > /dev/null\n";
        text += line;
    }
    try {
        write_output(jobs, text, out);
    } catch (const std::exception& e) {
        err << kProgram << " sweep: " << e.what() << '\n';
        return 1;
    }
    // Runs that share a machine's CPUs disturb each other's timings (the
    // help's advice): one at a time here, or one a machine elsewhere.
    const std::string run_them = jobs == kStdoutPath ? std::string("run them")
                                                     : "run them one at a time here ('sh " + shell_quote(jobs) + "')";
    (jobs == kStdoutPath ? err : out) << plan.runs() << " run commands (" << plan.cells() << " cells x " << plan.repeat
                                      << ") written to " << output_name(jobs) << "; " << run_them
                                      << " or one a machine (GNU parallel --sshlogin, a Slurm array), then '"
                                      << kProgram << " sweep --collect " << shell_quote(out_dir) << "'\n";
    return 0;
}

/// Runs every run of a grid on @parallel threads, each taking the next run
/// not yet taken, until all are done or Ctrl+C; with an output directory,
/// writes each run's result into its cell.
class GridRunner {
public:
    /// @done: the runs of the grid as an earlier sweep left them (--resume);
    /// those that finished are not run again.
    GridRunner(const SweepPlan& plan, const std::vector<Scenario>& scenarios, const std::string& out_dir,
        std::vector<SweepRun> done, std::ostream& err)
        : plan_(plan)
        , scenarios_(scenarios)
        , out_dir_(out_dir)
        , err_(err)
        , bar_(err)
        , runs_(std::move(done))
    {
        for (std::size_t k = runs_.size(); k < plan_.runs(); ++k)
            runs_.push_back(run_of(plan_, k));
        done_ = std::size_t(std::count_if(runs_.begin(), runs_.end(), [](const SweepRun& r) { return r.finished(); }));
    }

    void run(unsigned parallel)
    {
        std::vector<std::thread> threads;
        for (unsigned i = 1; i < parallel; ++i)
            threads.emplace_back([this] { work(); });
        work();
        for (std::thread& t : threads)
            t.join();
        bar_.finish();
    }

    /// Every run of the grid: those Ctrl+C stopped before they started are
    /// "not run".
    const std::vector<SweepRun>& runs() const { return runs_; }
    /// Whether a run's result could not be written into its cell.
    bool write_failed() const { return write_failed_; }

private:
    void work()
    {
        while (!interrupted().load()) {
            const std::size_t k = next_.fetch_add(1);
            if (k >= plan_.runs())
                return;
            if (runs_[k].finished()) // an earlier sweep's, resumed
                continue;
            SweepRun r = run_one(k);
            std::lock_guard g(mu_);
            runs_[k] = std::move(r);
            ++done_;
        }
    }

    SweepRun run_one(std::size_t k)
    {
        const Scenario& s = scenarios_[k / plan_.repeat];
        RunOptions options;
        options.cancel = &interrupted();
        std::uint64_t ops = 0;
        options.progress = [&, k](const MetricsSample& sample) {
            ops += sample.operations;
            bar_.update((double(done_.load()) + run_fraction(s, sample, ops)) / double(plan_.runs()),
                "run " + std::to_string(k + 1) + " of " + std::to_string(plan_.runs()) + ": "
                    + plan_.describe_cell(k / plan_.repeat));
        };
        SweepRun r = run_of(plan_, k);
        json::Value doc;
        bool have_result = false;
        try {
            const RunResult result = run_scenario(s, options);
            r.ended_by = result.ended_by;
            r.error = result.error;
            r.provenance = result.provenance;
            doc = to_json(result);
            have_result = true;
            if (const json::Value* figures = doc.find("figures"))
                take_figures(r, *figures);
        } catch (const std::exception& e) {
            r.ended_by = RunEnd::Failed;
            r.error = e.what();
        }
        // Each run's whole result, as 'run --out' writes it: a failed or
        // cancelled one too, whose ended_by says so.
        if (!out_dir_.empty() && have_result)
            write_cell(k, doc);
        return r;
    }

    void write_cell(std::size_t k, const json::Value& doc)
    {
        try {
            const std::string cell_dir = out_dir_ + "/" + plan_.run_dir(k);
            std::filesystem::create_directories(cell_dir);
            write_file_atomically(cell_dir + "/summary.json", json::write(doc) + "\n");
        } catch (const std::exception& e) {
            std::lock_guard g(mu_);
            err_ << kProgram << " sweep: " << e.what() << '\n';
            write_failed_ = true;
        }
    }

    const SweepPlan& plan_;
    const std::vector<Scenario>& scenarios_;
    const std::string& out_dir_;
    std::ostream& err_;
    ProgressBar bar_;
    std::vector<SweepRun> runs_;
    std::atomic<std::size_t> next_ { 0 }, done_ { 0 };
    std::mutex mu_; // runs_[], and the files of a cell
    bool write_failed_ = false;
};

/// Runs the grid in this process and reports it. Returns the exit code.
int run_grid(const SweepPlan& plan, const std::vector<Scenario>& scenarios, std::vector<SweepRun> done,
    unsigned parallel, const std::string& out_dir, const std::string& caption, const std::string& format,
    std::ostream& out, std::ostream& err)
{
    const auto finished_before
        = std::size_t(std::count_if(done.begin(), done.end(), [](const SweepRun& r) { return r.finished(); }));
    err << kProgram << " sweep: " << plan.runs() - finished_before << " runs";
    if (done.empty())
        err << " (" << plan.cells() << " cells x " << plan.repeat << ")";
    else
        err << " of " << plan.runs() << " (" << finished_before << " finished before, in " << out_dir << ")";
    err << " of " << plan.name << ", "
        << (parallel == 1 ? std::string("one after another, so that no run shares the CPUs with another")
                          : std::to_string(parallel)
                       + " at once: they share the CPUs, so their timings disturb "
                         "each other")
        << '\n';

    install_interrupt_handler();
    GridRunner runner(plan, scenarios, out_dir, std::move(done), err);
    runner.run(parallel);
    const std::vector<SweepRun>& runs = runner.runs();

    int rc = report_sweep(plan, runs, out_dir, caption, format, out, err);
    if (runner.write_failed())
        rc = 1;
    if (interrupted().load()) {
        const auto finished = std::count_if(runs.begin(), runs.end(), [](const SweepRun& r) { return r.finished(); });
        err << kProgram << " sweep: stopped by Ctrl+C with " << finished << " of " << plan.runs()
            << " runs finished; those are in the tables, the others are not\n";
        return kInterruptedExit;
    }
    return rc;
}

/// `--resume DIR`: the grid of DIR/sweep.json, its runs as DIR's cells hold
/// them, and the runs without a finished result made now. Returns the exit code.
int resume_sweep(const ArgParser& parser, std::ostream& out, std::ostream& err)
{
    const std::string dir = parser.get_string("resume");
    std::optional<SweepPlan> grid = read_grid(dir, "--resume", err);
    if (!grid)
        return 2;
    SweepPlan& plan = *grid;
    if (parser.given("figure"))
        plan.figure = parser.get_string("figure");
    ScenarioSource source;
    try {
        source = load_scenario_source(plan.scenario);
    } catch (const std::runtime_error& e) {
        return sweep_usage_error(err, "--resume: the grid's scenario: " + std::string(e.what()));
    }
    const std::optional<std::vector<Scenario>> scenarios = build_cells(plan, source, err);
    if (!scenarios)
        return 2;
    std::vector<SweepRun> done;
    std::string unused;
    for (std::size_t k = 0; k < plan.runs(); ++k)
        done.push_back(read_cell(plan, k, dir, unused));
    const unsigned parallel = unsigned(std::min<std::uint64_t>(parser.get_uint("parallel"), plan.runs()));
    return run_grid(plan, *scenarios, std::move(done), parallel, dir, shared_caption(plan, source, scenarios->front()),
        parser.get_string("format"), out, err);
}

} // namespace

int run_sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser = make_sweep_parser();
    if (const auto code = parser.parse_command(args, out, err, check_sweep_args))
        return *code;
    const std::string format = parser.get_string("format");
    if (parser.given("collect"))
        return collect_sweep(
            parser.get_string("collect"), parser.given("figure") ? parser.get_string("figure") : "", format, out, err);

    if (parser.given("resume"))
        return resume_sweep(parser, out, err);
    SweepPlan plan = plan_of_args(parser);
    if (plan.runs() > kMaxSweepRuns)
        return sweep_usage_error(
            err, "--vary: " + std::to_string(plan.runs()) + " runs; at most " + std::to_string(kMaxSweepRuns));
    ScenarioSource source;
    try {
        source = load_scenario_source(parser.operands()[0]);
    } catch (const std::runtime_error& e) {
        return sweep_usage_error(err, e.what());
    }
    plan.name = scenario_name(source.input);
    plan.scenario = source.input.preset ? source.input.origin
                                        : std::filesystem::absolute(source.input.origin).lexically_normal().string();
    const std::optional<std::vector<Scenario>> scenarios = build_cells(plan, source, err);
    if (!scenarios)
        return 2;
    const std::string caption = shared_caption(plan, source, scenarios->front());

    const std::string out_dir = parser.get_string("out");
    if (!out_dir.empty() && !write_plan(plan, out_dir, err))
        return 1;
    if (const std::string& jobs = parser.get_string("jobs"); !jobs.empty())
        return write_jobs(plan, jobs, out_dir, out, err);
    const unsigned parallel = unsigned(std::min<std::uint64_t>(parser.get_uint("parallel"), plan.runs()));
    return run_grid(plan, *scenarios, {}, parallel, out_dir, caption, format, out, err);
}

} // namespace pcl::cli
