#include "sim/runner.h"

#include "base/clock.h"
#include "base/sleep.h"
#include "sim/run_loop.h"

#include <algorithm>
#include <cstdint>
#include <time.h>

namespace pcl {

namespace {

// How often the event rings are drained. A ring holds 2^14 records by
// default and an unpaced CPU pushes a few million a second, so a ring wraps
// in a few milliseconds; when simulated CPUs outnumber cores the runner's
// wake-ups come late as well. What is lost anyway is counted as dropped.
constexpr std::uint64_t kDrainPeriodNs = 1'000'000; // 1 ms

/// CPU time of every thread of the process so far (CLOCK_PROCESS_CPUTIME_ID):
/// the host's, as the run's result reports it.
double process_cpu_seconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

} // namespace

RunResult run_scenario(const Scenario& scenario, const RunOptions& options)
{
    RunLoop loop(scenario);
    loop.set_sample_callback(options.progress);
    const RunLoop::EventSink sink = [&](std::vector<Event>& batch) {
        if (options.events)
            options.events(batch);
    };
    const double cpu0 = process_cpu_seconds();
    loop.play();
    while (loop.phase() != RunLoop::Phase::Ended) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            loop.end(RunEnd::Cancelled, sink);
            break;
        }
        loop.turn(sink);
        std::uint64_t wake = now_ns() + kDrainPeriodNs;
        if (const auto deadline = loop.next_deadline())
            wake = std::min(wake, *deadline);
        sleep_until_ns(wake);
    }
    RunResult r = loop.result();
    r.cpu_seconds = process_cpu_seconds() - cpu0;
    return r;
}

} // namespace pcl
