// The machine a concurrency test runs on: this computer's threads, or a
// modelled machine (base/machine.h) when PCL_TEST_MACHINE names a profile.
//
// ctest runs the tests tagged [modelled-too] twice: as they are, and as
// core.modelled.* with PCL_TEST_MACHINE=altix-2005 (tests/CMakeLists.txt;
// in the release build: one host thread runs a modelled machine's tasks,
// so ThreadSanitizer could find no race there). On the modelled machine
// the test's threads are tasks of one deterministic scheduler: the same seed
// gives the same interleaving, and a failure is replayed exactly by running
// the test again with the same PCL_TEST_MACHINE and PCL_TEST_SEED.
//
// The same tests are explorations when PCL_TEST_SCHEDULE names exploring
// strategies (random, pct, or both: "pct,random" takes them in turn;
// sched/schedule_strategy.h): the test's body runs PCL_TEST_SCHEDULES
// times, schedule after schedule from PCL_TEST_SEED on, each with its own
// seed (ctest's core.explore.* run 60 of each, pct and random in turn). A
// failure's message carries the variables that replay its one schedule
// exactly, pct's k (PCL_TEST_PCT_STEPS, measured by the first schedule)
// among them. Both strategies, since each reaches what the other misses:
// pct keeps a task that paused below every other, so a race with a loop
// that pauses between its passes needs random's coin at every point.
//
// `pagecache-lab-cli explore TEST` runs a test so, and reads what each
// schedule did from the descriptor PCL_TEST_REPORT_FD names: a line
// "start SEED" before the schedule, and "held SEED STRATEGY POINTS
// CPU_ORDER LOCK_ORDER" after one that held (the scheduler's points and
// fingerprints), so that it counts coverage and knows which schedule broke.
//
// A task there runs until it is charged past another task, waits or
// relaxes: a test thread's loop calls step() once a round, so that the
// threads interleave between their operations as well as at the locks and
// lines their operations take, and a loop that waits for another thread
// calls pause(), without which the other could never run.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"
#include "base/machine_calls.h"
#include "base/sleep.h"
#include "base/splitmix64.h"
#include "base/task_thread.h"
#include "sched/machine_profiles.h"
#include "sched/schedule_strategy.h"
#include "sched/scheduler.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace pcl::test {

/// The profile PCL_TEST_MACHINE names, or empty: this computer's threads.
inline std::string test_machine_name()
{
    const char* name = std::getenv("PCL_TEST_MACHINE");
    return name ? std::string(name) : std::string();
}

/// The variable @name as a number, @otherwise if it is not set.
inline std::uint64_t test_machine_number(const char* name, std::uint64_t otherwise)
{
    const char* value = std::getenv(name);
    return value && *value ? std::strtoull(value, nullptr, 10) : otherwise;
}

/// The modelled machine's seed: PCL_TEST_SEED, 1 if it is not set.
inline std::uint64_t test_machine_seed()
{
    return test_machine_number("PCL_TEST_SEED", 1);
}

/// How the modelled machine schedules: PCL_TEST_SCHEDULE, one strategy or
/// several separated by commas (schedule i takes the i-th, round and
/// round); the machine's own order (virtual_time) if it is not set.
inline std::vector<sched::ScheduleStrategy> test_machine_strategies()
{
    const char* value = std::getenv("PCL_TEST_SCHEDULE");
    const std::string list = value && *value ? value : "virtual_time";
    std::vector<sched::ScheduleStrategy> strategies;
    for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        const std::string name = list.substr(at, comma - at);
        const auto strategy = sched::parse_strategy(name);
        if (!strategy)
            throw std::invalid_argument(
                "PCL_TEST_SCHEDULE: \"" + name + "\" is not a strategy (virtual_time, random or pct)");
        strategies.push_back(*strategy);
        at = comma + 1;
    }
    return strategies;
}

/// Whether PCL_TEST_SCHEDULE explores (names random or pct).
inline bool test_machine_explores()
{
    for (const auto strategy : test_machine_strategies())
        if (strategy != sched::ScheduleStrategy::VirtualTime)
            return true;
    return false;
}

namespace detail {
/// Writes @line to the descriptor PCL_TEST_REPORT_FD names, if it does.
inline void report_schedule(const std::string& line)
{
    static const int fd = [] {
        const char* value = std::getenv("PCL_TEST_REPORT_FD");
        return value && *value ? std::atoi(value) : -1;
    }();
    if (fd < 0)
        return;
    const std::string text = line + '\n';
    for (std::size_t at = 0; at < text.size();) {
        const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
        if (n <= 0)
            return; // the reader went away: the test goes on without it
        at += std::size_t(n);
    }
}

/// The varying charge of step(): one stream for the whole machine, drawn in
/// the scheduler's order, so the same seed draws the same charges.
inline SplitMix64& step_stream()
{
    static SplitMix64 stream { 1 };
    return stream;
}
} // namespace detail

/// Runs @body on the test's machine: here, or as the first task of a
/// modelled machine of the profile PCL_TEST_MACHINE names, which ends when
/// every task @body started has; under an exploring PCL_TEST_SCHEDULE, once
/// a schedule for each of PCL_TEST_SCHEDULES seeds. What a task throws (a
/// failed REQUIRE) comes out of this call. The output names the machine,
/// and the schedule of a failure with what replays it.
inline void on_test_machine(const std::function<void()>& body)
{
    const std::string name = test_machine_name();
    if (name.empty()) {
        body();
        return;
    }
    const sched::MachineProfile profile = sched::load_machine_profile(name);
    const std::vector<sched::ScheduleStrategy> strategies = test_machine_strategies();
    const bool exploring = test_machine_explores();
    const std::uint64_t first = test_machine_seed();
    const std::uint64_t schedules
        = exploring ? std::max<std::uint64_t>(1, test_machine_number("PCL_TEST_SCHEDULES", 1)) : 1;
    sched::SchedulerOptions options;
    options.spin_step_ns = std::max<std::uint64_t>(1, profile.work.spin_step.ns);
    // The test's body runs as the first task, with the test's whole rig
    // (a FaultHandler alone is about 60 KiB) among its locals; a task's
    // pages are only committed as they are touched.
    options.stack_bytes = 4 * 1024 * 1024;
    options.pct_depth = unsigned(std::clamp<std::uint64_t>(test_machine_number("PCL_TEST_PCT_DEPTH", 3), 1, 64));
    // pct's k: given, or the points the first schedule made (which, with
    // k not known yet, has no change point in reach: a run of depth 1).
    options.pct_steps = test_machine_number("PCL_TEST_PCT_STEPS", 0);
    const bool measure_k = options.pct_steps == 0;
    if (measure_k)
        options.pct_steps = sched::SchedulerOptions {}.pct_steps;
    // A schedule that starves the task another waits for, for good, is
    // stopped and fails, saying so, rather than hanging the test.
    options.max_points = exploring ? 200'000'000 : 0;
    for (std::uint64_t seed = first; seed < first + schedules; ++seed) {
        options.seed = seed;
        options.strategy = strategies[(seed - first) % strategies.size()];
        std::ostringstream where;
        where << "on the modelled machine " << name;
        if (exploring)
            where << ", schedule " << seed - first + 1 << " of " << schedules
                  << "; replayed by PCL_TEST_MACHINE=" << name
                  << " PCL_TEST_SCHEDULE=" << sched::strategy_name(options.strategy)
                  << " PCL_TEST_PCT_DEPTH=" << options.pct_depth << " PCL_TEST_PCT_STEPS=" << options.pct_steps
                  << " PCL_TEST_SEED=" << seed;
        else
            where << ", PCL_TEST_SEED=" << seed;
        INFO(where.str());
        sched::Scheduler machine(options);
        machine.set_model(std::make_unique<sched::MachineModel>(profile, 1.0, seed));
        detail::step_stream() = SplitMix64 { seed };
        detail::report_schedule("start " + std::to_string(seed));
        machine.run(body);
        detail::report_schedule("held " + std::to_string(seed) + " "
            + std::string(sched::strategy_name(options.strategy)) + " " + std::to_string(machine.scheduling_points())
            + " " + std::to_string(machine.fingerprint()) + " " + std::to_string(machine.lock_order()));
        if (measure_k && seed == first)
            options.pct_steps = std::max<std::uint64_t>(1, machine.scheduling_points());
    }
}

/// Whether the test runs on a modelled machine (PCL_TEST_MACHINE is set).
inline bool modelled_test_machine()
{
    return !test_machine_name().empty();
}

/// @rounds of a test's loop on the host; a tenth (at least one) on a
/// modelled machine, where one host core runs every task and a schedule is
/// the same each time: a tenth of the rounds there costs about what all of
/// them cost the host's threads, and keeps the sanitizers' runs short. A
/// hundredth when exploring: many short schedules rather than a few long
/// ones, and pct finds a race in a short run with the higher probability
/// (1 / (n k^(d-1)) for a run of k points).
inline unsigned rounds(unsigned n)
{
    if (!modelled_test_machine())
        return n;
    return std::max(1u, test_machine_explores() ? n / 100 : n / 10);
}

/// One round of a test thread's loop: on a modelled machine the thread is
/// charged 1 to @max_ns ns, a different amount each round, so that the
/// tasks' operations interleave in a different order each round (a fixed
/// charge keeps them in lockstep). Nothing on the host.
inline void step(std::uint64_t max_ns = 64)
{
    if (on_modelled_machine())
        pcl::detail::machine_charge(1 + detail::step_stream().next() % max_ns);
}

/// One round of a loop that waits for another thread's progress: the
/// host's thread yields (two threads may share one core), a modelled task
/// relaxes, so that the one it waits for runs.
inline void pause()
{
    if (on_modelled_machine())
        pcl::detail::machine_relax();
    else
        std::this_thread::yield();
}

/// Sleeps @ms milliseconds: the host's, or the modelled machine's virtual
/// ones (the others run meanwhile).
inline void sleep_ms(unsigned ms)
{
    sleep_for_ns(std::uint64_t(ms) * 1'000'000);
}

/// Runs @body(k) for k in 0..n-1 at once, each as simulated CPU k: host
/// threads, or tasks of the modelled machine; returns when all have.
template <class Body> void run_threads(unsigned n, Body&& body)
{
    std::vector<TaskThread> threads;
    threads.reserve(n);
    for (unsigned k = 0; k < n; ++k)
        threads.emplace_back("test-" + std::to_string(k), [&body, k] {
            CpuScope cpu { int(k) };
            body(k);
        });
    for (auto& t : threads)
        t.join();
}

} // namespace pcl::test
