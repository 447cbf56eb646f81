#include "cli_compare.h"

#include "cli_progress.h"
#include "cli_render.h"
#include "cli_repeat.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/provenance.h"
#include "lib/report.h"
#include "sim/run_figures.h"
#include "sim/run_tables.h"
#include "sim/runner.h"

#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace pcl::cli {

namespace {

ArgParser make_compare_parser()
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
    parser.add_uint("repeat", 1, 1, 1000, "N",
        "run A and B N times each, alternated (A B A B ...), and print each figure's mean and 95 % interval\n"
        "for both, and B/A as the mean of each pair's ratio with its interval, saying whether it differs\n"
        "from 1 (not with --out, which writes one pair's files)");
    parser.allow_operands();
    parser.describe("A B [options]",
        "Runs scenario (or preset) A, then B, one after the other so that neither disturbs the other's\n"
        "timings, and prints each headline figure of both with the ratio B/A.",
        "exit codes: 0 both runs finished, 1 a run failed, 2 bad command line or bad scenario (the\n"
        "message names the field), 130 stopped by Ctrl+C");
    return parser;
}

/// The checks of the command line that need no scenario.
void check_compare_args(const ArgParser& a)
{
    check_format(a.get_string("format"));
    for (const char* list : { "set", "set-a", "set-b" })
        check_overrides(a, list);
    if (a.operands().size() != 2)
        throw ArgError(a.operands().size() < 2 ? "compare what? (compare A B: two scenarios or presets)"
                                               : "unexpected argument '" + a.operands()[2] + "' (compare A B)");
    if (a.get_uint("repeat") > 1 && a.given("out"))
        throw ArgError("--repeat gives the statistics of several pairs of runs; --out writes one pair's files: "
                       "compare without --repeat for them");
    if (const std::string& o = a.get_string("out"); !o.empty())
        prepare_out_dir(o, "compare.csv");
}

int compare_usage_error(std::ostream& err, const std::string& message)
{
    err << kProgram << " compare: " << message << '\n' << "Try '" << kProgram << " compare --help' for the options.\n";
    return 2;
}

const char* side(int i)
{
    return i ? "B: " : "A: ";
}

/// A and B, and what they are called.
struct ComparedPair {
    Scenario scenarios[2];
    std::string names[2];
};

/// Reads A and B with their overrides; throws std::runtime_error saying
/// "A: " or "B: " and what is wrong.
ComparedPair load_pair(const ArgParser& parser)
{
    ComparedPair pair;
    for (int i = 0; i < 2; ++i) {
        try {
            const ScenarioSource source = load_scenario_source(parser.operands()[std::size_t(i)]);
            std::vector<std::string> overrides = parser.get_list("set");
            for (const std::string& o : parser.get_list(i ? "set-b" : "set-a"))
                overrides.push_back(o);
            pair.scenarios[i] = build_scenario(source, overrides);
            pair.names[i] = scenario_name(source.input);
            // What sets this side apart is in its name, so that the table,
            // the legends and the captions say it (compare P P --set-b ...).
            std::string own;
            for (const std::string& o : parser.get_list(i ? "set-b" : "set-a"))
                own += (own.empty() ? "" : ", ") + o;
            if (!own.empty())
                pair.names[i] += " with " + own;
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(side(i) + std::string(e.what()));
        }
    }
    if (pair.names[0] == pair.names[1]) {
        pair.names[0] += " (A)";
        pair.names[1] += " (B)";
    }
    return pair;
}

/// Runs A, then B (not B once Ctrl+C stopped A), with the progress bar on
/// @err. Throws std::runtime_error "A: ..." or "B: ..." for a run that
/// could not start.
void run_pair(const ComparedPair& pair, RunResult (&results)[2], std::ostream& err)
{
    install_interrupt_handler();
    ProgressBar bar(err);
    for (int i = 0; i < 2; ++i) {
        RunOptions options;
        options.cancel = &interrupted();
        std::uint64_t ops = 0;
        options.progress = [&, i](const MetricsSample& s) {
            ops += s.operations;
            bar.update((i + run_fraction(pair.scenarios[i], s, ops)) / 2.0, side(i) + pair.names[i]);
        };
        try {
            results[i] = run_scenario(pair.scenarios[i], options);
        } catch (const std::exception& e) {
            bar.finish();
            throw std::runtime_error(side(i) + std::string(e.what()));
        }
        if (interrupted().load())
            break;
    }
    bar.finish();
}

/// compare --repeat: A and B @repeats times each, alternated so that a slow
/// spell of a shared machine falls on both, until Ctrl+C; prints the
/// statistics (cli_repeat.h). Returns the exit code.
int compare_repeated(
    const ComparedPair& pair, unsigned repeats, const std::string& format, std::ostream& out, std::ostream& err)
{
    install_interrupt_handler();
    ProgressBar bar(err, ProgressBar::stderr_is_terminal());
    RepeatFigures figures[2];
    int rc = 0;
    for (unsigned r = 0; r < repeats && !interrupted().load() && rc == 0; ++r) {
        RunResult results[2];
        for (int i = 0; i < 2 && !interrupted().load(); ++i) {
            RunOptions options;
            options.cancel = &interrupted();
            std::uint64_t ops = 0;
            options.progress = [&, i, r](const MetricsSample& s) {
                ops += s.operations;
                bar.update((2.0 * r + i + run_fraction(pair.scenarios[i], s, ops)) / (2.0 * repeats),
                    side(i) + pair.names[i] + ", pair " + std::to_string(r + 1) + " of " + std::to_string(repeats));
            };
            results[i] = run_scenario(pair.scenarios[i], options);
            if (results[i].state == "failed") {
                err << kProgram << " compare: " << (i ? "B" : "A") << " failed in pair " << r + 1 << ": "
                    << results[i].error << '\n';
                rc = 1;
            }
        }
        // A pair counts whole: both ran to their end.
        if (rc == 0 && !interrupted().load())
            for (int i = 0; i < 2; ++i)
                figures[i].push_back(run_figures(results[i]));
    }
    bar.finish();
    if (format == "table")
        out << "A: " << pair.names[0] << " (" << parameter_caption(pair.scenarios[0]) << ")\nB: " << pair.names[1]
            << " (" << parameter_caption(pair.scenarios[1]) << ")\n"
            << figures[0].size() << (figures[0].size() == 1 ? " pair" : " pairs")
            << " of runs, alternated; each side's mean and the 95 % interval of the mean, and B/A as the mean of "
               "each pair's own ratio\n\n";
    print_table(out, repeat_ratio_table(figures[0], figures[1], format), format);
    if (interrupted().load()) {
        err << kProgram << " compare: stopped by Ctrl+C after " << figures[0].size() << " of " << repeats
            << " pairs; the statistics above are theirs\n";
        return rc ? rc : kInterruptedExit;
    }
    return rc;
}

/// Each headline figure of A and B and the ratio B/A: rounded for the
/// terminal's table, exact for json and csv.
Report ratio_table(const RunResult (&results)[2], const std::string& format)
{
    // json and csv are data a script keeps: each row says what made it
    // (B's result, made last, by this command on this computer).
    std::vector<std::string> columns { "figure", "unit", "A", "B", "B/A" };
    const auto made
        = format == "table" ? decltype(provenance_columns({})) {} : provenance_columns(results[1].provenance);
    for (const auto& [name, value] : made)
        columns.push_back(name);
    Report table(columns);
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
        for (const auto& [name, value] : made)
            table.set(name, value);
    }
    return table;
}

/// Writes compare.csv (every figure exact, whatever the terminal shows), a/
/// and b/, and charts/ into @dir; says what it wrote on @notes; false if
/// any failed (each failure said on @err).
bool write_comparison(const std::string& dir, const ComparedPair& pair, const RunResult (&results)[2],
    std::ostream& notes, std::ostream& err)
{
    bool ok = true;
    std::vector<std::string> written;
    auto write = [&](const std::string& name, const std::string& text) {
        try {
            std::filesystem::create_directories(std::filesystem::path(dir + "/" + name).parent_path());
            write_file_atomically(dir + "/" + name, text);
            written.push_back(name);
        } catch (const std::exception& e) {
            err << kProgram << " compare: " << e.what() << '\n';
            ok = false;
        }
    };
    write("compare.csv", ratio_table(results, "csv").csv());
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
            charts
                = write_comparison_charts(results[0], results[1], pair.names[0], pair.names[1], dir + "/charts").size();
        } catch (const std::exception& e) {
            err << kProgram << " compare: " << e.what() << '\n';
            ok = false;
        }
    } else {
        err << kProgram << " compare: no charts: " << cannot_render_reason() << '\n';
    }
    notes << '\n'
          << written.size() + charts << " files written to " << dir << " (" << written.size() << " tables and results"
          << (charts ? ", " + std::to_string(charts) + " charts in charts/" : std::string()) << ")\n";
    return ok;
}

} // namespace

int run_compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser = make_compare_parser();
    if (const auto code = parser.parse_command(args, out, err, check_compare_args))
        return *code;
    const std::string format = parser.get_string("format");
    ComparedPair pair;
    RunResult results[2];
    try {
        pair = load_pair(parser);
        if (const unsigned repeats = unsigned(parser.get_uint("repeat")); repeats > 1)
            return compare_repeated(pair, repeats, format, out, err);
        run_pair(pair, results, err);
    } catch (const std::runtime_error& e) {
        return compare_usage_error(err, e.what());
    }
    if (interrupted().load()) {
        err << kProgram << " compare: stopped by Ctrl+C: "
            << (results[0].ended_by == RunEnd::Cancelled ? "A did not finish; nothing was compared"
                                                         : "B did not finish; nothing was compared")
            << '\n';
        return kInterruptedExit;
    }

    const Report table = ratio_table(results, format);
    if (format == "table")
        out << "A: " << pair.names[0] << " (" << parameter_caption(pair.scenarios[0]) << ")\nB: " << pair.names[1]
            << " (" << parameter_caption(pair.scenarios[1]) << ")\n\n";
    print_table(out, table, format);

    int rc = 0;
    for (int i = 0; i < 2; ++i)
        if (results[i].state == "failed") {
            err << kProgram << " compare: " << (i ? "B" : "A") << " failed: " << results[i].error << '\n';
            rc = 1;
        }
    if (const std::string& dir = parser.get_string("out"); !dir.empty())
        if (!write_comparison(dir, pair, results, notes_stream(format, out, err), err))
            rc = 1;
    return rc;
}

} // namespace pcl::cli
