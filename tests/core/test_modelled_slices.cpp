// core/sim/modelled_run: a modelled run played in slices, as the GUI plays
// it, is the run the command line makes of the same scenario: the same
// events at the same virtual times, the same samples and totals, however it
// is sliced; a slice ends exactly where it was asked to; a step is each
// CPU's operations and no more; and the machine stands between two slices.
#include "modelled_test_support.h"
#include "sanitizer_support.h"
#include "sim/modelled_run.h"
#include "sim/runner.h"
#include "sim/scenario.h"
#include "sync/spinlock.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace pcl;
using pcl::test::four_readers;
using pcl::test::kNoLimit;
using pcl::test::line_of;

namespace {

/// The first line where @a and @b differ ("line N: A | B"), or "".
std::string first_difference(const std::string& a, const std::string& b)
{
    std::istringstream x(a), y(b);
    std::string l, r;
    for (int n = 1;; ++n) {
        const bool more = bool(std::getline(x, l));
        const bool more_too = bool(std::getline(y, r));
        if (!more && !more_too)
            return "";
        if (more != more_too || l != r)
            return "line " + std::to_string(n) + ": " + l + " | " + r;
    }
}

struct Seen {
    std::string events;
    RunResult result;
    std::vector<MetricsSample> samples;
};

Seen by_command_line(const Scenario& s)
{
    Seen seen;
    RunOptions options;
    options.events = [&](const std::vector<Event>& batch) {
        for (const Event& e : batch)
            seen.events += line_of(e);
    };
    options.progress = [&](const MetricsSample& sample) { seen.samples.push_back(sample); };
    seen.result = run_scenario(s, options);
    return seen;
}

/// Plays @s in slices of @slice_ns of running time until it ends; each
/// slice must end exactly where it was asked to (or at the run's end).
Seen by_slices(const Scenario& s, std::uint64_t slice_ns)
{
    Seen seen;
    const RunLoop::EventSink sink = [&](std::vector<Event>& batch) {
        for (const Event& e : batch)
            seen.events += line_of(e);
    };
    ModelledRun run(s);
    REQUIRE(run.loop().phase() == RunLoop::Phase::Ready);
    run.call([](RunLoop& loop) { loop.play(); });
    std::uint64_t until = 0;
    for (int slices = 0;; ++slices) {
        REQUIRE(slices < 1'000'000);
        until += slice_ns;
        const ModelledRun::Stop stop = run.advance(until, kNoLimit, sink);
        if (stop == ModelledRun::Stop::Ended)
            break;
        REQUIRE(stop == ModelledRun::Stop::Reached);
        REQUIRE(run.running_ns() == until);
    }
    REQUIRE(run.loop().phase() == RunLoop::Phase::Ended);
    seen.samples = run.loop().samples();
    seen.result = run.result();
    return seen;
}

} // namespace

TEST_CASE("a modelled run played in slices is the command line's run", "[sim][modelled]")
{
    const Scenario s = four_readers();
    const Seen whole = by_command_line(s);
    REQUIRE(whole.result.state == "finished");
    REQUIRE(whole.result.operations == 4 * 3000);
    REQUIRE(whole.samples.size() >= 3);
    // Under a sanitizer (every access ten times as dear) the finest and the
    // coarsest slicing; the release build all three.
    std::vector<std::uint64_t> slices { 37'000, std::uint64_t(1) << 40 };
    if (!test::kSanitized)
        slices.push_back(1'000'000);
    for (const std::uint64_t slice : slices) {
        INFO("slices of " << slice << " ns");
        const Seen sliced = by_slices(s, slice);
        CHECK(sliced.result.state == "finished");
        CHECK(sliced.events == whole.events);
        CHECK(sliced.result.operations == whole.result.operations);
        CHECK(sliced.result.faults == whole.result.faults);
        CHECK(sliced.result.device_requests == whole.result.device_requests);
        CHECK(sliced.result.wall_seconds == whole.result.wall_seconds);
        CHECK(sliced.result.cpu_seconds == whole.result.cpu_seconds);
        CHECK(sliced.result.scheduling_points == whole.result.scheduling_points);
        CHECK(sliced.result.lock_order == whole.result.lock_order);
        REQUIRE(sliced.samples.size() == whole.samples.size());
        for (std::size_t i = 0; i < whole.samples.size(); ++i) {
            CHECK(sliced.samples[i].clock_ns == whole.samples[i].clock_ns);
            CHECK(sliced.samples[i].operations == whole.samples[i].operations);
        }
    }
}

TEST_CASE("a step on a modelled machine is one operation of each CPU, then the machine holds", "[sim][modelled]")
{
    ModelledRun run(four_readers());
    const RunLoop::EventSink none;
    for (std::uint64_t step = 1; step <= 3; ++step) {
        run.call([](RunLoop& loop) { loop.step(1); });
        CHECK(run.advance(kNoLimit, kNoLimit, none) == ModelledRun::Stop::Held);
        CHECK(run.loop().phase() == RunLoop::Phase::Paused);
        CHECK_FALSE(run.loop().stepping());
        CHECK(run.result().operations == 4 * step);
        // Held, the machine does nothing more however long it is let run.
        const std::uint64_t held = run.running_ns();
        CHECK(run.advance(held + 1'000'000, kNoLimit, none) == ModelledRun::Stop::Held);
        CHECK(run.running_ns() == held);
        CHECK(run.result().operations == 4 * step);
    }
    // And plays on from there to the same end as a run never stepped.
    run.call([](RunLoop& loop) { loop.play(); });
    CHECK(run.advance(kNoLimit, kNoLimit, none) == ModelledRun::Stop::Ended);
    CHECK(run.result().operations == 4 * 3000);
}

TEST_CASE("a slice stops when this computer's time allowed for it is spent", "[sim][modelled]")
{
    Scenario s = four_readers();
    s.engine.workload.operations_per_cpu = 100'000;
    ModelledRun run(s);
    run.call([](RunLoop& loop) { loop.play(); });
    // No host time at all: the slice turns the loop once and stops, at most
    // a modelled millisecond on.
    CHECK(run.advance(kNoLimit, 0, {}) == ModelledRun::Stop::Budget);
    CHECK(run.running_ns() <= 1'000'000);
    CHECK(run.loop().phase() == RunLoop::Phase::Running);
    // Taken down running: the destructor stops it.
}

TEST_CASE("a change made again for a later turn has run when the call returns, whatever the last slice's budget",
    "[sim][modelled]")
{
    // A rewind makes each change again at the turn it was made at first.
    // After a slice whose host time was spent, the machine stood at the
    // driver's next turn with the change still waiting for its own, and
    // the call returned before it ran (seen in the window under load: a
    // rewound run stood held where the original had been let go).
    Scenario s = four_readers();
    s.engine.workload.operations_per_cpu = 100'000;
    ModelledRun run(s);
    const std::uint64_t first = run.call([](RunLoop& loop) { loop.play(); });
    CHECK(run.advance(kNoLimit, 0, {}) == ModelledRun::Stop::Budget);
    bool ran = false;
    const std::uint64_t later = first + 5;
    const std::uint64_t at = run.call([&ran](RunLoop&) { ran = true; }, {}, later);
    CHECK(ran);
    CHECK(at == later);
    CHECK(run.loop().phase() == RunLoop::Phase::Running);
}

TEST_CASE("a modelled run is refused for the host and for a profile that does not exist", "[sim][modelled]")
{
    Scenario s = four_readers();
    s.engine.machine.profile = "host";
    CHECK_THROWS_AS(ModelledRun(s), std::invalid_argument);
    s.engine.machine.profile = "cray-1";
    CHECK_THROWS(ModelledRun(s));
    // A configuration the engine cannot build is the engine's message.
    s = four_readers();
    s.engine.workload.file_pages = std::uint64_t(1) << 28;
    CHECK_THROWS(ModelledRun(s));
}

TEST_CASE(
    "someone looking at a standing modelled machine takes none of its locks, and counts nothing", "[sim][modelled]")
{
    // A lock of a modelled machine (its class counts virtual time), held
    // as a task may hold one where the machine stands.
    sync::LockRegistry modelled_registry(TickUnit::virtual_ns);
    sync::SpinLock held(modelled_registry, "held", "held");
    held.lock();
    sync::LockRegistry host_registry(TickUnit::host);
    sync::SpinLock host_lock(host_registry, "host", "host");
    {
        LookingAtStandingMachine looking;
        CHECK(looking_at_standing_machine());
        held.lock(); // returns at once: it would spin for ever otherwise
        CHECK(held.try_lock());
        held.unlock(); // and lets go of nothing
        // This computer's locks are taken as always.
        host_lock.lock();
        CHECK_FALSE(host_lock.try_lock());
        host_lock.unlock();
        CHECK(host_lock.try_lock());
        host_lock.unlock();
    }
    CHECK_FALSE(looking_at_standing_machine());
    CHECK(held.row().acquisitions == 1);
    CHECK_FALSE(held.try_lock()); // still held by its owner
    held.unlock();
    CHECK(held.try_lock());
    held.unlock();
}

TEST_CASE("two modelled machines on two threads at once are each the run they are alone", "[sim][modelled]")
{
    // The GUI takes an old run down on a thread of its own while the new
    // one plays: nothing of one modelled machine may reach the other.
    Scenario s = four_readers();
    s.engine.index.kind = IndexKind::Radix;
    s.engine.index.scheme = "spinlock";
    s.engine.workload.access = WorkloadAccess::MmapWrite;
    const Seen alone = by_command_line(s);
    for (int round = 0; round < (test::kSanitized ? 1 : 3); ++round) {
        auto old = std::make_unique<ModelledRun>(s);
        old->call([](RunLoop& loop) { loop.play(); });
        old->advance(5'000'000, kNoLimit, {});
        std::thread teardown([&] { old.reset(); }); // stops it where it stands, and frees it
        const Seen beside = by_slices(s, 1'000'000);
        teardown.join();
        CHECK(first_difference(beside.events, alone.events) == "");
        CHECK(beside.result.operations == alone.result.operations);
        CHECK(beside.result.lock_order == alone.result.lock_order);
    }
}
