// core: runs in tiny memories complete. 1, 2 and 4 CPUs read their own
// 40-page files at random in 16, 32 and 48 frames, with every readahead
// policy, through read(2), mmap read faults, mmap write faults and
// write(2), on an instant disk, with kswapd and the per-CPU free lists and
// (one seed) without either: with 4 CPUs one reclaim batch (32 pages) can
// be all of memory, four readahead windows more than fill it, every
// allocation races other CPUs' reclaim, and the writers' dirty pages can be
// taken only once the flusher has written them. Nothing is pinned, so every
// run must complete; a run that fails says why in its error. After each
// run, the writeback invariants: no dirty page was evicted or lost
// unwritten, and the index's tags agree with the pages' flags.
#include "engine_test_support.h"
#include "sanitizer_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

using namespace pcl;

namespace {

/// After a run: the writes in flight complete, then every cached page's
/// flags agree with its tags and the counts, and every page dirtied was
/// written, truncated or is dirty still.
void check_writeback_invariants(Engine& engine)
{
    PageCache& cache = engine.page_cache();
    for (int i = 0; i < 10000 && cache.nr_writeback() > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(cache.nr_writeback() == 0);
    std::uint64_t dirty = 0;
    for (FileId f : engine.files()) {
        AddressSpace& as = cache.file(f);
        std::uint64_t file_dirty = 0;
        for (pgoff_t i = 0; i < as.size_pages; ++i) {
            Page* p = cache.find_get_page(f, i);
            if (!p)
                continue;
            INFO("file " << f << " page " << i);
            CHECK(p->test(PG_dirty) == as.index->test_tag(i, kTagDirty));
            CHECK_FALSE(p->test(PG_writeback));
            CHECK_FALSE(as.index->test_tag(i, kTagWriteback));
            CHECK_FALSE(as.index->test_tag(i, kTagTowrite));
            file_dirty += p->test(PG_dirty);
            cache.put_page(p);
        }
        CHECK(as.nr_dirty.load() == file_dirty);
        CHECK((as.dirtied_when_ns.load() != 0) == (file_dirty > 0));
        dirty += file_dirty;
    }
    const PageCacheStats s = cache.stats();
    CHECK(s.nr_dirty == dirty);
    CHECK(s.dirtied == s.written + s.cancelled_dirty + s.nr_dirty);
    std::uint64_t device_written = engine.device().pages_written();
    if (engine.second_device())
        device_written += engine.second_device()->pages_written();
    CHECK(device_written == s.written);
}

void every_run_completes(unsigned cpus)
{
    const std::uint64_t frames = GENERATE(16u, 32u, 48u);
    // Under a sanitizer the two ends of the range (16 frames, where one
    // batch is all of memory, and 48): the middle runs in the release
    // build, and CI's half hour has no room for it three times over.
    if (test::kSanitized && frames == 32)
        return;
    const char* access = GENERATE("read", "mmap_read", "mmap_write", "write");
    // Three seeds, 432 runs over the three CPU counts with kswapd, and 144
    // without: a failure of one run in twenty shows all but always. One
    // seed of each under a sanitizer.
    const std::uint64_t seeds = test::kSanitized ? 1 : 3;
    for (const char* readahead : { "none", "linux", "linux-2.6.32", "morton-2002" }) {
        for (std::uint64_t seed = 1; seed <= seeds + 1; ++seed) {
            // The last seed again, with direct reclaim only and every frame
            // through zone.lock.
            const bool background = seed <= seeds;
            INFO(cpus << " CPUs, " << frames << " frames, " << access << ", readahead " << readahead << ", seed "
                      << seed << (background ? "" : ", no kswapd, no per-CPU lists"));
            EngineConfig c = test::small_engine("random", cpus, 40, 400, access);
            c.workload.seed = background ? seed : seeds;
            c.reclaim.kswapd = background;
            c.reclaim.percpu_pagelists = background;
            c.memory_pages = frames;
            c.readahead = readahead;
            c.device.time_scale = 0;
            c.events = false; // counters are exact without the event stream
            test::EngineRun run(c);
            Engine& e = run.engine;
            INFO("last refusal: " << e.frames().last_failure().describe());
            CHECK(e.error() == "");
            CHECK(e.state() == Engine::State::Finished);
            CHECK(e.operations() == cpus * 400);
            CHECK(e.frames().failures() == 0);
            CHECK(e.frames().in_use() <= frames);
            CHECK(e.frames().in_transit() == 0);
            if (cpus * 40 > frames)
                CHECK(e.page_cache().stats().evictions > 0);
            check_writeback_invariants(e);
        }
    }
}

} // namespace

TEST_CASE("one CPU in a tiny memory completes every run", "[sim][engine][reclaim][tiny]")
{
    every_run_completes(1);
}

TEST_CASE("two CPUs in a tiny memory complete every run", "[sim][engine][reclaim][tiny]")
{
    every_run_completes(2);
}

TEST_CASE("four CPUs in a tiny memory complete every run", "[sim][engine][reclaim][tiny]")
{
    every_run_completes(4);
}

TEST_CASE("a dd writer in a memory smaller than its file writes every page back before it is evicted",
    "[sim][engine][writeback]")
{
    for (const char* model : { "ssd", "hdd" }) {
        INFO("device " << model);
        EngineConfig c = test::small_engine("sequential", 2, 512, 64, "write");
        c.workload.request_pages = 8; // 64 writes of 8 pages: the file once
        c.workload.fsync_every = 0;
        c.memory_pages = 64;
        c.device = BlockDeviceConfig::preset(model);
        c.device.time_scale = 0.001;
        c.events = false;
        test::EngineRun run(c);
        INFO(run.engine.error());
        REQUIRE(run.engine.state() == Engine::State::Finished);
        const PageCacheStats s = run.engine.page_cache().stats();
        CHECK(s.dirtied == 2 * 512);
        CHECK(s.evictions > 0);
        CHECK(s.written + s.nr_dirty + s.nr_writeback == 1024);
        check_writeback_invariants(run.engine);
        CHECK(s.cancelled_dirty == 0);
    }
}

TEST_CASE("fsync_every and sync_every: the disk has every page written before each returns", "[sim][engine][writeback]")
{
    EngineConfig c = test::small_engine("sequential", 2, 64, 66, "write");
    c.workload.fsync_every = 32; // 32 one-page writes, an fsync; twice
    c.memory_pages = 1024;
    c.events = false;
    test::EngineRun run(c);
    REQUIRE(run.engine.state() == Engine::State::Finished);
    CHECK(run.engine.writeback().stats().fsyncs == 4);
    // Each CPU wrote its 64 pages and synced them all.
    const PageCacheStats s = run.engine.page_cache().stats();
    CHECK(s.dirtied == 128);
    CHECK(s.nr_dirty == 0);
    CHECK(run.engine.device().pages_written() == 128);
}
