// The modelled machine's scheduler: tasks in virtual time, the smallest
// first, ties in a seeded order; waits, wake-ups and deadlines; RCU grace
// periods; the tasks' own thread-locals; failures and deadlocks.
#include <catch2/catch.hpp>

#include "base/cpu.h"
#include "base/machine.h"
#include "base/wait_queue.h"
#include "sched/scheduler.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace pcl;
using pcl::sched::Scheduler;
using pcl::sched::SchedulerOptions;

namespace {

Machine& machine()
{
    return *current_machine();
}

std::uint64_t now()
{
    return current_machine()->now_ns();
}

SchedulerOptions seeded(std::uint64_t seed, std::uint64_t spin_step_ns = 50)
{
    SchedulerOptions o;
    o.seed = seed;
    o.spin_step_ns = spin_step_ns;
    return o;
}

struct Mark {
    std::string what;
    std::uint64_t at;
    friend bool operator==(const Mark&, const Mark&) = default;
};

std::ostream& operator<<(std::ostream& os, const Mark& m)
{
    return os << m.what << "@" << m.at;
}

/// The order in which @n tasks spawned together at time 0 first run.
std::vector<int> first_runs(std::uint64_t seed, int n)
{
    Scheduler s(seeded(seed));
    std::vector<int> order;
    s.run([&] {
        std::vector<TaskRef> tasks;
        for (int i = 0; i < n; ++i)
            tasks.push_back(machine().spawn("t" + std::to_string(i), [&order, i] { order.push_back(i); }));
        for (TaskRef t : tasks)
            machine().join(t);
    });
    return order;
}

} // namespace

TEST_CASE("the task with the smallest virtual time runs next", "[scheduler]")
{
    for (std::uint64_t seed : { 0, 1, 2, 3 }) {
        Scheduler s(seeded(seed));
        std::vector<Mark> marks;
        std::uint64_t main_end = 0;
        s.run([&] {
            auto mark = [&](const char* who) { marks.push_back({ who, now() }); };
            TaskRef a = machine().spawn("a", [&] {
                machine().charge(10);
                mark("a");
                machine().charge(30);
                mark("a");
                machine().charge(30);
                mark("a");
            });
            TaskRef b = machine().spawn("b", [&] {
                machine().charge(25);
                mark("b");
                machine().charge(50);
                mark("b");
            });
            machine().join(a);
            machine().join(b);
            main_end = now();
        });
        INFO("seed " << seed);
        CHECK(marks == std::vector<Mark> { { "a", 10 }, { "b", 25 }, { "a", 40 }, { "a", 70 }, { "b", 75 } });
        CHECK(main_end == 75); // woken by the last to end, at its time
    }
}

TEST_CASE("tasks at the same virtual time run in an order fixed by the seed", "[scheduler]")
{
    const std::vector<int> one = first_runs(1, 8);
    CHECK(first_runs(1, 8) == one);
    const std::vector<int> two = first_runs(2, 8);
    CHECK(first_runs(2, 8) == two);
    CHECK(one != two);
    std::vector<int> sorted = one;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == std::vector<int> { 0, 1, 2, 3, 4, 5, 6, 7 });
}

TEST_CASE("yield lets the tasks at the same time run first", "[scheduler]")
{
    for (std::uint64_t seed : { 0, 5, 9 }) {
        Scheduler s(seeded(seed));
        std::vector<std::string> log;
        s.run([&] {
            auto body = [&](std::string name) {
                return [&log, name] {
                    for (int i = 0; i < 3; ++i) {
                        log.push_back(name);
                        machine().yield();
                    }
                };
            };
            TaskRef x = machine().spawn("x", body("x"));
            TaskRef y = machine().spawn("y", body("y"));
            machine().join(x);
            machine().join(y);
            CHECK(now() == 0);
        });
        INFO("seed " << seed);
        REQUIRE(log.size() == 6);
        for (std::size_t i = 2; i < log.size(); ++i)
            CHECK(log[i] == log[i - 2]); // they alternate
        CHECK(log[0] != log[1]);
    }
}

TEST_CASE("a wait with a deadline times out exactly at it, or ends at its wake-up", "[scheduler]")
{
    Scheduler s(seeded(7));
    WaitMutex m;
    WaitQueue q;
    bool flag = false;
    bool timed_out_ok = true;
    std::uint64_t timed_out_at = 0;
    bool woken_ok = false;
    std::uint64_t woken_at = 0;
    s.run([&] {
        TaskRef waiter = machine().spawn("times out", [&] {
            std::unique_lock lock(m);
            timed_out_ok = q.wait_until_ns(lock, 1000, [&] { return flag; });
            timed_out_at = now();
        });
        machine().join(waiter);
        CHECK(now() == 1000);
        TaskRef sleeper = machine().spawn("woken", [&] {
            std::unique_lock lock(m);
            woken_ok = q.wait_until_ns(lock, 5000, [&] { return flag; });
            woken_at = now();
        });
        machine().charge(400);
        {
            std::lock_guard lock(m);
            flag = true;
        }
        q.wake_one();
        machine().join(sleeper);
    });
    CHECK_FALSE(timed_out_ok);
    CHECK(timed_out_at == 1000);
    CHECK(woken_ok);
    CHECK(woken_at == 1400);
}

TEST_CASE("park returns false at its deadline and true when woken, a past deadline does not park", "[scheduler]")
{
    Scheduler s(seeded(3));
    WaitQueue q;
    std::vector<Mark> marks;
    s.run([&] {
        machine().charge(100);
        CHECK_FALSE(machine().park(q, 100)); // already reached: no wait, no time
        CHECK(now() == 100);
        CHECK(q.parked_first == nullptr);
        CHECK_FALSE(machine().park(q, 350));
        CHECK(now() == 350);
        CHECK(q.parked_first == nullptr); // a timed-out task leaves the queue
        TaskRef waker = machine().spawn("waker", [&] {
            machine().charge(20);
            q.wake_all();
        });
        const bool woken = machine().park(q, 10'000);
        marks.push_back({ woken ? "woken" : "timed out", now() });
        machine().join(waker);
        // The deadline of a wait that ended early does not fire later.
        machine().sleep_until(20'000);
        CHECK(now() == 20'000);
    });
    CHECK(marks == std::vector<Mark> { { "woken", 370 } });
}

TEST_CASE("waits that end before their deadline do not pile the deadlines up", "[scheduler]")
{
    Scheduler s(seeded(12));
    WaitQueue q;
    WaitQueue never;
    std::size_t most = 0;
    int woken = 0;
    s.run([&] {
        // An earlier deadline at the head of the queue: the ones behind it
        // are not reached as they go stale.
        TaskRef sleeper = machine().spawn("sleeper", [&] { machine().park(never, 500'000'000); });
        machine().yield();
        TaskRef waker = machine().spawn("waker", [&] {
            for (int i = 0; i < 10'000; ++i) {
                machine().charge(1);
                q.wake_one();
            }
        });
        for (int i = 0; i < 10'000; ++i) {
            woken += machine().park(q, now() + 1'000'000'000);
            most = std::max(most, s.deadlines_held());
        }
        machine().join(waker);
        CHECK(now() == 10'000);
        machine().join(sleeper);
        CHECK(now() == 500'000'000);
    });
    CHECK(woken == 10'000);
    CHECK(most >= 60); // they are kept a while,
    CHECK(most <= 65); // and dropped together when most of the queue
}

TEST_CASE("wake_one wakes the parked tasks in the order they parked", "[scheduler]")
{
    for (std::uint64_t seed : { 0, 1, 2 }) {
        Scheduler s(seeded(seed));
        WaitQueue q;
        std::vector<Mark> woken;
        s.run([&] {
            std::vector<TaskRef> tasks;
            // Parking at 3, 1 and 2 ns: in the order second, third, first.
            for (int i = 0; i < 3; ++i) {
                const std::uint64_t delay = i == 0 ? 3 : std::uint64_t(i);
                const std::string name = "p" + std::to_string(i);
                tasks.push_back(machine().spawn(name, [&, delay, name] {
                    machine().charge(delay);
                    machine().park(q, WaitQueue::kForever);
                    woken.push_back({ name, now() });
                }));
            }
            machine().charge(10);
            for (int i = 0; i < 3; ++i) {
                q.wake_one();
                machine().charge(10);
            }
            for (TaskRef t : tasks)
                machine().join(t);
        });
        INFO("seed " << seed);
        CHECK(woken == std::vector<Mark> { { "p1", 10 }, { "p2", 20 }, { "p0", 30 } });
    }
}

TEST_CASE("a contended WaitMutex parks the waiter until the holder unlocks", "[scheduler]")
{
    Scheduler s(seeded(11));
    WaitMutex m;
    std::vector<Mark> marks;
    s.run([&] {
        m.lock();
        TaskRef other = machine().spawn("other", [&] {
            machine().charge(5);
            std::lock_guard lock(m);
            marks.push_back({ "other has it", now() });
            machine().charge(50);
        });
        machine().charge(100); // holding it: the other task runs, and parks
        marks.push_back({ "main unlocks", now() });
        m.unlock();
        machine().charge(1);
        std::lock_guard lock(m); // taken back once the other is done with it
        marks.push_back({ "main has it", now() });
        machine().join(other);
    });
    CHECK(marks == std::vector<Mark> { { "main unlocks", 100 }, { "other has it", 100 }, { "main has it", 150 } });
}

TEST_CASE("a producer and a consumer on wait queues, in exact virtual time", "[scheduler]")
{
    for (std::uint64_t seed : { 0, 42 }) {
        Scheduler s(seeded(seed));
        WaitMutex m;
        WaitQueue not_full;
        WaitQueue not_empty;
        std::vector<int> items;
        std::vector<Mark> pushed;
        std::vector<Mark> popped;
        std::uint64_t end = 0;
        s.run([&] {
            TaskRef producer = machine().spawn("producer", [&] {
                for (int i = 0; i < 5; ++i) {
                    machine().charge(100);
                    std::unique_lock lock(m);
                    not_full.wait(lock, [&] { return items.size() < 2; });
                    items.push_back(i);
                    pushed.push_back({ std::to_string(i), now() });
                    not_empty.wake_all();
                }
            });
            TaskRef consumer = machine().spawn("consumer", [&] {
                for (int i = 0; i < 5; ++i) {
                    {
                        std::unique_lock lock(m);
                        not_empty.wait(lock, [&] { return !items.empty(); });
                        popped.push_back({ std::to_string(items.front()), now() });
                        items.erase(items.begin());
                        not_full.wake_one();
                    }
                    machine().charge(250);
                }
            });
            machine().join(producer);
            machine().join(consumer);
            end = now();
        });
        INFO("seed " << seed);
        CHECK(pushed == std::vector<Mark> { { "0", 100 }, { "1", 200 }, { "2", 300 }, { "3", 400 }, { "4", 600 } });
        CHECK(popped == std::vector<Mark> { { "0", 100 }, { "1", 350 }, { "2", 600 }, { "3", 850 }, { "4", 1100 } });
        CHECK(end == 1350);
    }
}

TEST_CASE("sleep_until wakes at its time, a past time does not sleep", "[scheduler]")
{
    Scheduler s(seeded(1));
    std::vector<Mark> marks;
    s.run([&] {
        TaskRef sleeper = machine().spawn("sleeper", [&] {
            machine().sleep_until(500);
            marks.push_back({ "sleeper", now() });
            machine().sleep_until(200);
            marks.push_back({ "sleeper again", now() });
        });
        machine().charge(300);
        marks.push_back({ "main", now() });
        machine().charge(300);
        marks.push_back({ "main", now() });
        machine().join(sleeper);
    });
    CHECK(
        marks == std::vector<Mark> { { "main", 300 }, { "sleeper", 500 }, { "sleeper again", 500 }, { "main", 600 } });
}

TEST_CASE("spawned tasks start at the spawner's time and join waits for their end", "[scheduler]")
{
    Scheduler s(seeded(4));
    std::vector<Mark> marks;
    s.run([&] {
        machine().charge(100);
        TaskRef child = machine().spawn("child", [&] {
            marks.push_back({ "child starts", now() });
            machine().charge(200);
            TaskRef grandchild = machine().spawn("grandchild", [&] {
                marks.push_back({ "grandchild starts", now() });
                machine().charge(400);
            });
            machine().join(grandchild);
            marks.push_back({ "child ends", now() });
        });
        CHECK(s.task_name(child) == "child");
        machine().join(child);
        marks.push_back({ "joined", now() });
        machine().join(child); // done: no wait
        CHECK(now() == 700);
    });
    CHECK(marks
        == std::vector<Mark> {
            { "child starts", 100 }, { "grandchild starts", 300 }, { "child ends", 700 }, { "joined", 700 } });
}

TEST_CASE("a relax() moves the spinner to the next task's time in whole steps", "[scheduler]")
{
    for (std::uint64_t step : { 50, 30 }) {
        Scheduler s(seeded(2, step));
        bool flag = false;
        int spins = 0;
        std::uint64_t seen_at = 0;
        s.run([&] {
            TaskRef setter = machine().spawn("setter", [&] {
                machine().sleep_until(1000);
                flag = true;
            });
            machine().yield(); // the setter goes to sleep
            while (!flag) {
                machine().relax();
                ++spins;
            }
            seen_at = now();
            machine().join(setter);
        });
        INFO("step " << step);
        CHECK(spins == 1);
        CHECK(seen_at == (step == 50 ? 1000 : 1020)); // ceil(1000 / step) steps
    }
    // With nothing else runnable, the spinner reaches the next deadline.
    Scheduler s(seeded(2, 50));
    WaitQueue q;
    bool flag = false;
    std::uint64_t seen_at = 0;
    s.run([&] {
        TaskRef timer = machine().spawn("timer", [&] {
            machine().park(q, 725);
            flag = true;
        });
        machine().charge(1); // the timer task parks
        while (!flag)
            machine().relax();
        seen_at = now();
        machine().join(timer);
    });
    CHECK(seen_at == 751); // 1 + 15 steps of 50, the first step at or past 725
}

TEST_CASE("a deadlock is reported with what each task waits for", "[scheduler]")
{
    Scheduler s(seeded(5));
    WaitQueue q;
    std::string what;
    try {
        s.run([&] {
            TaskRef consumer = machine().spawn("consumer", [&] { machine().park(q, WaitQueue::kForever); });
            machine().spawn("reader", [&] {
                machine().rcu_read_lock();
                machine().park(q, WaitQueue::kForever);
            });
            machine().spawn("updater", [&] {
                machine().charge(10);
                machine().synchronize_rcu();
            });
            machine().charge(40);
            machine().join(consumer);
        });
    } catch (const std::runtime_error& e) {
        what = e.what();
    }
    CHECK(what
        == "deadlock on the modelled machine at 40 ns: every task left waits with no deadline: \"main\" (task 0) waits "
           "for the join of task \"consumer\" (task 1); \"consumer\" (task 1) waits on a wait queue; \"reader\" (task "
           "2) waits on a wait queue; \"updater\" (task 3) waits for an RCU grace period");
    CHECK(q.parked_first == nullptr); // the abandoned tasks left it
    CHECK(q.parked_last == nullptr);
    CHECK(current_machine() == nullptr);

    // A spinner alone: nothing can ever change what it waits on.
    Scheduler spinning(seeded(5));
    what.clear();
    try {
        spinning.run([&] {
            machine().spawn("parked", [&] { machine().park(q, WaitQueue::kForever); });
            machine().charge(5);
            for (;;)
                machine().relax();
        });
    } catch (const std::runtime_error& e) {
        what = e.what();
    }
    CHECK(what
        == "deadlock on the modelled machine at 5 ns: \"main\" (task 0) spins on a lock or flag that no other task "
           "can ever change: \"parked\" (task 1) waits on a wait queue");
}

TEST_CASE("a task that retries alone goes on: a few rounds alone are no deadlock", "[scheduler]")
{
    // A retry whose lockless search read what another CPU changed since
    // (the lazy skip list's validation) relaxes and searches again; with
    // every other task parked it succeeds by itself, and the run goes on.
    Scheduler s(seeded(6));
    WaitQueue q;
    unsigned rounds = 0;
    std::uint64_t done_at = 0;
    s.run([&] {
        machine().spawn("parked", [&] { machine().park(q, WaitQueue::kForever); });
        machine().charge(5);
        while (++rounds < 1000)
            machine().relax();
        done_at = machine().now_ns();
        machine().unpark_all(q);
    });
    CHECK(rounds == 1000);
    CHECK(done_at == 5 + 999 * SchedulerOptions().spin_step_ns); // each round alone a spin step
}

TEST_CASE("a task alone counts its own rounds, not those of the task before it", "[scheduler]")
{
    // A worker retries alone and ends; main, woken by its end, then spins
    // on what nothing can change: the report gives main's first round
    // alone, not the worker's.
    Scheduler s(seeded(7));
    WaitQueue q;
    std::string what;
    try {
        s.run([&] {
            machine().spawn("parked", [&] { machine().park(q, WaitQueue::kForever); });
            const TaskRef worker = machine().spawn("worker", [&] {
                for (int i = 0; i < 10; ++i)
                    machine().relax();
            });
            machine().join(worker);
            machine().charge(1000);
            for (;;)
                machine().relax();
        });
    } catch (const std::runtime_error& e) {
        what = e.what();
    }
    CHECK(what.rfind("deadlock on the modelled machine at 1500 ns: \"main\" (task 0) spins", 0) == 0);
}

TEST_CASE("synchronize_rcu returns when the last reader that was inside leaves", "[scheduler]")
{
    Scheduler s(seeded(9));
    std::uint64_t returned_at = 0;
    std::uint64_t quick_at = 0;
    s.run([&] {
        auto reader = [](std::uint64_t enter, std::uint64_t leave) {
            return [enter, leave] {
                machine().sleep_until(enter);
                machine().rcu_read_lock();
                machine().rcu_read_lock(); // nested: the outermost unlock ends the section
                machine().sleep_until(leave);
                machine().rcu_read_unlock();
                machine().rcu_read_unlock();
            };
        };
        std::vector<TaskRef> tasks;
        tasks.push_back(machine().spawn("reader 300", reader(0, 300)));
        tasks.push_back(machine().spawn("reader 500", reader(0, 500)));
        // Enters after the grace period began: not waited for.
        tasks.push_back(machine().spawn("late reader", reader(200, 900)));
        // Leaves at 300 and enters again at once: the new section is not waited for.
        tasks.push_back(machine().spawn("re-entering", [] {
            machine().rcu_read_lock();
            machine().sleep_until(300);
            machine().rcu_read_unlock();
            machine().rcu_read_lock();
            machine().sleep_until(2000);
            machine().rcu_read_unlock();
        }));
        machine().charge(100);
        machine().synchronize_rcu();
        returned_at = now();
        for (TaskRef t : tasks)
            machine().join(t);
        // No reader: the grace period is over at once.
        machine().synchronize_rcu();
        quick_at = now();
    });
    CHECK(returned_at == 500);
    CHECK(quick_at == 2000);
}

TEST_CASE("call_rcu runs the callbacks in order after a grace period, rcu_barrier waits for them", "[scheduler]")
{
    Scheduler s(seeded(13));
    std::vector<Mark> ran;
    std::uint64_t barrier_at = 0;
    std::size_t ran_at_barrier = 0;
    std::uint64_t second_barrier_at = 0;
    s.run([&] {
        TaskRef reader = machine().spawn("reader", [] {
            machine().rcu_read_lock();
            machine().sleep_until(1000);
            machine().rcu_read_unlock();
        });
        machine().charge(10);
        machine().call_rcu([&] { ran.push_back({ "a", now() }); });
        machine().call_rcu([&] { ran.push_back({ "b", now() }); });
        TaskRef late = machine().spawn("late", [&] {
            machine().sleep_until(500);
            machine().rcu_read_lock();
            machine().call_rcu([&] { ran.push_back({ "c", now() }); });
            machine().sleep_until(1500);
            machine().rcu_read_unlock();
        });
        machine().rcu_barrier(); // for a and b: c is not queued yet
        barrier_at = now();
        ran_at_barrier = ran.size();
        machine().join(reader);
        machine().join(late);
        machine().rcu_barrier();
        second_barrier_at = now();
    });
    // a and b waited for the reader inside at 10; c, queued at 500, for a
    // grace period begun after it: the one of its batch, which the late task
    // (inside since 500) holds until 1500.
    CHECK(ran == std::vector<Mark> { { "a", 1000 }, { "b", 1000 }, { "c", 1500 } });
    CHECK(barrier_at == 1000);
    CHECK(ran_at_barrier == 2);
    CHECK(second_barrier_at == 1500);
}

TEST_CASE("each task has its own copies of the task-locals", "[scheduler]")
{
    CpuScope host_cpu(7);
    Scheduler s(seeded(6));
    int mismatches = 0;
    int first_cpu = 0;
    std::vector<unsigned> slots(2);
    s.run([&] {
        first_cpu = simulated_cpu(); // a task starts with the initial value
        std::vector<TaskRef> tasks;
        for (int cpu = 0; cpu < 2; ++cpu) {
            tasks.push_back(machine().spawn("cpu" + std::to_string(cpu), [&, cpu] {
                if (simulated_cpu() != -1)
                    ++mismatches;
                set_current_cpu(cpu);
                slots[std::size_t(cpu)] = thread_slot();
                for (int i = 0; i < 100; ++i) {
                    machine().charge(std::uint64_t(3 + cpu));
                    if (current_cpu() != cpu || thread_slot() != slots[std::size_t(cpu)])
                        ++mismatches;
                }
            }));
        }
        set_current_cpu(5);
        for (TaskRef t : tasks)
            machine().join(t);
        if (simulated_cpu() != 5)
            ++mismatches;
    });
    CHECK(first_cpu == -1);
    CHECK(mismatches == 0);
    CHECK(slots[0] != slots[1]);
    CHECK(simulated_cpu() == 7); // the host's own, back
    // A task's slot is given back when it ends: the next run's tasks get them again.
    std::vector<unsigned> again(2);
    s.run([&] {
        TaskRef a = machine().spawn("cpu0", [&] { again[0] = thread_slot(); });
        machine().join(a);
        TaskRef b = machine().spawn("cpu1", [&] { again[1] = thread_slot(); });
        machine().join(b);
    });
    CHECK(std::min(again[0], again[1]) == std::min(slots[0], slots[1]));
}

TEST_CASE("the thread that ran a modelled machine keeps its own slot, which nobody else is given", "[scheduler]")
{
    const unsigned mine = thread_slot();
    Scheduler s(seeded(7));
    unsigned task_slot = ~0u;
    s.run([&] {
        TaskRef t = machine().spawn("cpu0", [&] { task_slot = thread_slot(); });
        machine().join(t);
    });
    CHECK(task_slot != mine);
    CHECK(thread_slot() == mine);
    // The thread's slot was not given back behind its back when the run
    // ended: threads that take every slot up to it, all live at once, take
    // every free one below it and then others, never it.
    std::vector<unsigned> others(mine + 1, ~0u);
    std::atomic<unsigned> taken { 0 };
    std::vector<std::thread> threads;
    for (unsigned& other : others)
        threads.emplace_back([&] {
            other = thread_slot();
            taken.fetch_add(1);
            while (taken.load() < others.size())
                std::this_thread::yield();
        });
    for (std::thread& t : threads)
        t.join();
    CHECK(std::find(others.begin(), others.end(), mine) == others.end());
}

TEST_CASE("an exception being handled is the task's own across switches", "[scheduler]")
{
    Scheduler s(seeded(8));
    std::vector<std::string> seen;
    s.run([&] {
        // x catches first and is switched out inside its handler; y throws
        // and catches meanwhile, and is still in its handler when x resumes.
        auto body = [&](std::string mine, std::uint64_t before, std::uint64_t inside) {
            return [&seen, mine, before, inside] {
                machine().charge(before);
                try {
                    throw std::runtime_error(mine);
                } catch (const std::exception&) {
                    machine().charge(inside);
                    try {
                        std::rethrow_exception(std::current_exception());
                    } catch (const std::runtime_error& again) {
                        seen.push_back(mine + " sees " + again.what());
                    }
                    if (std::uncaught_exceptions() != 0)
                        seen.push_back(mine + " sees one in flight");
                }
            };
        };
        TaskRef x = machine().spawn("x", body("x", 0, 10));
        TaskRef y = machine().spawn("y", body("y", 1, 20));
        machine().join(x);
        machine().join(y);
    });
    CHECK(seen == std::vector<std::string> { "x sees x", "y sees y" });
}

TEST_CASE("an exception in a task stops the machine and leaves run()", "[scheduler]")
{
    Scheduler s(seeded(10));
    WaitQueue q;
    bool after = false;
    CHECK_THROWS_WITH(s.run([&] {
        machine().spawn("parked", [&] { machine().park(q, WaitQueue::kForever); });
        TaskRef thrower = machine().spawn("thrower", [] {
            machine().charge(30);
            throw std::runtime_error("the disk caught fire");
        });
        machine().join(thrower);
        after = true;
    }),
        "the disk caught fire");
    CHECK_FALSE(after);
    CHECK(q.parked_first == nullptr);
    CHECK(current_machine() == nullptr);
    // The scheduler runs again afterwards.
    std::uint64_t end = 0;
    s.run([&] {
        machine().charge(3);
        end = now();
    });
    CHECK(end == 3);
}

TEST_CASE("many tasks and many switches run in virtual-time order", "[scheduler]")
{
    constexpr int kTasks = 256;
    constexpr int kSteps = 200;
    auto once = [](std::uint64_t seed) {
        Scheduler s(seeded(seed));
        std::uint64_t last = 0;
        int backwards = 0;
        long steps = 0;
        std::vector<int> trace;
        WaitMutex m;
        long in_lock = 0;
        s.run([&] {
            std::vector<TaskRef> tasks;
            for (int i = 0; i < kTasks; ++i) {
                tasks.push_back(machine().spawn("task" + std::to_string(i), [&, i] {
                    for (int k = 0; k < kSteps; ++k) {
                        if (now() < last)
                            ++backwards;
                        last = now();
                        ++steps;
                        if (trace.size() < 4096)
                            trace.push_back(i);
                        machine().charge(std::uint64_t(1 + (i * 7 + k) % 13));
                        if (k % 16 == 0) {
                            std::lock_guard lock(m);
                            ++in_lock;
                            machine().charge(5); // held across a switch
                        }
                    }
                }));
            }
            for (TaskRef t : tasks)
                machine().join(t);
        });
        CHECK(backwards == 0);
        CHECK(steps == long(kTasks) * kSteps);
        CHECK(in_lock == long(kTasks) * ((kSteps + 15) / 16));
        CHECK(s.switches() > std::uint64_t(kTasks) * kSteps / 2);
        return trace;
    };
    const std::vector<int> first = once(77);
    CHECK(once(77) == first);
    CHECK(once(78) != first);
}
