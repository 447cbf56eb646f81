#include "cli_repeat.h"

#include "cli_progress.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/provenance.h"
#include "lib/sample_stats.h"

#include <cmath>
#include <ostream>

namespace pcl::cli {

namespace {

/// Figure @k of every repeat.
std::vector<double> column(const RepeatFigures& runs, std::size_t k)
{
    std::vector<double> v;
    for (const std::vector<RunFigure>& r : runs)
        v.push_back(r[k].value);
    return v;
}

/// @v for @format: rounded for the table, exact for json and csv; a value
/// that is not finite (no ratio) is an empty cell (null in JSON).
std::string number(double v, const std::string& format)
{
    if (!std::isfinite(v))
        return "";
    return format == "table" ? significant(v) : csv_number(v);
}

/// The provenance columns of json and csv rows (none in the table).
std::vector<std::pair<std::string, std::string>> made_columns(const std::string& format)
{
    return format == "table" ? std::vector<std::pair<std::string, std::string>> {}
                             : provenance_columns(make_provenance());
}

Report table_with(std::vector<std::string> columns, const std::vector<std::pair<std::string, std::string>>& made)
{
    for (const auto& [name, value] : made)
        columns.push_back(name);
    return Report(std::move(columns));
}

} // namespace

Report repeat_stats_table(const RepeatFigures& runs, const std::string& format)
{
    const auto made = made_columns(format);
    Report t = table_with({ "figure", "unit", "runs", "mean", "sd", "min", "max", "ci95_low", "ci95_high" }, made);
    if (runs.empty())
        return t;
    for (std::size_t k = 0; k < runs.front().size(); ++k) {
        const SampleStats s = sample_stats(column(runs, k));
        t.add_row();
        t.set("figure", runs.front()[k].name);
        t.set("unit", runs.front()[k].unit);
        t.set("runs", std::uint64_t(s.n));
        t.set("mean", number(s.mean, format));
        // One run has no spread: no deviation and no interval, not zeros.
        if (s.n > 1) {
            t.set("sd", number(s.sd, format));
            t.set("ci95_low", number(s.low, format));
            t.set("ci95_high", number(s.high, format));
        }
        t.set("min", number(s.min, format));
        t.set("max", number(s.max, format));
        for (const auto& [name, value] : made)
            t.set(name, value);
    }
    return t;
}

Report repeat_ratio_table(const RepeatFigures& a, const RepeatFigures& b, const std::string& format)
{
    const auto made = made_columns(format);
    Report t = table_with({ "figure", "unit", "runs", "A", "A_ci95_low", "A_ci95_high", "B", "B_ci95_low",
                              "B_ci95_high", "B/A", "B/A_ci95_low", "B/A_ci95_high", "differs" },
        made);
    const std::size_t n = std::min(a.size(), b.size());
    if (n == 0)
        return t;
    for (std::size_t k = 0; k < a.front().size(); ++k) {
        const std::vector<double> va = column(a, k), vb = column(b, k);
        std::vector<double> ratios;
        for (std::size_t i = 0; i < n; ++i)
            if (va[i] != 0)
                ratios.push_back(vb[i] / va[i]);
        const SampleStats sa = sample_stats(va), sb = sample_stats(vb), sr = sample_stats(ratios);
        t.add_row();
        t.set("figure", a.front()[k].name);
        t.set("unit", a.front()[k].unit);
        t.set("runs", std::uint64_t(n));
        t.set("A", number(sa.mean, format));
        t.set("B", number(sb.mean, format));
        if (n > 1) {
            t.set("A_ci95_low", number(sa.low, format));
            t.set("A_ci95_high", number(sa.high, format));
            t.set("B_ci95_low", number(sb.low, format));
            t.set("B_ci95_high", number(sb.high, format));
        }
        // A ratio exists where every repeat's A does; with one repeat, or
        // none, nothing can be said of the difference.
        if (ratios.size() == n) {
            t.set("B/A", number(sr.mean, format));
            if (n > 1) {
                t.set("B/A_ci95_low", number(sr.low, format));
                t.set("B/A_ci95_high", number(sr.high, format));
                t.set("differs", std::string(sr.holds(1.0) ? "no: the interval holds 1" : "yes"));
            }
        }
        for (const auto& [name, value] : made)
            t.set(name, value);
    }
    return t;
}

int run_repeated(const Scenario& scenario, const std::string& name, unsigned repeats, const std::string& format,
    std::ostream& out, std::ostream& err)
{
    install_interrupt_handler();
    ProgressBar bar(err, ProgressBar::stderr_is_terminal());
    RepeatFigures runs;
    int rc = 0;
    for (unsigned i = 0; i < repeats && !interrupted().load(); ++i) {
        RunOptions options;
        options.cancel = &interrupted();
        std::uint64_t ops = 0;
        options.progress = [&, i](const MetricsSample& s) {
            ops += s.operations;
            bar.update((i + run_fraction(scenario, s, ops)) / double(repeats),
                name + ", run " + std::to_string(i + 1) + " of " + std::to_string(repeats));
        };
        const RunResult r = run_scenario(scenario, options);
        if (r.ended_by == RunEnd::Cancelled)
            break; // cut short: its figures are not a run's
        if (r.state == "failed") {
            err << kProgram << " run: run " << i + 1 << " of " << repeats << " failed: " << r.error << '\n';
            rc = 1;
            continue;
        }
        runs.push_back(run_figures(r));
    }
    bar.finish();
    if (format == "table")
        out << name << ": " << runs.size() << (runs.size() == 1 ? " run" : " runs") << " ("
            << parameter_caption(scenario)
            << "); mean, sample standard deviation, min, max and the 95 % interval of the mean\n\n";
    print_table(out, repeat_stats_table(runs, format), format);
    if (interrupted().load()) {
        err << kProgram << " run: stopped by Ctrl+C after " << runs.size() << " of " << repeats
            << " runs; the statistics above are theirs\n";
        return rc ? rc : kInterruptedExit;
    }
    return rc;
}

} // namespace pcl::cli
