// A lesson's claims and tables on the machines of their threads: a claim that names
// its machine (LessonClaim::machine, "altix-2005") is measured there, on
// the modelled machine (sched/machine_profile.h), whatever this computer
// has: Lameter's 60 CPUs on a 2-core laptop.
//
// A modelled run is deterministic, so each side is run once: the verdict
// is never "inconclusive because the repeats spread". What stands in for
// the spread is the model's sensitivity: the claim is measured again with
// every transfer latency of the profile halved and doubled, and the
// verdict says whether it holds at both.
#pragma once

#include "lesson/experiment.h"

#include <string>
#include <vector>

namespace pcl {

/// The latency factors of a modelled claim's verdicts, in the order of
/// ClaimResult::modelled: the profile's own, then its sensitivity.
inline constexpr double kModelledLatencyScales[] = { 1.0, 0.5, 2.0 };

/// Measures every claim of @lesson that names its machine there, at each of
/// kModelledLatencyScales, into its ClaimResult::modelled in @out (whose
/// claims run_experiment made, in the lesson's order). @extra are the
/// overrides every run of the experiment takes. Stops, leaving a claim's
/// modelled verdicts out and @out incomplete, when @options' cancel is set.
void measure_modelled_claims(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options,
    const std::vector<std::string>& extra, ExperimentResult& out);

/// Measures every table of @lesson on its modelled machine: each series'
/// run once at each CPU count, at the profile's latencies, into
/// ExperimentResult::tables of @out. Stops, leaving the rest of the points
/// NaN and @out incomplete, when @options' cancel is set.
void measure_modelled_tables(const Lesson& lesson, const ScenarioTexts& texts, const ExperimentOptions& options,
    const std::vector<std::string>& extra, ExperimentResult& out);

/// A modelled verdict's sensitivity in words: "at half and at twice the
/// transfer latencies: held (2.9x) and held (3.5x)". Empty unless @claim
/// has its three modelled verdicts.
std::string sensitivity_text(const ClaimResult& claim);

/// "on a modelled SGI Altix 3000 (Itanium 2, NUMAlink-3), 2005, 64 CPUs".
std::string modelled_machine_text(const ClaimResult& verdict);

} // namespace pcl
