// core/mm: a file's page states read without references, exactly, and
// bounded, while other CPUs add and remove pages.
#include "index_spec_support.h"
#include "mm/page_cache.h"
#include "mm/page_state.h"
#include "page_cache_support.h"
#include "sync/rcu.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using namespace pcl;

namespace {

using test::kCacheIndexes;

/// Runs @body on a page cache of @frames frames over each index of
/// kCacheIndexes, each with a registry of its own, and waits out an RCU
/// grace period after each so that the pages it freed are back before its
/// frames go.
template <class Body> void for_each_cache(std::uint64_t frames, Body body)
{
    for (auto [kind, scheme] : kCacheIndexes) {
        CAPTURE(kind, scheme);
        sync::LockRegistry registry;
        FrameAllocator memory(frames, registry);
        {
            PageCache cache(test::cache_index_spec(kind, scheme), memory, registry);
            body(cache);
        }
        rcu::barrier();
    }
}

/// Adds page @index of @f, filled (uptodate, unlocked), with the caller's reference dropped.
Page* add_filled(PageCache& cache, FileId f, pgoff_t index)
{
    const PageCache::AddResult r = test::read_in(cache, f, index);
    REQUIRE(r.status == PageCache::AddStatus::Created);
    return r.page;
}

} // namespace

TEST_CASE("read_page_states: each page's presence, flags and count, exactly", "[mm][page_state]")
{
    for_each_cache(64, [&](PageCache& cache) {
        const FileId other = cache.add_file(100);
        const FileId f = cache.add_file(100);
        add_filled(cache, other, 3); // another file's page at the same offset is not this file's
        add_filled(cache, f, 3);
        Page* marker = add_filled(cache, f, 5);
        marker->set(PG_readahead);
        Page* dirty = add_filled(cache, f, 6);
        dirty->set(PG_dirty);
        // Page 8 stays locked and not uptodate, with the caller's reference: a read in flight.
        auto in_flight = cache.find_or_create_page(f, 8);
        REQUIRE(in_flight.status == PageCache::AddStatus::Created);
        add_filled(cache, f, 40); // beyond the range read

        std::vector<PageStateBits> out;
        read_page_states(cache, f, 2, 8, out);
        REQUIRE(out.size() == 8);
        const std::uint32_t lru = PG_lru;
        CHECK(out[0] == PageStateBits {});                                            // 2
        CHECK(out[1] == PageStateBits { true, PG_uptodate | lru, 1 });                // 3
        CHECK(out[2] == PageStateBits {});                                            // 4
        CHECK(out[3] == PageStateBits { true, PG_uptodate | PG_readahead | lru, 1 }); // 5
        CHECK(out[4] == PageStateBits { true, PG_uptodate | PG_dirty | lru, 1 });     // 6
        CHECK(out[5] == PageStateBits {});                                            // 7
        CHECK(out[6] == PageStateBits { true, PG_locked | lru, 2 });                  // 8
        CHECK(out[7] == PageStateBits {});                                            // 9

        // Reading changes nothing: no reference was taken.
        CHECK(marker->count.load() == 1);
        // Beyond the end of the file: nothing there.
        read_page_states(cache, f, 95, 10, out);
        CHECK(out == std::vector<PageStateBits>(10));

        in_flight.page->set(PG_uptodate);
        cache.page_locks().unlock_page(*in_flight.page);
        cache.put_page(in_flight.page);
    });
}

TEST_CASE("read_page_states: bad arguments name the field", "[mm][page_state]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(4, registry);
    PageCache cache(test::cache_index_spec("radix", "rcu"), frames, registry);
    cache.add_file(10);
    std::vector<PageStateBits> out;
    CHECK_THROWS_WITH(read_page_states(cache, 1, 0, 1, out), Catch::Contains("file"));
    CHECK_THROWS_WITH(read_page_states(cache, 0, 0, kMaxPageStateRead + 1, out), Catch::Contains("count"));
    CHECK_THROWS_WITH(read_page_states(cache, 0, ~pgoff_t(0), 2, out), Catch::Contains("first"));
    std::vector<PageStateSummary> sums;
    CHECK_THROWS_WITH(summarise_page_states(cache, 0, 0, 10, 0, 1, sums), Catch::Contains("columns"));
    CHECK_THROWS_WITH(summarise_page_states(cache, 0, 0, 10, 1, 0, sums), Catch::Contains("per_column"));
    CHECK_THROWS_WITH(summarise_page_states(cache, 0, 0, 10, 1, 4097, sums), Catch::Contains("per_column"));
}

TEST_CASE("summarise_page_states: whole runs when they fit, an even sample when not", "[mm][page_state]")
{
    for_each_cache(256, [&](PageCache& cache) {
        const FileId f = cache.add_file(1000);
        // Pages 0..99 cached; page 10 marked; page 50 dirty; page 80 being
        // written back (the flags alone: no device here).
        for (pgoff_t i = 0; i < 100; ++i)
            add_filled(cache, f, i);
        Page* p10 = cache.find_get_page(f, 10);
        p10->set(PG_readahead);
        cache.put_page(p10);
        Page* p50 = cache.find_get_page(f, 50);
        p50->set(PG_dirty);
        cache.put_page(p50);
        Page* p80 = cache.find_get_page(f, 80);
        p80->set(PG_writeback);

        std::vector<PageStateSummary> s;
        // 100 pages in 4 columns of 25, read whole (per_column 25).
        summarise_page_states(cache, f, 0, 100, 4, 25, s);
        REQUIRE(s.size() == 4);
        CHECK(s[0].first == 0);
        CHECK(s[0].pages == 25);
        CHECK(s[0].sampled == 25);
        CHECK(s[0].present == 25);
        CHECK(s[0].uptodate == 25);
        CHECK(s[0].readahead == 1);
        CHECK(s[0].dirty == 0);
        CHECK(s[0].max_count == 1);
        CHECK(s[2].first == 50);
        CHECK(s[2].dirty == 1);
        CHECK(s[2].writeback == 0);
        CHECK(s[2].readahead == 0);
        CHECK(s[3].under_io == 0);
        CHECK(s[3].dirty == 1); // under writeback counts as dirty
        CHECK(s[3].writeback == 1);
        p80->clear(PG_writeback);
        cache.put_page(p80);

        // Uneven split: 10 pages in 3 columns -> 3, 3, 4.
        summarise_page_states(cache, f, 95, 10, 3, 64, s);
        CHECK(s[0].first == 95);
        CHECK(s[0].pages == 3);
        CHECK(s[1].pages == 3);
        CHECK(s[2].first == 101);
        CHECK(s[2].pages == 4);
        CHECK(s[0].present == 3); // 95, 96, 97
        CHECK(s[1].present == 2); // 98, 99
        CHECK(s[2].present == 0);

        // The whole file in 2 columns of 500, sampled 10 per column: pages
        // 0, 50, 100 ... 450 and 500 ... 950. In column 0, 0 and 50 are cached.
        summarise_page_states(cache, f, 0, 1000, 2, 10, s);
        CHECK(s[0].sampled == 10);
        CHECK(s[0].present == 2);
        CHECK(s[0].dirty == 1); // page 50
        CHECK(s[1].sampled == 10);
        CHECK(s[1].present == 0);
        // More columns than pages: empty columns sample nothing.
        summarise_page_states(cache, f, 0, 2, 4, 8, s);
        CHECK(s[0].pages == 0);
        CHECK(s[0].sampled == 0);
        CHECK(s[1].pages == 1);
        CHECK(s[1].present == 1);
    });
}

TEST_CASE("read_page_states while other CPUs add and remove pages", "[mm][page_state][race]")
{
    // Frames enough that reclaim never runs (it would evict even pages too):
    // freed frames come back only after a grace period.
    for_each_cache(1 << 16, [&](PageCache& cache) {
        const FileId f = cache.add_file(512);
        // Even pages stay for the whole test; odd pages come and go.
        for (pgoff_t i = 0; i < 512; i += 2)
            add_filled(cache, f, i);
        std::atomic<bool> stop { false };
        std::vector<std::thread> writers;
        for (unsigned w = 0; w < 2; ++w)
            writers.emplace_back([&, w] {
                for (unsigned round = 0; !stop.load(std::memory_order_relaxed); ++round) {
                    for (pgoff_t i = 1 + 2 * w; i < 512; i += 4)
                        test::read_in(cache, f, i);
                    for (pgoff_t i = 1 + 2 * w; i < 512; i += 4)
                        cache.remove(f, i);
                    if (round > 200)
                        break;
                }
            });
        std::vector<PageStateBits> out;
        std::vector<PageStateSummary> sums;
        for (int pass = 0; pass < 200; ++pass) {
            read_page_states(cache, f, 0, 512, out);
            for (pgoff_t i = 0; i < 512; i += 2) {
                REQUIRE(out[i].present);
                REQUIRE(out[i].test(PG_uptodate));
                REQUIRE(out[i].count >= 1);
            }
            for (pgoff_t i = 1; i < 512; i += 2)
                REQUIRE((!out[i].present || out[i].count >= 0));
            summarise_page_states(cache, f, 0, 512, 8, 16, sums);
            for (const auto& s : sums)
                REQUIRE(s.present == s.sampled); // the sample (every 4th page) is all even pages
        }
        stop = true;
        for (auto& t : writers)
            t.join();
        REQUIRE(cache.stats().evictions == 0);
        // Quiet now: the odd pages are all gone, the even ones all there.
        read_page_states(cache, f, 0, 512, out);
        for (pgoff_t i = 0; i < 512; ++i)
            CHECK(out[i].present == (i % 2 == 0));
    });
}
