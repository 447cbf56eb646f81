// core/mm: writeback - dirty accounting, write_cache_pages, the flusher,
// balance_dirty_pages, fsync, and reclaim waiting for writeback; the
// tiny-memory matrix of every access kind and readahead policy.
#include "engine_test_support.h"
#include "eventually.h"
#include "index_spec_support.h"
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "mm/writeback.h"
#include "sim/engine.h"
#include "sync/rcu.h"
#include "test_machine.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

using namespace pcl;
using test::eventually;

namespace {

/// One file of 256 pages in a page cache with a disk and writeback.
struct WritebackRig {
    explicit WritebackRig(std::uint64_t frames = 1024, BlockDeviceConfig disk = { 20'000, 1'000, 1.0 },
        WritebackConfig wb = {}, IndexSpec spec = test::index_spec("radix", "rcu"))
        : memory(frames, registry)
        , cache(spec, memory, registry)
        , table(PageTable::Config { PageTable::Scheme::Split, 0 }, registry)
        , device(disk, cache.page_locks())
        , faults(cache, table, device, none)
        , writeback(cache, device, wb)
    {
        file = cache.add_file(256);
        faults.set_writeback(&writeback);
        // The file is mapped at virtual page = page offset.
        cache.set_try_to_unmap([this](Page& p) {
            Page* mapped = table.unmap(p.index);
            if (mapped != &p) {
                if (mapped)
                    table.install(p.index, mapped);
                return false;
            }
            cache.put_page(mapped);
            return true;
        });
    }
    ~WritebackRig()
    {
        writeback.stop();
        for (std::uint64_t v = 0; v < 256; ++v)
            if (Page* p = table.unmap(v))
                cache.put_page(p);
    }
    /// The cached page at @index (the cache keeps it), or null.
    Page* page(pgoff_t index)
    {
        Page* p = cache.find_get_page(file, index);
        if (p)
            cache.put_page(p);
        return p;
    }
    /// Every cached page's dirty and writeback flags agree with its tags,
    /// no page is towrite-tagged, and the counts are the flags'.
    void check_tags_match_flags()
    {
        AddressSpace& as = cache.file(file);
        std::uint64_t dirty = 0, writeback_pages = 0;
        for (pgoff_t i = 0; i < 256; ++i) {
            Page* p = page(i);
            if (!p)
                continue;
            INFO("page " << i);
            CHECK(p->test(PG_dirty) == as.index->test_tag(i, kTagDirty));
            CHECK(p->test(PG_writeback) == as.index->test_tag(i, kTagWriteback));
            CHECK_FALSE(as.index->test_tag(i, kTagTowrite));
            dirty += p->test(PG_dirty);
            writeback_pages += p->test(PG_writeback);
        }
        CHECK(as.nr_dirty.load() == dirty);
        CHECK(as.nr_writeback.load() == writeback_pages);
        // A dirty file is dated (periodic writeback ages it by that date).
        CHECK((as.dirtied_when_ns.load() != 0) == (dirty > 0));
        CHECK(cache.nr_dirty() == dirty);
        CHECK(cache.nr_writeback() == writeback_pages);
        CHECK(as.index->tagged(kTagDirty) == (dirty > 0));
    }

    sync::LockRegistry registry;
    FrameAllocator memory;
    PageCache cache;
    PageTable table;
    NoReadahead none;
    BlockDevice device;
    FaultHandler faults;
    Writeback writeback;
    FileId file = 0;
};

/// A configuration whose flusher only runs when asked: no background
/// threshold is reached in 1024 frames by a few pages, no period.
WritebackConfig quiet()
{
    WritebackConfig c;
    c.writeback_interval_ms = 0;
    return c;
}

} // namespace

TEST_CASE("write(2) dirties and counts each page once, and tags it", "[mm][writeback]")
{
    WritebackRig m(1024, { 20'000, 1'000, 1.0 }, quiet());
    REQUIRE(m.faults.write(m.file, 0, 10).ok);
    REQUIRE(m.faults.write(m.file, 5, 10).ok); // pages 5..9 again: dirty already
    CHECK(m.cache.nr_dirty() == 15);
    CHECK(m.cache.stats().dirtied == 15);
    CHECK(m.cache.file(m.file).dirtied_when_ns.load() > 0);
    m.check_tags_match_flags();
    CHECK(m.device.pages_written() == 0); // nothing asked for writeback yet
}

TEST_CASE("dirty and writeback pages are counted per file and per disk", "[mm][writeback]")
{
    WritebackRig m(1024, { 20'000, 1'000, 1.0 }, quiet());
    BlockDevice second({ 20'000, 1'000, 1.0 }, m.cache.page_locks());
    const FileId other = m.cache.add_file(64);
    m.writeback.set_device(other, second);
    REQUIRE(m.faults.write(m.file, 0, 10).ok);
    REQUIRE(m.faults.write(other, 0, 6).ok);
    CHECK(m.cache.file(m.file).nr_dirty.load() == 10);
    CHECK(m.cache.file(other).nr_dirty.load() == 6);
    CHECK(m.writeback.dirty_of(m.device).dirty == 10);
    CHECK(m.writeback.dirty_of(second).dirty == 6);
    CHECK(m.cache.nr_dirty() == 16);

    m.writeback.fsync(other);
    CHECK(second.pages_written() == 6);
    CHECK(m.device.pages_written() == 0);
    const Writeback::DiskDirty after = m.writeback.dirty_of(second);
    CHECK(after.dirty == 0);
    CHECK(after.writeback == 0);
    CHECK(m.writeback.dirty_of(m.device).dirty == 10);
    m.writeback.stop(); // before the second disk goes
}

TEST_CASE("fsync writes each contiguous dirty run as one request and waits for the disk", "[mm][writeback]")
{
    // 2 ms a page: an fsync that returned before its writes completed
    // would find pages still under writeback.
    WritebackRig m(1024, { 20'000, 2'000'000, 1.0 }, quiet());
    REQUIRE(m.faults.write(m.file, 0, 10).ok);
    REQUIRE(m.faults.write(m.file, 20, 5).ok);
    REQUIRE(m.faults.write(m.file, 40, 1).ok);
    m.writeback.fsync(m.file);
    CHECK(m.device.write_requests() == 3);
    CHECK(m.device.pages_written() == 16);
    CHECK(m.cache.stats().written == 16);
    CHECK(m.cache.nr_dirty() == 0);
    CHECK(m.cache.nr_writeback() == 0);
    CHECK(m.cache.file(m.file).dirtied_when_ns.load() == 0);
    for (pgoff_t i : { 0, 9, 20, 24, 40 }) {
        INFO("page " << i);
        REQUIRE(m.page(i));
        CHECK_FALSE(m.page(i)->test(PG_dirty));
        CHECK_FALSE(m.page(i)->test(PG_writeback));
        CHECK(m.page(i)->test(PG_uptodate));
    }
    m.check_tags_match_flags();
    CHECK(m.writeback.stats().fsyncs == 1);
    CHECK(m.writeback.stats().pages_submitted == 16);
    CHECK(m.writeback.stats().submissions == 3);
    // Nothing dirty: a second fsync writes nothing.
    m.writeback.fsync(m.file);
    CHECK(m.device.pages_written() == 16);
}

TEST_CASE("a run longer than the device's largest request is split into requests of that size", "[mm][writeback]")
{
    BlockDeviceConfig disk { 20'000, 1'000, 1.0 };
    disk.max_request_pages = 8;
    WritebackRig m(1024, disk, quiet());
    REQUIRE(m.faults.write(m.file, 0, 20).ok);
    m.writeback.fsync(m.file);
    CHECK(m.device.write_requests() == 3); // 8 + 8 + 4
    CHECK(m.device.pages_written() == 20);
}

TEST_CASE("writes and reads never merge into one request, an HDD seeks to write as to read", "[mm][writeback][block]")
{
    BlockDeviceConfig disk = BlockDeviceConfig::preset("hdd");
    disk.time_scale = 0; // instant: the cost is counted, not waited for
    WritebackRig m(1024, disk, quiet());
    REQUIRE(m.faults.write(m.file, 10, 4).ok);
    m.writeback.fsync(m.file); // the head is nowhere yet: a seek
    CHECK(m.device.seeks() == 1);
    // Page 14 continues the write on the disk, but a read is another request.
    REQUIRE(m.faults.read(m.file, 14, 1).ok);
    CHECK(m.device.requests() == 2);
    CHECK(m.device.seeks() == 1); // the read starts where the write ended
    REQUIRE(m.faults.write(m.file, 100, 1).ok);
    m.writeback.fsync(m.file);
    CHECK(m.device.seeks() == 2); // a write away from the head pays a seek
    CHECK(m.device.pages_read() == 1);
    CHECK(m.device.pages_written() == 5);
}

TEST_CASE("a store to a written-back page faults again and dirties it (page_mkclean)", "[mm][writeback][fault]")
{
    WritebackRig m(1024, { 20'000, 1'000, 1.0 }, quiet());
    REQUIRE(m.faults.file_fault(m.file, 3, 3, true) == FaultKind::Major);
    REQUIRE(m.page(3)->test(PG_dirty));
    CHECK(m.faults.file_fault(m.file, 3, 3, true) == FaultKind::Mapped); // mapped dirty: no fault
    m.writeback.fsync(m.file);
    CHECK_FALSE(m.page(3)->test(PG_dirty));
    CHECK(m.device.pages_written() == 1);
    // Clean again, still mapped: the next store is a write-notify fault
    // that dirties the page (no read), the one after it is none.
    const std::uint64_t dirtied = m.cache.stats().dirtied;
    CHECK(m.faults.file_fault(m.file, 3, 3, true) == FaultKind::Mapped);
    CHECK(m.page(3)->test(PG_dirty));
    CHECK(m.cache.stats().dirtied == dirtied + 1);
    CHECK(m.device.pages_read() == 1);
    m.check_tags_match_flags();
}

TEST_CASE("truncate waits for a write in flight and drops unwritten data", "[mm][writeback][truncate]")
{
    // 50 ms a page, so the truncate comes while the write is in flight.
    WritebackRig m(1024, { 20'000, 50'000'000, 1.0 }, quiet());
    REQUIRE(m.faults.write(m.file, 0, 2).ok);
    Page* first = m.page(0);
    WritebackControl wbc;
    wbc.range_end = 0;
    write_cache_pages(m.cache, m.file, m.device, wbc); // page 0 only, not waited for
    CHECK(wbc.written == 1);
    REQUIRE(first->test(PG_writeback));
    CHECK(m.cache.remove(m.file, 0));
    CHECK(m.device.pages_written() == 1); // remove returned after the write completed
    CHECK(m.cache.nr_writeback() == 0);
    // Page 1 is dirty and never written: its data goes with it.
    CHECK(m.cache.remove(m.file, 1));
    CHECK(m.cache.stats().cancelled_dirty == 1);
    CHECK(m.cache.nr_dirty() == 0);
    CHECK(m.cache.file(m.file).nr_dirty.load() == 0);
    CHECK(m.device.pages_written() == 1);
}

TEST_CASE("reclaim wakes the flusher for dirty pages and takes them once written", "[mm][writeback][reclaim]")
{
    // Eight frames, every page dirty: without writeback this allocation
    // fails with "every one of the 8 frames is pinned".
    WritebackRig m(8, { 20'000, 1'000, 1.0 }, quiet());
    m.writeback.start();
    for (pgoff_t i = 0; i < 8; ++i) {
        PageCache::AddResult r = m.cache.find_or_create_page(m.file, i);
        REQUIRE(r.status == PageCache::AddStatus::Created);
        r.page->set(PG_uptodate);
        REQUIRE(m.cache.set_page_dirty(*r.page));
        m.cache.page_locks().unlock_page(*r.page);
        m.cache.put_page(r.page);
    }
    PageCache::AddResult r = m.cache.find_or_create_page(m.file, 100);
    REQUIRE(r.status == PageCache::AddStatus::Created);
    m.cache.page_locks().unlock_page(*r.page);
    m.cache.put_page(r.page);
    const WritebackStats s = m.writeback.stats();
    CHECK(s.runs[unsigned(WbReason::Vmscan)] >= 1);
    CHECK(m.device.pages_written() >= 1);
    CHECK(m.cache.stats().evictions >= 1);
    CHECK(m.cache.stats().dirty_skipped >= 1);
    // Every page evicted was written first: the written pages are the
    // evicted ones plus the clean ones still cached.
    CHECK(m.memory.failures() == 0);
    eventually([&] { return m.cache.nr_writeback() == 0; });
    m.check_tags_match_flags();
}

TEST_CASE("without a flusher dirty pages pin their frames and the error says so", "[mm][writeback][reclaim]")
{
    sync::LockRegistry registry;
    FrameAllocator memory(2, registry);
    IndexSpec spec = test::index_spec("radix", "rcu");
    PageCache cache(spec, memory, registry);
    const FileId f = cache.add_file(16);
    for (pgoff_t i = 0; i < 2; ++i) {
        PageCache::AddResult r = cache.find_or_create_page(f, i);
        REQUIRE(r.page);
        r.page->set(PG_uptodate);
        cache.set_page_dirty(*r.page);
        cache.page_locks().unlock_page(*r.page);
        cache.put_page(r.page);
    }
    CHECK(cache.find_or_create_page(f, 5).status == PageCache::AddStatus::NoMemory);
    CHECK(memory.last_failure().describe()
        == "every one of the 2 frames is pinned: 2 dirty, with no writeback to clean them");
}

TEST_CASE("a writer over the dirty threshold is throttled until writeback catches up", "[mm][writeback][throttle]")
{
    // 100 frames, dirty_ratio 10: at most 10 pages dirty or under writeback
    // when a write returns; 1 ms a page, so the flusher falls behind.
    WritebackConfig wb = quiet();
    wb.dirty_ratio = 10;
    wb.dirty_background_ratio = 5;
    WritebackRig m(100, { 20'000, 1'000'000, 1.0 }, wb);
    CHECK(m.writeback.dirty_thresh() == 10);
    CHECK(m.writeback.background_thresh() == 5);
    m.writeback.start();
    for (pgoff_t i = 0; i < 60; ++i) {
        REQUIRE(m.faults.write(m.file, i, 1).ok);
        INFO("after writing page " << i);
        // Under writeback first: a page the flusher moves from dirty to
        // writeback between the two reads is then counted at most once.
        const std::uint64_t writeback = m.cache.nr_writeback();
        REQUIRE(writeback + m.cache.nr_dirty() <= 10);
    }
    CHECK(m.writeback.stats().throttled > 0);
    CHECK(m.writeback.stats().runs[unsigned(WbReason::Background)] > 0);
    CHECK(m.device.pages_written() >= 50);
}

TEST_CASE("the thresholds scale down to a tiny memory without reaching 0", "[mm][writeback]")
{
    WritebackConfig c;
    CHECK(c.dirty_thresh(1'000'000) == 200'000);
    CHECK(c.background_thresh(1'000'000) == 100'000);
    CHECK(c.dirty_thresh(4) == 2);
    CHECK(c.background_thresh(4) == 1);
    c.dirty_background_ratio = 50;
    c.dirty_ratio = 30;
    CHECK(c.background_thresh(1000) == 150); // at or above the dirty ratio: half of it
    c.dirty_ratio = 0;
    CHECK_THROWS_WITH(c.validate(), Catch::Contains("dirty_ratio"));
}

TEST_CASE("periodic writeback writes data older than the expiry, and only that", "[mm][writeback][flusher]")
{
    WritebackConfig wb;
    wb.writeback_interval_ms = 20;
    wb.dirty_expire_ms = 100;
    WritebackRig m(1024, { 20'000, 1'000, 1.0 }, wb);
    m.writeback.start();
    REQUIRE(m.faults.write(m.file, 0, 4).ok);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK(m.device.pages_written() == 0); // dirty, but not old enough
    CHECK(eventually([&] { return m.device.pages_written() == 4; }));
    CHECK(m.writeback.stats().runs[unsigned(WbReason::Periodic)] >= 1);
    CHECK(eventually([&] { return m.cache.nr_writeback() == 0; }));
    m.check_tags_match_flags();
}

TEST_CASE("concurrent writers, stores, fsyncs, truncates and the flusher keep the tags and counts right",
    "[mm][writeback][stress][modelled-too]")
{
    test::on_test_machine([&] {
        for (const char* scheme : { "rcu", "global" }) {
            INFO("scheme " << scheme);
            IndexSpec spec;
            spec.kind = std::string(scheme) == "rcu" ? IndexKind::Radix : IndexKind::Hash;
            spec.scheme = scheme;
            WritebackConfig wb;
            wb.dirty_ratio = 20;
            wb.dirty_background_ratio = 10;
            wb.writeback_interval_ms = 5;
            wb.dirty_expire_ms = 0;
            WritebackRig m(64, { 5'000, 20'000, 1.0 }, wb, spec);
            m.writeback.start();
            // Catch's assertions are not thread-safe: the CPUs count their failures.
            std::atomic<unsigned> failed { 0 };
            std::vector<TaskThread> cpus;
            for (unsigned t = 0; t < 4; ++t)
                cpus.emplace_back("cpu" + std::to_string(t), [&, t] {
                    for (unsigned k = 0; k < 600; ++k) {
                        test::step();
                        const pgoff_t i = (k * 7 + t * 13) % 200;
                        switch ((k + t) % 5) {
                        case 0:
                        case 1:
                            failed += !m.faults.write(m.file, i, 1 + k % 3).ok;
                            break;
                        case 2:
                            failed += m.faults.file_fault(m.file, i, i, true) == FaultKind::NoMemory;
                            break;
                        case 3:
                            if (k % 40 == 3)
                                m.writeback.fsync(m.file);
                            else
                                failed += !m.faults.read(m.file, i, 1).ok;
                            break;
                        default:
                            m.cache.remove(m.file, i);
                            break;
                        }
                    }
                });
            for (auto& c : cpus)
                c.join();
            CHECK(failed == 0);
            m.writeback.stop();
            REQUIRE(eventually([&] { return m.cache.nr_writeback() == 0; }));
            m.check_tags_match_flags();
            const PageCacheStats s = m.cache.stats();
            // Every page dirtied was written, dropped by a truncate, or is
            // dirty still: none was evicted, or lost, unwritten.
            CHECK(s.dirtied == s.written + s.cancelled_dirty + s.nr_dirty);
            CHECK(m.device.pages_written() == s.written);
            CHECK(m.writeback.stats().pages_submitted == s.written);
            CHECK(m.memory.failures() == 0);
        }
    });
}
