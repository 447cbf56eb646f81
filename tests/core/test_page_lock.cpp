// core/mm: page flags, references and the page lock's wait queues.
#include "base/page.h"
#include "mm/page_lock.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <deque>
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
