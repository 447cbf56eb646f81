#include "sim/runner.h"

#include "sim/run_loop.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace pcl {

namespace {

// How often the event rings are drained. A ring holds 2^14 records by
// default and an unpaced CPU pushes a few million a second, so a ring wraps
// in a few milliseconds; when simulated CPUs outnumber cores the runner's
// wake-ups come late as well. What is lost anyway is counted as dropped.
constexpr auto kDrainPeriod = std::chrono::milliseconds(1);

} // namespace

RunResult run_scenario(const Scenario& scenario, const RunOptions& options)
{
    RunLoop loop(scenario);
    loop.set_sample_callback(options.progress);
    const RunLoop::EventSink sink = [&](std::vector<Event>& batch) {
        if (options.events)
            options.events(batch);
    };
    loop.play();
    while (loop.phase() != RunLoop::Phase::Ended) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            loop.end("cancelled", sink);
            break;
        }
        loop.turn(sink);
        auto wake = RunLoop::Clock::now() + kDrainPeriod;
        if (const auto deadline = loop.next_deadline())
            wake = std::min(wake, *deadline);
        std::this_thread::sleep_until(wake);
    }
    return loop.result();
}

} // namespace pcl
