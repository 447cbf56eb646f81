// core/mm: the zone's watermarks, kswapd and the per-CPU free lists - the
// watermarks as Linux computes them, allocations that stop at the min
// watermark, kswapd woken at the low one and stopping past the high one,
// kswapd giving up and coming back, the per-CPU lists' batches counted in
// zone.lock acquisitions, a starved CPU draining the others' lists, and in
// an engine run, reclaim done by kswapd instead of the faulting CPU.
#include "eventually.h"
#include "mm/frame_allocator.h"
#include "mm/kswapd.h"
#include "mm/reclaim_config.h"

#include "engine_test_support.h"
#include "lock_stat_support.h"
#include "sanitizer_support.h"

#include "base/cpu.h"
#include "lib/field_error.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace pcl;
using test::eventually;

namespace {

/// Frames held as if cached: a reclaim pass hands back one at a time.
struct Held {
    FrameAllocator& frames;
    std::mutex mutex;
    std::vector<Page*> pages;

    void take(Page* p)
    {
        frames.settle();
        std::lock_guard g(mutex);
        pages.push_back(p);
    }
    ReclaimOutcome reclaim_one()
    {
        ReclaimOutcome o;
        std::lock_guard g(mutex);
        if (pages.empty())
            return o;
        Page* p = pages.back();
        pages.pop_back();
        frames.unsettle();
        frames.free(p);
        o.reclaimed = o.scanned = 1;
        return o;
    }
};

} // namespace

TEST_CASE("watermarks are those Linux computes at boot, scaled for tiny memories", "[mm][watermarks]")
{
    ReclaimConfig c;
    // 1 GB: min_free_kbytes = sqrt(16 x 1048576) = 4096 KB; the step is
    // 0.1% of memory (262 pages), above a quarter of min (256).
    Watermarks w = c.watermarks(262'144);
    CHECK(w.min == 1024);
    CHECK(w.low == 1024 + 262);
    CHECK(w.high == 1024 + 524);
    // 16 GB: 16384 KB.
    CHECK(c.watermarks(std::uint64_t(1) << 22).min == 4096);
    // Far above 256 GB the clamp holds min_free_kbytes at 256 MB.
    CHECK(c.watermarks(std::uint64_t(1) << 32).min == 65'536);
    // 4 MB: Linux's 128 KB floor would be 32 pages, an eighth of memory;
    // here at most a 32nd.
    w = c.watermarks(1024);
    CHECK(w.min == 32);
    CHECK(w.low == 40);
    CHECK(w.high == 48);
    // Tiny memories: a page apart from 16 pages on, nothing below.
    w = c.watermarks(16);
    CHECK((w.min == 0 && w.low == 1 && w.high == 2));
    w = c.watermarks(48);
    CHECK((w.min == 1 && w.low == 2 && w.high == 3));
    w = c.watermarks(8);
    CHECK((w.min == 0 && w.low == 0 && w.high == 0));
    // An explicit reserve, and a wider step.
    c.min_free_kbytes = 4096;
    c.watermark_scale_factor = 1000;
    w = c.watermarks(65'536);
    CHECK(w.min == 1024);
    CHECK(w.low == 1024 + 6553);
    CHECK(w.high == 1024 + 2 * 6553);
    // Never the whole memory.
    c.min_free_kbytes = 0;
    c.watermark_scale_factor = 3000;
    w = c.watermarks(20);
    CHECK(w.high <= 19);
    CHECK(w.min <= w.low);
    CHECK(w.low <= w.high);
}

TEST_CASE("bad reclaim settings are refused naming the field", "[mm][watermarks]")
{
    ReclaimConfig c;
    c.watermark_scale_factor = 0;
    try {
        c.validate(1024);
        FAIL("scale factor 0 accepted");
    } catch (const FieldError& e) {
        CHECK(e.field() == "watermark_scale_factor");
    }
    c.watermark_scale_factor = 10;
    c.min_free_kbytes = 1025; // a quarter of 4 MB is 1024 KB
    try {
        c.validate(1024);
        FAIL("a reserve above a quarter of memory accepted");
    } catch (const FieldError& e) {
        CHECK(e.field() == "min_free_kbytes");
        CHECK(std::string(e.what()).find("1024 KB") != std::string::npos);
    }
    c.min_free_kbytes = 1024;
    CHECK_NOTHROW(c.validate(1024));
    EngineConfig engine = test::small_engine("sequential", 1, 16, 16);
    engine.reclaim.min_free_kbytes = 1 << 30;
    try {
        engine.validate();
        FAIL("engine accepted the reserve");
    } catch (const FieldError& e) {
        CHECK(e.field() == "reclaim.min_free_kbytes");
    }
}

TEST_CASE("per-CPU lists are sized as zone_batchsize and zone_highsize, within an eighth of memory", "[mm][pcp]")
{
    ReclaimConfig c;
    // 256 MB: a quarter of 64 pages is 16, as 2^n - 1: 15.
    PcpSizing p = c.pcp_sizing(65'536, 2, 640);
    CHECK(p.batch == 15);
    CHECK(p.high == 320); // the low watermark shared by 2 CPUs
    // The high mark is at least four batches.
    CHECK(c.pcp_sizing(65'536, 64, 640).high == 60);
    // A tiny memory: at most an eighth of it over all CPUs, or none.
    p = c.pcp_sizing(48, 1, 2);
    CHECK((p.batch == 1 && p.high == 4));
    CHECK(c.pcp_sizing(16, 4, 1).high == 0);
    c.percpu_pagelists = false;
    CHECK(c.pcp_sizing(65'536, 2, 640).high == 0);
}

TEST_CASE("allocations stop at the min watermark, and the refusal names the reserve", "[mm][watermarks]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(16, registry);
    frames.configure({ 2, 4, 6 }, {}, 0);
    std::vector<Page*> pages;
    while (Page* p = frames.alloc(0, pages.size()))
        pages.push_back(p);
    CHECK(pages.size() == 14);
    CHECK(frames.zone_free() == 2);
    CHECK(frames.failures() == 1);
    CHECK(frames.last_failure().reserve == 2);
    CHECK(frames.last_failure().describe().find("2 free ones kept in reserve under the min watermark")
        != std::string::npos);
    for (Page* p : pages)
        frames.free(p);
    CHECK(frames.zone_free() == 16);
}

TEST_CASE("kswapd wakes at the low watermark and reclaims until the zone is past the high one", "[mm][kswapd]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(64, registry);
    frames.configure({ 4, 8, 12 }, {}, 0);
    Held held { frames, {}, {} };
    std::atomic<int> direct { 0 };
    frames.set_reclaim([&] {
        ++direct;
        return held.reclaim_one();
    });
    Kswapd kswapd(frames, [&] { return held.reclaim_one(); });
    frames.set_kswapd(&kswapd);
    kswapd.start();
    // Down to the low watermark: every allocation on the fast path.
    for (int i = 0; i < 56; ++i)
        held.take(frames.alloc(0, i));
    CHECK(frames.zone_free() == 8);
    CHECK(kswapd.stats().wakeups == 0);
    // The next finds the zone at the low mark: it wakes kswapd and takes a
    // frame above the min one.
    held.take(frames.alloc(0, 56));
    CHECK(eventually([&] { return !kswapd.awake() && kswapd.stats().runs == 1 && frames.zone_free() >= 12; }));
    // One page a pass, and not one more than past the high mark: 13 free
    // at kswapd's last look, 12 if the waking allocation took its frame
    // after that look (5 passes from 8), 13 if before (6 passes from 7).
    const std::uint64_t reclaimed = kswapd.stats().reclaimed;
    CHECK((reclaimed == 5 || reclaimed == 6));
    CHECK(frames.zone_free() == 7 + reclaimed);
    CHECK(kswapd.stats().wakeups == 1);
    CHECK(kswapd.stats().passes == reclaimed);
    CHECK(direct.load() == 0);
    CHECK(frames.reclaims() == 0);
    kswapd.stop();
    frames.set_kswapd(nullptr);
    frames.set_reclaim({});
    for (Page* p : held.pages)
        frames.free(p);
}

TEST_CASE("kswapd gives up after passes that free nothing, and helps again once direct reclaim frees", "[mm][kswapd]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(32, registry);
    frames.configure({ 2, 4, 6 }, {}, 0);
    Held held { frames, {}, {} };
    std::atomic<bool> can_free { false };
    frames.set_reclaim([&] { return can_free ? held.reclaim_one() : ReclaimOutcome {}; });
    Kswapd kswapd(frames, [&] { return can_free ? held.reclaim_one() : ReclaimOutcome {}; });
    frames.set_kswapd(&kswapd);
    kswapd.start();
    for (int i = 0; i < 29; ++i) // 3 free: under the low mark
        held.take(frames.alloc(0, i));
    CHECK(eventually([&] { return kswapd.stats().gave_up == 1; }));
    CHECK(kswapd.stats().passes == Kswapd::kMaxReclaimRetries);
    CHECK_FALSE(kswapd.awake());
    // Given up, it ignores wakeups.
    held.take(frames.alloc(0, 29));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(kswapd.stats().wakeups == 1);
    // A direct reclaim that frees a page lets it help again.
    can_free = true;
    held.take(frames.alloc(0, 30)); // 2 free, the min: this one reclaims for itself
    CHECK(frames.reclaims() >= 1);
    held.take(frames.alloc(0, 31)); // wakes kswapd again (if its own look after giving up did not already)
    INFO("wakeups " << kswapd.stats().wakeups << ", runs " << kswapd.stats().runs << ", passes "
                    << kswapd.stats().passes << ", gave up " << kswapd.stats().gave_up << ", zone free "
                    << frames.zone_free());
    // Past the high mark, less the frame the allocation that woke it may
    // have taken after kswapd's last look.
    CHECK(eventually([&] { return kswapd.stats().wakeups >= 2 && !kswapd.awake() && frames.zone_free() >= 6; }));
    kswapd.stop();
    frames.set_kswapd(nullptr);
    frames.set_reclaim({});
    for (Page* p : held.pages)
        frames.free(p);
}

TEST_CASE("a CPU's free list takes zone.lock once a batch, not once a page", "[mm][pcp]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(64, registry);
    frames.configure({}, { 4, 8 }, 2);
    std::vector<Page*> pages;
    {
        CpuScope cpu(0);
        const std::uint64_t before = test::class_acquisitions(registry, "zone.lock");
        for (int i = 0; i < 32; ++i)
            pages.push_back(frames.alloc(0, i));
        CHECK(test::class_acquisitions(registry, "zone.lock") - before == 8); // 8 batches of 4
        CHECK(test::class_acquisitions(registry, "pcp.lock") == 32);
        CHECK(frames.pcp_refills() == 8);
        CHECK(frames.pcp_free() == 0);
        CHECK(frames.zone_free() == 32);
        // Freed on the same CPU: past 8 on the list, the 4 coldest go back.
        const std::uint64_t before_free = test::class_acquisitions(registry, "zone.lock");
        for (Page* p : pages)
            frames.free(p);
        CHECK(frames.pcp_spills() == 6); // at the 9th, 13th ... 29th free
        CHECK(test::class_acquisitions(registry, "zone.lock") - before_free == 6);
        CHECK(frames.pcp_free() == 8);
        CHECK(frames.zone_free() == 56);
        CHECK(frames.free_frames() == 64);
    }
    // A thread that is no simulated CPU uses the zone itself.
    const std::uint64_t before = test::class_acquisitions(registry, "pcp.lock");
    Page* p = frames.alloc(0, 0);
    frames.free(p);
    CHECK(test::class_acquisitions(registry, "pcp.lock") == before);
    CHECK(frames.drain_all_pages() == 8);
    CHECK(frames.pcp_free() == 0);
    CHECK(frames.zone_free() == 64);
}

TEST_CASE("an allocation that finds the zone empty takes the frames other CPUs' lists hold", "[mm][pcp]")
{
    sync::LockRegistry registry;
    FrameAllocator frames(16, registry);
    frames.configure({}, { 4, 8 }, 2);
    std::vector<Page*> pages;
    {
        CpuScope cpu(0);
        pages.push_back(frames.alloc(0, 0)); // CPU 0's list keeps 3
    }
    {
        CpuScope cpu(1);
        while (Page* p = frames.alloc(1, pages.size()))
            pages.push_back(p);
    }
    CHECK(pages.size() == 16); // every frame, the last three from CPU 0's list
    CHECK(frames.pcp_drains() == 1);
    CHECK(frames.failures() == 1);
    CHECK(std::set<Page*>(pages.begin(), pages.end()).size() == 16);
    for (Page* p : pages)
        frames.free(p);
    CHECK(frames.free_frames() == 16);
}

TEST_CASE("CPUs allocating and freeing through their lists never share a frame", "[mm][pcp][stress]")
{
    sync::LockRegistry registry;
    constexpr unsigned kCpus = 4;
    FrameAllocator frames(64, registry);
    frames.configure({ 2, 4, 6 }, { 3, 6 }, kCpus);
    std::atomic<int> owner_errors { 0 };
    std::atomic<std::uint64_t> allocated { 0 };
    const int rounds = test::kSanitized ? 2000 : 20000;
    std::vector<std::thread> threads;
    for (unsigned cpu = 0; cpu < kCpus; ++cpu)
        threads.emplace_back([&, cpu] {
            CpuScope scope(static_cast<int>(cpu));
            std::mt19937 rng(cpu);
            std::vector<Page*> mine;
            for (int i = 0; i < rounds; ++i) {
                if (mine.size() < 12 && rng() % 2) {
                    if (Page* p = frames.alloc(FileId(cpu), pgoff_t(i))) {
                        mine.push_back(p);
                        allocated.fetch_add(1);
                    }
                } else if (!mine.empty()) {
                    Page* p = mine.back();
                    mine.pop_back();
                    if (p->mapping != FileId(cpu))
                        ++owner_errors; // another CPU was given the frame meanwhile
                    frames.free(p);
                }
                for (Page* p : mine)
                    if (p->mapping != FileId(cpu))
                        ++owner_errors;
            }
            for (Page* p : mine)
                frames.free(p);
        });
    for (auto& t : threads)
        t.join();
    CHECK(owner_errors.load() == 0);
    CHECK(allocated.load() > 0);
    CHECK(frames.in_use() == 0);
    CHECK(frames.zone_free() + frames.pcp_free() == 64);
    CHECK(frames.in_transit() == 0);
}

TEST_CASE("under memory pressure at a pace kswapd keeps up with, kswapd does the reclaiming", "[sim][kswapd]")
{
    // One CPU reads a file eight times memory, sequentially, at 1000 pages a
    // second; the watermarks 25 pages apart (10% of memory) leave kswapd 25
    // ms to free a batch before the CPU would reach the min watermark. Under
    // a sanitizer kswapd's reclaim runs several times slower (ThreadSanitizer
    // beside three other tests on two cores: 86% of the evictions, CI at
    // b206bf1), so the pace it keeps up with is a quarter: 100 ms a batch.
    EngineConfig c = test::small_engine("sequential", 1, 2048, 1500);
    c.memory_pages = 256;
    c.reclaim.watermark_scale_factor = 1000;
    c.ops_per_second = test::kSanitized ? 250 : 1000;
    c.device.time_scale = 0;
    c.events = false;
    SECTION("with kswapd")
    {
        test::EngineRun run(c);
        Engine& e = run.engine;
        REQUIRE(e.error() == "");
        const PageCacheStats s = e.page_cache().stats();
        REQUIRE(e.kswapd());
        const KswapdStats k = e.kswapd()->stats();
        CHECK(s.evictions >= 1500 - 256);
        CHECK(k.reclaimed <= s.evictions);
        // A stall of the machine may force a direct reclaim or two.
        CHECK(k.reclaimed * 10 >= s.evictions * 9);
        CHECK(k.wakeups >= 1);
    }
    SECTION("without")
    {
        c.reclaim.kswapd = false;
        test::EngineRun run(c);
        Engine& e = run.engine;
        REQUIRE(e.error() == "");
        CHECK_FALSE(e.kswapd());
        const PageCacheStats s = e.page_cache().stats();
        CHECK(s.evictions >= 1500 - 256);
        CHECK(s.direct_reclaims > 0);
    }
}
