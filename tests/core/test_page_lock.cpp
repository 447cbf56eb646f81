// core/mm: page flags, references and the page lock's wait queues.
#include "base/page.h"
#include "events/event.h"
#include "mm/frame_allocator.h"
#include "mm/page_lock.h"
#include "ring_events.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using namespace pcl;

TEST_CASE("page flags and references", "[mm][page]")
{
    Page page(3, 42);
    CHECK(page.mapping == 3);
    CHECK(page.index == 42);
    CHECK(page.flags.load() == 0);
    CHECK_FALSE(page.test_and_set(PG_uptodate));
    CHECK(page.test_and_set(PG_uptodate));
    page.set(PG_dirty);
    CHECK(page.test(PG_dirty));
    CHECK(page.test(PG_uptodate));
    CHECK(page.test_and_clear(PG_dirty));
    CHECK_FALSE(page.test_and_clear(PG_dirty));
    CHECK(page.flags.load() == PG_uptodate);
    page.get();
    page.get();
    CHECK_FALSE(page.put());
    CHECK(page.put()); // the last reference
}

TEST_CASE("lock_page excludes, and unlock_page wakes every sleeper", "[mm][page_lock]")
{
    PageWaitTable table;
    Page page(0, 7);
    long counter = 0; // touched only with the page locked
    std::atomic<int> inside { 0 };
    std::atomic<long> overlaps { 0 };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 3000; ++i) {
                table.lock_page(page);
                overlaps += inside.fetch_add(1) != 0;
                ++counter;
                inside.fetch_sub(1);
                table.unlock_page(page);
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(overlaps.load() == 0);
    CHECK(counter == 4 * 3000);
    CHECK_FALSE(page.test(PG_locked));
    CHECK(page.lock_waiters.load() == 0);
    // Every recorded sleep is in both the page's and the table's totals.
    CHECK(table.stats().waits == page.lock_waits.load());
    CHECK(table.stats().wait_ns == page.lock_wait_ns.load());
    CHECK(table.stats().sleeping == 0);
}

TEST_CASE("CPUs faulting on a page under I/O sleep until the read completes", "[mm][page_lock]")
{
    // One CPU has the page locked for "I/O"; three others wait for it
    // (wait_on_page_locked) and must all be woken by the one unlock_page.
    PageWaitTable table;
    Page page(0, 1);
    REQUIRE(PageWaitTable::trylock_page(page));
    REQUIRE_FALSE(PageWaitTable::trylock_page(page));
    std::atomic<int> woken { 0 }, slept { 0 }, saw_uptodate { 0 };
    std::vector<std::thread> waiters;
    for (int t = 0; t < 3; ++t)
        waiters.emplace_back([&] {
            slept += table.wait_on_page_locked(page);
            saw_uptodate += page.test(PG_uptodate);
            ++woken;
        });
    while (page.lock_waiters.load() != 3)
        std::this_thread::yield();
    CHECK(table.stats().sleeping == 3);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(woken.load() == 0);
    page.set(PG_uptodate);   // the read completed...
    table.unlock_page(page); // ...and end_page_read unlocks the page
    for (auto& t : waiters)
        t.join();
    CHECK(woken.load() == 3);
    CHECK(slept.load() == 3);
    CHECK(saw_uptodate.load() == 3);
    CHECK(page.lock_waits.load() == 3);
    CHECK(page.lock_wait_ns.load() >= 3 * 15'000'000ull); // each slept through most of the 20 ms
    const PageLockStats s = table.stats();
    CHECK(s.waits == 3);
    CHECK(s.max_wait_ns >= 15'000'000ull);
    CHECK(s.sleeping == 0);
    CHECK_FALSE(table.wait_on_page_locked(page)); // unlocked: no sleep
}

TEST_CASE("pages sharing a wait queue do not lose each other's wake-ups", "[mm][page_lock]")
{
    // Two buckets for many pages: most pages share a queue, so wake-ups meant
    // for one page reach sleepers of others, which must go back to sleep, and
    // no sleeper may miss its own.
    PageWaitTable table(2);
    std::deque<Page> pages;
    for (pgoff_t i = 0; i < 16; ++i)
        pages.emplace_back(0, i);
    std::atomic<long> held { 0 }, wrong { 0 };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 4000; ++i) {
                Page& p = pages[std::size_t((i * 7 + t * 3) % 16)];
                table.lock_page(p);
                wrong += !p.test(PG_locked);
                ++held;
                table.unlock_page(p);
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(wrong.load() == 0);
    CHECK(held.load() == 4 * 4000);
    for (auto& p : pages) {
        CHECK_FALSE(p.test(PG_locked));
        CHECK(p.lock_waiters.load() == 0);
    }
}

TEST_CASE("the wait table refuses a bucket count that is not a power of two", "[mm][page_lock]")
{
    REQUIRE_THROWS_WITH(PageWaitTable(100), Catch::Contains("power of two") && Catch::Contains("100"));
    REQUIRE_THROWS_WITH(PageWaitTable(0), Catch::Contains("power of two"));
}

TEST_CASE("a page's wait queue follows its frame number and not where its descriptor lies", "[mm][page_lock]")
{
    // Two machines' memory at different host addresses (a block allocated
    // in between moves the second mem_map on): frame k of each is page k,
    // and both pages sleep on the same queue.
    sync::LockRegistry registry;
    FrameAllocator one(64, registry);
    const auto moved = std::make_unique<char[]>(1 << 16);
    FrameAllocator two(64, registry);
    PageWaitTable table_one, table_two;
    std::set<unsigned> queues;
    for (std::uint64_t k = 0; k < 64; ++k) {
        Page* a = one.alloc(0, k);
        Page* b = two.alloc(0, k);
        REQUIRE(a != nullptr);
        REQUIRE(b != nullptr);
        CHECK(a != b);
        CHECK(a->pfn == k); // fresh frames are handed out lowest first
        CHECK(b->pfn == k);
        CHECK(one.page_to_pfn(a) == k);
        CHECK(table_one.queue_index(*a) == table_two.queue_index(*b));
        queues.insert(table_one.queue_index(*a));
    }
    // hash_64 spreads neighbouring frames: 64 of them use 64 of the 256 queues.
    CHECK(queues.size() == 64);
    CHECK(*queues.rbegin() < 256);
    // A table of one queue: every page's.
    CHECK(PageWaitTable(1).queue_index(Page(0, 5)) == 0);
}

TEST_CASE("a NUMA machine's nodes number their frames one after another", "[mm][page_lock]")
{
    sync::LockRegistry registry;
    FrameAllocator node0(4, registry, 0), node1(4, registry, 4);
    Page* a = node0.alloc(0, 0);
    Page* b = node1.alloc(0, 0);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    CHECK(a->pfn == 0);
    CHECK(b->pfn == 4);
    CHECK(node1.page_to_pfn(b) == 4);
    CHECK(node1.first_pfn() == 4);
    // Frame numbers have 32 bits: a node past them is refused.
    CHECK_THROWS_WITH(FrameAllocator(2, registry, FrameAllocator::kMaxFrames - 1),
        Catch::Contains("memory_pages") && Catch::Contains("4294967295"));
}

TEST_CASE("a sleep on a page lock records the page's frame number", "[mm][page_lock]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(8, registry);
    for (pgoff_t i = 0; i < 3; ++i)
        REQUIRE(frames.alloc(2, i) != nullptr);
    Page* page = frames.alloc(2, 40); // frame 3
    REQUIRE(page != nullptr);
    REQUIRE(page->pfn == 3);
    PageWaitTable table;
    REQUIRE(PageWaitTable::trylock_page(*page));
    EventRing ring(64);
    std::thread sleeper([&] {
        trace::ThreadTrace trace(&ring, 1);
        table.lock_page(*page);
        table.unlock_page(*page);
    });
    while (page->lock_waiters.load() != 1)
        std::this_thread::yield();
    table.unlock_page(*page);
    sleeper.join();
    const std::vector<Event> events = test::drain(ring);
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == EventKind::PageLockWait);
    CHECK(events[1].kind == EventKind::PageLockWoken);
    for (const Event& e : events) {
        const ev::PageLockWait v { e }; // PageLockWoken begins with the same fields
        CHECK(v.page_id() == 3);
        CHECK(v.file() == 2);
        CHECK(v.page() == 40);
    }
}
