#include "sim/run_loop.h"

#include "base/clock.h"

#include <algorithm>
#include <cmath>

namespace pcl {

namespace {

bool engine_ended(Engine::State s) noexcept
{
    return s == Engine::State::Finished || s == Engine::State::Stopped || s == Engine::State::Failed;
}

/// How a run whose engine ended in @s ended.
RunEnd end_of(Engine::State s) noexcept
{
    return s == Engine::State::Failed  ? RunEnd::Failed
        : s == Engine::State::Finished ? RunEnd::Finished
                                       : RunEnd::Stopped;
}

/// @scenario, checked before anything is built from it.
const Scenario& validated(const Scenario& scenario)
{
    scenario.validate();
    return scenario;
}

} // namespace

RunLoop::RunLoop(const Scenario& scenario)
    : scenario_(validated(scenario))
    , engine_(scenario_.engine, registry_)
    , sampler_(engine_)
    , interval_s_(double(std::max<std::uint64_t>(scenario_.sample_interval_ms, 1)) / 1000.0)
    , next_sample_s_(interval_s_)
{
}

RunLoop::~RunLoop() = default; // ~Engine stops and joins the CPUs first

double RunLoop::running_seconds() const noexcept
{
    return double(clock_.running_ns(now_ns())) / 1e9;
}

std::uint64_t RunLoop::running_ns() const noexcept
{
    return clock_.running_ns(now_ns());
}

std::uint64_t RunLoop::clock_now_ns() const noexcept
{
    return clock_.to_run(now_ns());
}

std::optional<std::uint64_t> RunLoop::next_deadline() const noexcept
{
    if (phase_ != Phase::Running || !clock_.running())
        return std::nullopt;
    double at = next_sample_s_;
    if (scenario_.duration_seconds > 0)
        at = std::min(at, scenario_.duration_seconds);
    // Rounded up: a sleep until a deadline rounded down would wake a
    // fraction of a nanosecond early, find nothing due, and on a modelled
    // machine, whose clock stands while its one task looks, sleep until the
    // same instant again.
    const double from_now = std::max(0.0, at - running_seconds());
    return now_ns() + static_cast<std::uint64_t>(std::ceil(from_now * 1e9));
}

std::uint64_t RunLoop::next_turn_ns() const noexcept
{
    const std::uint64_t now = now_ns();
    std::uint64_t wake = now + kTurnPeriodNs;
    if (const auto deadline = next_deadline())
        wake = std::min(wake, *deadline);
    return std::max(wake, now + 1);
}

void RunLoop::play()
{
    if (phase_ == Phase::Ready) {
        // The clock starts before the engine, so that no event is stamped
        // before the run's start.
        clock_.start(now_ns());
        engine_.start();
    } else if (phase_ == Phase::Paused) {
        engine_.resume();
        clock_.go(now_ns());
    } else {
        return;
    }
    stepping_ = false;
    phase_ = Phase::Running;
}

void RunLoop::pause()
{
    if (phase_ != Phase::Running)
        return;
    engine_.pause();
    // The clock stops first, so the sample closing the interval up to the
    // pause ends where the next interval will begin. A sliver of an
    // interval is not closed: its few operations over a few milliseconds
    // would read as a collapse of the rate at every pause (the CPUs were
    // mid-operation); the running clock stood still, so the next interval
    // takes it in, and the run's last sample does if it ends paused.
    clock_.stop(now_ns());
    if (running_seconds() - sampled_s_ >= interval_s_ / 2)
        take_sample();
    else
        unsampled_ = running_seconds() > sampled_s_;
    phase_ = Phase::Paused;
}

void RunLoop::step(std::uint64_t n)
{
    if (phase_ == Phase::Ended)
        return;
    if (phase_ == Phase::Running)
        pause();
    // The step's operations are running time: the clock goes until the
    // CPUs hold again (turn() sees them held), so that the events a step
    // records keep their lengths on the timeline.
    if (phase_ == Phase::Ready) {
        clock_.start(now_ns());
        engine_.start(true);
    } else {
        clock_.go(now_ns());
    }
    engine_.step(n);
    stepping_ = true;
    phase_ = Phase::Paused;
}

void RunLoop::set_pacing(double ops_per_second, std::uint64_t hold_stretch_ns)
{
    engine_.set_pacing(ops_per_second, hold_stretch_ns);
    scenario_.engine.ops_per_second = ops_per_second;
    scenario_.engine.hold_stretch_ns = hold_stretch_ns;
}

void RunLoop::drain(const EventSink& sink)
{
    drained_ += engine_.events().drain_all(buffer_);
    for (Event& e : buffer_)
        e.time_ns = clock_.to_run(e.time_ns);
    if (sink && !buffer_.empty())
        sink(buffer_);
    buffer_.clear(); // keeps its capacity: one drain's worth at most
}

void RunLoop::take_sample()
{
    const std::uint64_t wall = now_ns();
    const double now = double(clock_.running_ns(wall)) / 1e9;
    const MetricsSample s = sampler_.sample(now, clock_.to_run(wall));
    sampled_s_ = now;
    unsampled_ = false;
    if (on_sample_)
        on_sample_(s);
}

void RunLoop::turn(const EventSink& sink)
{
    if (phase_ == Phase::Ended || phase_ == Phase::Ready)
        return;
    if (stepping_)
        if (const std::optional<std::uint64_t> held = engine_.held_since()) {
            // The clock stops when the last CPU finished its step, not
            // when this turn noticed.
            clock_.stop(*held);
            stepping_ = false;
        }
    drain(sink);
    // A run that ended by itself closes at its end, before a sample this
    // turn would take after it.
    if (const Engine::State s = engine_.state(); engine_ended(s)) {
        close(end_of(s), sink);
        return;
    }
    if (phase_ == Phase::Running) {
        const double now = running_seconds();
        if (now >= next_sample_s_) {
            take_sample();
            // Skip intervals missed (a slow turn) rather than sampling in a burst.
            next_sample_s_ += interval_s_;
            if (next_sample_s_ <= now)
                next_sample_s_ = now + interval_s_;
        }
        if (scenario_.duration_seconds > 0 && now >= scenario_.duration_seconds) {
            close(RunEnd::Duration, sink);
            return;
        }
    }
}

void RunLoop::end(RunEnd why, const EventSink& sink)
{
    if (phase_ != Phase::Ended)
        close(why, sink);
}

void RunLoop::close(RunEnd why, const EventSink& sink)
{
    const bool by_itself = engine_ended(engine_.state());
    if (by_itself)
        engine_.wait();
    else
        engine_.stop();
    // The CPUs have left and the clock stops: the closing sample is exact and
    // ends the series at the run's running time, so that its counts add up to
    // the totals. A run that did not run since its last sample (ended while
    // paused) has no interval left to close.
    const bool was_running = phase_ == Phase::Running;
    // The run ended when its last CPU left, not when this loop noticed (up
    // to a drain period later).
    const std::uint64_t now = now_ns();
    const std::optional<std::uint64_t> ended = by_itself ? engine_.ended_at() : std::nullopt;
    clock_.stop(ended ? std::min(now, *ended) : now);
    stepping_ = false;
    if ((was_running || unsampled_) && running_seconds() > sampled_s_)
        take_sample();
    phase_ = Phase::Ended;
    ended_by_ = why;
    drain(sink);
}

RunResult RunLoop::result()
{
    return result_after(running_seconds());
}

RunResult RunLoop::result_after(double running_seconds)
{
    RunResult r = collect_result(engine_, scenario_, sampler_, running_seconds);
    r.ended_by = ended_by_;
    r.events_drained = drained_;
    return r;
}

} // namespace pcl
