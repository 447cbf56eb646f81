// pagecache-lab-cli: Page Cache Lab without a display.
//
// Runs a scenario file or a bundled preset (`run`), lists the presets and
// checks files (`presets`, `validate`: cli_scenarios.h), lists and measures the lessons
// (`experiments`, `experiment`: cli_experiment.h), lists and prints the
// modelled machines' profiles (`machines`: cli_machines.h), measures this
// machine's (`calibrate`: cli_calibrate.h), explores a scenario's
// schedules for races (`explore`: cli_explore.h), dispatches
// `bench <name> [options]` to the benchmark commands of bench/ and
// `probe <name> [options]` to the probes of the host kernel (each parses
// its own options with lib/arg_parser.h) and prints usage and version. The benchmarks and probes are listed once, in
// kBench and kProbe below: the help, the dispatch and the messages naming
// them all come from there. Exit codes: 0 success, 1 failure while running
// (or a probe that cannot measure), 2 bad command line or bad scenario.
#include "cli_calibrate.h"
#include "cli_compare.h"
#include "cli_experiment.h"
#include "cli_explore.h"
#include "cli_machines.h"
#include "cli_progress.h"
#include "cli_render.h"
#include "cli_repeat.h"
#include "cli_run_trace.h"
#include "cli_scenarios.h"
#include "cli_sweep.h"
#include "concurrent_pagecache_bench.h"
#include "engine_bench.h"
#include "index_bench.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/output_set.h"
#include "lib/provenance.h"
#include "lib/report.h"
#include "lib/text.h"
#include "lock_bench.h"
#include "machines_bench.h"
#include "mm/readahead_log.h"
#include "probe/readahead_probe.h"
#include "readahead_bench.h"
#include "sim/chrome_trace.h"
#include "sim/run_figures.h"
#include "sim/run_summary.h"
#include "sim/run_tables.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <algorithm>
#include <csignal>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using pcl::kProgram;

// ---------------------------------------------------------------------------
// bench and probe

/// A benchmark or probe: how the help lists it and what runs it.
struct Subcommand {
    std::string_view name;
    std::string_view synopsis;                 ///< its options in one line, after "bench NAME"
    std::vector<std::string_view> description; ///< the help's lines beside it
    std::string (*usage)();                    ///< its option lines, for the top-level help; nullptr: not shown there
    int (*run)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
};

/// `bench` or `probe`, and its subcommands in the order the help lists them.
struct CommandGroup {
    std::string_view word;  ///< the command: "bench"
    std::string_view noun;  ///< what it runs: "benchmark"
    std::string_view title; ///< the heading of its list in the help
    std::vector<Subcommand> commands;
};

const CommandGroup kBench { "bench", "benchmark", "benchmarks",
    {
        { "indexes", "[options]",
            { "every page index x locking scheme and the peer libraries: insert,",
                "lookup (hit, miss), gang lookup, erase; concurrent lookups at 1..T threads" },
            pcl::bench::index_bench_usage, pcl::bench::run_index_bench },
        { "locks", "[options]",
            { "cost of lockstat-style instrumentation: bare lock vs instrumented,",
                "uncontended and with T threads on one lock" },
            pcl::bench::lock_bench_usage, pcl::bench::run_lock_bench },
        { "concurrent-pagecache", "[--scale F] [--shift S] [--csv FILE]",
            { "Zijlstra's radix tree benchmark from the concurrent pagecache thread",
                "(2007): 2 threads on one tree, one lock against per-node and optimistic",
                "locking; 'bench concurrent-pagecache --help' describes its options" },
            nullptr, pcl::bench::run_concurrent_pagecache_bench },
        { "engine", "[--pages N] [--max-threads T] [--csv FILE] [--format F]",
            { "minor faults per second on one CPU, and the pft sweep of the",
                "pagefault scalability thread (2005) with mm->page_table_lock", "against split PTE locks" },
            nullptr, pcl::bench::run_engine_bench },
        { "machines", "[--part P] [--scales S,...] [--csv FILE] [--format F]",
            { "how well the modelled machines predict: this computer's runs beside",
                "its calibrated model, and pft on altix-2005 and reads on the 8-way",
                "Pentium III beside the threads' tables" },
            nullptr, pcl::bench::run_machines_bench },
        { "readahead", "[options]",
            { "Morton's readahead-thrashing test from the multipage I/O and readahead",
                "thread (2002) swept over N files with linux-2.6.32, morton-2002 and no",
                "readahead; trace replay speed" },
            nullptr, pcl::bench::run_readahead_bench },
    } };

const CommandGroup kProbe { "probe", "probe", "probes of the running kernel",
    {
        { "readahead", "[--file F] [--pattern seq|random|backward|stride:N] [--reads N] [--csv FILE]",
            { "the host's real readahead windows (posix_fadvise DONTNEED, one-page",
                "reads, mincore), in the simulator's readahead format" },
            pcl::probe_readahead_usage, pcl::run_probe_readahead },
    } };

/// "indexes, locks, ...": the names, for messages.
std::string names_of(const CommandGroup& group)
{
    std::string names;
    for (const Subcommand& c : group.commands)
        names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

/// The group's list: each subcommand and its synopsis, then its description
/// from column 28 (on a line of its own when the synopsis reaches it).
void print_commands(std::ostream& out, const CommandGroup& group)
{
    constexpr std::size_t kColumn = 28;
    out << group.title << ":\n";
    for (const Subcommand& c : group.commands) {
        std::string left = "  " + std::string(group.word) + ' ' + std::string(c.name);
        if (!c.synopsis.empty())
            left += ' ' + std::string(c.synopsis);
        if (left.size() < kColumn)
            left.resize(kColumn, ' ');
        else
            left += '\n' + std::string(kColumn, ' ');
        out << left;
        for (std::size_t i = 0; i < c.description.size(); ++i)
            out << (i ? std::string(kColumn, ' ') : std::string()) << c.description[i] << '\n';
    }
}

// ---------------------------------------------------------------------------
// run: its options and its help

pcl::ArgParser make_run_parser()
{
    pcl::ArgParser p("run");
    p.add_list("set", "PATH=VALUE",
        "override a field of the scenario before it is checked, e.g. --set workload.cpus=4 --set index.kind=hash "
        "--set duration_seconds=2; VALUE is read as JSON when it is JSON, as a string otherwise");
    p.add_output("json", "FILE",
        "also write the whole result (totals, lock tables, latency histograms, metrics time series) as JSON to "
        "FILE, atomically");
    p.add_output("readahead-log", "FILE",
        "write every readahead window as CSV to FILE, atomically: time_us,cpu,file,start,size,async_size,kind,rule "
        "(kind sync or async; time from the run's first event)");
    p.add_string("out", "", "DIR",
        "also write the run's files into DIR (created if missing), each atomically: summary.json (the "
        "whole result, as --json writes it), timeseries.csv (one row per metrics sample), locks.csv "
        "(one row per named lock and per lock class), trace.json (the run's events as a Chrome "
        "trace for Perfetto or chrome://tracing), report.html (one page: the scenario, its parameters, "
        "counters, lock tables, latencies and every chart inline), report.pdf (the same on A4 pages) and "
        "charts/ (every chart as PNG, SVG and PDF, named SCENARIO_CHART.png, e.g. "
        "2002-global-hash-lock_lock-wait.svg); a build without the GUI writes no report nor charts");
    p.add_string("format", "table", "F",
        "what is printed: table (the summary and the lock tables), json (the whole result, as --json "
        "writes it) or csv (each headline figure: figure,unit,value); with json or csv, what the run "
        "wrote is said on stderr, so that stdout holds the result alone");
    p.add_flag("no-report",
        "with --out, leave out report.html, report.pdf and charts/ (the cells of a sweep's --jobs lines need "
        "only their results)");
    p.add_uint("repeat", 1, 1, 1000, "N",
        "run it N times, one after another, and print each headline figure's mean, standard deviation, min, "
        "max and 95 % interval (as --format asks; not with --out, --json or --readahead-log, which are one "
        "run's files)");
    pcl::cli::add_trace_options(p);
    p.add_flag("progress", "print one line per metrics sample on stderr while running");
    p.allow_operands(); // the scenario file or preset
    p.describe("SCENARIO.json|PRESET [options]",
        "Runs the scenario (a file, or a bundled preset by name: 'presets' lists them) headless,\n"
        "then prints a summary (operations, faults by kind, page-cache hit\n"
        "ratio, insert races, PTE back-outs, page-lock waits, I/O, events) and lockstat-style tables of\n"
        "the named locks and the lock classes, sorted by contentions (times in microseconds).",
        "exit codes: 0 the run finished or reached its duration, 1 the run failed (the engine's\n"
        "error is printed, or a file could not be written), 2 bad command line or bad scenario (the\n"
        "message names the field), 130 stopped by Ctrl+C (the summary and files cover the run up to then)");
    return p;
}

// ---------------------------------------------------------------------------
// the commands

void print_usage(std::ostream& out)
{
    out << "usage: " << kProgram << " <command> [options]\n"
        << "       " << kProgram << " --help | --version\n\n"
        << "Page Cache Lab, headless: runs scenarios and benchmarks, prints tables and writes JSON and CSV.\n\n"
        << "commands:\n"
        << "  run SCENARIO.json|PRESET [--set PATH=VALUE]... [--format F] [--json FILE] [--readahead-log FILE]\n"
        << "      [--out DIR]\n"
        << "                            run a scenario file or a bundled preset and print its summary\n"
        << "                            and lock tables; 'run --help' describes its options\n"
        << "  presets [--format table|json|csv]\n"
        << "                            list the bundled scenarios, one line each\n"
        << "  validate FILE|PRESET...   check scenario and lesson files without running them: every\n"
        << "                            problem of each, with its field (exit 2 if any)\n"
        << "  sweep SCENARIO|PRESET --vary FIELD=v1,v2,... [--repeat N] [--format F] [--out DIR] [--jobs FILE]\n"
        << "                            run a grid of parameter values; one CSV row per run, the median\n"
        << "                            and spread per cell, the chart; 'sweep --help' describes it\n"
        << "  sweep --collect DIR [--format F]\n"
        << "                            tabulate and chart a grid whose runs a batch scheduler ran\n"
        << "  compare A B [--set-b PATH=VALUE]... [--format F] [--out DIR]\n"
        << "                            run two scenarios and print each figure of both and B/A\n"
        << "  experiments [--probes] [--format F]\n"
        << "                            list the lessons: each argument of the mailing-list threads\n"
        << "  experiment NAME [--quick] [--repeat N] [--format F] [--json FILE] [--out DIR]\n"
        << "                            measure a lesson's claims on this machine and print the verdicts\n"
        << "                            (with --out, its report as HTML and PDF too);\n"
        << "                            'experiment --help' describes its options\n"
        << "  machines [NAME] [--format table|json|csv]\n"
        << "                            list the modelled machines' profiles; with NAME, every parameter\n"
        << "                            of one, with its unit and source\n"
        << "  calibrate [--out FILE] [--quick] [--format F]\n"
        << "                            measure this machine (topology, cache-line transfers, the engine's\n"
        << "                            operations on one CPU) and write its profile, 'host'\n"
        << "  explore SCENARIO|PRESET [--schedules N] [--strategy random|pct] [--depth D] [--seed S]\n"
        << "      [--replay SEED] [--format F]\n"
        << "                            run it under many schedules of a modelled machine, check the page\n"
        << "                            cache after each, and print the seed of the first that breaks it\n\n";
    print_commands(out, kBench);
    out << '\n';
    print_commands(out, kProbe);
    for (const CommandGroup* group : { &kBench, &kProbe })
        for (const Subcommand& c : group->commands)
            if (c.usage)
                out << "\noptions of " << group->word << ' ' << c.name << ":\n" << c.usage();
    out << "\nF is table (aligned columns, the default), json or csv: the data alone on stdout, notes on\n"
        << "stderr; an output FILE of - is stdout. 'help COMMAND' is 'COMMAND --help'.\n"
        << "\nglobal options:\n"
        << "  -h, --help   show this help\n"
        << "  --version    print the version\n";
}

int usage_error(const std::string& message)
{
    std::cerr << kProgram << ": " << message << '\n' << "Try '" << kProgram << " --help' for the commands.\n";
    return 2;
}

/// `bench ...` or `probe ...`: runs the subcommand @args names, or prints
/// the group's help.
int run_group(const CommandGroup& group, const std::vector<std::string>& args)
{
    const std::string word(group.word), noun(group.noun);
    if (args.empty())
        return usage_error(word + ": which " + noun + "? (" + names_of(group) + ")");
    const std::string& name = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const Subcommand& c : group.commands)
        if (name == c.name)
            return c.run(rest, std::cout, std::cerr);
    if (name == "--help" || name == "-h") {
        if (!rest.empty())
            return usage_error(word + " --help: unexpected argument '" + rest[0] + "'");
        std::cout << "usage: " << kProgram << ' ' << word << " <" << noun << "> [options]\n\n";
        print_commands(std::cout, group);
        std::cout << "\n'" << kProgram << ' ' << word << " <" << noun << "> --help' lists a " << noun
                  << "'s options.\n";
        return 0;
    }
    if (name.rfind("-", 0) == 0)
        return usage_error(word + ": unknown option '" + name + "'");
    return usage_error(word + ": unknown " + noun + " '" + name + "' (" + names_of(group) + ")");
}

int run_usage_error(const std::string& message)
{
    std::cerr << kProgram << " run: " << message << '\n' << "Try '" << kProgram << " run --help' for the options.\n";
    return 2;
}

/// Says which report files @files (write_run_report's) are in @dir: the
/// report's pages by name, the charts by what they show.
void print_report_files(std::ostream& out, const std::vector<std::string>& files, const std::string& dir)
{
    std::string pages, charts, stem;
    std::size_t chart_files = 0;
    for (const std::string& f : files) {
        const std::filesystem::path p(f);
        if (p.parent_path().filename() != "charts") {
            pages += (pages.empty() ? "" : ", ") + p.filename().string();
            continue;
        }
        ++chart_files;
        if (p.extension() != ".png")
            continue;
        // STEM_CHART.png: the stem is the scenario's, the chart after its last '_'.
        const std::string name = p.stem().string();
        const std::size_t cut = name.rfind('_');
        stem = name.substr(0, cut);
        charts += (charts.empty() ? "" : ", ") + name.substr(cut + 1);
    }
    if (!pages.empty())
        out << pages << " written to " << dir << '\n';
    if (chart_files)
        out << chart_files << " chart files written to " << (std::filesystem::path(dir) / "charts").string() << ", "
            << stem << "_CHART.png, .svg and .pdf for each of: " << charts << '\n';
}

/// The files `run --out DIR` writes: a later run replaces exactly these.
const std::vector<std::string> kRunFiles
    = { "summary.json", "timeseries.csv", "locks.csv", "trace.json", "report.html", "report.pdf", "charts" };

/// Writes the files of @result into @dir as one set (lib/output_set.h):
/// either every one of them replaces the last run's, or, when one cannot be
/// written, none does and the directory keeps the last run's. Without
/// @trace (--no-trace), no trace.json: the set replaces the directory
/// whole, so a last run's trace.json goes too. Says what it wrote on @notes
/// and what failed, or what the trace left out, on stderr; false when
/// something failed.
bool write_run_files(const pcl::RunResult& result, const std::string& stem, const pcl::ChromeTrace* trace,
    const std::string& dir, bool report, std::ostream& notes)
{
    try {
        pcl::OutputSet set(dir);
        std::vector<std::pair<const char*, std::string>> files = {
            { "summary.json", pcl::json::write(pcl::to_json(result)) + "\n" },
            { "timeseries.csv", pcl::series_csv(result) },
            { "locks.csv", pcl::locks_csv(result) },
        };
        if (trace)
            files.emplace_back("trace.json", trace->json(result));
        std::string written;
        for (const auto& [name, text] : files) {
            pcl::write_file_atomically(set.path(name), text);
            written += (written.empty() ? "" : ", ") + std::string(name);
        }
        std::vector<std::string> report_files;
        if (report && pcl::cli::can_render())
            report_files = pcl::cli::write_run_report(result, stem, set.staging());
        set.commit();
        notes << "\n" << written << " written to " << dir << '\n';
        if (trace)
            pcl::cli::note_trace_cut(std::cerr, *trace, result);
        if (!report_files.empty())
            print_report_files(notes, report_files, dir);
        else if (report)
            std::cerr << kProgram << " run: no report.html, report.pdf nor charts: " << pcl::cli::cannot_render_reason()
                      << '\n';
        return true;
    } catch (const std::exception& e) {
        std::cerr << kProgram << " run: " << e.what() << "; nothing was written to " << dir
                  << ", which holds what it held before\n";
        return false;
    }
}

int run_command(const std::vector<std::string>& args)
{
    pcl::ArgParser parser = make_run_parser();
    pcl::cli::TraceRequest traced;
    if (const auto code = parser.parse_command(args, std::cout, std::cerr, [&traced](const pcl::ArgParser& p) {
            pcl::cli::check_overrides(p);
            const std::vector<std::string>& files = p.operands();
            if (files.size() > 1)
                throw pcl::ArgError("unexpected argument '" + files[1] + "' (one scenario per run)");
            if (files.empty())
                throw pcl::ArgError("which scenario? (run SCENARIO.json or run PRESET)");
            pcl::cli::check_format(p.get_string("format"));
            if (p.get_uint("repeat") > 1)
                for (const char* one : { "out", "json", "readahead-log" })
                    if (p.given(one))
                        throw pcl::ArgError("--repeat gives the statistics of several runs; --" + std::string(one)
                            + " writes one run's: run without --repeat for it");
            traced = pcl::cli::trace_request(p);
            // An output directory that cannot be written fails now, not after the run.
            if (const std::string& out = p.get_string("out"); !out.empty()) {
                pcl::cli::prepare_out_dir(out, "summary.json");
                // What a run replaces is its own files; anything else
                // there is the user's, which the swap would take away.
                if (const auto other = pcl::OutputSet::foreign_entries(out, kRunFiles); !other.empty())
                    throw pcl::ArgError("--out: " + out + " holds what a run does not write (" + other.front()
                        + (other.size() > 1 ? " and " + std::to_string(other.size() - 1) + " more" : "")
                        + "): give a new or empty directory, or one a run wrote");
            }
        }))
        return *code;
    const std::string json_path = parser.get_string("json");
    const std::string ra_log_path = parser.get_string("readahead-log");

    pcl::cli::ScenarioSource source;
    pcl::Scenario scenario;
    try {
        source = pcl::cli::load_scenario_source(parser.operands()[0]);
        scenario = pcl::cli::build_scenario(source, parser.get_list("set"));
    } catch (const std::runtime_error& e) {
        return run_usage_error(e.what());
    }
    const std::string& path = source.input.origin;

    if (const unsigned repeats = unsigned(parser.get_uint("repeat")); repeats > 1)
        return pcl::cli::run_repeated(scenario, std::filesystem::path(path).stem().string(), repeats,
            parser.get_string("format"), std::cout, std::cerr);

    pcl::RunOptions options;
    // Ctrl+C ends the run as "cancelled": its summary and files are written.
    pcl::cli::install_interrupt_handler();
    options.cancel = &pcl::cli::interrupted();
    pcl::cli::ProgressBar bar(std::cerr, !parser.get_flag("progress") && pcl::cli::ProgressBar::stderr_is_terminal());
    std::uint64_t ops_so_far = 0;
    if (!parser.get_flag("progress"))
        options.progress = [&](const pcl::MetricsSample& s) {
            ops_so_far += s.operations;
            bar.update(pcl::cli::run_fraction(scenario, s, ops_so_far), path);
        };
    if (parser.get_flag("progress"))
        options.progress = [](const pcl::MetricsSample& s) {
            std::cerr << std::fixed << std::setprecision(2) << "t=" << s.time_s << "s  ops/s " << std::setprecision(0)
                      << s.operations_per_s << "  faults/s minor " << s.minor_faults_per_s << " major "
                      << s.major_faults_per_s << " wait_io " << s.wait_io_faults_per_s << " anon "
                      << s.anon_faults_per_s << "  lock wait " << std::setprecision(3) << s.lock_wait_fraction
                      << "  page wait " << s.page_wait_fraction << "  in flight " << s.io_in_flight << "  cached "
                      << s.pages_cached << '\n'
                      << std::defaultfloat;
        };
    // Every readahead window, as the events bring them, timed from the run's
    // first event.
    std::string ra_log = std::string(pcl::kReadaheadLogHeader) + "\n";
    std::uint64_t ra_windows = 0, ra_origin_ns = 0;
    const std::string out_dir = parser.get_string("out");
    const bool tracing = !out_dir.empty() && traced.write;
    pcl::ChromeTrace trace(traced.max_events, traced.window);
    // The samples tell the trace where the run started (its window's origin).
    if (tracing)
        options.progress = [&trace, shown = std::move(options.progress)](const pcl::MetricsSample& s) {
            trace.add_sample(s);
            if (shown)
                shown(s);
        };
    if (!ra_log_path.empty() || tracing)
        options.events = [&](const std::vector<pcl::Event>& batch) {
            if (tracing)
                trace.add(batch);
            if (ra_log_path.empty())
                return;
            for (const pcl::Event& e : batch) {
                if (!ra_origin_ns)
                    ra_origin_ns = e.time_ns;
                if (e.kind != pcl::EventKind::ReadaheadWindow)
                    continue;
                ++ra_windows;
                ra_log += pcl::readahead_log_line(pcl::readahead_log_row(e, ra_origin_ns));
            }
        };
    pcl::RunResult result;
    try {
        result = pcl::run_scenario(scenario, options);
    } catch (const pcl::ScenarioError& e) {
        return run_usage_error(path + ": " + e.what());
    } catch (const std::invalid_argument& e) {
        // The engine refusing a combination the scenario's own checks let through.
        return run_usage_error(path + ": " + e.what());
    }
    bar.finish();
    // The result in the format asked for on stdout; with json or csv, the
    // notes on what was written go to stderr, so that stdout parses. An
    // output named "-" takes stdout for itself, and the rest goes to stderr.
    const std::string format = parser.get_string("format");
    const bool stdout_taken = json_path == pcl::kStdoutPath || ra_log_path == pcl::kStdoutPath;
    std::ostream& shown = stdout_taken ? std::cerr : std::cout;
    std::ostream& notes = pcl::cli::notes_stream(format, shown, std::cerr);
    if (format == "table") {
        pcl::print_run_summary(shown, result, path);
    } else if (format == "json") {
        shown << pcl::json::write(pcl::to_json(result)) << '\n';
    } else {
        pcl::Report figures({ "figure", "unit", "value" });
        for (const pcl::RunFigure& f : pcl::run_figures(result)) {
            figures.add_row();
            figures.set("figure", f.name);
            figures.set("unit", f.unit);
            figures.set("value", pcl::cli::csv_number(f.value));
        }
        pcl::cli::print_table(shown, figures, format);
    }

    int rc = result.state == "failed" ? 1 : 0;
    if (rc)
        std::cerr << kProgram << " run: the run failed: " << result.error << '\n';
    if (!ra_log_path.empty()) {
        try {
            pcl::cli::write_output(ra_log_path, ra_log, std::cout);
            notes << "\n"
                  << pcl::counted(ra_windows, "readahead window") << " written to "
                  << pcl::cli::output_name(ra_log_path) << '\n';
            if (result.events_dropped)
                std::cerr << kProgram << " run: the event rings dropped " << result.events_dropped
                          << " records (an unpaced run outran the reader); windows among them are missing from "
                          << ra_log_path << ": set pacing.ops_per_second or events.ring_capacity to keep them all\n";
        } catch (const std::exception& e) {
            std::cerr << kProgram << " run: " << e.what() << '\n';
            rc = 1;
        }
    }
    if (!json_path.empty()) {
        try {
            pcl::cli::write_output(json_path, pcl::json::write(pcl::to_json(result)) + "\n", std::cout);
            notes << "\nresult written to " << pcl::cli::output_name(json_path) << '\n';
        } catch (const std::exception& e) {
            std::cerr << kProgram << " run: " << e.what() << '\n';
            rc = 1;
        }
    }
    if (!out_dir.empty()
        && !write_run_files(result, std::filesystem::path(path).stem().string(), tracing ? &trace : nullptr, out_dir,
            !parser.get_flag("no-report"), notes))
        rc = 1;
    if (result.ended_by == pcl::RunEnd::Cancelled) {
        std::cerr << kProgram << " run: stopped by Ctrl+C; the summary and files above cover the run up to then\n";
        // A file that could not be written is the failure to report: 1.
        return rc ? rc : pcl::cli::kInterruptedExit;
    }
    return rc;
}

int run(const std::vector<std::string>& args)
{
    if (args.empty()) {
        print_usage(std::cerr);
        return 2;
    }
    const std::string& command = args[0];
    if (command == "--help" || command == "-h" || command == "--version") {
        if (args.size() > 1)
            return usage_error("unexpected argument '" + args[1] + "' after " + command);
        if (command == "--version")
            std::cout << kProgram << ' ' << PCL_VERSION << '\n';
        else
            print_usage(std::cout);
        return 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // `help COMMAND...` is `COMMAND... --help`, as git's and perf's is;
    // `help` alone is --help.
    if (command == "help") {
        std::vector<std::string> asked = rest;
        asked.push_back("--help");
        return asked.size() == 1 || asked[0] == "help" ? run({ "--help" }) : run(asked);
    }
    if (command == "run")
        return run_command(rest);
    if (command == "presets")
        return pcl::cli::run_presets_command(rest, std::cout, std::cerr);
    if (command == "validate")
        return pcl::cli::run_validate_command(rest, std::cout, std::cerr);
    if (command == "sweep")
        return pcl::cli::run_sweep_command(rest, std::cout, std::cerr);
    if (command == "compare")
        return pcl::cli::run_compare_command(rest, std::cout, std::cerr);
    if (command == "experiments")
        return pcl::cli::run_experiments_command(rest, std::cout, std::cerr);
    if (command == "experiment")
        return pcl::cli::run_experiment_command(rest, std::cout, std::cerr);
    if (command == "machines")
        return pcl::cli::run_machines_command(rest, std::cout, std::cerr);
    if (command == "calibrate")
        return pcl::cli::run_calibrate_command(rest, std::cout, std::cerr);
    if (command == "explore")
        return pcl::cli::run_explore_command(rest, std::cout, std::cerr);
    if (command == "bench")
        return run_group(kBench, rest);
    if (command == "probe") {
        // A probe has nothing to finish: Ctrl+C ends it, removing its scratch file.
        pcl::cli::install_interrupt_handler(pcl::cli::Interrupt::Abort);
        return run_group(kProbe, rest);
    }
    if (command.rfind("-", 0) == 0)
        return usage_error("unknown option '" + command + "'");
    return usage_error("unknown command '" + command + "'");
}

} // namespace

int main(int argc, char** argv)
{
    // A write past `ulimit -f` fails with EFBIG, reported as any other
    // failed write, instead of SIGXFSZ killing the program without a word.
    std::signal(SIGXFSZ, SIG_IGN);
    pcl::set_command_line(argc, argv);
    try {
        const int rc = run(std::vector<std::string>(argv + 1, argv + argc));
        std::cout.flush();
        if (!std::cout)
            return rc ? rc : 1;
        return rc;
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return 1;
    } catch (...) {
        std::cerr << kProgram << ": unexpected error\n";
        return 1;
    }
}
