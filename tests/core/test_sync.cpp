// core/sync: the lock types, their lockstat-style statistics, and RCU.
#include "base/cpu.h"
#include "sync/lock_stats.h"
#include "sync/mutex.h"
#include "sync/rcu.h"
#include "sync/rwlock.h"
#include "sync/seqlock.h"
#include "sync/spinlock.h"
#include "sync/ticket_lock.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <bit>
#include <chrono>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

using namespace pcl;
using namespace pcl::sync;

namespace {

template <class Lock> void check_mutual_exclusion(Lock& lock, unsigned threads, unsigned iters)
{
    long counter = 0; // plain: only ever touched under the lock
    std::atomic<int> inside { 0 };
    std::atomic<bool> overlap { false };
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            CpuScope cpu(static_cast<int>(t));
            for (unsigned i = 0; i < iters; ++i) {
                std::lock_guard g(lock);
                if (inside.fetch_add(1) != 0)
                    overlap = true;
                ++counter;
                inside.fetch_sub(1);
            }
        });
    for (auto& t : ts)
        t.join();
    REQUIRE_FALSE(overlap.load());
    REQUIRE(counter == long(threads) * iters);
}

} // namespace

TEMPLATE_TEST_CASE("exclusive locks exclude and count every acquisition", "[sync]", SpinLock, TicketLock, Mutex)
{
    LockRegistry registry;
    TestType lock(registry, "test[0].lock", "test.lock");
    check_mutual_exclusion(lock, 4, 5000);
    const LockStatRow row = lock.row();
    CHECK(row.name == "test[0].lock");
    CHECK(row.lock_class == "test.lock");
    CHECK(row.acquisitions == 4 * 5000);
    CHECK(row.contentions <= row.acquisitions);
    CHECK(row.acq_bounces <= row.acquisitions);
    CHECK(row.con_bounces <= row.contentions);
    CHECK(row.hold_max_ns >= row.hold_min_ns);
    // The class row sums the lock's counters.
    const auto classes = registry.classes();
    REQUIRE(classes.size() == 1);
    CHECK(classes[0].acquisitions == row.acquisitions);
    CHECK(classes[0].contentions == row.contentions);
    CHECK(classes[0].instances == 1);
    // Every contended acquisition is in exactly one bucket of the wait histogram.
    CHECK(std::accumulate(row.wait_buckets.begin(), row.wait_buckets.end(), std::uint64_t(0)) == row.contentions);
}

TEST_CASE("a lock taken on alternating CPUs bounces every time", "[sync]")
{
    LockRegistry registry;
    SpinLock lock(registry, "l", "c");
    for (int i = 0; i < 10; ++i) {
        CpuScope cpu(i % 2);
        lock.lock();
        lock.unlock();
    }
    // The first acquisition has no predecessor; the other nine change CPU.
    CHECK(lock.row().acq_bounces == 9);
    CHECK(lock.row().contentions == 0);
    // Same CPU every time: no bounces.
    SpinLock steady(registry, "s", "c");
    CpuScope cpu(3);
    for (int i = 0; i < 10; ++i) {
        steady.lock();
        steady.unlock();
    }
    CHECK(steady.row().acq_bounces == 0);
}

TEST_CASE("a contended acquisition is counted with its wait time", "[sync]")
{
    LockRegistry registry;
    SpinLock lock(registry, "l", "c");
    std::atomic<bool> waiting { false };
    lock.lock();
    std::thread waiter([&] {
        CpuScope cpu(1);
        waiting = true;
        lock.lock();
        lock.unlock();
    });
    while (!waiting.load())
        std::this_thread::yield();
    // Hold long enough that the waiter's first try surely fails.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(lock.state().held);
    lock.unlock();
    waiter.join();
    const LockStatRow row = lock.row();
    CHECK(row.acquisitions == 2);
    CHECK(row.contentions == 1);
    CHECK(row.wait_max_ns >= 5'000'000); // it waited most of the 20 ms
    CHECK(row.wait_min_ns == row.wait_max_ns);
    CHECK(row.hold_max_ns >= 5'000'000);
    CHECK_FALSE(lock.state().held);
    // The one wait is in the histogram bucket of its length, in the lock's
    // row and in its class's.
    const unsigned b = std::min(kWaitBuckets - 1, unsigned(std::bit_width(row.wait_max_ns)) - 1);
    for (const LockStatRow& r : { row, registry.classes().at(0) }) {
        CHECK(r.wait_buckets[b] == 1);
        CHECK(std::accumulate(r.wait_buckets.begin(), r.wait_buckets.end(), std::uint64_t(0)) == 1);
    }
}

TEST_CASE("the ticket lock serves waiters in arrival order", "[sync]")
{
    RawTicketLock lock;
    lock.lock();
    std::vector<int> order;
    std::vector<std::thread> ts;
    for (int k = 0; k < 4; ++k) {
        ts.emplace_back([&, k] {
            lock.lock();
            order.push_back(k);
            lock.unlock();
        });
        // Each thread has taken its ticket before the next starts.
        while (lock.queued() != unsigned(k) + 2)
            std::this_thread::yield();
    }
    lock.unlock();
    for (auto& t : ts)
        t.join();
    CHECK(order == std::vector<int> { 0, 1, 2, 3 });
    CHECK_FALSE(lock.try_lock() == false);
    lock.unlock();
}

TEST_CASE("the rwlock admits readers together and writers alone", "[sync]")
{
    LockRegistry registry;
    RwLock lock(registry, "rw", "rw.class");
    {
        RwLock::ReadGuard a(lock);
        RwLock::ReadGuard b(lock);
        CHECK(lock.state().readers == 2);
        CHECK_FALSE(lock.try_lock());
    }
    CHECK(lock.try_lock());
    lock.unlock();
    long value = 0;
    std::atomic<bool> torn { false };
    std::vector<std::thread> ts;
    for (int t = 0; t < 4; ++t)
        ts.emplace_back([&, t] {
            for (int i = 0; i < 2000; ++i) {
                if (t == 0) {
                    std::lock_guard g(lock);
                    value += 2;
                } else {
                    RwLock::ReadGuard g(lock);
                    if (value % 2)
                        torn = true;
                }
            }
        });
    for (auto& t : ts)
        t.join();
    CHECK_FALSE(torn.load());
    CHECK(value == 4000);
    // 2 shared + 1 try_lock + 2000 writes + 6000 reads.
    CHECK(lock.row().acquisitions == 2 + 1 + 2000 + 6000);
}

TEST_CASE("seqlock readers never keep a torn pair", "[sync]")
{
    LockRegistry registry;
    SeqLock seq(registry, "seq", "seq.class");
    // The pagefault scalability thread's torn read: a 64-bit PTE as two halves written separately.
    std::atomic<std::uint32_t> lo { 0 }, hi { 0 };
    std::atomic<bool> stop { false };
    std::atomic<long> torn_kept { 0 };
    std::thread writer([&] {
        for (std::uint32_t v = 1; v <= 20000; ++v) {
            std::lock_guard g(seq);
            lo.store(v, std::memory_order_relaxed);
            hi.store(v, std::memory_order_relaxed);
        }
        stop = true;
    });
    std::thread reader([&] {
        while (!stop.load()) {
            std::uint32_t a, b;
            std::uint64_t s;
            do {
                s = seq.read_begin();
                a = lo.load(std::memory_order_relaxed);
                b = hi.load(std::memory_order_relaxed);
            } while (seq.read_retry(s));
            if (a != b)
                ++torn_kept;
        }
    });
    writer.join();
    reader.join();
    CHECK(torn_kept.load() == 0);
    CHECK(seq.sequence() == 40000);
    CHECK(seq.writer_lock().row().acquisitions == 20000);
}

namespace {
struct Deferred {
    pcl::rcu::Head head;
    std::atomic<int>* freed;
    int value;
};
} // namespace

TEST_CASE("RCU defers a free until readers that saw the object are done", "[sync][rcu]")
{
    std::atomic<int> freed { 0 };
    std::atomic<Deferred*> shared { new Deferred { {}, &freed, 42 } };
    std::atomic<bool> reader_in { false }, release_reader { false };
    std::atomic<int> seen { 0 };
    std::thread reader([&] {
        pcl::rcu::ReadGuard guard;
        Deferred* d = shared.load(std::memory_order_acquire);
        reader_in = true;
        while (!release_reader.load())
            std::this_thread::yield();
        seen = d->value; // still valid: the grace period has not ended
    });
    while (!reader_in.load())
        std::this_thread::yield();
    Deferred* old = shared.exchange(nullptr, std::memory_order_acq_rel);
    pcl::rcu::call(&old->head, [](pcl::rcu::Head* h) {
        auto* d = reinterpret_cast<Deferred*>(h);
        d->freed->fetch_add(1);
        delete d;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(freed.load() == 0); // the reader is still inside its section
    release_reader = true;
    reader.join();
    pcl::rcu::barrier();
    CHECK(freed.load() == 1);
    CHECK(seen.load() == 42);
}

namespace {
struct Numbered {
    pcl::rcu::Head head;
    int n;
};
std::mutex g_ran_mutex;
std::vector<int> g_ran; ///< the numbers of the callbacks run, in order
/// Records its number; number 0 queues number -1 from the callback thread.
void record(pcl::rcu::Head* h)
{
    auto* d = reinterpret_cast<Numbered*>(h);
    {
        std::lock_guard g(g_ran_mutex);
        g_ran.push_back(d->n);
    }
    if (d->n == 0)
        pcl::rcu::call(&(new Numbered { {}, -1 })->head, record);
    delete d;
}
} // namespace

TEST_CASE("RCU callbacks of one thread run in the order queued, and barrier waits for every one", "[sync][rcu]")
{
    g_ran.clear();
    constexpr int kPerThread = 2000;
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
        threads.emplace_back([t] {
            for (int i = 0; i < kPerThread; ++i)
                pcl::rcu::call(&(new Numbered { {}, t * kPerThread + i + 1 })->head, record);
        });
    pcl::rcu::call(&(new Numbered { {}, 0 })->head, record);
    for (auto& t : threads)
        t.join();
    pcl::rcu::barrier();
    // Every callback ran once, the one queued by a callback too.
    std::lock_guard g(g_ran_mutex);
    REQUIRE(g_ran.size() == std::size_t(3 * kPerThread + 2));
    std::vector<int> last(3, 0);
    for (int n : g_ran) {
        if (n <= 0)
            continue;
        const int t = (n - 1) / kPerThread;
        CHECK(n > last[t]); // each thread's in the order it queued them
        last[t] = n;
    }
    for (int t = 0; t < 3; ++t)
        CHECK(last[t] == (t + 1) * kPerThread);
}

TEST_CASE("registry keeps class totals after a named lock is gone", "[sync]")
{
    LockRegistry registry;
    {
        SpinLock a(registry, "mapping[0].tree_lock", "mapping.tree_lock");
        SpinLock b(registry, "mapping[1].tree_lock", "mapping.tree_lock");
        a.lock();
        a.unlock();
        b.lock();
        b.unlock();
        b.lock();
        b.unlock();
        CHECK(registry.locks().size() == 2);
    }
    CHECK(registry.locks().empty());
    const auto classes = registry.classes();
    REQUIRE(classes.size() == 1);
    CHECK(classes[0].name == "mapping.tree_lock");
    CHECK(classes[0].acquisitions == 3);
    CHECK(classes[0].instances == 2);
    registry.reset();
    CHECK(registry.classes()[0].acquisitions == 0);
}
