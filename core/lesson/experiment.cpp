#include "lesson/experiment.h"

#include "lesson/claim_measure.h"
#include "lesson/figure_text.h"
#include "lesson/lesson_probe.h"
#include "lesson/lesson_problems.h"
#include "lesson/modelled_claims.h"
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

namespace {

/// Overrides applied to a run's scenario, and the member that lists them
/// ("runs[1].set", "quick"; "" for those a refusal is not to name).
struct OverrideList {
    const std::vector<std::string>& items;
    std::string path;
};

/// The element that gave the override a refusal of @field names: the last
/// one that sets the field, what holds it or something inside it ("" for
/// none).
std::string override_path(const std::vector<OverrideList>& lists, const std::string& field)
{
    std::string path;
    for (const OverrideList& list : lists)
        for (std::size_t i = 0; i < list.items.size(); ++i) {
            const std::string key = list.items[i].substr(0, list.items[i].find('='));
            if (!list.path.empty() && !field.empty() && (json_path_within(field, key) || json_path_within(key, field)))
                path = list.path + "[" + std::to_string(i) + "]";
        }
    return path;
}

/// The scenario of @run (at @run_path) with @lists applied in order.
/// Throws LessonError: at the run's scenario for one that does not exist;
/// else at the override a refusal names (override_path), or at @path when
/// none does.
Scenario scenario_with(const LessonRun& run, const std::string& run_path, const std::vector<OverrideList>& lists,
    const ScenarioTexts& texts, const std::string& path)
{
    const std::string scenario_path = run_path + ".scenario";
    std::string text;
    try {
        text = texts(run.scenario);
    } catch (const std::exception& e) {
        throw LessonError(scenario_path, scenario_path + ": " + e.what());
    }
    const std::string what = ": run '" + run.name + "' on '" + run.scenario + "': ";
    json::Value doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        throw LessonError(scenario_path, scenario_path + ": '" + run.scenario + "' is not JSON: " + e.what());
    }
    for (const OverrideList& list : lists)
        for (std::size_t i = 0; i < list.items.size(); ++i)
            try {
                apply_override(doc, list.items[i]);
            } catch (const ScenarioError& e) {
                const std::string at = list.path.empty() ? path : list.path + "[" + std::to_string(i) + "]";
                throw LessonError(at, at + what + e.what());
            }
    try {
        Scenario s = scenario_from_json(doc);
        s.validate();
        return s;
    } catch (const ScenarioError& e) {
        const std::string named = override_path(lists, e.field());
        const std::string& at = named.empty() ? path : named;
        throw LessonError(at, at + what + e.what());
    }
}

} // namespace

Scenario lesson_scenario(
    const LessonRun& run, const std::vector<std::string>& extra, const ScenarioTexts& texts, const std::string& path)
{
    return scenario_with(run, path, { { run.set, "" }, { extra, "" } }, texts, path);
}

void find_scenario_problems(const Lesson& lesson, const ScenarioTexts& texts, LessonProblems& problems)
{
    auto attempt = [&](auto&& build) {
        try {
            build();
            return true;
        } catch (const LessonError& e) {
            problems.add(e.field(), e.what());
            return false;
        }
    };
    // A run is built once alone: what it refuses then is its own, and the
    // quick form and the steps on it are not built on top of it.
    std::vector<bool> built(lesson.runs.size(), false);
    for (std::size_t i = 0; i < lesson.runs.size(); ++i) {
        const LessonRun& run = lesson.runs[i];
        const std::string path = "runs[" + std::to_string(i) + "]";
        if (run.scenario.empty() || problems.involves(path + ".scenario") || problems.involves(path + ".set"))
            continue; // a probe run, or a refused scenario or override: no scenario to build
        built[i] = attempt([&] {
            scenario_with(run, path, { { run.set, path + ".set" }, { kMeasured, "" } }, texts,
                run.set.empty() ? path + ".scenario" : path + ".set");
        });
        if (built[i] && !lesson.quick.empty() && !problems.involves("quick"))
            attempt([&] {
                scenario_with(
                    run, path, { { run.set, "" }, { lesson.quick, "quick" }, { kMeasured, "" } }, texts, "quick");
            });
    }
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& step = lesson.steps[i];
        const std::string path = "steps[" + std::to_string(i) + "]";
        const LessonRun* run = lesson.find_run(step.run);
        if (!run || !built[std::size_t(run - lesson.runs.data())] || problems.involves(path + ".run")
            || problems.involves(path + ".set"))
            continue;
        attempt([&] {
            scenario_with(*run, run_path(lesson, *run), { { run->set, "" }, { step.set, path + ".set" } }, texts,
                step.set.empty() ? path + ".run" : path + ".set");
        });
    }
    // A claim that names its machine runs both its runs there: scenario
    // runs, on a profile that exists and has their CPUs.
    for (std::size_t i = 0; i < lesson.claims.size(); ++i) {
        const LessonClaim& c = lesson.claims[i];
        const std::string path = "claims[" + std::to_string(i) + "].machine";
        if (c.machine.empty() || problems.involves(path))
            continue;
        for (const std::string& side : { c.run, c.over }) {
            const LessonRun* run = side.empty() ? nullptr : lesson.find_run(side);
            if (!run)
                continue;
            if (run->is_probe()) {
                problems.add(path,
                    "run '" + side
                        + "' is a probe's, which measures this computer: only a scenario run can be "
                          "measured on a modelled machine");
                break;
            }
            if (!built[std::size_t(run - lesson.runs.data())])
                continue;
            const std::vector<std::string> machine { "machine.profile=" + c.machine };
            if (!attempt([&] {
                    scenario_with(*run, run_path(lesson, *run),
                        { { run->set, "" }, { kMeasured, "" }, { machine, "" } }, texts, path);
                }))
                break;
        }
    }
    // A table runs each series on its machine at each of its CPU counts:
    // a profile that exists and has that many CPUs.
    for (std::size_t i = 0; i < lesson.tables.size(); ++i) {
        const LessonTable& t = lesson.tables[i];
        const std::string path = "tables[" + std::to_string(i) + "]";
        if (t.machine.empty() || problems.involves(path + ".machine") || problems.involves(path + ".cpus")
            || problems.involves(path + ".set"))
            continue;
        for (const LessonTableSeries& s : t.series) {
            const LessonRun* run = lesson.find_run(s.run);
            if (!run || run->is_probe() || !built[std::size_t(run - lesson.runs.data())])
                continue;
            const std::vector<std::string> machine { "machine.profile=" + t.machine };
            if (!attempt([&] {
                    scenario_with(*run, run_path(lesson, *run),
                        { { run->set, "" }, { kMeasured, "" }, { t.set, path + ".set" }, { machine, "" } }, texts,
                        path + ".machine");
                }))
                break;
            bool fits = true;
            for (std::size_t j = 0; j < t.cpus.size() && fits; ++j) {
                const std::vector<std::string> at { "machine.profile=" + t.machine,
                    "workload.cpus=" + std::to_string(t.cpus[j]) };
                fits = attempt([&] {
                    scenario_with(*run, run_path(lesson, *run),
                        { { run->set, "" }, { kMeasured, "" }, { t.set, "" }, { at, "" } }, texts,
                        path + ".cpus[" + std::to_string(j) + "]");
                });
            }
            if (!fits)
                break;
        }
    }
}

void check_lesson_scenarios(const Lesson& lesson, const ScenarioTexts& texts)
{
    LessonProblems problems;
    find_scenario_problems(lesson, texts, problems);
    if (!problems.empty())
        throw problems.list().front();
}

namespace {

/// A ratio as a verdict writes it: "2.23x", or "unbounded" for one over a
/// run that measured none.
std::string times_text(double v)
{
    return std::isinf(v) ? std::string("unbounded") : readable_number(v) + "x";
}

/// How a claim's figures read: their unit, and for a lock metric the lock
/// classes (" of pagecache_lock vs mapping.tree_lock").
struct ClaimWords {
    std::string unit;
    std::string of;
    bool ratio = false;
};

ClaimWords words_of(const LessonClaim& c)
{
    ClaimWords w;
    const bool named = !c.figure.empty();
    w.unit = named ? c.figure_unit : std::string(lesson_metric_info(c.metric).unit);
    if (!named && lesson_metric_info(c.metric).needs_lock)
        w.of = " of " + c.lock + (c.over_lock.empty() || c.over_lock == c.lock ? "" : " vs " + c.over_lock);
    w.ratio = !c.over.empty();
    return w;
}

/// Repeat @i's figure, a ratio with the two numbers it divides ("2.23x
/// (2.62 vs 1.17 contentions / 1000 ops of pagecache_lock)", @note added
/// inside the brackets), or a count.
std::string repeat_text(const ClaimResult& r, const ClaimWords& w, std::size_t i, const std::string& note = "")
{
    if (!w.ratio)
        return figure_text(r.values[i], w.unit) + w.of;
    if (i >= r.run_values.size() || i >= r.over_values.size())
        return times_text(r.values[i]);
    const std::string numbers = readable_number(r.run_values[i]) + " vs " + readable_number(r.over_values[i]);
    return times_text(r.values[i]) + " (" + (w.unit.empty() ? numbers : numbers + " " + w.unit) + w.of + note + ")";
}

/// A figure of the claim's kind alone: "2.23x" or "0.138 contentions / 1000 ops".
std::string value_text(const ClaimWords& w, double v)
{
    return w.ratio ? times_text(v) : figure_text(v, w.unit);
}

/// "half their median", "their median", "3 times their median".
std::string share_of_median(double share)
{
    if (share == 0.5)
        return "half their median";
    if (share == 0.25)
        return "a quarter of their median";
    if (share == 1)
        return "their median";
    return readable_number(share) + " times their median";
}

/// A contended wait this long is a scheduler time slice: the waiter
/// waited for a holder the kernel had preempted, not for one running on
/// another CPU. Measured on a 2-CPU machine for pagecache_lock: 2 to 4 us
/// a contention with two cores free, 1.9 to 11 ms with the run's four
/// threads on one core (pinned, or the other core busy with a build), 10
/// to 120 us in between.
constexpr double kPreemptedWaitNs = 1e6;

/// The longer of the two runs' mean contended waits in repeat @i (NaN when
/// neither lock was contended there).
double contended_wait_of(const ClaimResult& r, std::size_t i)
{
    double wait = std::numeric_limits<double>::quiet_NaN();
    for (const std::vector<double>* side : { &r.run_wait_ns, &r.over_wait_ns })
        if (i < side->size() && !std::isnan((*side)[i]))
            wait = std::isnan(wait) ? (*side)[i] : std::max(wait, (*side)[i]);
    return wait;
}

/// "3.1 µs", "2.4 ms".
std::string wait_text(double ns)
{
    return ns >= 1e6 ? readable_number(ns / 1e6) + " ms" : readable_number(ns / 1e3) + " µs";
}

/// What a contention count depends on, said beside its verdict: a
/// contention is a CPU finding the lock taken, so the count follows how
/// many of the run's threads ran at the same moment. With more simulated
/// CPUs than the machine has free cores the kernel gives them time slices;
/// on a machine busy with other programs they take turns, and the lock is
/// contended only when its holder is preempted: 0.035 to 0.3 contentions
/// of pagecache_lock per 1000 reads on one core of a 2-CPU machine, 36 to
/// 185 on two.
std::string contention_note(double wait_ns)
{
    std::string note = ". The count depends on how many threads ran at once";
    if (!std::isnan(wait_ns))
        note += ": here a wait took " + wait_text(wait_ns) + " on average";
    return note
        + "; on a busy machine the threads take turns, each wait lasts a millisecond or more and the count "
          "falls a thousandfold (a lock never contended stays at 0)";
}

} // namespace

void judge(ClaimResult& r, unsigned machine_cpus)
{
    const LessonClaim& c = r.claim;
    const ClaimWords w = words_of(c);
    const std::size_t n = r.values.size();
    const bool any_nan = std::any_of(r.values.begin(), r.values.end(), [](double v) { return std::isnan(v); });
    r.median = any_nan ? std::numeric_limits<double>::quiet_NaN() : median(r.values);
    r.spread = 0;
    // The repeats in the order of their figures: the middle one (or two)
    // is what the figure shows, the ends are what a spread is made of.
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    if (!any_nan)
        std::stable_sort(
            order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r.values[a] < r.values[b]; });
    const double lo = n && !any_nan ? r.values[order.front()] : 0;
    const double hi = n && !any_nan ? r.values[order.back()] : 0;
    // Repeats that agree spread 0, zeros and unbounded ones too; differing
    // ones around a median of 0, or an unbounded one among bounded ones,
    // spread without bound.
    if (!any_nan && lo != hi)
        r.spread = std::isfinite(hi) && r.median != 0 ? (hi - lo) / std::fabs(r.median)
                                                      : std::numeric_limits<double>::infinity();
    const std::string repeats = std::to_string(n) + " repeat" + (n == 1 ? "" : "s");
    auto repeat_no = [&](std::size_t i) { return "repeat " + std::to_string(i + 1); };

    // The figure shown divides as printed: a ratio is the median of the
    // repeats' own ratios (the runs of a repeat were made side by side), so
    // it is shown with the two numbers of the repeat it comes from, not
    // with the medians of each side, which need not divide to it.
    if (n == 0)
        r.our_figure = "nothing measured";
    else if (any_nan) {
        const std::size_t i = std::size_t(
            std::find_if(r.values.begin(), r.values.end(), [](double v) { return std::isnan(v); }) - r.values.begin());
        std::string numbers;
        if (i < r.run_values.size() && i < r.over_values.size())
            numbers = ": " + readable_number(r.run_values[i]) + " vs " + readable_number(r.over_values[i])
                + (w.unit.empty() ? "" : " " + w.unit) + w.of;
        r.our_figure = "no ratio" + numbers;
        if (n > 1)
            r.our_figure += " in " + repeat_no(i) + " of " + std::to_string(n);
    } else if (!w.ratio)
        r.our_figure = figure_text(r.median, w.unit) + w.of;
    else if (n == 1)
        r.our_figure = repeat_text(r, w, 0);
    else if (n % 2 || r.values[order[n / 2 - 1]] == r.values[order[n / 2]]) {
        // An odd count has one middle repeat; an even one whose middle two
        // agree, either of them.
        const std::size_t mid = order[(n - 1) / 2];
        r.our_figure
            = repeat_text(r, w, mid, ", " + repeat_no(mid) + " of " + std::to_string(n) + ", the middle ratio");
    } else
        r.our_figure = times_text(r.median) + ", the mean of the middle two of " + repeats + ": "
            + repeat_no(order[n / 2 - 1]) + "'s " + repeat_text(r, w, order[n / 2 - 1]) + " and "
            + repeat_no(order[n / 2]) + "'s " + repeat_text(r, w, order[n / 2]);

    const std::string rule = std::string(c.at_most ? "at most " : "at least ")
        + (w.ratio ? readable_number(c.threshold) + "x" : figure_text(c.threshold, w.unit));
    const std::string again = "Measure again when the machine is quieter, or with more repeats.";
    if (n == 0) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "nothing was measured";
    } else if (r.machine.empty() && machine_cpus < c.min_cpus) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "the claim is about " + std::to_string(c.min_cpus) + " CPUs or more; this machine has "
            + std::to_string(machine_cpus) + ", so its simulated CPUs share cores";
    } else if (any_nan) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "neither run measured any " + (w.unit.empty() ? c.figure : w.unit) + w.of
            + (n > 1 ? " in one of the " + repeats : std::string()) + ", so there is no ratio to judge";
    } else if (r.machine.empty() && counts_contentions(c) && machine_cpus >= 2 && c.min_cpus >= 2
        && contended_wait_of(r, order[(n - 1) / 2]) >= kPreemptedWaitNs) {
        // Threads that took turns contend only when a holder is preempted:
        // the figure measured the machine's other programs, not the lock.
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "the threads took turns instead of running together: a contended acquisition waited "
            + wait_text(contended_wait_of(r, order[(n - 1) / 2]))
            + " on average, a scheduler's time slice, so the waiters waited for a holder the kernel had preempted "
              "(other programs kept this machine busy), not for one running beside them. Measure again when the "
              "machine is quieter.";
    } else if (r.machine.empty() && c.race && !c.at_most && hi == 0) {
        r.verdict = LessonVerdict::Inconclusive;
        r.why = "none seen: " + figure_text(0, w.unit) + (n > 1 ? " in each of the " + repeats : std::string())
            + ". What it counts happens only when the threads race, running at the very same moment, and a "
              "machine busy with other programs may never run them so: not seeing it does not show that it "
              "cannot happen. "
            + again;
    } else if (r.spread > c.max_spread) {
        r.verdict = LessonVerdict::Inconclusive;
        const std::string ends = "the lowest gave " + value_text(w, lo) + " (" + repeat_no(order.front())
            + "), the highest " + value_text(w, hi) + " (" + repeat_no(order.back()) + ")";
        if (r.median == 0)
            r.why = "the " + repeats + " disagreed about whether it happens at all: " + ends
                + ", around a median of 0. " + again;
        else if (std::isinf(hi))
            r.why = "the " + repeats + " disagreed too much to judge: " + ends + ", where " + r.over_label
                + " measured none. " + again;
        else
            r.why = "the " + repeats + " disagreed too much to judge: " + ends
                + ". The claim is judged when they lie within " + readable_number(c.max_spread * std::fabs(r.median))
                + (w.ratio ? "" : " " + w.unit) + " of each other (" + share_of_median(c.max_spread) + ", "
                + value_text(w, r.median) + "). " + again;
    } else {
        const bool held = c.at_most ? r.median <= c.threshold : r.median >= c.threshold;
        r.verdict = held ? LessonVerdict::Held : LessonVerdict::DidNotHold;
        r.why = (w.ratio ? r.run_label + " against " + r.over_label : r.run_label) + ": " + value_text(w, r.median)
            + (std::isinf(r.median) ? " (" + r.over_label + " measured none)" : std::string())
            + (held ? ", and the claim needs " : ", but the claim needs ") + rule
            + (counts_contentions(c) && r.machine.empty() ? contention_note(contended_wait_of(r, order[(n - 1) / 2]))
                                                          : "");
    }
}

std::string repeats_range(const ClaimResult& r)
{
    const std::size_t n = r.values.size();
    if (n < 2 || std::any_of(r.values.begin(), r.values.end(), [](double v) { return std::isnan(v); }))
        return std::to_string(n) + " repeat" + (n == 1 ? "" : "s");
    const ClaimWords w = words_of(r.claim);
    const auto [lo, hi] = std::minmax_element(r.values.begin(), r.values.end());
    if (*lo == *hi)
        return n == 2 ? std::string("the same in both repeats") : "the same in all " + std::to_string(n) + " repeats";
    return std::to_string(n) + " repeats from " + value_text(w, *lo) + " to " + value_text(w, *hi);
}

ExperimentResult run_experiment(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options)
{
    ExperimentResult out;
    out.lesson = lesson.name;
    out.title = lesson.title;
    out.thread = lesson.thread;
    out.quick = options.quick;
    out.provenance = make_provenance();
    out.machine_cpus = options.machine_cpus ? options.machine_cpus : std::max(1u, std::thread::hardware_concurrency());

    // The runs each repeat needs, made once and shared by the claims that
    // measure them, interleaved (A1 B1 A2 B2 ...) so that a slow spell of a
    // shared machine falls on both sides of a ratio.
    // A claim that names its machine and is about more CPUs than this
    // computer has is measured there only (modelled_claims.h): its runs
    // here would say nothing.
    const auto modelled_only
        = [&](const LessonClaim& c) { return !c.machine.empty() && out.machine_cpus < c.min_cpus; };
    auto repeats_of = [&](const LessonClaim& c) {
        return modelled_only(c) ? 0u : options.repeats ? options.repeats : c.repeats;
    };
    unsigned most = 0;
    for (const LessonClaim& c : lesson.claims)
        most = std::max(most, repeats_of(c));
    std::map<std::pair<std::string, unsigned>, RunOutcome> results;
    const std::vector<std::string> extra = options.quick ? concat(lesson.quick, kMeasured) : kMeasured;
    const auto stopped = [&] { return options.cancel && options.cancel->load(); };
    for (unsigned rep = 0; rep < most && !out.incomplete; ++rep)
        for (const LessonRun& run : lesson.runs) {
            if (stopped()) {
                out.incomplete = true;
                break;
            }
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
                RunOptions ro;
                ro.cancel = options.cancel;
                o.result = run_scenario(lesson_scenario(run, extra, texts, run_path(lesson, run)), ro);
                if (o.result.ended_by == RunEnd::Cancelled) {
                    out.incomplete = true; // a run cut short measures nothing its claim asks
                    break;
                }
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
        unsigned made = 0; // repeats whose runs were all made (all of them unless stopped)
        while (made < repeats_of(c) && results.count({ c.run, made })
            && (c.over.empty() || results.count({ c.over, made })))
            ++made;
        measure_claim(cr, made, [&](const std::string& run, unsigned rep) -> const RunOutcome& {
            return results.at({ run, rep });
        });
        judge(cr, out.machine_cpus);
        if (modelled_only(c)) {
            cr.our_figure = "not measured here";
            cr.why = "the claim is about " + std::to_string(c.min_cpus) + " CPUs or more; this machine has "
                + std::to_string(out.machine_cpus) + ", so it is measured on its modelled machine instead";
        } else if (made < repeats_of(c)) {
            cr.verdict = LessonVerdict::Inconclusive;
            cr.why = "stopped before it was measured in full: " + std::to_string(made) + " of its "
                + std::to_string(repeats_of(c)) + " repeats " + (made == 1 ? "was" : "were") + " made";
        }
        out.claims.push_back(std::move(cr));
    }
    measure_modelled_claims(lesson, texts, options, extra, out);
    if (!out.incomplete)
        measure_modelled_tables(lesson, texts, options, extra, out);
    return out;
}

void print_verdicts(std::ostream& out, const ExperimentResult& result)
{
    out << result.title << "\nfrom the " << result.thread << " thread\n"
        << "this machine: " << result.machine_cpus << " CPUs; " << (result.quick ? "quick form" : "full form")
        << "; every figure is a ratio of runs made here side by side, or a count\n";
    if (result.incomplete)
        out << "incomplete: stopped before every run was made; a claim without all its repeats is inconclusive\n";
    for (std::size_t i = 0; i < result.claims.size(); ++i) {
        const ClaimResult& c = result.claims[i];
        const std::string q = c.claim.quoted ? "\"" : "";
        out << '\n'
            << i + 1 << ". " << c.claim.by << ": " << q << c.claim.statement << q << '\n'
            << "   thread:  " << (c.claim.thread_figure.empty() ? "no figure posted" : c.claim.thread_figure) << '\n'
            << "   ours:    " << c.our_figure;
        if (c.values.size() > 1)
            out << "; " << repeats_range(c);
        out << '\n' << "   verdict: " << lesson_verdict_name(c.verdict) << ": " << c.why << '\n';
        if (c.modelled.empty())
            continue;
        // The same claim on its thread's machine, beside this computer's.
        const ClaimResult& m = c.modelled.front();
        out << "   " << modelled_machine_text(m) << " (one run of each side: the same every time):\n"
            << "   ours:    " << m.our_figure << '\n'
            << "   verdict: " << lesson_verdict_name(m.verdict) << ": " << m.why << '\n'
            << "            " << sensitivity_text(c) << '\n';
    }
    for (const TableResult& t : result.tables) {
        out << '\n';
        print_table(out, t);
    }
}

json::Value to_json(const ExperimentResult& result)
{
    // JSON has no infinity or NaN: such a figure is written as null.
    auto number = [](double v) { return std::isfinite(v) ? json::Value(v) : json::Value(nullptr); };
    auto numbers = [&](const std::vector<double>& from) {
        json::Array a;
        for (double v : from)
            a.push_back(number(v));
        return a;
    };
    json::Array verdicts;
    for (const ClaimResult& c : result.claims) {
        json::Array modelled;
        for (const ClaimResult& m : c.modelled)
            modelled.push_back(json::Object {
                { "machine", m.machine },
                { "machine_title", m.machine_title },
                { "machine_cpus", m.machine_cpus },
                { "latency_scale", m.latency_scale },
                { "our_figure", m.our_figure },
                { "values", numbers(m.values) },
                { "run_values", numbers(m.run_values) },
                { "over_values", numbers(m.over_values) },
                { "median", number(m.median) },
                { "result", std::string(lesson_verdict_name(m.verdict)) },
                { "why", m.why },
            });
        verdicts.push_back(json::Object {
            { "machine", std::string("host") },
            { "claim", c.claim.statement },
            { "source", c.claim.by },
            { "thread_figure", c.claim.thread_figure },
            { "our_figure", c.our_figure },
            { "values", numbers(c.values) },
            { "run_values", numbers(c.run_values) },
            { "over_values", numbers(c.over_values) },
            { "run_wait_ns", numbers(c.run_wait_ns) },
            { "over_wait_ns", numbers(c.over_wait_ns) },
            { "median", number(c.median) },
            { "spread", number(c.spread) },
            { "result", std::string(lesson_verdict_name(c.verdict)) },
            { "why", c.why },
            { "modelled", std::move(modelled) },
        });
    }
    json::Array tables;
    for (const TableResult& t : result.tables)
        tables.push_back(table_json(t));
    return json::Object {
        { "experiment", result.lesson },
        { "title", result.title },
        { "thread", result.thread },
        { "quick", result.quick },
        { "machine_cpus", result.machine_cpus },
        { "incomplete", result.incomplete },
        { "verdicts", std::move(verdicts) },
        { "tables", std::move(tables) },
        { "provenance", provenance_members(result.provenance) },
    };
}

std::string verdicts_csv(const ExperimentResult& result)
{
    std::vector<std::string> columns { "claim", "source", "machine", "latency_scale", "thread_figure", "our_figure",
        "median", "spread", "result", "why" };
    const auto made = provenance_columns(result.provenance);
    for (const auto& [name, value] : made)
        columns.push_back(name);
    Report table(columns);
    // A row a verdict: this computer's, then the claim's modelled ones.
    const auto row = [&](const ClaimResult& c) {
        table.add_row();
        for (const auto& [name, value] : made)
            table.set(name, value);
        table.set("claim", c.claim.statement);
        table.set("source", c.claim.by);
        table.set("machine", c.machine.empty() ? std::string("host") : c.machine);
        if (c.machine.empty())
            table.set_missing("latency_scale", "");
        else
            table.set("latency_scale", csv_number(c.latency_scale));
        table.set("thread_figure", c.claim.thread_figure);
        table.set("our_figure", c.our_figure);
        // At full precision, as JSON has them; an unbounded or unmeasured
        // figure is an empty cell, as JSON's null.
        table.set("median", csv_number(c.median));
        table.set("spread", csv_number(c.spread));
        table.set("result", std::string(lesson_verdict_name(c.verdict)));
        table.set("why", c.why);
    };
    for (const ClaimResult& c : result.claims) {
        row(c);
        for (const ClaimResult& m : c.modelled)
            row(m);
    }
    return table.csv();
}

} // namespace pcl
