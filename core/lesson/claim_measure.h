// A claim's figures from the runs of its repeats, wherever they were made:
// on this computer's threads (run_experiment) or on the claim's modelled
// machine (modelled_claims.h).
#pragma once

#include "lesson/experiment.h"
#include "lesson/lesson_probe.h"
#include "sim/run_result.h"

#include <functional>
#include <string>

namespace pcl {

/// What one run of a repeat left: a scenario run's result (and its
/// headline figures), or a probe's figures.
struct RunOutcome {
    RunResult result;
    ProbeFigures figures;
};

/// Whether @c counts contentions: a CPU finding the lock already taken.
bool counts_contentions(const LessonClaim& c);

/// Fills @cr's values, run_values and over_values (and, for a contention
/// count, the runs' mean contended waits) from @repeats repeats, whose runs
/// @outcome gives by run name and repeat. A run that never contended
/// divides into an unbounded ratio; two that never did, into NaN.
void measure_claim(ClaimResult& cr, unsigned repeats,
    const std::function<const RunOutcome&(const std::string& run, unsigned repeat)>& outcome);

} // namespace pcl
