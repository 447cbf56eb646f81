#include "sim/runner.h"

#include "sim/engine.h"
#include "sync/lock_stats.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace pcl {

namespace {

using Clock = std::chrono::steady_clock;

// How often the event rings are drained. A ring holds 2^14 records by
// default and an unpaced CPU pushes a few million a second, so a ring wraps
// in a few milliseconds; when simulated CPUs outnumber cores the runner's
// wake-ups come late as well. What is lost anyway is counted as dropped.
constexpr auto kDrainPeriod = std::chrono::milliseconds(1);

bool ended(Engine::State s) noexcept
{
    return s == Engine::State::Finished || s == Engine::State::Stopped || s == Engine::State::Failed;
}

} // namespace

RunResult run_scenario(const Scenario& scenario, const RunOptions& options)
{
    scenario.validate();
    // Declared before the engine, so it outlives every lock that counts into it.
    sync::LockRegistry registry;
    Engine engine(scenario.engine, registry);
    std::vector<Event> buffer;
    std::uint64_t drained = 0;
    auto drain = [&] {
        drained += engine.events().drain_all(buffer);
        if (options.events && !buffer.empty())
            options.events(buffer);
        buffer.clear(); // keeps its capacity: one drain's worth at most
    };

    const auto interval = std::chrono::milliseconds(std::max<std::uint64_t>(scenario.sample_interval_ms, 1));
    const bool timed = scenario.duration_seconds > 0;
    const auto start = Clock::now();
    const auto deadline = start
        + std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(timed ? scenario.duration_seconds : 0));
    auto next_sample = start + interval;
    std::string ended_by;

    MetricsSampler sampler(engine); // its clock starts with the run
    engine.start();
    for (;;) {
        const Engine::State s = engine.state();
        if (ended(s)) {
            ended_by = s == Engine::State::Failed ? "failed" : s == Engine::State::Finished ? "finished" : "stopped";
            break;
        }
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            ended_by = "cancelled";
            break;
        }
        const auto now = Clock::now();
        if (timed && now >= deadline) {
            ended_by = "duration";
            break;
        }
        if (now >= next_sample) {
            const MetricsSample sample = sampler.sample();
            if (options.progress)
                options.progress(sample);
            // Skip intervals missed (a slow callback) rather than sampling in a burst.
            next_sample += interval;
            if (next_sample <= now)
                next_sample = now + interval;
        }
        drain();
        auto wake = std::min(next_sample, Clock::now() + kDrainPeriod);
        if (timed)
            wake = std::min(wake, deadline);
        std::this_thread::sleep_until(wake);
    }
    if (ended(engine.state()))
        engine.wait();
    else
        engine.stop();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();

    // The CPUs have left: this sample is exact and closes the series, so
    // that its counts add up to the totals; then what is left in the rings.
    const MetricsSample last = sampler.sample();
    if (options.progress)
        options.progress(last);
    drain();

    RunResult result = collect_result(engine, scenario, sampler, wall);
    result.ended_by = ended_by;
    result.events_drained = drained;
    return result;
}

} // namespace pcl
