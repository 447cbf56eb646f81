// Running a scenario from start to result, without a display: what
// `pagecache-lab-cli run` and the tests do, and what the GUI does on its own
// timer.
//
// The runner turns the run loop (sim/run_loop.h) the GUI's timer turns, from
// this thread: it plays the run and turns the loop every millisecond, or
// sooner when a sample or the end of the duration is due, until the run
// ends by itself, at its duration, or when asked to cancel. Nobody reads the
// events of a headless run unless RunOptions::events asks for them, but
// draining them keeps the rings from overwriting (so the dropped count means
// what it says) while holding no more than one drain's worth in memory.
#pragma once

#include "events/event.h"
#include "sim/metrics.h"
#include "sim/run_result.h"
#include "sim/scenario.h"

#include <atomic>
#include <functional>
#include <vector>

namespace pcl {

class Engine;

struct RunOptions {
    /// Called on the runner's thread after each sample.
    std::function<void(const MetricsSample&)> progress;
    /// When set and it becomes true, the run is stopped (ended_by RunEnd::Cancelled).
    const std::atomic<bool>* cancel = nullptr;
    /// Called on the runner's thread with each batch of events drained (in
    /// time order within a batch), e.g. to log readahead windows. Records the
    /// rings dropped never reach it: see RunResult::events_dropped.
    std::function<void(const std::vector<Event>&)> events;
    /// Called once the run has ended and the engine is at rest
    /// (Engine::quiesce: kswapd and the flushers stopped, the disks idle,
    /// the RCU callbacks run), before it goes (on a modelled machine, as
    /// its main task): checks of its final state (sim/run_audit.h).
    std::function<void(Engine&)> at_end;
    /// On a modelled machine, a run that makes more scheduling points than
    /// this is stopped and throws, saying so (0: no limit): an exploring
    /// schedule can starve for good the task another waits for.
    std::uint64_t max_scheduling_points = 0;
};

/// Runs @scenario and returns its result. Throws ScenarioError if the
/// scenario does not validate; a run that fails (no free frame) is not an
/// exception but a result with state "failed" and the engine's error.
RunResult run_scenario(const Scenario& scenario, const RunOptions& options = {});

} // namespace pcl
