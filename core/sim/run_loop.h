// One run of a scenario and the loop that drives it: the same loop for
// `pagecache-lab-cli run` (run_scenario turns it from a sleeping thread)
// and for the GUI (its timer turns it thirty times a second).
//
// A RunLoop owns the run's lock registry (so two runs in one process never
// mix their lock counts), its engine and its sampler. Each turn drains the
// event rings, samples the counters when a sample is due, ends the run at
// its duration, and notices a run that has ended by itself. Time is running
// time (sim/run_clock.h): a pause is not part of the run, so samples, the
// duration and the events' stamps count only the time the CPUs were let
// run, steps included. Draining keeps the rings from
// overwriting, so the dropped count means what it says; what the caller
// does with the events (a view shows them, the command line logs or only
// counts them) is its own business.
#pragma once

#include "events/event.h"
#include "sim/engine.h"
#include "sim/metrics.h"
#include "sim/run_clock.h"
#include "sim/run_end.h"
#include "sim/run_result.h"
#include "sim/scenario.h"
#include "sync/lock_stats.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pcl {

class RunLoop {
public:
    /// Where a turn hands the events it drained: one batch at a time, in
    /// time order within a batch. The callee may change the batch (trim it);
    /// the loop reuses its storage.
    using EventSink = std::function<void(std::vector<Event>&)>;

    enum class Phase : std::uint8_t {
        Ready,   ///< built, no CPU has started
        Running, ///< the CPUs run; the clock and the samples go on
        Paused,  ///< the CPUs hold (or do the operations step() allows); the clock stands
        Ended,   ///< ended_by() says why; the CPUs have left
    };

    /// Validates @scenario (throws ScenarioError) and builds its engine; the
    /// run waits for play() or step(). Throws what the engine's constructor
    /// throws for a configuration it cannot build.
    explicit RunLoop(const Scenario& scenario);
    /// Stops a run still going; the CPUs leave before the registry goes.
    ~RunLoop();
    RunLoop(const RunLoop&) = delete;
    RunLoop& operator=(const RunLoop&) = delete;

    const Scenario& scenario() const noexcept { return scenario_; }
    Engine& engine() noexcept { return engine_; }
    const Engine& engine() const noexcept { return engine_; }
    const sync::LockRegistry& registry() const noexcept { return registry_; }

    Phase phase() const noexcept { return phase_; }
    /// Why the run ended: Finished (every CPU did its sequence), Failed
    /// (Engine::error says why), Stopped (the engine was stopped), Duration
    /// (duration_seconds ran out) or what end() was given; None while the
    /// run goes on.
    RunEnd ended_by() const noexcept { return ended_by_; }

    /// Called with every sample as it is taken (the closing one included).
    void set_sample_callback(std::function<void(const MetricsSample&)> callback) { on_sample_ = std::move(callback); }

    /// Ready: starts the CPUs. Paused: lets them run again.
    void play();
    /// Running: holds the CPUs and closes the running interval with a
    /// sample, unless less than half an interval has run since the last one
    /// (the next sample, or the run's last, takes it in).
    void pause();
    /// Each CPU does @n more operations and holds; a Ready run starts held,
    /// a Running one is paused first. The run stays paused, so it is not
    /// sampled; the time the CPUs take to do the step is running time, so
    /// that the events it records keep their lengths on the run's clock.
    void step(std::uint64_t n = 1);
    /// Changes the speed of the running engine and the scenario's record of
    /// it (throws std::invalid_argument for values out of range).
    void set_pacing(double ops_per_second, std::uint64_t hold_stretch_ns);

    /// One turn of the loop: drains the rings into @sink, each event's stamp
    /// moved onto the run's clock (RunClock::to_run); while Running,
    /// takes a sample when one is due and ends the run when its duration has
    /// run out; notices a run that ended by itself. When the run ends in this
    /// turn, the CPUs are let leave, the closing sample is taken and what is
    /// left in the rings reaches @sink too.
    void turn(const EventSink& sink);
    /// Ends a run that still goes on, saying @why (Cancelled, Stopped), as
    /// turn() ends one. Nothing happens to a run that has ended.
    void end(RunEnd why, const EventSink& sink);

    /// Seconds the CPUs have been let run: pauses excluded, the time the
    /// CPUs took to do a step included.
    double running_seconds() const noexcept;
    /// The same in nanoseconds.
    std::uint64_t running_ns() const noexcept;
    /// A step was let go and the CPUs have not all held yet.
    bool stepping() const noexcept { return stepping_; }
    /// Now on the run's clock, as the events drained are stamped: a view's
    /// live edge.
    std::uint64_t clock_now_ns() const noexcept;
    /// When the next turn has more to do than drain: the next sample, or the
    /// end of the duration, on now_ns()'s clock; nullopt unless Running.
    std::optional<std::uint64_t> next_deadline() const noexcept;
    /// How often a driver turns the loop at most. A ring holds 2^14 records
    /// by default and an unpaced CPU pushes a few million a second, so a
    /// ring wraps in a few milliseconds; when simulated CPUs outnumber
    /// cores the driver's wake-ups come late as well. What is lost anyway is
    /// counted as dropped.
    static constexpr std::uint64_t kTurnPeriodNs = 1'000'000; // 1 ms
    /// When the driver turns next, on now_ns()'s clock: a turn period on, or
    /// sooner when a sample or the end of the duration is due, and at least
    /// a nanosecond on (on a modelled machine the clock moves only when a
    /// task works or sleeps, and the driver only sleeps). Every driver
    /// turns at these instants, so that a modelled run is the same run
    /// whoever drives it (sim/runner.cpp, sim/modelled_run.cpp).
    std::uint64_t next_turn_ns() const noexcept;

    /// The time series so far, oldest first (see MetricsSampler::series).
    const std::vector<MetricsSample>& samples() const noexcept { return sampler_.series(); }
    /// Records every turn has drained from the rings.
    std::uint64_t events_drained() const noexcept { return drained_; }

    /// The run's result: its counters as they are now, with ended_by and the
    /// events drained. Exact once the run has ended.
    RunResult result();
    /// The same, for a run that has run @running_seconds: read by someone
    /// who is not on the run's clock (sim/modelled_run.h, while the
    /// machine stands).
    RunResult result_after(double running_seconds);

    /// Drains the rings into @sink, each stamp moved onto the run's clock,
    /// and nothing else (no clock read: turn() does the rest).
    void drain(const EventSink& sink);
    /// The run's clock, to put a time of the machine on it.
    const RunClock& clock() const noexcept { return clock_; }

private:
    void take_sample();
    /// The closing steps of a run whose engine has ended or been stopped.
    void close(RunEnd why, const EventSink& sink);

    Scenario scenario_;
    // Declared before the engine, so it outlives every lock that counts into it.
    sync::LockRegistry registry_;
    Engine engine_;
    MetricsSampler sampler_;
    std::function<void(const MetricsSample&)> on_sample_;
    Phase phase_ = Phase::Ready;
    RunEnd ended_by_ = RunEnd::None;
    std::vector<Event> buffer_;
    std::uint64_t drained_ = 0;
    double interval_s_;    ///< scenario.sample_interval_ms in seconds
    double next_sample_s_; ///< running time of the next sample
    double sampled_s_ = 0; ///< running time of the last sample
    RunClock clock_;
    /// A step was let go while paused: the clock runs until the CPUs hold again.
    bool stepping_ = false;
    /// A pause left a sliver of running time unsampled (pause()).
    bool unsampled_ = false;
};

} // namespace pcl
