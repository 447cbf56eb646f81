// core/mm: the frame budget ("physical memory").
#include "mm/frame_allocator.h"

#include "base/cpu.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
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
    // Every allocation and free took the zone lock once; a refused
    // allocation twice (the fast path, then the slow path's look against
    // the min watermark, as __alloc_pages_slowpath looks again).
    const auto rows = registry.locks();
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].name == "zone.lock");
    CHECK(rows[0].acquisitions == 4 + 2 * 2 + 1 + 1);
    CHECK(frames.memory_bytes() == 4 * sizeof(Page));
}

TEST_CASE("frames are handed out lowest first, a freed one first again, through the zone and a CPU's list",
    "[mm][frames]")
{
    // The mem_map's struct pages are built when a frame is first handed out
    // (frames never used are not touched): the order is the zone's free
    // stack's all the same.
    sync::LockRegistry registry;
    FrameAllocator frames(1'000'000, registry);
    auto pfn = [&](Page* p) { return p ? std::int64_t(frames.page_to_pfn(p)) : -1; };
    Page* a = frames.alloc(1, 0);
    Page* b = frames.alloc(1, 1);
    Page* c = frames.alloc(1, 2);
    CHECK(pfn(a) == 0);
    CHECK(pfn(b) == 1);
    CHECK(pfn(c) == 2);
    frames.free(b);
    CHECK(pfn(frames.alloc(1, 3)) == 1); // the hot frame
    CHECK(pfn(frames.alloc(1, 4)) == 3); // then the next never used
    CHECK(frames.free_frames() == 1'000'000 - 4);
    CHECK(frames.zone_free() == 1'000'000 - 4);

    // A CPU's list is filled a batch at a time from the top of the stack:
    // the hot frames freed to the zone, then the next never used, lowest
    // handed out first.
    FrameAllocator listed(64, registry);
    listed.configure({ 0, 0, 0 }, { 4, 8 }, 1);
    const CpuScope cpu0(0);
    std::vector<std::int64_t> got;
    std::vector<Page*> pages;
    for (int i = 0; i < 6; ++i) {
        pages.push_back(listed.alloc(2, pgoff_t(i)));
        got.push_back(std::int64_t(listed.page_to_pfn(pages.back())));
    }
    CHECK(got == std::vector<std::int64_t> { 0, 1, 2, 3, 4, 5 });
    CHECK(listed.zone_free() == 64 - 8); // two batches of 4 left the zone
    CHECK(listed.free_frames() == 64 - 6);
    // Freed to the CPU's list and taken again, every frame is handed out
    // once and only once, the never used ones included.
    for (Page* p : pages)
        listed.free(p);
    CHECK(listed.free_frames() == 64);
    std::set<Page*> all;
    for (int i = 0; i < 64; ++i)
        all.insert(listed.alloc(3, pgoff_t(i)));
    CHECK(all.size() == 64);
    CHECK(all.count(nullptr) == 0);
    CHECK(listed.alloc(3, 64) == nullptr);
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
    CHECK(frames.in_transit() == 2);
    frames.settle(2); // both on an LRU list: reclaim can see them
    CHECK(frames.in_transit() == 0);
    int calls = 0;
    frames.set_reclaim([&] {
        ReclaimOutcome o;
        if (++calls == 1) {
            frames.unsettle(); // isolated
            a->count.store(0);
            frames.free(a); // what evicting a page does
            o.reclaimed = 1;
        }
        return o;
    });
    Page* c = frames.alloc(0, 2);
    CHECK(c == a); // the frame reclaim freed
    CHECK(c->index == 2);
    CHECK(calls == 1);
    CHECK(frames.reclaims() == 1);
    CHECK(frames.failures() == 0);
    frames.settle();
    // Reclaim found nothing, nothing is in transit, under I/O or held: out
    // of memory once a second pass, a wait later, confirms it, and what
    // pins the frames is said.
    CHECK(frames.alloc(0, 3) == nullptr);
    CHECK(calls == 3);
    CHECK(frames.reclaims() == 3);
    CHECK(frames.failures() == 1);
    CHECK(frames.stalls() == 1);
    const OomReport why = frames.last_failure();
    CHECK_FALSE(why.stalled);
    CHECK(why.pinned == 2); // on no list: what anonymous pages are
    CHECK(why.describe()
        == "every one of the 2 frames is pinned: 2 anonymous, which are never reclaimed (there is no swap)");
    // A frame on its way back through RCU is waited for, not reclaimed for.
    frames.unsettle(); // its last reference went: off the lists
    b->count.store(0);
    frames.free_rcu(b);
    Page* d = frames.alloc(0, 4);
    CHECK(d == b);
    CHECK(calls == 3);
    // With no reclaim, nothing can come back but frees: refused at once.
    frames.set_reclaim({});
    CHECK(frames.alloc(0, 5) == nullptr);
    CHECK(frames.reclaims() == 3);
    CHECK(frames.failures() == 2);
    for (Page* p : { c, d }) {
        p->count.store(0);
        frames.free(p);
    }
    CHECK(frames.in_use() == 0);
    CHECK(frames.in_transit() == 0);
}

TEST_CASE("a reclaim that frees nothing looks again when another CPU gave a frame back", "[mm][frames][reclaim]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(1, registry);
    Page* a = frames.alloc(0, 0);
    REQUIRE(a);
    frames.settle();
    // This CPU's reclaim finds nothing to evict, but meanwhile another CPU
    // (its own reclaim, or a put of the last reference) frees the frame.
    int calls = 0;
    frames.set_reclaim([&] {
        if (++calls == 1) {
            frames.unsettle();
            a->count.store(0);
            frames.free(a);
        }
        return ReclaimOutcome {};
    });
    Page* b = frames.alloc(0, 1);
    CHECK(b == a);
    CHECK(calls == 1);
    CHECK(frames.failures() == 0);
    frames.settle();
    // Nobody frees anything: refused after two more passes.
    CHECK(frames.alloc(0, 2) == nullptr);
    CHECK(calls == 3);
    CHECK(frames.failures() == 1);
    b->count.store(0);
    frames.unsettle();
    frames.free(b);
}

TEST_CASE("frames in another CPU's hands are waited for, not refused", "[mm][frames][reclaim]")
{
    FrameAllocator frames(1);
    Page* a = frames.alloc(0, 0);
    REQUIRE(a);
    // In transit: allocated by another CPU, not yet on a list. Reclaim
    // finds nothing, but the frame will settle or come back.
    frames.set_reclaim([] { return ReclaimOutcome {}; });
    std::thread other([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        a->count.store(0);
        frames.free(a); // its insert lost a race: straight back
    });
    Page* b = frames.alloc(0, 1);
    other.join();
    CHECK(b == a);
    CHECK(frames.failures() == 0);
    CHECK(frames.stalls() >= 1);
    b->count.store(0);
    frames.free(b);
}

TEST_CASE("pages under read I/O are waited for as long as it takes", "[mm][frames][reclaim]")
{
    FrameAllocator frames(1);
    Page* a = frames.alloc(0, 0);
    REQUIRE(a);
    frames.settle();
    // Reclaim finds the one page locked with a read in flight, for longer
    // than kMaxReclaimRetries waits and the quarter second brief holds get,
    // then the read completes and the page can go.
    const auto start = std::chrono::steady_clock::now();
    unsigned calls = 0;
    frames.set_reclaim([&] {
        ++calls;
        ReclaimOutcome o;
        if (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(400)) {
            o.locked = o.under_io = o.lru_pages = 1;
        } else {
            frames.unsettle();
            a->count.store(0);
            frames.free(a);
            o.reclaimed = 1;
        }
        return o;
    });
    Page* b = frames.alloc(0, 1);
    CHECK(b == a);
    CHECK(calls > FrameAllocator::kMaxReclaimRetries + 1);
    CHECK(frames.failures() == 0);
    b->count.store(0);
    frames.free(b);
}

TEST_CASE("pages CPUs only hold for a moment are retried, then refused", "[mm][frames][reclaim]")
{
    FrameAllocator frames(1);
    Page* a = frames.alloc(0, 0);
    REQUIRE(a);
    frames.settle();
    unsigned calls = 0;
    frames.set_reclaim([&] {
        ++calls;
        ReclaimOutcome o;
        o.in_use = o.lru_pages = 1; // a reference nobody gives back
        return o;
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK(frames.alloc(0, 1) == nullptr);
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(250));
    CHECK(calls > FrameAllocator::kMaxReclaimRetries + 1);
    CHECK(frames.failures() == 1);
    const OomReport why = frames.last_failure();
    CHECK(why.pinned == 0);
    CHECK(why.describe() == "the only frame is pinned: 1 held by CPUs");
    // Readahead's allocation reclaims once and never waits; its refusal is
    // not a failure of the run.
    const std::uint64_t stalls = frames.stalls();
    calls = 0;
    CHECK(frames.alloc(0, 2, Gfp::NoRetry) == nullptr);
    CHECK(calls == 1);
    CHECK(frames.stalls() == stalls);
    CHECK(frames.failures() == 1);
    a->count.store(0);
    frames.unsettle();
    frames.free(a);
}
