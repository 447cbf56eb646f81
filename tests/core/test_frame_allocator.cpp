// core/mm: the frame budget ("physical memory").
#include "mm/frame_allocator.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

using namespace pcl;

TEST_CASE("frames run out, are counted, and come back", "[mm][frames]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(4, registry);
    CHECK(frames.total() == 4);
    std::vector<Page*> pages;
    for (pgoff_t i = 0; i < 4; ++i) {
        Page* p = frames.alloc(2, i);
        REQUIRE(p);
        CHECK(p->mapping == 2);
        CHECK(p->index == i);
        CHECK(p->count.load() == 1);
        CHECK(p->flags.load() == 0);
        pages.push_back(p);
    }
    CHECK(std::set<Page*>(pages.begin(), pages.end()).size() == 4);
    CHECK(frames.in_use() == 4);
    CHECK(frames.free_frames() == 0);
    CHECK(frames.alloc(2, 99) == nullptr);
    CHECK(frames.alloc(2, 100) == nullptr);
    CHECK(frames.failures() == 2);
    // A freed frame is handed out again, as a new page.
    pages[1]->set(PG_dirty);
    pages[1]->lock_waits.store(5);
    frames.free(pages[1]);
    CHECK(frames.free_frames() == 1);
    Page* again = frames.alloc(7, 1000);
    CHECK(again == pages[1]);
    CHECK(again->mapping == 7);
    CHECK(again->index == 1000);
    CHECK(again->flags.load() == 0);
    CHECK(again->lock_waits.load() == 0);
    // Every allocation and free took the zone lock once.
    const auto rows = registry.locks();
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].name == "zone.lock");
    CHECK(rows[0].acquisitions == 4 + 2 + 1 + 1);
    CHECK(frames.memory_bytes() == 4 * sizeof(Page));
}

TEST_CASE("bad frame budgets and foreign pages are refused", "[mm][frames]")
{
    REQUIRE_THROWS_WITH(FrameAllocator(0), Catch::Contains("memory_pages"));
    FrameAllocator frames(2);
    Page stranger(0, 0);
    CHECK_FALSE(frames.owns(&stranger));
    REQUIRE_THROWS_WITH(frames.free(&stranger), Catch::Contains("not one of this allocator's frames"));
}

TEST_CASE("concurrent CPUs never get the same frame twice", "[mm][frames][stress]")
{
    FrameAllocator frames(64);
    std::atomic<long> doubled { 0 }, refused { 0 };
    std::vector<std::atomic<int>> owner(64);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            std::vector<Page*> mine;
            for (int i = 0; i < 20000; ++i) {
                if (mine.size() < 24 && (i % 3)) {
                    Page* p = frames.alloc(FileId(t), pgoff_t(i));
                    if (!p) {
                        ++refused;
                        continue;
                    }
                    // The frame must have been free: nobody else holds it.
                    doubled += owner[frames.page_to_pfn(p)].exchange(t + 1) != 0;
                    mine.push_back(p);
                } else if (!mine.empty()) {
                    Page* p = mine.back();
                    mine.pop_back();
                    owner[frames.page_to_pfn(p)].store(0);
                    frames.free(p);
                }
            }
            for (Page* p : mine) {
                owner[frames.page_to_pfn(p)].store(0);
                frames.free(p);
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(doubled.load() == 0);
    CHECK(frames.in_use() == 0);
    CHECK(frames.free_frames() == 64);
    CHECK(frames.failures() == std::uint64_t(refused.load()));
}

TEST_CASE("with no frame free, alloc reclaims and retries while reclaim frees some", "[mm][frames][reclaim]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(2, registry);
    Page* a = frames.alloc(0, 0);
    Page* b = frames.alloc(0, 1);
    REQUIRE(a);
    REQUIRE(b);
    int calls = 0;
    frames.set_reclaim([&]() -> std::uint64_t {
        ++calls;
        if (calls == 1) {
            a->count.store(0);
            frames.free(a); // what evicting a page does
            return 1;
        }
        return 0;
    });
    Page* c = frames.alloc(0, 2);
    CHECK(c == a); // the frame reclaim freed
    CHECK(c->index == 2);
    CHECK(calls == 1);
    CHECK(frames.reclaims() == 1);
    CHECK(frames.failures() == 0);
    CHECK(frames.alloc(0, 3) == nullptr); // reclaim freed nothing: refused
    CHECK(calls == 2);
    CHECK(frames.reclaims() == 2);
    CHECK(frames.failures() == 1);
    // A frame on its way back through RCU is waited for, not reclaimed for.
    b->count.store(0);
    frames.free_rcu(b);
    Page* d = frames.alloc(0, 4);
    CHECK(d == b);
    CHECK(calls == 2);
    frames.set_reclaim({});
    CHECK(frames.alloc(0, 5) == nullptr);
    CHECK(frames.reclaims() == 3);
    CHECK(frames.failures() == 2);
    for (Page* p : { c, d }) {
        p->count.store(0);
        frames.free(p);
    }
    CHECK(frames.in_use() == 0);
}

TEST_CASE("a reclaim that frees nothing looks again when another CPU gave a frame back", "[mm][frames][reclaim]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(1, registry);
    Page* a = frames.alloc(0, 0);
    REQUIRE(a);
    // This CPU's reclaim finds nothing to evict, but meanwhile another CPU
    // (its own reclaim, or a put of the last reference) frees the frame.
    int calls = 0;
    frames.set_reclaim([&]() -> std::uint64_t {
        if (++calls == 1) {
            a->count.store(0);
            frames.free(a);
        }
        return 0;
    });
    Page* b = frames.alloc(0, 1);
    CHECK(b == a);
    CHECK(calls == 1);
    CHECK(frames.failures() == 0);
    // Nobody frees anything: refused after one more reclaim.
    CHECK(frames.alloc(0, 2) == nullptr);
    CHECK(calls == 2);
    CHECK(frames.failures() == 1);
    b->count.store(0);
    frames.free(b);
}
