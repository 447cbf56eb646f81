// core/sim: the run's one clock - pauses taken out of the stamps that fall
// after them, a stamp inside a pause put at the pause's start.
#include "sim/run_clock.h"

#include <catch2/catch.hpp>

using namespace pcl;

TEST_CASE("a clock with no pause reads as the wall clock from its start", "[sim][run_clock]")
{
    RunClock c;
    CHECK_FALSE(c.started());
    CHECK(c.to_run(1234) == 1234);
    CHECK(c.running_ns(1234) == 0);
    c.start(1000);
    CHECK(c.running());
    CHECK(c.to_run(500) == 500); // before the start: as it was
    CHECK(c.to_run(1000) == 1000);
    CHECK(c.to_run(4000) == 4000);
    CHECK(c.running_ns(4000) == 3000);
}

TEST_CASE("pauses are taken out of every stamp after them", "[sim][run_clock]")
{
    RunClock c;
    c.start(1000);
    c.stop(2000); // ran 1000
    CHECK_FALSE(c.running());
    c.go(5000); // paused 3000
    c.stop(6000); // ran 1000 more
    c.go(6500);   // paused 500
    CHECK(c.to_run(1500) == 1500);
    CHECK(c.to_run(2000) == 2000);
    CHECK(c.to_run(5000) == 2000);
    CHECK(c.to_run(5500) == 2500);
    CHECK(c.to_run(6000) == 3000);
    CHECK(c.to_run(6500) == 3000);
    CHECK(c.to_run(7000) == 3500);
    CHECK(c.running_ns(7000) == 2500);
    // Inside a pause: where the run stood when it began.
    CHECK(c.to_run(3000) == 2000);
    CHECK(c.to_run(6200) == 3000);
}

TEST_CASE("a pause still going holds every later stamp at its start", "[sim][run_clock]")
{
    RunClock c;
    c.start(0);
    c.stop(100);
    CHECK(c.to_run(50) == 50);
    CHECK(c.to_run(100) == 100);
    CHECK(c.to_run(1'000'000) == 100);
    CHECK(c.running_ns(1'000'000) == 100);
    // Stopping again, or going on while running, changes nothing.
    c.stop(200);
    CHECK(c.to_run(1'000'000) == 100);
    c.go(300);
    c.go(400);
    CHECK(c.to_run(500) == 300);
    CHECK(c.running_ns(500) == 300);
}

TEST_CASE("a restart forgets the last run's pauses", "[sim][run_clock]")
{
    RunClock c;
    c.start(0);
    c.stop(10);
    c.go(1000);
    c.start(2000);
    CHECK(c.to_run(2500) == 2500);
    CHECK(c.running_ns(2500) == 500);
}
