#include "lesson/modelled_claims.h"

#include "lesson/claim_measure.h"
#include "lesson/figure_text.h"
#include "lesson/lesson_metric.h"
#include "sched/machine_profiles.h"
#include "sim/runner.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

namespace pcl {

namespace {

std::string scale_text(double scale)
{
    return scale == 1 ? "its own latencies" : readable_number(scale) + "x its latencies";
}

} // namespace

void measure_modelled_claims(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options,
    const std::vector<std::string>& extra, ExperimentResult& out)
{
    // Each run once per machine and latency factor, shared by the claims
    // that measure it.
    std::map<std::tuple<std::string, std::string, double>, RunOutcome> runs;
    const auto stopped = [&] { return options.cancel && options.cancel->load(); };
    for (std::size_t i = 0; i < lesson.claims.size() && i < out.claims.size(); ++i) {
        const LessonClaim& c = lesson.claims[i];
        if (c.machine.empty())
            continue;
        const sched::MachineProfile profile = sched::load_machine_profile(c.machine);
        std::vector<ClaimResult> verdicts;
        for (const double scale : kModelledLatencyScales) {
            const auto outcome = [&](const std::string& name, unsigned) -> const RunOutcome& {
                const auto key = std::tuple { name, c.machine, scale };
                if (const auto it = runs.find(key); it != runs.end())
                    return it->second;
                const LessonRun* run = lesson.find_run(name);
                if (!run || run->is_probe())
                    throw std::runtime_error("claim " + std::to_string(i + 1) + " names a machine, but run '" + name
                        + "' is a probe's, which measures this computer");
                if (options.progress)
                    options.progress(run->label + ", on the modelled " + c.machine + " at " + scale_text(scale));
                std::vector<std::string> overrides = extra;
                overrides.push_back("machine.profile=" + c.machine);
                overrides.push_back("machine.latency_scale=" + readable_number(scale));
                RunOptions ro;
                ro.cancel = options.cancel;
                RunOutcome o;
                o.result = run_scenario(lesson_scenario(*run, overrides, texts, "claims"), ro);
                if (o.result.ended_by == RunEnd::Cancelled)
                    throw std::runtime_error("stopped");
                if (o.result.state == "failed")
                    throw std::runtime_error("run '" + run->name + "' (" + run->label + ") on the modelled " + c.machine
                        + " failed: " + o.result.error);
                return runs.emplace(key, std::move(o)).first->second;
            };
            ClaimResult v;
            v.claim = c;
            v.run_label = out.claims[i].run_label;
            v.over_label = out.claims[i].over_label;
            v.machine = c.machine;
            v.machine_title = profile.title;
            v.machine_cpus = profile.max_cpus;
            v.latency_scale = scale;
            try {
                measure_claim(v, 1, outcome);
            } catch (const std::runtime_error&) {
                if (!stopped())
                    throw;
                out.incomplete = true;
                return; // a claim's modelled verdicts are all or none
            }
            judge(v, profile.max_cpus);
            verdicts.push_back(std::move(v));
        }
        out.claims[i].modelled = std::move(verdicts);
    }
}

void measure_modelled_tables(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options,
    const std::vector<std::string>& extra, ExperimentResult& out)
{
    for (const LessonTable& t : lesson.tables) {
        const sched::MachineProfile profile = sched::load_machine_profile(t.machine);
        TableResult r;
        r.table = t;
        r.machine_title = profile.title;
        r.machine_cpus = profile.max_cpus;
        r.unit = std::string(lesson_metric_info(t.metric).unit);
        for (const LessonTableSeries& s : t.series) {
            const LessonRun* run = lesson.find_run(s.run);
            r.labels.push_back(!s.label.empty() ? s.label : run ? run->label : s.run);
            r.ours.emplace_back(t.cpus.size(), std::nan(""));
        }
        // Point by point up the table, every series at one count before the
        // next, so that a stopped measurement leaves whole rows.
        for (std::size_t i = 0; i < t.cpus.size() && !out.incomplete; ++i)
            for (std::size_t k = 0; k < t.series.size(); ++k) {
                if (options.cancel && options.cancel->load()) {
                    out.incomplete = true;
                    break;
                }
                const LessonRun* run = lesson.find_run(t.series[k].run);
                if (!run || run->is_probe())
                    throw std::runtime_error("table '" + t.title + "' names run '" + t.series[k].run
                        + "', which is not a scenario run of the lesson");
                if (options.progress)
                    options.progress(r.labels[k] + ", " + std::to_string(t.cpus[i]) + " CPUs of the modelled "
                        + t.machine + " (" + t.title + ")");
                std::vector<std::string> overrides = extra;
                overrides.insert(overrides.end(), t.set.begin(), t.set.end());
                overrides.push_back("machine.profile=" + t.machine);
                overrides.push_back("workload.cpus=" + std::to_string(t.cpus[i]));
                RunOptions ro;
                ro.cancel = options.cancel;
                const RunResult result = run_scenario(lesson_scenario(*run, overrides, texts, "tables"), ro);
                if (result.ended_by == RunEnd::Cancelled) {
                    out.incomplete = true;
                    break;
                }
                if (result.state == "failed")
                    throw std::runtime_error("run '" + run->name + "' (" + run->label + ") at "
                        + std::to_string(t.cpus[i]) + " CPUs of the modelled " + t.machine
                        + " failed: " + result.error);
                r.ours[k][i] = measure(t.metric, result, t.lock);
            }
        out.tables.push_back(std::move(r));
        if (out.incomplete)
            break;
    }
}

std::string sensitivity_text(const ClaimResult& claim)
{
    if (claim.modelled.size() != std::size(kModelledLatencyScales))
        return {};
    const auto one = [](const ClaimResult& v) {
        const std::string figure = std::isnan(v.median) ? std::string("no figure")
            : std::isinf(v.median)                      ? std::string("unbounded")
                                                        : readable_number(v.median) + (v.claim.over.empty() ? "" : "x");
        return std::string(lesson_verdict_name(v.verdict)) + " (" + figure + ")";
    };
    const ClaimResult& half = claim.modelled[1];
    const ClaimResult& twice = claim.modelled[2];
    return "at half and at twice the transfer latencies: " + one(half) + " and " + one(twice);
}

std::string modelled_machine_text(const ClaimResult& verdict)
{
    return "on a modelled " + verdict.machine_title + ", " + std::to_string(verdict.machine_cpus) + " CPUs";
}

} // namespace pcl
