// core/sync and core/events: the records a lock writes into the event stream
// (sync/instrumented_lock.h through events/tracepoint.h): waits, acquisitions
// and the holds that made others wait, checked against the lock registry and
// the lock's own state rather than against timings.
#include "base/cpu.h"
#include "events/event.h"
#include "events/event_ring.h"
#include "events/tracepoint.h"
#include "eventually.h"
#include "ring_events.h"
#include "sync/lock_stats.h"
#include "sync/rwlock.h"
#include "sync/spinlock.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

using namespace pcl;
using test::drain;
using test::eventually;

namespace {

/// CPU 0 takes @lock; CPU 1 then runs @waiter, which takes it too; CPU 0
/// lets go once CPU 1 waits and has recorded its wait (so that it read the
/// holder's CPU while CPU 0 still held the lock: waiters alone would race
/// with that). Each records into its own ring. Returns whether CPU 1 was
/// seen waiting. Catch2's assertions are not thread-safe: the threads only
/// record.
template <class Lock, class Waiter>
bool contend_once(Lock& lock, EventRing& holder_ring, EventRing& waiter_ring, Waiter waiter)
{
    std::atomic<bool> holds { false };
    std::atomic<bool> waited { false };
    std::thread holder([&] {
        CpuScope cpu(0);
        trace::ThreadTrace trace(&holder_ring);
        lock.lock();
        holds.store(true);
        waited.store(eventually([&] { return lock.state().waiters == 1 && waiter_ring.pushed() == 1; }));
        lock.unlock();
    });
    std::thread other([&] {
        CpuScope cpu(1);
        trace::ThreadTrace trace(&waiter_ring);
        while (!holds.load())
            std::this_thread::yield();
        waiter();
    });
    holder.join();
    other.join();
    return waited.load();
}

} // namespace

TEST_CASE("a contended lock records the wait, the acquisition and both holds", "[sim][trace][lock]")
{
    sync::LockRegistry registry;
    sync::SpinLock lock(registry, "test.lock[0]", "test.lock");
    const std::uint32_t lock_id = lock.lock_id();
    const std::uint32_t class_id = lock.lock_class().id();
    REQUIRE(lock_id != 0);
    REQUIRE(class_id != 0);
    CHECK(registry.lock_name(lock_id) == "test.lock[0]");
    CHECK(registry.class_name(class_id) == "test.lock");

    EventRing ring_a(64), ring_b(64);
    std::atomic<bool> b_done { false };
    REQUIRE(contend_once(lock, ring_a, ring_b, [&] {
        lock.lock();
        lock.unlock();
        b_done.store(true);
    }));
    REQUIRE(b_done.load());

    // The lock's identity: its class's number, and its number among its
    // class's locks (the first).
    const std::uint64_t object = (std::uint64_t(class_id) << 32) | 1u;
    CHECK(lock.trace_id() == object);
    const std::vector<Event> ev_a = drain(ring_a);
    const std::vector<Event> ev_b = drain(ring_b);

    // A: nothing for its uncontended acquisition, one release (its hold made B wait).
    REQUIRE(ev_a.size() == 1);
    CHECK(ev_a[0].kind == EventKind::LockReleased);
    CHECK(ev_a[0].object == object);
    CHECK(ev_a[0].index == lock_id);
    CHECK(ev_a[0].arg1 == static_cast<std::int32_t>(class_id));
    CHECK(ev_a[0].cpu == 0);
    CHECK(ev_a[0].arg0 >= 0);

    // B: wait begin (holder = CPU 0), acquired (with the wait), released (its acquisition was contended).
    REQUIRE(ev_b.size() == 3);
    CHECK(ev_b[0].kind == EventKind::LockWaitBegin);
    CHECK(ev_b[0].arg0 == 0);
    CHECK(ev_b[1].kind == EventKind::LockAcquired);
    CHECK(ev_b[1].arg0 >= 0);
    CHECK(ev_b[2].kind == EventKind::LockReleased);
    CHECK(ev_b[2].arg0 >= 0);
    for (const Event& e : ev_b) {
        CHECK(e.object == object);
        CHECK(e.index == lock_id);
        CHECK(e.arg1 == static_cast<std::int32_t>(class_id));
        CHECK(e.cpu == 1);
        CHECK(e.file == 0);
    }
    CHECK(ev_b[0].time_ns <= ev_b[1].time_ns);
    CHECK(ev_b[1].time_ns <= ev_b[2].time_ns);
    // A released the lock before B got it.
    CHECK(ev_a[0].time_ns <= ev_b[1].time_ns);

    CHECK(registry.lock_name(static_cast<std::uint32_t>(ev_b[0].index)) == "test.lock[0]");
    CHECK(registry.class_name(static_cast<std::uint32_t>(ev_b[0].arg1)) == "test.lock");

    const sync::LockStatRow row = lock.row();
    CHECK(row.acquisitions == 2);
    CHECK(row.contentions == 1);
}

TEST_CASE("a reader that waited for an rwlock records its release", "[sim][trace][lock]")
{
    sync::LockRegistry registry;
    sync::RwLock lock(registry, "test.rw[0]", "test.rw");
    EventRing ring_w(64), ring_r(64);
    REQUIRE(contend_once(lock, ring_w, ring_r, [&] {
        const std::uint64_t token = lock.lock_shared();
        // Nobody waits for this read hold when it ends: its release is
        // recorded because its acquisition was.
        lock.unlock_shared(token);
    }));
    const std::vector<Event> ev = drain(ring_r);
    REQUIRE(ev.size() == 3);
    CHECK(ev[0].kind == EventKind::LockWaitBegin);
    CHECK(ev[1].kind == EventKind::LockAcquired);
    CHECK(ev[2].kind == EventKind::LockReleased);
    CHECK(ev[2].arg0 >= 0);

    // An uncontended read hold records nothing without `all`.
    EventRing quiet(64);
    {
        trace::ThreadTrace trace(&quiet);
        lock.unlock_shared(lock.lock_shared());
    }
    CHECK(quiet.pushed() == 0);
    CHECK(lock.row().acquisitions == 3);
}

TEST_CASE("with all, an uncontended lock records its acquisition and release", "[sim][trace][lock]")
{
    sync::LockRegistry registry;
    sync::SpinLock lock(registry, "test.lock[1]", "test.lock");
    EventRing ring(64);
    {
        CpuScope cpu(5);
        trace::ThreadTrace trace(&ring, -1, true);
        lock.lock();
        lock.unlock();
        CHECK(lock.try_lock());
        lock.unlock();
    }
    const std::vector<Event> ev = drain(ring);
    REQUIRE(ev.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(ev[i].kind == (i % 2 == 0 ? EventKind::LockAcquired : EventKind::LockReleased));
        CHECK(ev[i].object == lock.trace_id());
        CHECK(ev[i].index == lock.lock_id());
        CHECK(ev[i].arg1 == static_cast<std::int32_t>(lock.lock_class().id()));
        CHECK(ev[i].cpu == 5);
        if (ev[i].kind == EventKind::LockAcquired)
            CHECK(ev[i].arg0 == 0); // uncontended: no wait
    }

    // Without all, the same uncontended lock/unlock records nothing.
    {
        trace::ThreadTrace trace(&ring);
        lock.lock();
        lock.unlock();
    }
    CHECK(drain(ring).empty());

    // A fixed CPU number (the device's lane) overrides the simulated CPU.
    {
        CpuScope cpu(2);
        trace::ThreadTrace trace(&ring, 9, true);
        lock.lock();
        lock.unlock();
    }
    const std::vector<Event> lane = drain(ring);
    REQUIRE(lane.size() == 2);
    CHECK(lane[0].cpu == 9);
    CHECK(lane[1].cpu == 9);
}

TEST_CASE("a thread without a ThreadTrace records nothing", "[sim][trace][lock]")
{
    sync::LockRegistry registry;
    sync::SpinLock lock(registry, "test.lock[2]", "test.lock");
    EventRing ring(64);
    // The hook is per thread: another thread's trace does not capture this one.
    std::atomic<bool> traced_ready { false }, untraced_done { false }, untraced_enabled { true };
    std::thread traced([&] {
        trace::ThreadTrace trace(&ring, -1, true);
        traced_ready.store(true);
        while (!untraced_done.load())
            std::this_thread::yield();
    });
    std::thread untraced([&] {
        while (!traced_ready.load())
            std::this_thread::yield();
        untraced_enabled.store(trace::enabled());
        for (int i = 0; i < 10; ++i) {
            lock.lock();
            lock.unlock();
        }
        trace::io_submit({ .request = 1u, .file = 0u, .first_page = 0u, .pages = 1u, .write = false });
        untraced_done.store(true);
    });
    traced.join();
    untraced.join();
    CHECK_FALSE(untraced_enabled.load());
    CHECK(ring.pushed() == 0);

    // Once a scope ends, the thread is untraced again.
    {
        trace::ThreadTrace trace(&ring, -1, true);
        CHECK(trace::enabled());
    }
    CHECK_FALSE(trace::enabled());
    lock.lock();
    lock.unlock();
    CHECK(ring.pushed() == 0);
}

namespace {

/// The identities (Event::object) a traced thread records taking, with
/// `all`, one named lock and two anonymous locks of one class, made in this
/// order in a registry of their own: what a run records, made again.
std::vector<std::uint64_t> lock_identities()
{
    sync::LockRegistry registry;
    sync::SpinLock named(registry, "test.lock[0]", "test.lock");
    sync::LockClass& nodes = registry.lock_class("test.node");
    sync::SpinLock first(nodes);
    sync::SpinLock second(nodes);
    EventRing ring(64);
    {
        trace::ThreadTrace trace(&ring, 0, true);
        for (sync::SpinLock* lock : { &named, &first, &second, &named }) {
            lock->lock();
            lock->unlock();
        }
    }
    std::vector<std::uint64_t> ids;
    for (const Event& e : drain(ring, EventKind::LockAcquired))
        ids.push_back(ev::LockAcquired { e }.lock());
    return ids;
}

} // namespace

TEST_CASE("a lock's identity in the stream is its class and its number in the class and not its address",
    "[sim][trace][lock]")
{
    const std::vector<std::uint64_t> once = lock_identities();
    // The same locks made again at other addresses (a block allocated in
    // between moves the heap on) record the same identities.
    const auto moved = std::make_unique<char[]>(1 << 16);
    const std::vector<std::uint64_t> again = lock_identities();
    CHECK(again == once);
    // Classes 1 (test.lock) and 2 (test.node) of their registry; the two
    // anonymous locks, which share a registry number (0), are told apart.
    const std::uint64_t named = (std::uint64_t(1) << 32) | 1, first = (std::uint64_t(2) << 32) | 1,
                        second = (std::uint64_t(2) << 32) | 2;
    CHECK(once == std::vector<std::uint64_t> { named, first, second, named });
}

TEST_CASE("counting a lock's identity takes no room in the lock", "[sim][trace][lock]")
{
    // The raw lock word sits in the instrument's tail: an index's per-node
    // locks, and the bytes a lesson counts for them, are what they were.
    STATIC_REQUIRE(sizeof(sync::SpinLock) == 56);
}
