// core/sim: the run loop both front ends turn - how a run moves between
// ready, running, paused and ended, what running time counts, when samples
// are taken, why a run ended, and that every event drained reaches the sink.
#include "run_loop_support.h"
#include "sim/run_loop.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace pcl;

namespace {

/// Turns @loop as a front end would, every millisecond, until it ends or
/// @timeout passes; returns the events the turns handed over.
std::uint64_t turn_until_ended(RunLoop& loop, std::chrono::seconds timeout = std::chrono::seconds(20))
{
    std::uint64_t seen = 0;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (loop.phase() != RunLoop::Phase::Ended && std::chrono::steady_clock::now() < deadline) {
        loop.turn([&](std::vector<Event>& batch) { seen += batch.size(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return seen;
}

} // namespace

TEST_CASE(
    "a run played to its end: finished, every operation in one sample, every event in the sink", "[sim][run_loop]")
{
    RunLoop loop(test::run_loop_scenario(2, 300, 2000));
    CHECK(loop.phase() == RunLoop::Phase::Ready);
    std::vector<double> times;
    loop.set_sample_callback([&](const MetricsSample& s) { times.push_back(s.time_s); });
    loop.play();
    CHECK(loop.phase() == RunLoop::Phase::Running);
    const std::uint64_t seen = turn_until_ended(loop);
    REQUIRE(loop.phase() == RunLoop::Phase::Ended);
    CHECK(run_end_name(loop.ended_by()) == "finished");
    CHECK(loop.engine().operations() == 600);
    CHECK(test::sampled_operations(loop) == 600);
    REQUIRE(times.size() == loop.samples().size());
    CHECK(std::is_sorted(times.begin(), times.end()));
    CHECK(times.back() == loop.running_seconds());
    CHECK(seen == loop.events_drained());
    CHECK(loop.engine().events().dropped() == 0);
    CHECK(seen == loop.engine().events().pushed());

    const RunResult r = loop.result();
    CHECK(run_end_name(r.ended_by) == "finished");
    CHECK(r.operations == 600);
    CHECK(r.events_drained == seen);
    CHECK(r.wall_seconds == loop.running_seconds());
}

TEST_CASE("a pause stops the clock and the samples, play goes on from there", "[sim][run_loop]")
{
    RunLoop loop(test::run_loop_scenario(1, 100000, 500));
    loop.play();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    loop.turn({});
    loop.pause();
    CHECK(loop.phase() == RunLoop::Phase::Paused);
    const double at_pause = loop.running_seconds();
    const std::size_t samples = loop.samples().size();
    CHECK(samples >= 1); // the interval up to the pause is closed
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    loop.turn({});
    CHECK(loop.running_seconds() == at_pause);
    CHECK(loop.samples().size() == samples);
    CHECK_FALSE(loop.next_deadline().has_value());

    const auto resumed = std::chrono::steady_clock::now();
    loop.play();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    loop.turn({});
    // running_seconds() reads the clock when called: read it before the
    // time since Play, so that it cannot be the later of the two.
    const double ran = loop.running_seconds() - at_pause;
    const double since_resumed = std::chrono::duration<double>(std::chrono::steady_clock::now() - resumed).count();
    CHECK(ran > 0);
    CHECK(ran <= since_resumed); // the pause is not running time
    // No sample spans the pause: intervals sum to the running time.
    double intervals = 0;
    for (const MetricsSample& s : loop.samples())
        intervals += s.interval_s;
    CHECK(intervals <= loop.running_seconds() + 1e-9);
    loop.end(RunEnd::Stopped, {});
    CHECK(run_end_name(loop.ended_by()) == "stopped");
}

TEST_CASE("a stepped run to its end has no sample, the steps' own time is running time", "[sim][run_loop]")
{
    RunLoop loop(test::run_loop_scenario(3, 6));
    const auto began = std::chrono::steady_clock::now();
    loop.step(4);
    CHECK(loop.phase() == RunLoop::Phase::Paused);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (loop.engine().operations() < 12 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    REQUIRE(loop.engine().operations() == 12);
    for (const auto& c : loop.engine().cpu_counters())
        CHECK(c.operations == 4);
    loop.turn({});
    CHECK(loop.phase() == RunLoop::Phase::Paused);
    // More steps than the sequences have left: each CPU does its last two
    // operations, finds its sequence done, and the run ends while paused.
    loop.step(3);
    turn_until_ended(loop);
    CHECK(run_end_name(loop.ended_by()) == "finished");
    CHECK(loop.engine().operations() == 18);
    // The clock ran while the CPUs did their steps and stood while they
    // held: less than the time the test took, which waited 30 ms with the
    // CPUs held.
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    CHECK(loop.running_seconds() > 0);
    CHECK(loop.running_seconds() < took - 0.025);
    CHECK(loop.samples().empty());
}

TEST_CASE("the duration ends a run in running time, end() names why a run was cut", "[sim][run_loop]")
{
    Scenario s = test::run_loop_scenario(1, 1000000, 100);
    s.duration_seconds = 0.1;
    RunLoop timed(s);
    timed.play();
    turn_until_ended(timed);
    CHECK(run_end_name(timed.ended_by()) == "duration");
    CHECK(timed.running_seconds() >= 0.1);
    CHECK(run_end_name(timed.result().ended_by) == "duration");

    RunLoop cancelled(test::run_loop_scenario(1, 1000000, 100));
    cancelled.play();
    cancelled.turn({});
    cancelled.end(RunEnd::Cancelled, {});
    CHECK(cancelled.phase() == RunLoop::Phase::Ended);
    CHECK(run_end_name(cancelled.ended_by()) == "cancelled");
    cancelled.end(RunEnd::Stopped, {}); // an ended run stays as it ended
    CHECK(run_end_name(cancelled.ended_by()) == "cancelled");
    cancelled.play(); // and does not start again
    CHECK(cancelled.phase() == RunLoop::Phase::Ended);
}

TEST_CASE("a scenario that does not validate builds no run", "[sim][run_loop]")
{
    Scenario s = test::run_loop_scenario(1, 10);
    s.engine.workload.cpus = 0;
    try {
        RunLoop loop(s);
        FAIL("a scenario with no CPU was accepted");
    } catch (const ScenarioError& e) {
        CHECK(e.field() == "workload.cpus");
    }
}
