// core/sim: the run loop's pace against the wall clock - operations a second
// at demo speed, before and after a pause, and the samples a pace gives.
// These cases measure the host's wall clock, so they run alone (RUN_SERIAL
// in tests/CMakeLists.txt): on two CPUs, tests running beside them could
// starve their paced CPUs. The run loop's other cases are in
// test_run_loop.cpp and run beside other tests.
#include "run_loop_support.h"
#include "sim/run_loop.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace pcl;

TEST_CASE("a pause right after a sample closes no sliver, the counts still add up", "[sim][run_loop]")
{
    Scenario sc = test::run_loop_scenario(2, 1000000, 400);
    sc.sample_interval_ms = 200;
    RunLoop loop(sc);
    loop.play();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (loop.samples().empty() && std::chrono::steady_clock::now() < deadline) {
        loop.turn({});
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(loop.samples().size() == 1);
    // A few milliseconds after the sample: no interval of a few operations
    // over a few milliseconds, which would read as the rate collapsing.
    loop.pause();
    CHECK(loop.samples().size() == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    loop.play();
    while (loop.samples().size() < 2 && std::chrono::steady_clock::now() < deadline) {
        loop.turn({});
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(loop.samples().size() == 2);
    // The second interval took the sliver in: a whole interval of running
    // time, its rate the pace's (2 CPUs x 400 a second), not a collapse.
    CHECK(loop.samples()[1].interval_s >= 0.19);
    CHECK(loop.samples()[1].operations_per_s > 400);
    // Half an interval or more before a pause is closed by a sample of its own.
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    loop.turn({});
    loop.pause();
    CHECK(loop.samples().size() == 3);
    // Ended while paused after a sliver: the last sample takes it in, and
    // the samples add up to the totals.
    loop.play();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    loop.turn({});
    loop.pause();
    const std::size_t before_end = loop.samples().size();
    loop.end(RunEnd::Stopped, {});
    CHECK(loop.samples().size() == before_end + 1);
    CHECK(test::sampled_operations(loop) == loop.engine().operations());
}

TEST_CASE("after a pause the pace goes on from Play: the paused time owes no operations", "[sim][run_loop]")
{
    // 50 operations a second on each of 2 CPUs. A pace that counted its
    // slots from before the pause would owe each CPU the paused time's 100
    // operations and do them back to back after Play.
    RunLoop loop(test::run_loop_scenario(2, 1000000, 50));
    std::vector<std::uint64_t> stamps;
    auto keep = [&](std::vector<Event>& batch) {
        for (const Event& e : batch)
            stamps.push_back(e.time_ns);
    };
    auto turn_for = [&](std::chrono::milliseconds d) {
        const auto until = std::chrono::steady_clock::now() + d;
        while (std::chrono::steady_clock::now() < until) {
            loop.turn(keep);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    };
    loop.play();
    turn_for(std::chrono::milliseconds(1000));
    loop.pause();
    const double at_pause = loop.running_seconds();
    turn_for(std::chrono::milliseconds(2000));
    const std::uint64_t before = loop.engine().operations();
    loop.play();
    turn_for(std::chrono::milliseconds(1000));
    const std::uint64_t after = loop.engine().operations() - before;
    // 2 CPUs x 50 a second x 1 s = 100, with room for a slow scheduler;
    // owing the pause would give about 300.
    CHECK(after >= 60);
    CHECK(after <= 130);
    loop.end(RunEnd::Stopped, keep);
    // One clock: the events are stamped in running time, so the pause is
    // not a gap between them, and they all fall within the running time.
    REQUIRE(stamps.size() > 100);
    std::sort(stamps.begin(), stamps.end());
    std::uint64_t widest = 0;
    for (std::size_t i = 1; i < stamps.size(); ++i)
        widest = std::max(widest, stamps[i] - stamps[i - 1]);
    CHECK(widest < 500'000'000);
    CHECK(double(stamps.back() - stamps.front()) / 1e9 <= loop.running_seconds());
    CHECK(loop.running_seconds() > at_pause + 0.9);
    CHECK(loop.running_seconds() < at_pause + 1.5);
}
