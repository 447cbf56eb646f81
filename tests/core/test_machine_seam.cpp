// core on a modelled machine (base/machine.h): the clock, the spins, the
// waits, the sleeps, the threads and RCU each go to the machine, exactly
// once where one call is due, and the lock statistics are in its virtual
// nanoseconds. The machine here is a scripted one of a single task (the
// test's thread): what "another task" does while the task spins or parks
// is the script's hook, so each count and each time is exact.
#include "sync/rcu_read_fast.h" // before any other liburcu header

#include "base/clock.h"
#include "base/cpu.h"
#include "base/machine.h"
#include "base/sleep.h"
#include "base/task_thread.h"
#include "base/wait_queue.h"
#include "sync/cpu_relax.h"
#include "sync/hold_stretch.h"
#include "sync/lock_stats.h"
#include "sync/mutex.h"
#include "sync/raw_locks.h"
#include "sync/rcu.h"
#include "sync/seqcount.h"
#include "sync/spinlock.h"

#include <catch2/catch.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

using namespace pcl;

namespace {

/// One task's machine: virtual time moves by what the task is charged, a
/// spin step per relax(), and to the deadline of a sleep or a timed park.
class ScriptedMachine final : public Machine {
public:
    static constexpr std::uint64_t kSpinStepNs = 10;

    std::uint64_t now_ns() const noexcept override { return now; }
    void charge(std::uint64_t ns) noexcept override
    {
        now += ns;
        charged += ns;
    }
    void relax() noexcept override
    {
        now += kSpinStepNs;
        ++relaxes;
        if (on_relax)
            on_relax(relaxes);
    }
    void yield() noexcept override { ++yields; }
    void sleep_until(std::uint64_t deadline_ns) noexcept override
    {
        ++sleeps;
        now = std::max(now, deadline_ns);
    }
    bool park(WaitQueue&, std::uint64_t deadline_ns) noexcept override
    {
        ++parks;
        if (deadline_ns == WaitQueue::kForever) {
            // Only another task can end a park without a deadline.
            REQUIRE(on_park);
            on_park(parks);
            return true;
        }
        now = std::max(now, deadline_ns);
        return false;
    }
    void unpark_one(WaitQueue&) noexcept override { ++unparks; }
    void unpark_all(WaitQueue&) noexcept override { ++unparks; }
    TaskRef spawn(std::string name, std::function<void()> fn) override
    {
        spawned.push_back(std::move(name));
        fn(); // runs to its end at once: this machine has one task
        return TaskRef { static_cast<unsigned>(spawned.size() - 1) };
    }
    void join(TaskRef task) noexcept override { joined.push_back(task.id); }
    void rcu_read_lock() noexcept override { ++rcu_locks; }
    void rcu_read_unlock() noexcept override { ++rcu_unlocks; }
    void synchronize_rcu() noexcept override { ++grace_periods; }
    void call_rcu(std::function<void()> fn) override { callbacks.push_back(std::move(fn)); }
    void rcu_barrier() noexcept override
    {
        for (auto& fn : callbacks)
            fn();
        callbacks.clear();
    }

    std::uint64_t now = 1'000'000;
    std::uint64_t charged = 0;
    unsigned relaxes = 0, yields = 0, sleeps = 0, parks = 0, unparks = 0;
    unsigned rcu_locks = 0, rcu_unlocks = 0, grace_periods = 0;
    std::vector<std::string> spawned;
    std::vector<unsigned> joined;
    std::vector<std::function<void()>> callbacks;
    std::function<void(unsigned)> on_relax; ///< another task's step while the task spins
    std::function<void(unsigned)> on_park;  ///< another task's step while the task is parked
};

} // namespace

TEST_CASE("on a modelled machine the clock is its virtual time, and a tick is a nanosecond", "[machine]")
{
    ScriptedMachine m;
    CHECK(current_tick_unit() == TickUnit::host);
    {
        MachineScope scope(&m);
        CHECK(now_ns() == 1'000'000);
        CHECK(ticks() == 1'000'000);
        CHECK(current_tick_unit() == TickUnit::virtual_ns);
        CHECK(ticks_to_ns(12'345) == 12'345);
        CHECK(ns_to_ticks(12'345) == 12'345);
        m.charge(250);
        CHECK(now_ns() == 1'000'250);
        // The host's clock is still there, by name, for host measurements.
        const std::uint64_t host = host_now_ns();
        CHECK(host_now_ns() >= host);
    }
    CHECK(current_machine() == nullptr);
    CHECK(current_tick_unit() == TickUnit::host);
}

TEST_CASE("a modelled run's lock statistics are exact virtual nanoseconds", "[machine][sync]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    sync::LockRegistry registry; // made on the machine: timed in its clock
    REQUIRE(registry.tick_unit() == TickUnit::virtual_ns);
    CpuScope cpu(0);
    sync::SpinLock lock(registry, "test.lock[0]", "test.lock");

    lock.lock(); // uncontended, held from t = 1'000'000
    m.charge(400);
    // A second acquisition finds it held and spins; the holder lets go
    // during the third spin step (the other task's unlock).
    m.on_relax = [&](unsigned n) {
        if (n == 3)
            lock.unlock(); // held 400 + 3 steps = 430 ns
    };
    lock.lock();
    m.on_relax = nullptr;
    CHECK(m.relaxes == 3);
    m.charge(70);
    lock.unlock();

    const sync::LockStatRow row = lock.row();
    CHECK(row.acquisitions == 2);
    CHECK(row.contentions == 1);
    CHECK(row.wait_total_ns == 3 * ScriptedMachine::kSpinStepNs);
    CHECK(row.wait_min_ns == 30);
    CHECK(row.wait_max_ns == 30);
    CHECK(row.hold_total_ns == 430 + 70);
    CHECK(row.hold_min_ns == 70);
    CHECK(row.hold_max_ns == 430);
    CHECK(row.wait_buckets[4] == 1); // 30 ns: [16, 32)
    // The class row, read the same way by any thread, says the same.
    const std::vector<sync::LockStatRow> classes = registry.classes();
    REQUIRE(classes.size() == 1);
    CHECK(classes[0].wait_total_ns == 30);
    CHECK(classes[0].hold_total_ns == 500);
}

TEST_CASE("the host's registries keep host ticks", "[machine][sync]")
{
    CHECK(sync::LockRegistry().tick_unit() == TickUnit::host);
    CHECK(sync::LockRegistry::global().tick_unit() == TickUnit::host);
    ScriptedMachine m;
    MachineScope scope(&m);
    CHECK(sync::LockRegistry::global().tick_unit() == TickUnit::host);
    CHECK(sync::LockRegistry(TickUnit::host).tick_unit() == TickUnit::host);
}

TEST_CASE("on a modelled machine every spin round is one relax", "[machine][sync]")
{
    ScriptedMachine m;
    MachineScope scope(&m);

    SECTION("the backoff")
    {
        sync::Backoff backoff;
        for (int i = 0; i < 600; ++i) // past the host's ceiling, where it would yield
            backoff.pause();
        CHECK(m.relaxes == 600);
        CHECK(m.yields == 0);
    }
    SECTION("a ticket lock's waiter")
    {
        sync::RawTicketLock t;
        t.lock();
        m.on_relax = [&](unsigned n) {
            if (n == 5)
                t.unlock();
        };
        t.lock();
        CHECK(m.relaxes == 5);
        t.unlock();
        CHECK_FALSE(t.is_locked());
    }
    SECTION("an rwlock's writer waits for a reader, and keeps new readers out meanwhile")
    {
        sync::RawRwLock rw;
        rw.lock_shared();
        bool reader_refused = false;
        m.on_relax = [&](unsigned n) {
            if (n == 1)
                reader_refused = !rw.try_lock_shared(); // writer preference
            if (n == 2)
                rw.unlock_shared();
        };
        rw.lock();
        CHECK(m.relaxes == 2);
        CHECK(reader_refused);
        CHECK_FALSE(rw.try_lock_shared());
        rw.unlock();
        CHECK(rw.try_lock_shared());
        rw.unlock_shared();
    }
    SECTION("an rwlock's reader waits for the writer")
    {
        sync::RawRwLock rw;
        rw.lock();
        m.on_relax = [&](unsigned n) {
            if (n == 4)
                rw.unlock();
        };
        rw.lock_shared();
        CHECK(m.relaxes == 4);
        CHECK_FALSE(rw.try_lock());
        rw.unlock_shared();
    }
    SECTION("a sequence count's reader waits out the writer")
    {
        sync::SeqCount seq;
        seq.write_begin();
        m.on_relax = [&](unsigned n) {
            if (n == 2)
                seq.write_end();
        };
        CHECK(seq.read_begin() == 2);
        CHECK(m.relaxes == 2);
    }
    SECTION("a retry that waits for another CPU's progress")
    {
        sync::retry_relax();
        CHECK(m.relaxes == 1);
    }
}

TEST_CASE("on the host a retry that waits for another CPU does nothing more", "[machine][sync]")
{
    sync::retry_relax(); // no machine: nothing to call, nothing to crash
    CHECK(current_machine() == nullptr);
}

TEST_CASE("on a modelled machine a mutex's waiter parks", "[machine][sync]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    sync::LockRegistry registry;
    sync::Mutex mutex(registry, "test.mutex[0]", "test.mutex");
    mutex.lock();
    m.charge(100);
    m.on_park = [&](unsigned) {
        m.charge(900); // the holder works on, then lets go
        mutex.unlock();
    };
    mutex.lock();
    CHECK(m.parks == 1);
    CHECK(m.relaxes == 0);
    mutex.unlock();
    const sync::LockStatRow row = mutex.row();
    CHECK(row.contentions == 1);
    CHECK(row.wait_total_ns == 900);
    CHECK(row.hold_max_ns == 1000);
}

TEST_CASE("on a modelled machine the hold stretch is charged, not slept", "[machine][sync]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    sync::LockRegistry registry;
    sync::SpinLock lock(registry, "test.stretched[0]", "test.stretched");
    std::atomic<bool> cut { false };
    sync::set_hold_stretch_ns(5'000, &cut);
    lock.lock();
    m.charge(1'200); // the section's own work counts towards the stretch
    lock.unlock();
    CHECK(m.charged == 5'000);
    CHECK(lock.row().hold_total_ns == 5'000);
    // Cut: the stretch ends at once.
    cut.store(true);
    lock.lock();
    lock.unlock();
    CHECK(m.charged == 5'000);
    sync::set_hold_stretch_ns(0);
}

TEST_CASE("on a modelled machine a wait queue's sleeper parks until woken or its deadline", "[machine]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    WaitMutex mutex;
    WaitQueue wq;
    bool ready = false;

    std::unique_lock lock(mutex);
    CHECK(wq.wait_until_ns(lock, m.now + 100, [] { return true; }));
    CHECK(m.parks == 0);

    // Nobody wakes it: it times out exactly at its deadline.
    const std::uint64_t deadline = m.now + 20'000;
    CHECK_FALSE(wq.wait_until_ns(lock, deadline, [&] { return ready; }));
    CHECK(m.now == deadline);
    CHECK(m.parks == 1);
    CHECK(lock.owns_lock());

    // Woken by another task that made the condition true.
    m.on_park = [&](unsigned) {
        ready = true;
        wq.wake_all();
    };
    wq.wait(lock, [&] { return ready; });
    CHECK(m.parks == 2);
    CHECK(m.unparks >= 1);
    CHECK(lock.owns_lock());
}

TEST_CASE("on the host a wait queue's deadline is one on now_ns()", "[machine]")
{
    WaitMutex mutex;
    WaitQueue wq;
    std::unique_lock lock(mutex);
    const std::uint64_t t0 = now_ns();
    CHECK_FALSE(wq.wait_until_ns(lock, t0 + 2'000'000, [] { return false; })); // 2 ms
    // Within the calibration's precision (now_ns() is the tick counter
    // converted, the sleep the host kernel's on steady_clock).
    CHECK(now_ns() - t0 >= 1'999'000);
    CHECK_FALSE(wq.wait_until_ns(lock, t0, [] { return false; })); // past: at once
    CHECK(wq.wait_until_ns(lock, t0, [] { return true; }));
}

TEST_CASE("on a modelled machine a sleep is the machine's, in virtual time", "[machine]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    sleep_for_ns(500);
    CHECK(m.now == 1'000'500);
    sleep_until_ns(2'000'000);
    CHECK(m.now == 2'000'000);
    CHECK(m.sleeps == 2);
}

TEST_CASE("a TaskThread is a task of the machine, or a host thread", "[machine]")
{
    ScriptedMachine m;
    int ran = 0;
    {
        MachineScope scope(&m);
        TaskThread t("kswapd0", [&] { ++ran; });
        CHECK(t.joinable());
        t.join();
        CHECK_FALSE(t.joinable());
    }
    CHECK(ran == 1);
    REQUIRE(m.spawned == std::vector<std::string> { "kswapd0" });
    CHECK(m.joined == std::vector<unsigned> { 0 });

    TaskThread host("cpu0", [&] { ++ran; });
    host.join();
    CHECK(ran == 2);
    CHECK(m.spawned.size() == 1); // the host's thread was no task
}

namespace {
int g_freed = 0;
void free_head(rcu::Head*)
{
    ++g_freed;
}
} // namespace

TEST_CASE("on a modelled machine RCU is the machine's", "[machine][rcu]")
{
    ScriptedMachine m;
    MachineScope scope(&m);
    {
        rcu::ReadGuard guard;
        CHECK(m.rcu_locks == 1);
    }
    {
        rcu::FastReadGuard guard;
        CHECK(m.rcu_locks == 2);
    }
    CHECK(m.rcu_unlocks == 2);
    rcu::synchronize();
    CHECK(m.grace_periods == 1);
    rcu::Head head;
    g_freed = 0;
    rcu::call(&head, free_head);
    CHECK(m.callbacks.size() == 1);
    CHECK(g_freed == 0);
    rcu::barrier();
    CHECK(g_freed == 1);
}
