// core/sim: the event stream the engine's code writes (events/tracepoint.h):
// fault records, I/O, page-lock sleeps and index changes, checked against
// exact oracles (the counters, the lock registry, the index's shape) rather
// than against timings. The locks' own records: test_lock_events.cpp.
#include "base/cpu.h"
#include "engine_test_support.h"
#include "events/event.h"
#include "events/event_ring.h"
#include "events/tracepoint.h"
#include "eventually.h"
#include "index/page_index.h"
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "mm/readahead.h"
#include "ring_events.h"
#include "sim/engine.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <thread>
#include <tuple>
#include <vector>

using namespace pcl;
using test::drain;
using test::eventually;

namespace {

std::size_t count_kind(const std::vector<Event>& events, EventKind kind)
{
    return static_cast<std::size_t>(
        std::count_if(events.begin(), events.end(), [&](const Event& e) { return e.kind == kind; }));
}

bool is_lock_event(EventKind kind)
{
    return kind == EventKind::LockWaitBegin || kind == EventKind::LockAcquired || kind == EventKind::LockReleased;
}

/// @events less the records whose kind @drop picks: is_lock_event, or
/// is_index_event (a traced thread records its index changes too).
std::vector<Event> without(const std::vector<Event>& events, bool (*drop)(EventKind))
{
    std::vector<Event> out;
    for (const Event& e : events)
        if (!drop(e.kind))
            out.push_back(e);
    return out;
}

using test::EngineRun;
using test::small_engine;

// A page cache, page table and disk without an engine (as the engine
// benchmark's minor_faults_per_second builds them).
struct FaultRig {
    sync::LockRegistry registry;
    FrameAllocator frames;
    PageCache cache;
    PageTable table;
    EventRing device_ring { 1024 };
    BlockDevice device;
    NoReadahead readahead;
    FaultHandler handler;

    FaultRig(pgoff_t pages, BlockDeviceConfig dev, int device_cpu = -1)
        : frames(pages + 64, registry)
        , cache(IndexSpec {}, frames, registry)
        , table({ PageTable::Scheme::Split, 0 }, registry)
        , device(dev, cache.page_locks(), &device_ring, device_cpu)
        , handler(cache, table, device, readahead)
    {
    }
};

} // namespace

// ---------------------------------------------------------------------------
// 1. Faults, without an engine
// ---------------------------------------------------------------------------

TEST_CASE("minor faults: one FaultEnd each with all, none unless notable without", "[sim][trace][fault]")
{
    constexpr pgoff_t kPages = 256;
    FaultRig rig(kPages, { 0, 0, 0.0 });
    const FileId f = rig.cache.add_file(kPages);
    for (pgoff_t i = 0; i < kPages; i += 64)
        REQUIRE(rig.handler.read(f, i, 64).ok);
    // A request's pages are all up to date before the device unlocks the
    // first, so read(2) returns while the last ones may still be locked; a
    // fault on one of those would sleep on its lock (PageLockWait). Wait,
    // untraced, until every read is over.
    for (pgoff_t i = 0; i < kPages; ++i) {
        Page* page = rig.cache.find_get_page(f, i);
        REQUIRE(page);
        rig.cache.page_locks().wait_on_page_locked(*page);
        rig.cache.put_page(page);
    }
    EventRing ring(1 << 14);

    SECTION("all: exactly one FaultEnd per fault, a FaultBegin only when something came in between")
    {
        {
            trace::ThreadTrace trace(&ring, -1, true);
            for (pgoff_t i = 0; i < kPages; ++i)
                REQUIRE(rig.handler.file_fault(f, i, i) == FaultKind::Minor);
        }
        const std::vector<Event> ev = drain(ring);
        CHECK(ring.dropped() == 0);
        CHECK(count_kind(ev, EventKind::FaultEnd) == kPages);
        // Parse: [FaultBegin, (lock records)+, FaultEnd] or a lone [FaultEnd], per fault, in vpn order.
        bool open = false;
        std::size_t inside = 0, ends = 0, begins = 0;
        for (const Event& e : ev) {
            if (e.kind == EventKind::FaultBegin) {
                REQUIRE_FALSE(open);
                open = true;
                inside = 0;
                ++begins;
                CHECK(e.object == ends); // vpn
                CHECK(e.index == ends);
                CHECK(e.file == f);
                CHECK(e.arg1 == 0); // file-backed
            } else if (e.kind == EventKind::FaultEnd) {
                if (open)
                    CHECK(inside > 0); // a begin is kept only if something was recorded before the end
                open = false;
                CHECK(e.arg1 == static_cast<std::int32_t>(FaultKind::Minor));
                CHECK(e.arg0 >= 0);
                CHECK(e.object == ends);
                CHECK(e.index == ends);
                CHECK(e.file == f);
                ++ends;
            } else {
                // Only the locks of the fault (taken uncontended, one thread) may appear.
                REQUIRE(open);
                ++inside;
                INFO("inside the fault of page " << ends << ": " << std::string(to_string(e.kind)) << ", object "
                                                 << e.object << ", index " << e.index << ", arg0 " << e.arg0);
                CHECK((e.kind == EventKind::LockAcquired || e.kind == EventKind::LockReleased));
                if (e.kind == EventKind::LockAcquired)
                    CHECK(e.arg0 == 0);
            }
        }
        CHECK_FALSE(open);
        CHECK(ends == kPages);
        CHECK(count_kind(ev, EventKind::LockAcquired) == count_kind(ev, EventKind::LockReleased));
        CHECK(begins <= ends);
        CHECK(rig.handler.faults(FaultKind::Minor) == kPages);

        // A fault on a mapped page records nothing, even with all.
        {
            trace::ThreadTrace trace(&ring, -1, true);
            for (pgoff_t i = 0; i < kPages; ++i)
                REQUIRE(rig.handler.file_fault(f, i, i) == FaultKind::Mapped);
        }
        CHECK(drain(ring).empty());
        CHECK(rig.handler.faults(FaultKind::Mapped) == kPages);
    }

    SECTION("without all: only notable faults (10 us or more) are recorded")
    {
        {
            trace::ThreadTrace trace(&ring, -1, false);
            for (pgoff_t i = 0; i < kPages; ++i)
                REQUIRE(rig.handler.file_fault(f, i, i) == FaultKind::Minor);
        }
        // Nothing else happens during a minor fault of a lone thread (its
        // locks are uncontended), so a record is only a FaultEnd of a fault
        // that took >= kNotableNs (a preempted one, on a loaded machine);
        // usually there are none.
        const std::vector<Event> ev = drain(ring);
        for (const Event& e : ev) {
            CHECK(e.kind == EventKind::FaultEnd);
            CHECK(e.arg0 >= static_cast<std::int64_t>(trace::kNotableNs));
            CHECK(e.arg1 == static_cast<std::int32_t>(FaultKind::Minor));
        }
        CHECK(rig.handler.faults(FaultKind::Minor) == kPages);
    }
}

TEST_CASE("a major fault records its span, its I/O and the completion on the device lane", "[sim][trace][fault]")
{
    constexpr std::uint64_t kRequestNs = 200'000;
    constexpr int kDeviceLane = 7;
    FaultRig rig(64, { kRequestNs, 0, 1.0 }, kDeviceLane);
    const FileId f = rig.cache.add_file(64);
    EventRing ring(1024);
    FaultKind kind = FaultKind::Mapped;
    {
        CpuScope cpu(3);
        trace::ThreadTrace trace(&ring);
        kind = rig.handler.file_fault(f, 5, 40);
    }
    REQUIRE(kind == FaultKind::Major);
    // The page was unlocked (after its IoComplete was recorded) before the fault returned.
    CHECK(rig.device.requests() == 1);

    const std::vector<Event> all = drain(ring);
    // The page's insert into the file's index is recorded too, on this CPU.
    for (const Event& e : all)
        if (is_index_event(e.kind)) {
            CHECK(e.cpu == 3);
            CHECK(e.file == f);
        }
    const std::vector<Event> ev = without(all, [](EventKind k) { return is_index_event(k); });
    const std::vector<Event> dev = drain(rig.device_ring);
    INFO("cpu ring records: " << ev.size());

    // FaultBegin, ReadaheadWindow (NoReadahead still opens a 1-page window),
    // IoSubmit, [PageLockWait, PageLockWoken], FaultEnd. The sleep is
    // skipped only if the read completed before the fault looked at the page.
    REQUIRE((ev.size() == 4 || ev.size() == 6));
    for (const Event& e : ev)
        CHECK(e.cpu == 3);
    for (std::size_t i = 1; i < ev.size(); ++i)
        CHECK(ev[i - 1].time_ns <= ev[i].time_ns);

    CHECK(ev[0].kind == EventKind::FaultBegin);
    CHECK(ev[0].object == 40);
    CHECK(ev[0].file == f);
    CHECK(ev[0].index == 5);
    CHECK(ev[0].arg1 == 0);

    CHECK(ev[1].kind == EventKind::ReadaheadWindow);
    CHECK(ev[1].object == 0); // synchronous (a miss)
    CHECK(ev[1].index == 5);
    CHECK(ev[1].arg0 == 1);

    const Event& submit = ev[2];
    CHECK(submit.kind == EventKind::IoSubmit);
    CHECK(submit.file == f);
    CHECK(submit.index == 5);
    CHECK(submit.arg0 == 1);

    if (ev.size() == 6) {
        CHECK(ev[3].kind == EventKind::PageLockWait);
        CHECK(ev[4].kind == EventKind::PageLockWoken);
        CHECK(ev[3].object == ev[4].object);
        CHECK(ev[3].file == f);
        CHECK(ev[3].index == 5);
        CHECK(ev[4].arg0 >= 0);
        CHECK(rig.cache.page_locks().stats().waits == 1);
    } else {
        CHECK(rig.cache.page_locks().stats().waits == 0);
    }

    const Event& end = ev.back();
    CHECK(end.kind == EventKind::FaultEnd);
    CHECK(end.object == 40);
    CHECK(end.file == f);
    CHECK(end.index == 5);
    CHECK(end.arg1 == static_cast<std::int32_t>(FaultKind::Major));
    CHECK(end.arg0 >= 0);
    CHECK(end.time_ns - static_cast<std::uint64_t>(end.arg0) == ev[0].time_ns); // spans [begin, end]

    // The device lane: exactly the completion of that request.
    REQUIRE(dev.size() == 1);
    CHECK(dev[0].kind == EventKind::IoComplete);
    CHECK(dev[0].object == submit.object);
    CHECK(dev[0].file == f);
    CHECK(dev[0].index == 5);
    CHECK(dev[0].arg0 == 1);
    CHECK(dev[0].cpu == kDeviceLane);
    CHECK(dev[0].time_ns >= submit.time_ns);
    CHECK(dev[0].time_ns <= end.time_ns);
}

// ---------------------------------------------------------------------------
// 2. Engine runs
// ---------------------------------------------------------------------------

TEST_CASE("an engine run with events off records nothing", "[sim][engine][events]")
{
    EngineConfig c = small_engine("sequential", 2, 64, 100, "mmap_read");
    c.events = false;
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);
    CHECK(engine.device().requests() > 0);
    CHECK(engine.events().cpus() == 5); // 2 CPUs, the disk and its flusher, kswapd
    CHECK(engine.events().pushed() == 0);
    CHECK(engine.events().dropped() == 0);
    std::vector<Event> out;
    CHECK(engine.events().drain_all(out) == 0);
    // Nothing pushed, so no ring holds more than the least capacity.
    for (std::size_t r = 0; r < engine.events().cpus(); ++r)
        CHECK(engine.events().ring(r).capacity() == 2);
}

TEST_CASE("an unpaced run's I/O and major faults match the counters", "[sim][engine][events]")
{
    constexpr unsigned kCpus = 2;
    constexpr pgoff_t kPages = 128;
    EngineConfig c = small_engine("sequential", kCpus, kPages, kPages, "mmap_read");
    c.device = { 20'000, 0, 1.0 };
    c.event_ring_capacity = std::size_t(1) << 16;
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);
    // The CPUs' rings, the disk's and its flusher's (which records on the
    // disk's lane; a reader writes nothing back, so it stays empty here),
    // and kswapd's (in memory to spare, it never wakes).
    REQUIRE(engine.events().cpus() == kCpus + 3);

    std::vector<Event> all;
    SECTION("ring by ring: each ring is in time order")
    {
        for (std::size_t r = 0; r < engine.events().cpus(); ++r) {
            std::vector<Event> ev = drain(engine.events().ring(r));
            for (std::size_t i = 1; i < ev.size(); ++i)
                REQUIRE(ev[i - 1].time_ns <= ev[i].time_ns);
            if (r == kCpus + 1)
                CHECK(ev.empty());
            for (const Event& e : ev) {
                CHECK(e.cpu == r);
                // Completions come from the device's lane only, everything else from the CPUs.
                CHECK((e.kind == EventKind::IoComplete) == (r == kCpus));
            }
            all.insert(all.end(), ev.begin(), ev.end());
        }
    }
    SECTION("merged: drain_all is in time order")
    {
        engine.events().drain_all(all);
        for (std::size_t i = 1; i < all.size(); ++i)
            REQUIRE(all[i - 1].time_ns <= all[i].time_ns);
    }
    CHECK(all.size() == engine.events().pushed());
    CHECK(engine.events().dropped() == 0);

    std::map<std::uint64_t, int> submits, completes;
    for (const Event& e : all) {
        if (e.kind == EventKind::IoSubmit)
            ++submits[e.object];
        if (e.kind == EventKind::IoComplete)
            ++completes[e.object];
    }
    CHECK(count_kind(all, EventKind::IoSubmit) == engine.device().requests());
    CHECK(count_kind(all, EventKind::IoComplete) == engine.device().requests());
    CHECK(submits.size() == engine.device().requests()); // request ids are unique
    CHECK(submits == completes);

    std::size_t major_ends = 0;
    for (const Event& e : all)
        major_ends += e.kind == EventKind::FaultEnd && e.arg1 == static_cast<std::int32_t>(FaultKind::Major);
    CHECK(engine.faults().faults(FaultKind::Major) == kCpus * kPages); // separate files, one pass
    CHECK(major_ends == engine.faults().faults(FaultKind::Major));
    // Every major fault's begin was flushed by its I/O.
    CHECK(count_kind(all, EventKind::FaultBegin) >= major_ends);
}

TEST_CASE("radix tree node and height records add up to the tree's shape", "[sim][engine][events][index]")
{
    EngineConfig c = small_engine("sequential", 1, 1024, 64, "read");
    c.workload.request_pages = 16;
    c.index.radix_shift = 6;
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);
    REQUIRE(engine.page_cache().nrpages() == 1024);

    std::vector<Event> all;
    engine.events().drain_all(all);
    REQUIRE(engine.events().dropped() == 0);
    const IndexShape shape = engine.page_cache().file(engine.files().at(0)).index->shape();
    const auto allocs = static_cast<std::int64_t>(count_kind(all, EventKind::IndexNodeAlloc));
    const auto frees = static_cast<std::int64_t>(count_kind(all, EventKind::IndexNodeFree));
    CHECK(allocs - frees == static_cast<std::int64_t>(shape.nodes));
    CHECK(shape.nodes > 0);
    CHECK(count_kind(all, EventKind::IndexHeightGrow) == static_cast<std::size_t>(shape.height));
    CHECK(count_kind(all, EventKind::IndexHeightShrink) == 0);
    // Each growth says the new height, one step at a time.
    std::int64_t h = 0;
    for (const Event& e : all)
        if (e.kind == EventKind::IndexHeightGrow)
            CHECK(e.arg0 == ++h);
    CHECK(h == shape.height);
    CHECK(count_kind(all, EventKind::IoSubmit) == engine.device().requests());
}

TEST_CASE("two runs of one single-CPU scenario name their pages and nodes alike", "[sim][engine][events]")
{
    // One CPU reading one file, no readahead, no kswapd, memory to spare:
    // the index changes in program order, and the CPU takes fresh frames
    // lowest first, so page k of the file is frame k. The second run's
    // objects lie elsewhere (a block allocated in between moves the heap
    // on); its records must name them as the first run's did.
    EngineConfig c = small_engine("sequential", 1, 512, 32, "read");
    c.workload.request_pages = 16;
    c.reclaim.kswapd = false;
    auto record = [&] {
        EngineRun run(c);
        REQUIRE(run.engine.state() == Engine::State::Finished);
        REQUIRE(run.engine.page_cache().nrpages() == 512);
        std::vector<Event> all;
        run.engine.events().drain_all(all);
        REQUIRE(run.engine.events().dropped() == 0);
        return all;
    };
    const std::vector<Event> first = record();
    const auto moved = std::make_unique<char[]>(1 << 20);
    const std::vector<Event> second = record();

    auto index_events = [](const std::vector<Event>& all) {
        std::vector<std::tuple<EventKind, std::uint64_t, FileId, std::uint64_t, std::int64_t, std::int64_t>> out;
        for (const Event& e : all)
            if (is_index_event(e.kind))
                out.emplace_back(e.kind, e.object, e.file, e.index, e.arg0, e.arg1);
        return out;
    };
    const auto nodes = index_events(first);
    CHECK(nodes.size() > 8); // 512 pages at fanout 64: 8 leaves and a root, at least
    CHECK(index_events(second) == nodes);

    // Every record about a page names it by its frame: page k, frame k.
    // (How many faults sleep on their page depends on the disk thread's
    // host timing, so only the names are checked, not the count.)
    for (const std::vector<Event>* run : { &first, &second })
        for (const Event& e : *run)
            if (e.kind == EventKind::PageLockWait || e.kind == EventKind::PageLockWoken
                || e.kind == EventKind::PageEvicted) {
                const ev::PageLockWait v { e }; // the three kinds begin with the same fields
                CHECK(v.page_id() == v.page());
            }
}

TEST_CASE("the hold stretch makes every lock hold at least the stretch", "[sim][engine][events][stretch]")
{
    constexpr std::uint64_t kStretchNs = 200'000;
    EngineConfig c = small_engine("sequential", 1, 64, 200, "mmap_read");
    c.hold_stretch_ns = kStretchNs;
    EngineRun run(c);
    Engine& engine = run.engine;
    sync::LockRegistry& registry = run.registry;
    REQUIRE(engine.state() == Engine::State::Finished);
    CHECK(engine.operations() == 200);

    std::size_t held = 0;
    for (const sync::LockStatRow& row : registry.classes()) {
        if (row.acquisitions == 0)
            continue;
        ++held;
        INFO("class " << row.name << ": " << row.acquisitions << " acquisitions, hold_min_ns " << row.hold_min_ns);
        // Ticks <-> ns conversions truncate: allow a microsecond of rounding.
        CHECK(row.hold_min_ns + 1'000 >= kStretchNs);
        CHECK(row.hold_total_ns + 1'000 * row.acquisitions >= kStretchNs * row.acquisitions);
    }
    CHECK(held > 0);
}

TEST_CASE("at demo speed every fault that is not a mapped hit has a FaultEnd", "[sim][engine][events][paced]")
{
    EngineConfig c = small_engine("random", 2, 64, 100, "mmap_read");
    c.workload.files = FileSharing::Shared;
    c.ops_per_second = 2'000;
    c.device = { 20'000, 0, 1.0 };
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);

    std::vector<std::vector<Event>> rings;
    std::vector<Event> all;
    for (std::size_t r = 0; r < engine.events().cpus(); ++r) {
        rings.push_back(drain(engine.events().ring(r)));
        all.insert(all.end(), rings.back().begin(), rings.back().end());
    }
    REQUIRE(engine.events().dropped() == 0);

    const FaultHandler& h = engine.faults();
    CHECK(h.faults(FaultKind::NoMemory) == 0);
    CHECK(h.faults(FaultKind::OutOfRange) == 0);
    const std::uint64_t recorded_kinds = h.faults(FaultKind::Minor) + h.faults(FaultKind::Major)
        + h.faults(FaultKind::WaitIo) + h.faults(FaultKind::Anon);
    CHECK(recorded_kinds + h.faults(FaultKind::Mapped) == 200);
    CHECK(count_kind(all, EventKind::FaultEnd) == recorded_kinds);
    for (FaultKind k : { FaultKind::Mapped, FaultKind::Minor, FaultKind::Major, FaultKind::WaitIo, FaultKind::Anon }) {
        std::uint64_t n = 0;
        for (const Event& e : all)
            n += e.kind == EventKind::FaultEnd && e.arg1 == static_cast<std::int32_t>(k);
        INFO("fault kind " << fault_kind_name(k));
        CHECK(n == (k == FaultKind::Mapped ? 0 : h.faults(k)));
    }
    // With all, each CPU records every acquisition and its release.
    for (std::size_t r = 0; r + 1 < rings.size(); ++r) {
        INFO("ring " << r);
        CHECK(count_kind(rings[r], EventKind::LockAcquired) == count_kind(rings[r], EventKind::LockReleased));
    }
    CHECK(h.faults(FaultKind::Major) > 0);
    CHECK(count_kind(all, EventKind::LockAcquired) > 0); // a major fault takes the cache's and page table's locks
    CHECK(count_kind(all, EventKind::IoSubmit) == engine.device().requests());
}

// ---------------------------------------------------------------------------
// 3. Page-lock waits
// ---------------------------------------------------------------------------

TEST_CASE("faults sleeping on a page being read record one wait and one wake each", "[sim][trace][pagelock]")
{
    constexpr int kThreads = 3;
    constexpr pgoff_t kIndex = 2;
    FaultRig rig(16, { 0, 0, 0.0 });
    const FileId f = rig.cache.add_file(16);
    // The page, locked and not up to date: a read in flight that we complete by hand.
    const PageCache::AddResult r = rig.cache.find_or_create_page(f, kIndex);
    REQUIRE(r.status == PageCache::AddStatus::Created);
    Page* page = r.page;

    std::vector<std::unique_ptr<EventRing>> rings;
    for (int t = 0; t < kThreads; ++t)
        rings.push_back(std::make_unique<EventRing>(256));
    std::vector<FaultKind> kinds(kThreads, FaultKind::Mapped);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            CpuScope cpu(t);
            trace::ThreadTrace trace(rings[t].get());
            // Different virtual pages mapping the same file page.
            kinds[t] = rig.handler.file_fault(f, kIndex, 1000 * std::uint64_t(t + 1) + kIndex);
        });
    const bool all_asleep = eventually([&] { return rig.cache.page_locks().stats().sleeping == kThreads; });
    page->set(PG_uptodate);
    rig.cache.page_locks().unlock_page(*page);
    rig.cache.put_page(page);
    for (auto& t : threads)
        t.join();
    REQUIRE(all_asleep);

    // Each fault sleeps once for the read; after it, filemap_fault locks the
    // page to map it, and a fault that finds another one holding that lock
    // sleeps again: one wait each at least, every wait woken.
    CHECK(rig.cache.page_locks().stats().waits >= std::uint64_t(kThreads));
    CHECK(rig.handler.faults(FaultKind::WaitIo) == kThreads);
    std::size_t woken = 0;
    for (int t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        CHECK(kinds[t] == FaultKind::WaitIo);
        const std::uint64_t vpn = 1000 * std::uint64_t(t + 1) + kIndex;
        // The page-table locks may be contended by the other threads: leave them out.
        const std::vector<Event> ev = without(drain(*rings[t]), is_lock_event);
        // [FaultBegin, (PageLockWait, PageLockWoken)+, FaultEnd]
        REQUIRE(ev.size() >= 4);
        REQUIRE(ev.size() % 2 == 0);
        CHECK(ev[0].kind == EventKind::FaultBegin);
        CHECK(ev[0].object == vpn);
        for (std::size_t i = 1; i + 1 < ev.size(); i += 2) {
            CHECK(ev[i].kind == EventKind::PageLockWait);
            CHECK(ev[i].object == rig.frames.page_to_pfn(page));
            CHECK(ev[i].file == f);
            CHECK(ev[i].index == kIndex);
            CHECK(ev[i + 1].kind == EventKind::PageLockWoken);
            CHECK(ev[i + 1].object == ev[i].object);
            CHECK(ev[i + 1].file == f);
            CHECK(ev[i + 1].index == kIndex);
            CHECK(ev[i + 1].arg0 >= 0);
        }
        CHECK(ev.back().kind == EventKind::FaultEnd);
        CHECK(ev.back().object == vpn);
        CHECK(ev.back().arg1 == static_cast<std::int32_t>(FaultKind::WaitIo));
        for (const Event& e : ev)
            CHECK(e.cpu == t);
        woken += count_kind(ev, EventKind::PageLockWoken);
    }
    CHECK(woken == rig.cache.page_locks().stats().waits);
}

TEST_CASE("CPUs faulting a shared file record every page-lock sleep", "[sim][engine][events][pagelock]")
{
    constexpr unsigned kCpus = 3;
    EngineConfig c = small_engine("sequential", kCpus, 64, 64, "mmap_read");
    c.workload.files = FileSharing::Shared;
    c.device = { 50'000, 0, 1.0 };
    c.event_ring_capacity = std::size_t(1) << 16;
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);

    std::size_t woken = 0;
    for (std::size_t r = 0; r < engine.events().cpus(); ++r) {
        INFO("ring " << r);
        const std::vector<Event> ev = drain(engine.events().ring(r));
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].kind == EventKind::PageLockWait) {
                // A sleeping CPU records nothing until it wakes up.
                REQUIRE(i + 1 < ev.size());
                CHECK(ev[i + 1].kind == EventKind::PageLockWoken);
                CHECK(ev[i + 1].object == ev[i].object);
                CHECK(ev[i + 1].file == ev[i].file);
                CHECK(ev[i + 1].index == ev[i].index);
            }
            if (ev[i].kind == EventKind::PageLockWoken) {
                REQUIRE(i > 0);
                CHECK(ev[i - 1].kind == EventKind::PageLockWait);
            }
        }
        if (r == kCpus)
            CHECK(count_kind(ev, EventKind::PageLockWait) == 0); // the device never sleeps on a page
        woken += count_kind(ev, EventKind::PageLockWoken);
    }
    REQUIRE(engine.events().dropped() == 0);
    CHECK(woken == engine.page_cache().page_locks().stats().waits);
    // Every page is read once, by whichever CPU got there first.
    CHECK(engine.device().pages_read() == 64);
    CHECK(engine.faults().faults(FaultKind::Major) == 64);
}

TEST_CASE("write-back I/O is traced: the flusher's writes on the disk's lane, each submitted once and completed once",
    "[sim][engine][events][writeback]")
{
    constexpr unsigned kCpus = 2;
    EngineConfig c = small_engine("sequential", kCpus, 512, 64, "write");
    c.workload.request_pages = 8;
    c.memory_pages = 128; // a quarter of the data: the flusher has to write
    c.event_ring_capacity = std::size_t(1) << 16;
    EngineRun run(c);
    Engine& engine = run.engine;
    REQUIRE(engine.state() == Engine::State::Finished);
    for (int i = 0; i < 5000 && engine.page_cache().nr_writeback() > 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::vector<Event> all;
    engine.events().drain_all(all);
    REQUIRE(engine.events().dropped() == 0);
    std::map<std::uint64_t, std::uint64_t> submitted, completed; // request -> pages
    std::uint64_t on_disk_lane = 0;
    for (const Event& e : all) {
        if (e.kind == EventKind::IoSubmit && ev::IoSubmit { e }.write()) {
            submitted[e.object] += ev::IoSubmit { e }.pages();
            on_disk_lane += e.cpu == kCpus;
        }
        if (e.kind == EventKind::IoComplete && ev::IoComplete { e }.write()) {
            CHECK(e.cpu == kCpus);
            completed[e.object] += ev::IoComplete { e }.pages();
        }
    }
    CHECK(submitted.size() > 0);
    CHECK(on_disk_lane == submitted.size()); // no CPU syncs: every write is the flusher's
    CHECK(submitted == completed);
    std::uint64_t pages = 0;
    for (const auto& [request, n] : completed)
        pages += n;
    CHECK(pages == engine.device().pages_written());
}
