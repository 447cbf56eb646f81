#include "lesson/experiment.h"

#include "lesson/lesson_probe.h"
#include "lib/field_table.h"
#include "lib/report.h"
#include "sim/run_figures.h"
#include "sim/runner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace pcl {

namespace {

/// A measurement runs unpaced and without the event stream: the counters it
/// reads are exact either way, and recording costs time it would measure.
const std::vector<std::string> kMeasured
    = { "pacing.ops_per_second=0", "pacing.hold_stretch_ns=0", "events.enabled=false" };

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::string run_path(const Lesson& lesson, const LessonRun& run)
{
    for (std::size_t i = 0; i < lesson.runs.size(); ++i)
        if (&lesson.runs[i] == &run)
            return "runs[" + std::to_string(i) + "]";
    return "runs";
}

/// "12.5 ns / lookup", or "12.5" for a figure without a unit (a count).
std::string with_unit(const std::string& value, const std::string& unit)
{
    return unit.empty() ? value : value + " " + unit;
}

/// What one run of a repeat left: a scenario run's result (and its
/// headline figures), or a probe's figures.
struct RunOutcome {
    RunResult result;
    ProbeFigures figures;
};

/// The claim's figure in one run, as @c reads it there (@lock for a lock
/// metric).
double claim_value(const LessonClaim& c, const RunOutcome& o, const std::string& lock)
{
    if (c.figure.empty())
        return measure(c.metric, o.result, lock);
    const auto it = o.figures.find(c.figure);
    if (it == o.figures.end())
        throw std::runtime_error("the run reported no figure '" + c.figure + "'");
    return it->second;
}

} // namespace

ProbeFigures run_lesson_probe(const LessonRun& run, bool quick)
{
    const LessonProbe* probe = find_lesson_probe(run.probe);
    if (!probe)
        throw std::runtime_error("run '" + run.name + "': no probe is called '" + run.probe + "'");
    std::vector<std::string> set = run.set;
    if (quick)
        set.insert(set.end(), run.quick.begin(), run.quick.end());
    ProbeFigures figures = probe->run(probe_args(*probe, set, "run '" + run.name + "'"));
    for (const ProbeFigure& f : probe->figures)
        if (!figures.count(f.name))
            throw std::logic_error("the " + probe->name + " probe did not report its figure '" + f.name + "'");
    return figures;
}

Scenario lesson_scenario(
    const LessonRun& run, const std::vector<std::string>& extra, const ScenarioTexts& texts, const std::string& path)
{
    std::string text;
    try {
        text = texts(run.scenario);
    } catch (const std::exception& e) {
        throw LessonError(path + ".scenario", path + ".scenario: " + e.what());
    }
    try {
        json::Value doc = json::parse(text);
        for (const std::string& o : concat(run.set, extra))
            apply_override(doc, o);
        Scenario s = scenario_from_json(doc);
        s.validate();
        return s;
    } catch (const json::ParseError& e) {
        throw LessonError(path + ".scenario", path + ".scenario: '" + run.scenario + "' is not JSON: " + e.what());
    } catch (const ScenarioError& e) {
        throw LessonError(path, path + ": run '" + run.name + "' on '" + run.scenario + "': " + e.what());
    }
}

void check_lesson_scenarios(const Lesson& lesson, const ScenarioTexts& texts)
{
    for (const LessonRun& run : lesson.runs) {
        if (run.is_probe())
            continue; // its parameters were checked when the lesson was read
        const std::string path = run_path(lesson, run);
        lesson_scenario(run, kMeasured, texts, path);
        if (!lesson.quick.empty())
            lesson_scenario(run, concat(lesson.quick, kMeasured), texts, "quick (" + path + ")");
    }
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& step = lesson.steps[i];
        if (!lesson.find_run(step.run)->is_probe())
            lesson_scenario(*lesson.find_run(step.run), step.set, texts, "steps[" + std::to_string(i) + "]");
    }
}

void judge(ClaimResult& r, unsigned machine_cpus)
{
    const LessonClaim& c = r.claim;
    const bool named = !c.figure.empty();
    const std::string unit = named ? c.figure_unit : std::string(lesson_metric_info(c.metric).unit);
    std::string of;
    if (!named && lesson_metric_info(c.metric).needs_lock)
        of = " of " + c.lock + (c.over_lock.empty() || c.over_lock == c.lock ? "" : " vs " + c.over_lock);
    const bool ratio = !c.over.empty();
    const bool any_nan = std::any_of(r.values.begin(), r.values.end(), [](double v) { return std::isnan(v); });
    r.median = any_nan ? std::numeric_limits<double>::quiet_NaN() : median(r.values);
    r.spread = 0;
    if (!any_nan && r.values.size() > 1) {
        const auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
        // Repeats that agree spread 0 (unbounded ones too); an unbounded
        // repeat among bounded ones spreads without bound.
        if (*lo != *hi)
            r.spread = std::isfinite(*hi) && r.median != 0 ? (*hi - *lo) / std::fabs(r.median)
                                                           : std::numeric_limits<double>::infinity();
    }
    // A ratio over a run that measured none is unbounded: said so, not "infx".
    const std::string times = std::isinf(r.median) ? std::string("unbounded") : significant(r.median) + "x";
    if (ratio)
        r.our_figure = times + " ("
            + with_unit(significant(median(r.run_values)) + " vs " + significant(median(r.over_values)), unit) + of
            + ")";
    else
        r.our_figure = with_unit(significant(r.median), unit) + of;
    const std::string rule = std::string(c.at_most ? "at most " : "at least ")
        + (ratio ? significant(c.threshold) + "x" : with_unit(significant(c.threshold), unit));

    if (r.values.empty()) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "nothing was measured";
    } else if (machine_cpus < c.min_cpus) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "the claim is about " + std::to_string(c.min_cpus) + " CPUs or more; this machine has "
            + std::to_string(machine_cpus) + ", so its simulated CPUs share cores";
    } else if (std::isnan(r.median)) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "neither run measured any " + (unit.empty() ? c.figure : unit) + of;
    } else if (r.spread > c.max_spread) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "the " + std::to_string(r.values.size()) + " repeats spread over " + significant(100 * r.spread)
            + "% of their median, more than the " + significant(100 * c.max_spread) + "% the claim allows";
    } else {
        const bool held = c.at_most ? r.median <= c.threshold : r.median >= c.threshold;
        r.verdict = held ? LessonVerdict::Held : LessonVerdict::DidNotHold;
        r.why = (ratio ? r.run_label + " against " + r.over_label : r.run_label) + ": "
            + (ratio ? times : with_unit(significant(r.median), unit))
            + (held ? ", and the claim needs " : ", but the claim needs ") + rule;
    }
}

ExperimentResult run_experiment(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options)
{
    ExperimentResult out;
    out.lesson = lesson.name;
    out.title = lesson.title;
    out.thread = lesson.thread;
    out.quick = options.quick;
    out.machine_cpus = options.machine_cpus ? options.machine_cpus : std::max(1u, std::thread::hardware_concurrency());

    // The runs each repeat needs, made once and shared by the claims that
    // measure them, interleaved (A1 B1 A2 B2 ...) so that a slow spell of a
    // shared machine falls on both sides of a ratio.
    auto repeats_of = [&](const LessonClaim& c) { return options.repeats ? options.repeats : c.repeats; };
    unsigned most = 0;
    for (const LessonClaim& c : lesson.claims)
        most = std::max(most, repeats_of(c));
    std::map<std::pair<std::string, unsigned>, RunOutcome> results;
    const std::vector<std::string> extra = options.quick ? concat(lesson.quick, kMeasured) : kMeasured;
    for (unsigned rep = 0; rep < most; ++rep)
        for (const LessonRun& run : lesson.runs) {
            bool needed = false;
            for (const LessonClaim& c : lesson.claims)
                needed = needed || (rep < repeats_of(c) && (c.run == run.name || c.over == run.name));
            if (!needed)
                continue;
            if (options.progress)
                options.progress(run.label + ", repeat " + std::to_string(rep + 1) + " of " + std::to_string(most));
            RunOutcome o;
            if (run.is_probe()) {
                try {
                    o.figures = run_lesson_probe(run, options.quick);
                } catch (const std::runtime_error& e) {
                    throw std::runtime_error("run '" + run.name + "' (" + run.label + ") failed: " + e.what());
                }
            } else {
                o.result = run_scenario(lesson_scenario(run, extra, texts, run_path(lesson, run)));
                if (o.result.state == "failed")
                    throw std::runtime_error("run '" + run.name + "' (" + run.label + ") failed: " + o.result.error);
                for (const RunFigure& f : run_figures(o.result))
                    o.figures.emplace(f.name, f.value);
            }
            results.emplace(std::pair { run.name, rep }, std::move(o));
        }

    for (const LessonClaim& c : lesson.claims) {
        ClaimResult cr;
        cr.claim = c;
        cr.run_label = lesson.find_run(c.run)->label;
        if (!c.over.empty())
            cr.over_label = lesson.find_run(c.over)->label;
        for (unsigned rep = 0; rep < repeats_of(c); ++rep) {
            const double a = claim_value(c, results.at({ c.run, rep }), c.lock);
            cr.run_values.push_back(a);
            if (c.over.empty()) {
                cr.values.push_back(a);
                continue;
            }
            const double b = claim_value(c, results.at({ c.over, rep }), c.over_lock.empty() ? c.lock : c.over_lock);
            cr.over_values.push_back(b);
            // A run that never contended divides into an unbounded ratio;
            // two that never did say nothing (NaN).
            cr.values.push_back(b != 0 ? a / b
                    : a != 0           ? std::numeric_limits<double>::infinity()
                                       : std::numeric_limits<double>::quiet_NaN());
        }
        judge(cr, out.machine_cpus);
        out.claims.push_back(std::move(cr));
    }
    return out;
}

void print_verdicts(std::ostream& out, const ExperimentResult& result)
{
    out << result.title << "\nfrom the " << result.thread << " thread\n"
        << "this machine: " << result.machine_cpus << " CPUs; " << (result.quick ? "quick form" : "full form")
        << "; every figure is a ratio of runs made here side by side, or a count\n";
    for (std::size_t i = 0; i < result.claims.size(); ++i) {
        const ClaimResult& c = result.claims[i];
        const std::string q = c.claim.quoted ? "\"" : "";
        out << '\n'
            << i + 1 << ". " << c.claim.by << ": " << q << c.claim.statement << q << '\n'
            << "   thread:  " << (c.claim.thread_figure.empty() ? "no figure posted" : c.claim.thread_figure) << '\n'
            << "   ours:    " << c.our_figure << ", median of " << c.values.size() << " repeat"
            << (c.values.size() == 1 ? "" : "s");
        if (c.values.size() > 1)
            out << ", spread " << significant(100 * c.spread) << "%";
        out << '\n' << "   verdict: " << lesson_verdict_name(c.verdict) << ": " << c.why << '\n';
    }
}

json::Value to_json(const ExperimentResult& result)
{
    // JSON has no infinity or NaN: such a figure is written as null.
    auto number = [](double v) { return std::isfinite(v) ? json::Value(v) : json::Value(nullptr); };
    json::Array verdicts;
    for (const ClaimResult& c : result.claims) {
        json::Array values;
        for (double v : c.values)
            values.push_back(number(v));
        verdicts.push_back(json::Object {
            { "claim", c.claim.statement },
            { "source", c.claim.by },
            { "thread_figure", c.claim.thread_figure },
            { "our_figure", c.our_figure },
            { "values", std::move(values) },
            { "median", number(c.median) },
            { "spread", number(c.spread) },
            { "result", std::string(lesson_verdict_name(c.verdict)) },
            { "why", c.why },
        });
    }
    return json::Object {
        { "experiment", result.lesson },
        { "title", result.title },
        { "thread", result.thread },
        { "quick", result.quick },
        { "machine_cpus", result.machine_cpus },
        { "verdicts", std::move(verdicts) },
    };
}

std::string verdicts_csv(const ExperimentResult& result)
{
    Report table({ "claim", "source", "thread_figure", "our_figure", "median", "spread", "result", "why" });
    for (const ClaimResult& c : result.claims) {
        table.add_row();
        table.set("claim", c.claim.statement);
        table.set("source", c.claim.by);
        table.set("thread_figure", c.claim.thread_figure);
        table.set("our_figure", c.our_figure);
        // An unbounded or unmeasured figure is an empty cell, as JSON's null.
        table.set("median", std::isfinite(c.median) ? significant(c.median) : std::string());
        table.set("spread", std::isfinite(c.spread) ? significant(c.spread) : std::string());
        table.set("result", std::string(lesson_verdict_name(c.verdict)));
        table.set("why", c.why);
    }
    return table.csv();
}

} // namespace pcl
