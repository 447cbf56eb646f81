#include "sim/runner.h"

#include "base/clock.h"
#include "base/sleep.h"
#include "sched/scheduler.h"
#include "sim/modelled_run.h"
#include "sim/run_loop.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <time.h>

namespace pcl {

namespace {

/// CPU time of every thread of the process so far (CLOCK_PROCESS_CPUTIME_ID):
/// the host's, as the run's result reports it.
double process_cpu_seconds()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

/// Plays @loop and turns it until the run ends: every drain period, or
/// sooner when a sample or the end of the duration is due. On a modelled
/// machine this is a task of it, and its sleeps are in virtual time.
void drive(RunLoop& loop, const RunOptions& options)
{
    const RunLoop::EventSink sink = [&](std::vector<Event>& batch) {
        if (options.events)
            options.events(batch);
    };
    loop.play();
    while (loop.phase() != RunLoop::Phase::Ended) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            loop.end(RunEnd::Cancelled, sink);
            break;
        }
        loop.turn(sink);
        // Not past its end: on a modelled machine a sleep would let the
        // background tasks on, into the schedule's figures.
        if (loop.phase() == RunLoop::Phase::Ended)
            break;
        sleep_until_ns(loop.next_turn_ns());
    }
}

/// A run on a modelled machine: the whole run, the loop that turns it
/// included, is the scheduler's, on this thread. The loop is a task that
/// sleeps between its turns in virtual time, as the runner's thread does
/// in the host's, so the samples fall on the same virtual instants in
/// every run.
RunResult run_modelled(const Scenario& scenario, const RunOptions& options)
{
    const std::unique_ptr<sched::Scheduler> scheduler = make_modelled_machine(scenario, options.max_scheduling_points);
    sched::Scheduler& machine = *scheduler;
    RunResult result;
    machine.run([&] {
        auto loop = std::make_unique<RunLoop>(scenario);
        loop->set_sample_callback(options.progress);
        drive(*loop, options);
        // The schedule's figures where the run ended, as a ModelledRun
        // stands there (sim/modelled_run.h): collecting the result takes
        // locks of its own (on this task), which are not the run's.
        const std::uint64_t points = machine.scheduling_points();
        const std::uint64_t fingerprint = machine.fingerprint();
        const std::uint64_t lock_order = machine.lock_order();
        result = loop->result();
        if (options.at_end) {
            loop->engine().quiesce();
            options.at_end(loop->engine());
        }
        result.scheduling_points = points;
        result.schedule_fingerprint = fingerprint;
        result.lock_order = lock_order;
    });
    return result;
}

} // namespace

RunResult run_scenario(const Scenario& scenario, const RunOptions& options)
{
    const double cpu0 = process_cpu_seconds();
    const std::uint64_t wall0 = host_now_ns();
    RunResult r;
    if (scenario.engine.machine.is_modelled()) {
        r = run_modelled(scenario, options);
    } else {
        RunLoop loop(scenario);
        loop.set_sample_callback(options.progress);
        drive(loop, options);
        r = loop.result();
        if (options.at_end) {
            loop.engine().quiesce();
            options.at_end(loop.engine());
        }
    }
    // On a modelled machine, its CPUs' own time: the time each ran, its
    // spinning included (the host's would measure the simulation).
    r.host_cpu_seconds = process_cpu_seconds() - cpu0;
    r.cpu_seconds = r.host_cpu_seconds;
    if (scenario.engine.machine.is_modelled())
        r.cpu_seconds = modelled_cpu_seconds(r);
    r.host_wall_seconds = double(host_now_ns() - wall0) / 1e9;
    return r;
}

} // namespace pcl
