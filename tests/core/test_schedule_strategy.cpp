// The scheduler's exploring strategies (sched/schedule_strategy.h): random
// and pct open interleavings the machine's virtual-time order never makes,
// each seed is one schedule replayed exactly, pct finds deep orderings that
// random misses, and a spinner or a deadline never stalls an exploring run.
#include <catch2/catch.hpp>

#include "base/machine.h"
#include "base/wait_queue.h"
#include "sched/scheduler.h"
#include "sync/lock_stats.h"
#include "sync/spinlock.h"

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcl;
using pcl::sched::Scheduler;
using pcl::sched::SchedulerOptions;
using pcl::sched::ScheduleStrategy;

namespace {

Machine& this_machine()
{
    return *current_machine();
}

SchedulerOptions strategy(ScheduleStrategy s, std::uint64_t seed, unsigned depth = 3, std::uint64_t steps = 100)
{
    SchedulerOptions o;
    o.seed = seed;
    o.strategy = s;
    o.pct_depth = depth;
    o.pct_steps = steps;
    return o;
}

/// Runs @a and @b as two tasks spawned together, and returns when both
/// have ended.
template <class A, class B> void run_pair(Scheduler& s, A a, B b)
{
    s.run([&] {
        const TaskRef ta = this_machine().spawn("a", a);
        const TaskRef tb = this_machine().spawn("b", b);
        this_machine().join(ta);
        this_machine().join(tb);
    });
}

/// Whether b, after one step of its own, sees a's flag, which a sets after
/// @a_steps steps: a race whose window the virtual-time order (a's steps
/// cost 10 ns, b's 1 ns) never opens.
bool b_sees_a_done(const SchedulerOptions& options, int a_steps)
{
    Scheduler s(options);
    bool done = false;
    bool seen = false;
    run_pair(
        s,
        [&] {
            for (int i = 0; i < a_steps; ++i)
                this_machine().charge(10);
            done = true;
        },
        [&] {
            this_machine().charge(1);
            seen = done;
        });
    return seen;
}

/// Seeds 1..@n of @s that make b see a's flag (b_sees_a_done).
int seeds_finding(ScheduleStrategy s, int n, int a_steps, unsigned depth = 3, std::uint64_t steps = 100)
{
    int found = 0;
    for (int seed = 1; seed <= n; ++seed)
        found += b_sees_a_done(strategy(s, std::uint64_t(seed), depth, steps), a_steps);
    return found;
}

/// The order in which three tasks of 20 steps each took their steps.
std::vector<int> interleaving(const SchedulerOptions& options)
{
    Scheduler s(options);
    std::vector<int> order;
    s.run([&] {
        std::vector<TaskRef> tasks;
        for (int t = 0; t < 3; ++t)
            tasks.push_back(this_machine().spawn("t" + std::to_string(t), [&order, t] {
                for (int i = 0; i < 20; ++i) {
                    order.push_back(t);
                    this_machine().charge(std::uint64_t(5 + t));
                }
            }));
        for (TaskRef t : tasks)
            this_machine().join(t);
    });
    return order;
}

} // namespace

TEST_CASE("strategies are named as the command line names them", "[scheduler][explore]")
{
    for (ScheduleStrategy s : { ScheduleStrategy::VirtualTime, ScheduleStrategy::Random, ScheduleStrategy::Pct })
        CHECK(sched::parse_strategy(sched::strategy_name(s)) == s);
    CHECK(sched::strategy_name(ScheduleStrategy::Pct) == "pct");
    CHECK_FALSE(sched::parse_strategy("fifo"));
}

TEST_CASE("the virtual-time order never opens the window an exploring strategy finds", "[scheduler][explore]")
{
    CHECK(seeds_finding(ScheduleStrategy::VirtualTime, 100, 3) == 0);
    // b sees a's flag only when a's three steps all come before b's one:
    // about one run in eight or sixteen under random.
    const int random = seeds_finding(ScheduleStrategy::Random, 100, 3);
    CHECK(random > 0);
    CHECK(random < 100);
    CHECK(seeds_finding(ScheduleStrategy::Pct, 100, 3) > 0);
}

TEST_CASE("one seed is one schedule: an exploring run is replayed exactly", "[scheduler][explore]")
{
    for (ScheduleStrategy s : { ScheduleStrategy::Random, ScheduleStrategy::Pct }) {
        const std::vector<int> first = interleaving(strategy(s, 7));
        CHECK(interleaving(strategy(s, 7)) == first);
        REQUIRE(first.size() == 60);
        // Another seed, another schedule (some of ten differ).
        int different = 0;
        for (std::uint64_t seed = 8; seed < 18; ++seed)
            different += interleaving(strategy(s, seed)) != first;
        CHECK(different > 0);
    }
    // Every charge while another task can run is a point where a strategy
    // may switch: a's and b's ten each, and more for the spawns and joins.
    Scheduler s(strategy(ScheduleStrategy::Random, 3));
    const auto ten = [] {
        for (int i = 0; i < 10; ++i)
            this_machine().charge(1);
    };
    run_pair(s, ten, ten);
    CHECK(s.scheduling_points() >= 20);
}

TEST_CASE("coverage counts the orders of the lock acquisitions, not of the switches", "[scheduler][explore]")
{
    // a and b each work five steps, take the one lock, and work five more:
    // however a schedule switches between them, it takes the lock a then b
    // or b then a, two interleavings of what the lock orders.
    sync::LockRegistry registry;
    sync::SpinLock lock(registry, "test.lock", "test.lock");
    std::set<std::uint64_t> lock_orders;
    std::set<std::uint64_t> cpu_orders;
    std::set<std::string> taken;
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        Scheduler s(strategy(ScheduleStrategy::Random, seed));
        std::string order;
        const auto task = [&](char name) {
            return [&, name] {
                for (int i = 0; i < 5; ++i)
                    this_machine().charge(10);
                lock.lock();
                order += name;
                lock.unlock();
                for (int i = 0; i < 5; ++i)
                    this_machine().charge(10);
            };
        };
        run_pair(s, task('a'), task('b'));
        lock_orders.insert(s.lock_order());
        cpu_orders.insert(s.fingerprint());
        taken.insert(order);
    }
    CHECK(taken == std::set<std::string> { "ab", "ba" });
    CHECK(lock_orders.size() == 2);
    CHECK(cpu_orders.size() > 20);
}

TEST_CASE("pct finds an ordering that random almost never makes", "[scheduler][explore]")
{
    // b sees a's flag only if a's thirty steps all come first: about one
    // random run in 2^30, and every pct run where a's priority is above
    // b's and no change point falls inside a's run of steps (d = 1 has
    // none: a bug of depth 1, found at least one run in n = 3).
    CHECK(seeds_finding(ScheduleStrategy::Random, 60, 30) == 0);
    CHECK(seeds_finding(ScheduleStrategy::Pct, 60, 30, 1) >= 15);
}

TEST_CASE("pct finds a bug of depth 2 with its change point", "[scheduler][explore]")
{
    // b sees x == 1 only between a's two stores: a must run first (its
    // priority above b's) and lose it at the point between its stores.
    int found = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        Scheduler s(strategy(ScheduleStrategy::Pct, seed, 2, 8));
        int x = 0;
        bool seen = false;
        run_pair(
            s,
            [&] {
                x = 1;
                this_machine().charge(1);
                x = 0;
            },
            [&] { seen = x == 1; });
        found += seen;
        // With no change point (d = 1) it never happens.
        Scheduler plain(strategy(ScheduleStrategy::Pct, seed, 1));
        x = 0;
        seen = false;
        run_pair(
            plain,
            [&] {
                x = 1;
                this_machine().charge(1);
                x = 0;
            },
            [&] { seen = x == 1; });
        CHECK_FALSE(seen);
    }
    CHECK(found > 0);
}

TEST_CASE("a spinner under pct lets the task it waits for run", "[scheduler][explore]")
{
    for (ScheduleStrategy strat : { ScheduleStrategy::Random, ScheduleStrategy::Pct })
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            Scheduler s(strategy(strat, seed));
            bool flag = false;
            int spins = 0;
            REQUIRE_NOTHROW(run_pair(
                s,
                [&] {
                    while (!flag) {
                        ++spins;
                        this_machine().relax();
                    }
                },
                [&] {
                    for (int i = 0; i < 5; ++i)
                        this_machine().charge(100);
                    flag = true;
                }));
            CHECK(flag);
        }
}

TEST_CASE(
    "a deadline ends an exploring wait once a clock passes it, or when nothing else can run", "[scheduler][explore]")
{
    for (ScheduleStrategy strat : { ScheduleStrategy::Random, ScheduleStrategy::Pct })
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            Scheduler s(strategy(strat, seed));
            WaitQueue never;
            bool woken = true;
            std::uint64_t ended_at = 0;
            run_pair(
                s,
                [&] {
                    woken = this_machine().park(never, 1000);
                    ended_at = this_machine().now_ns();
                },
                [&] {
                    for (int i = 0; i < 30; ++i)
                        this_machine().charge(100);
                });
            CHECK_FALSE(woken);
            CHECK(ended_at >= 1000);
        }
}

TEST_CASE("a run past its scheduling points is stopped and says so", "[scheduler][explore]")
{
    // a waits for b's flag without relaxing: under pct, when a's priority
    // is above b's, b never runs again; under the machine's order b runs
    // once a's clock passes its own.
    const auto starving = [](Scheduler& s, bool& flag) {
        run_pair(
            s,
            [&] {
                while (!flag)
                    this_machine().charge(1);
            },
            [&] {
                this_machine().charge(5);
                flag = true;
            });
    };
    int stopped = 0;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        SchedulerOptions o = strategy(ScheduleStrategy::Pct, seed, 1);
        o.max_points = 10'000;
        Scheduler s(o);
        bool flag = false;
        try {
            starving(s, flag);
            CHECK(flag);
        } catch (const std::runtime_error& e) {
            ++stopped;
            CHECK_THAT(e.what(),
                Catch::Contains("did not end within 10000 scheduling points")
                    && Catch::Contains("\"a\" (task 1) ran last") && Catch::Contains("\"b\" (task 2) could run"));
        }
    }
    CHECK(stopped > 0);
    CHECK(stopped < 10);
    SchedulerOptions o = strategy(ScheduleStrategy::VirtualTime, 1);
    o.max_points = 10'000;
    Scheduler s(o);
    bool flag = false;
    CHECK_NOTHROW(starving(s, flag));
    CHECK(flag);
}
