// A lesson's measurement: its claims' runs, each repeated, unpaced and
// without the event stream (counters are exact either way), on this
// machine; each claim's figure, their median and spread, and the verdict
// its rule gives (`pagecache-lab-cli experiment`, and the verdict table at
// the end of a lesson in the GUI).
//
// A figure is always a ratio of two runs made here, side by side, or a count
// of one: never an absolute time set beside one posted in 2002. A claim
// about more CPUs than this machine has, or whose repeats spread too wide,
// is inconclusive and says why.
#pragma once

#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"
#include "lesson/lesson_problems.h"
#include "lesson/lesson_table.h"
#include "lib/json.h"
#include "lib/provenance.h"
#include "sim/scenario.h"

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {

/// The text of the bundled scenario named @name ("2002-global-hash-lock");
/// throws std::runtime_error naming it when there is none.
using ScenarioTexts = std::function<std::string(const std::string& name)>;

/// The scenario @run describes, with @extra overrides applied after the
/// run's own (a step's, the quick form's). Throws LessonError naming
/// @path, the member that gave the run or the overrides, for a scenario
/// that does not exist or refuses an override.
Scenario lesson_scenario(
    const LessonRun& run, const std::vector<std::string>& extra, const ScenarioTexts& texts, const std::string& path);

/// Builds and validates the scenario of every scenario run, plain and
/// quick, and of every step on one, without running any, and adds what
/// each refuses to @problems at its own member: the run's unknown scenario
/// ("runs[0].scenario"), or the override refused ("runs[1].set[2]",
/// "steps[0].set[0]", "quick[0]"). A run or step whose scenario, run or
/// overrides have a problem in @problems already is not built, nor the
/// quick form and the steps of a run that is refused. (A probe run's
/// parameters are checked when the lesson is read.)
void find_scenario_problems(const Lesson& lesson, const ScenarioTexts& texts, LessonProblems& problems);

/// find_scenario_problems on a lesson that reads: throws the first problem.
void check_lesson_scenarios(const Lesson& lesson, const ScenarioTexts& texts);

/// Measures probe run @run once, in its quick form if @quick: its probe's
/// figures by name. Throws std::runtime_error when the measurement fails.
ProbeFigures run_lesson_probe(const LessonRun& run, bool quick);

struct ExperimentOptions {
    bool quick = false;        ///< the lesson's scaled-down form
    unsigned repeats = 0;      ///< repeats of every claim; 0: each claim's own
    unsigned machine_cpus = 0; ///< 0: this machine's (std::thread::hardware_concurrency)
    /// Told what runs next ("hash-shared, repeat 2 of 3").
    std::function<void(const std::string&)> progress;
    /// Set (by Ctrl+C) to stop: the run under way is dropped, no other
    /// starts, and each claim is judged on the repeats whose runs were all
    /// made; one that lacks any is inconclusive (ExperimentResult::incomplete).
    const std::atomic<bool>* cancel = nullptr;
};

struct ClaimResult {
    LessonClaim claim;
    std::string run_label;                       ///< the measured run's label
    std::string over_label;                      ///< the run it is divided by ("" for a count)
    std::vector<double> values;                  ///< the claim's figure, one per repeat
    std::vector<double> run_values, over_values; ///< the metric of each run, per repeat
    /// For a contention count, the mean wait of a contended acquisition of
    /// each run's lock, per repeat, in ns (NaN when never contended): what
    /// the count depends on (lesson_metric.h).
    std::vector<double> run_wait_ns, over_wait_ns;
    double median = 0;
    double spread = 0; ///< (max - min) / median of the repeats; 0 for one, or when they agree
    LessonVerdict verdict = LessonVerdict::Inconclusive;
    /// The median in words, a ratio with the two figures of the repeat it
    /// comes from, so that it divides as shown: "2.23x (2.62 vs 1.17
    /// contentions / 1000 ops of pagecache_lock, repeat 2 of 3, the middle
    /// ratio)"; for an even number of repeats, the middle two.
    std::string our_figure;
    std::string why; ///< the verdict in words
    /// Where it was measured: "" this computer's threads; else the modelled
    /// profile's name (LessonClaim::machine), its title, its CPUs, and the
    /// factor on its transfer latencies (1, or the sensitivity's 0.5 and 2).
    std::string machine;
    std::string machine_title;
    unsigned machine_cpus = 0;
    double latency_scale = 1;
    /// For a claim that names its machine: its verdicts there, one run of
    /// each side, at the profile's latencies, then at half and twice them.
    std::vector<ClaimResult> modelled;
};

struct ExperimentResult {
    std::string lesson; ///< its name
    std::string title;
    std::string thread;
    bool quick = false;
    unsigned machine_cpus = 0;
    bool incomplete = false; ///< stopped (ExperimentOptions::cancel) before every run was made
    Provenance provenance;   ///< the build, command, time and computer that measured it
    std::vector<ClaimResult> claims;
    std::vector<TableResult> tables; ///< the lesson's tables, measured on their modelled machines
};

/// Runs every claim of @lesson. A run that fails (the engine's error) throws
/// std::runtime_error naming the run; a verdict is never a failure.
ExperimentResult run_experiment(
    const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options = {});

/// The verdict the rule of @claim gives to @values (one per repeat) on a
/// machine of @machine_cpus CPUs (@run_values and @over_values are the two
/// runs' figures per repeat); fills median, spread, our_figure, verdict and why.
void judge(ClaimResult& result, unsigned machine_cpus);

/// The repeats of @result in words: "3 repeats from 1.9x to 2.6x", "the
/// same in all 3 repeats", "1 repeat".
std::string repeats_range(const ClaimResult& result);

/// The verdict table as text: per claim, who said it, the thread's figure,
/// ours and the verdict with its reason.
void print_verdicts(std::ostream& out, const ExperimentResult& result);

/// {"experiment", "title", "thread", "quick", "machine_cpus", "verdicts": [{"claim", "source",
/// "thread_figure", "our_figure", "values", "run_values", "over_values", "run_wait_ns", "over_wait_ns",
/// "median", "spread", "result", "why"}]}: values are the claim's figure per repeat, run_values and
/// over_values the two runs' (over_values empty for a count), run_wait_ns and over_wait_ns a contention
/// count's mean contended wait per run and repeat (null when never contended; empty for other claims).
json::Value to_json(const ExperimentResult& result);

/// The verdict table as CSV, one row per claim: claim, source,
/// thread_figure, our_figure, median, spread, result, why.
std::string verdicts_csv(const ExperimentResult& result);

} // namespace pcl
