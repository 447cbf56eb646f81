// A test-and-test-and-set spinlock's waiters on a modelled machine: the
// scheduler runs their loop (take_spinning) without switching to them, and
// the run must be the one the loop itself, run by each waiter, gives.
#include <catch2/catch.hpp>

#include "base/cpu.h"
#include "base/machine.h"
#include "sched/machine_model.h"
#include "sched/machine_profiles.h"
#include "sched/scheduler.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcl;

namespace {

struct Acquisition {
    unsigned task;
    std::uint64_t at;
    friend bool operator==(const Acquisition&, const Acquisition&) = default;
};

std::ostream& operator<<(std::ostream& os, const Acquisition& a)
{
    return os << "task " << a.task << " @" << a.at;
}

struct SpinOutcome {
    std::vector<Acquisition> acquisitions;
    std::uint64_t contended = 0; ///< first exchanges that failed
    std::uint64_t end_ns = 0;
    std::uint64_t switches = 0;
};

/// @tasks CPUs of altix-2005 each take one spinlock @rounds times, hold it
/// 1000 ns and work 1500 + 10 x their number ns between holds (longer than
/// a transfer, so that a releaser does not take the lock straight back
/// while its line is still in its cache). The waiters wait in the
/// scheduler's take_spinning (@in_scheduler) or in the same loop written
/// out here, each waiter running it itself.
SpinOutcome contend(std::uint64_t seed, unsigned tasks, unsigned rounds, bool in_scheduler)
{
    sched::SchedulerOptions options;
    options.seed = seed;
    sched::Scheduler s(options);
    s.set_model(std::make_unique<sched::MachineModel>(sched::load_machine_profile("altix-2005"), 1.0, seed));
    constexpr LineKey kLine = 7;
    std::atomic<bool> locked { false };
    SpinOutcome out;
    s.run([&] {
        std::vector<TaskRef> refs;
        for (unsigned t = 0; t < tasks; ++t)
            refs.push_back(current_machine()->spawn("cpu" + std::to_string(t), [&, t] {
                set_current_cpu(int(t));
                Machine& m = *current_machine();
                for (unsigned r = 0; r < rounds; ++r) {
                    touch_line(kLine, true);
                    if (locked.exchange(true, std::memory_order_acquire)) {
                        ++out.contended;
                        if (in_scheduler) {
                            m.take_spinning(kLine, locked);
                        } else {
                            do {
                                do {
                                    m.watch_line(kLine);
                                    touch_line(kLine, false);
                                } while (locked.load(std::memory_order_relaxed));
                                touch_line(kLine, true);
                            } while (locked.exchange(true, std::memory_order_acquire));
                        }
                    }
                    out.acquisitions.push_back({ t, m.now_ns() });
                    m.charge(1000);
                    touch_line(kLine, true);
                    locked.store(false, std::memory_order_release);
                    m.charge(1500 + 10 * t);
                }
            }));
        for (TaskRef r : refs)
            current_machine()->join(r);
        out.end_ns = current_machine()->now_ns();
    });
    out.switches = s.switches();
    return out;
}

} // namespace

TEST_CASE("the scheduler's take_spinning is the spin loop it stands for, step for step", "[scheduler][sync]")
{
    constexpr unsigned kTasks = 24, kRounds = 30;
    for (std::uint64_t seed : { 1u, 2u, 3u }) {
        INFO("seed " << seed);
        const SpinOutcome loop = contend(seed, kTasks, kRounds, false);
        const SpinOutcome in_scheduler = contend(seed, kTasks, kRounds, true);
        // The lock was contended (most first tries find it held), and
        // every task got it every round, one holder at a time.
        CHECK(loop.contended > kTasks * 4);
        REQUIRE(loop.acquisitions.size() == std::size_t(kTasks) * kRounds);
        for (std::size_t i = 1; i < loop.acquisitions.size(); ++i)
            CHECK(loop.acquisitions[i].at >= loop.acquisitions[i - 1].at + 1000);
        // The same run: who took the lock when, and when it all ended.
        CHECK(in_scheduler.contended == loop.contended);
        CHECK(in_scheduler.acquisitions == loop.acquisitions);
        CHECK(in_scheduler.end_ns == loop.end_ns);
        // Without a switch to each waiter at each write of the line.
        CHECK(in_scheduler.switches * 2 < loop.switches);
    }
}

namespace {

struct Write {
    int cpu;
    std::uint64_t at; ///< virtual time, ns
    LineKey line;
};

/// What the last of @writes costs its CPU on altix-2005, each write made by
/// its CPU at its time, with line 2 sharing line 1 (@share) or not.
std::uint64_t last_write_cost(const std::vector<Write>& writes, bool share)
{
    sched::Scheduler s;
    s.set_model(std::make_unique<sched::MachineModel>(sched::load_machine_profile("altix-2005"), 1.0, 0));
    std::uint64_t cost = 0;
    s.run([&] {
        if (share)
            share_line(2, 1);
        Machine& m = *current_machine();
        std::vector<TaskRef> tasks;
        for (std::size_t i = 0; i < writes.size(); ++i)
            tasks.push_back(m.spawn("write" + std::to_string(i), [&, i] {
                const Write& w = writes[i];
                set_current_cpu(w.cpu);
                m.sleep_until(w.at);
                touch_line(w.line, true);
                if (i + 1 == writes.size())
                    cost = m.now_ns() - w.at;
            }));
        for (TaskRef t : tasks)
            m.join(t);
    });
    return cost;
}

} // namespace

TEST_CASE("two keys that share a line are one line: a write to either moves it", "[scheduler][machines]")
{
    // A line nobody else wrote costs nothing; the neighbour of a line CPU 0
    // wrote costs CPU 2 the same transfer as that line itself.
    const std::uint64_t direct = last_write_cost({ { 0, 0, 1 }, { 2, 10'000, 1 } }, false);
    CHECK(direct > 0);
    CHECK(last_write_cost({ { 0, 0, 1 }, { 2, 10'000, 2 } }, false) == 0);
    CHECK(last_write_cost({ { 0, 0, 1 }, { 2, 10'000, 2 } }, true) == direct);
    // A neighbour's write takes the line from a lock's holder (CPU 0 takes
    // lock word 1 at 0 and releases it at 20 us): its release must fetch the
    // line back (2005's mmap_sem beside page_table_lock).
    const std::uint64_t fetched_back = last_write_cost({ { 0, 0, 1 }, { 4, 5'000, 1 }, { 0, 20'000, 1 } }, false);
    CHECK(fetched_back > 0);
    CHECK(last_write_cost({ { 0, 0, 1 }, { 4, 5'000, 2 }, { 0, 20'000, 1 } }, false) == 0);
    CHECK(last_write_cost({ { 0, 0, 1 }, { 4, 5'000, 2 }, { 0, 20'000, 1 } }, true) == fetched_back);
}

TEST_CASE(
    "a machine model serves one run: a second run on it is refused until a fresh model is set", "[scheduler][machines]")
{
    // The model's lines keep the owners the last run left them, so a second
    // run on it would not be the run its seed names.
    const sched::MachineProfile altix = sched::load_machine_profile("altix-2005");
    sched::Scheduler s;
    std::uint64_t cost = 0;
    const auto body = [&] {
        Machine& m = *current_machine();
        const TaskRef first = m.spawn("cpu0", [] {
            set_current_cpu(0);
            touch_line(1, true);
        });
        const TaskRef second = m.spawn("cpu2", [&] {
            set_current_cpu(2);
            m.sleep_until(10'000);
            touch_line(1, true);
            cost = m.now_ns() - 10'000;
        });
        m.join(first);
        m.join(second);
    };
    s.set_model(std::make_unique<sched::MachineModel>(altix, 1.0, 5));
    s.run(body);
    const std::uint64_t first_cost = cost;
    CHECK(first_cost > 0);
    CHECK_THROWS_AS(s.run(body), std::logic_error);
    cost = 0;
    s.set_model(std::make_unique<sched::MachineModel>(altix, 1.0, 5));
    s.run(body);
    CHECK(cost == first_cost);
}
