// core/mm: the fault handler, the read(2) path, the block device and the
// readahead seam, on a real page cache and page table.
#include "mm/fault.h"
#include "sync/rcu.h"

#include "fault_rig.h"
#include "index_spec_support.h"
#include "test_machine.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

using namespace pcl;

namespace {

// One process with its page cache, page table and disk.
struct Process {
    explicit Process(std::uint64_t frames = 1024, PageTable::Scheme scheme = PageTable::Scheme::Split,
        FaultConfig fault = {}, BlockDeviceConfig disk = { 20'000, 1'000, 1.0 }, ReadaheadPolicy* policy = nullptr)
        : memory(frames, registry)
        , cache(test::index_spec("radix", "rcu"), memory, registry)
        , table(PageTable::Config { scheme, 0 }, registry)
        , readahead(policy ? *policy : none)
        , device(disk, cache.page_locks())
        , faults(cache, table, device, readahead, fault)
    {
    }
    ~Process()
    {
        for (std::uint64_t v = 0; v < 4096; ++v)
            if (Page* p = table.unmap(v)) {
                if (p->mapping == kAnonymousFile) {
                    p->count.store(0);
                    memory.free(p);
                } else {
                    cache.put_page(p);
                }
            }
    }
    sync::LockRegistry registry;
    FrameAllocator memory;
    PageCache cache;
    PageTable table;
    NoReadahead none;
    ReadaheadPolicy& readahead;
    BlockDevice device;
    FaultHandler faults;
};

// A policy with a fixed window, to exercise the seam: 8 pages from the miss,
// the last 4 asynchronous; the marker leads to the next 8.
struct FixedWindow final : ReadaheadPolicy {
    std::atomic<int> misses { 0 }, markers { 0 };
    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override
    {
        ++misses;
        return { r.index, std::min<pgoff_t>(8, r.file_pages - r.index), 4 };
    }
    ReadaheadWindow async_readahead(const ReadaheadRequest& r) override
    {
        ++markers;
        const pgoff_t start = r.index + 4;
        return { start, start < r.file_pages ? std::min<pgoff_t>(8, r.file_pages - start) : 0, 4 };
    }
};

} // namespace

TEST_CASE("a file fault is major, then minor from another mapping, then no fault", "[mm][fault]")
{
    Process m;
    const FileId f = m.cache.add_file(32);
    CHECK(m.faults.file_fault(f, 3, 100) == FaultKind::Major);
    CHECK(m.device.requests() == 1);
    CHECK(m.device.pages_read() == 1);
    Page* page = m.table.read_pte(100);
    REQUIRE(page);
    CHECK(page->index == 3);
    CHECK(page->test(PG_uptodate));
    CHECK_FALSE(page->test(PG_locked));
    CHECK(page->count.load() == 2);                            // the cache and the mapping
    CHECK(m.faults.file_fault(f, 3, 200) == FaultKind::Minor); // same page, another address
    CHECK(m.table.read_pte(200) == page);
    CHECK(m.faults.file_fault(f, 3, 100) == FaultKind::Mapped);
    CHECK(m.device.requests() == 1);
    CHECK(m.faults.faults(FaultKind::Major) == 1);
    CHECK(m.faults.faults(FaultKind::Minor) == 1);
    CHECK(m.faults.faults(FaultKind::Mapped) == 1);
    CHECK(m.faults.fault_latency(FaultKind::Major).count() == 1);
    CHECK(m.faults.fault_latency(FaultKind::Major).max_ns() >= 20'000); // at least the disk's request time
    CHECK(m.faults.file_fault(f, 32, 300) == FaultKind::OutOfRange);
}

TEST_CASE("CPUs faulting on one missing page: one read, one page, everyone woken", "[mm][fault][race][modelled-too]")
{
    test::on_test_machine([&] {
        for (auto scheme : { PageTable::Scheme::Single, PageTable::Scheme::Split, PageTable::Scheme::SingleWalk }) {
            // A slow disk, so that the other CPUs find the page under I/O.
            Process m(1024, scheme, {}, { 5'000'000, 0, 1.0 });
            const FileId f = m.cache.add_file(16);
            std::atomic<int> kinds[kFaultKinds] = {};
            test::run_threads(4, [&](unsigned t) {
                // Each CPU maps the page at its own address, so each must find it.
                kinds[unsigned(m.faults.file_fault(f, 7, 10 + std::uint64_t(t)))]++;
            });
            CHECK(m.device.requests() == 1); // exactly one I/O
            CHECK(kinds[unsigned(FaultKind::Major)] == 1);
            CHECK(kinds[unsigned(FaultKind::Major)] + kinds[unsigned(FaultKind::WaitIo)]
                    + kinds[unsigned(FaultKind::Minor)]
                == 4);
            Page* page = m.table.read_pte(10);
            REQUIRE(page);
            for (std::uint64_t v = 11; v < 14; ++v)
                CHECK(m.table.read_pte(v) == page);
            CHECK(page->lock_waiters.load() == 0);
            CHECK(m.cache.page_locks().stats().sleeping == 0);
            CHECK(page->count.load() == 5); // the cache and four mappings
            CHECK(m.cache.nrpages() == 1);
        }
    });
}

TEST_CASE("threads faulting the same address: one mapping, the others back out", "[mm][fault][race][modelled-too]")
{
    test::on_test_machine([&] {
        Process m;
        const FileId f = m.cache.add_file(8);
        REQUIRE(m.faults.file_fault(f, 2, 999) == FaultKind::Major); // cached, but not at the next address
        REQUIRE(m.table.unmap(999));
        // Hold the PTE lock at install time until all four have done their
        // lock-free part: three of them must back out.
        std::atomic<int> arrived { 0 };
        m.table.set_locked_hook([&](std::uint64_t) {
            if (arrived.load() < 4)
                test::sleep_ms(1);
        });
        test::run_threads(4, [&](unsigned) {
            ++arrived;
            m.faults.file_fault(f, 2, 50);
        });
        Page* page = m.table.read_pte(50);
        REQUIRE(page);
        CHECK(m.table.mapped_count() == 1);
        // The fault that installed holds the mapping's reference; every backed-out
        // fault dropped its own.
        // The cache's reference, the unmapped mapping's (still held), and the
        // new mapping's: every other fault either found the PTE (no reference)
        // or backed out and dropped its own.
        CHECK(page->count.load() == 3);
        CHECK(m.faults.faults(FaultKind::Mapped) + m.faults.faults(FaultKind::Minor) == 4);
        m.cache.put_page(page); // the reference of the mapping unmapped above
    });
}

TEST_CASE("anonymous faults map each page of a pft region exactly once", "[mm][fault][pft][modelled-too]")
{
    test::on_test_machine([&] {
        for (auto scheme : { PageTable::Scheme::Single, PageTable::Scheme::Split, PageTable::Scheme::SingleWalk }) {
            Process m(4096, scheme);
            constexpr std::uint64_t kPerThread = 700;
            std::atomic<long> wrong { 0 };
            test::run_threads(4, [&](unsigned t) {
                for (std::uint64_t v = 0; v < kPerThread; ++v) {
                    test::step();
                    wrong += m.faults.anon_fault(std::uint64_t(t) * kPerThread + v) != FaultKind::Anon;
                }
                // A second pass finds every page mapped.
                for (std::uint64_t v = 0; v < kPerThread; ++v) {
                    test::step();
                    wrong += m.faults.anon_fault(std::uint64_t(t) * kPerThread + v) != FaultKind::Mapped;
                }
            });
            CHECK(wrong.load() == 0);
            CHECK(m.table.mapped_count() == 4 * kPerThread);
            CHECK(m.memory.in_use() == 4 * kPerThread);
            CHECK(m.faults.faults(FaultKind::Anon) == 4 * kPerThread);
            CHECK(m.device.requests() == 0); // no I/O for anonymous memory
            CHECK(m.cache.nrpages() == 0);
        }
    });
}

TEST_CASE("stock 2.6.13's walk takes page_table_lock a second time in every fault", "[mm][fault][pft]")
{
    // single_walk: the walk after the trap under mm->page_table_lock, then
    // the install under it again; single and split install alone under it
    // (split: under the PTE page's own lock; the mm lock only allocates).
    struct Expect {
        PageTable::Scheme scheme;
        std::uint64_t mm_lock_per_fault;
    };
    for (const Expect e : { Expect { PageTable::Scheme::SingleWalk, 2 }, Expect { PageTable::Scheme::Single, 1 },
             Expect { PageTable::Scheme::Split, 0 } }) {
        Process m(1024, e.scheme);
        // The first fault allocates the PMD and PTE pages (one more mm lock).
        REQUIRE(m.faults.anon_fault(0) == FaultKind::Anon);
        const auto mm_lock = [&] {
            for (const sync::LockStatRow& row : m.registry.locks())
                if (row.name == "mm[0].page_table_lock")
                    return row.acquisitions;
            FAIL("no mm[0].page_table_lock");
            return std::uint64_t(0);
        };
        const std::uint64_t before = mm_lock();
        for (std::uint64_t v = 1; v <= 100; ++v)
            REQUIRE(m.faults.anon_fault(v) == FaultKind::Anon);
        CHECK(mm_lock() - before == 100 * e.mm_lock_per_fault);
        // A page already mapped takes no fault and no lock.
        REQUIRE(m.faults.anon_fault(50) == FaultKind::Mapped);
        CHECK(mm_lock() - before == 100 * e.mm_lock_per_fault);
        CHECK(m.table.mapped_count() == 101);
    }
}

TEST_CASE("fault-around maps the cached neighbours of a fault", "[mm][fault][around]")
{
    FaultConfig around;
    around.fault_around = true;
    Process m(1024, PageTable::Scheme::Split, around);
    const FileId f = m.cache.add_file(64);
    // Read pages 16..31 into the cache (read(2) maps nothing): the first miss
    // reads the whole request in one I/O, which completes as a whole: the
    // later pages are hits.
    const ReadResult r = m.faults.read(f, 16, 16);
    CHECK(r.pages == 16);
    CHECK(r.hits == 15);
    CHECK(m.device.requests() == 1);
    CHECK(m.faults.read(f, 16, 16).hits == 16);
    // Fault-around skips locked pages: let the device finish unlocking them.
    for (pgoff_t i = 16; i < 32; ++i) {
        Page* p = m.cache.find_get_page(f, i);
        REQUIRE(p);
        m.cache.page_locks().wait_on_page_locked(*p);
        m.cache.put_page(p);
    }
    CHECK(m.device.pages_read() == 16);
    CHECK(m.table.mapped_count() == 0);
    // The file is mapped at vpn 1000 + offset; a fault on page 20 maps the
    // other 15 pages of its aligned block of 16 as well.
    CHECK(m.faults.file_fault(f, 20, 1020) == FaultKind::Minor);
    CHECK(m.faults.fault_around_mapped() == 15);
    CHECK(m.table.mapped_count() == 16);
    for (pgoff_t i = 16; i < 32; ++i) {
        Page* p = m.table.read_pte(1000 + i);
        REQUIRE(p);
        CHECK(p->index == i);
    }
    CHECK(m.table.read_pte(1015) == nullptr); // outside the block
    CHECK(m.faults.read(f, 16, 4).hits == 4);
    CHECK(m.faults.read_latency().count() == 3);
}

TEST_CASE("the readahead seam: one request per window, the marker starts the next", "[mm][fault][readahead]")
{
    FixedWindow policy;
    test::PolicyFaultRig m(256, policy);
    const FileId f = m.cache.add_file(40);
    CHECK(m.faults.file_fault(f, 0, 0) == FaultKind::Major);
    CHECK(policy.misses == 1);
    CHECK(m.device.requests() == 1); // pages 0..7 in one request
    CHECK(m.device.pages_read() == 8);
    CHECK(m.cache.nrpages() == 8);
    Page* marker = m.cache.find_get_page(f, 4);
    REQUIRE(marker);
    CHECK(marker->test(PG_readahead)); // start + size - async_size
    m.cache.put_page(marker);
    // Pages 1..3 are hits; page 4 carries the marker: the next window (8..15)
    // is read asynchronously.
    for (pgoff_t i = 1; i < 4; ++i)
        CHECK(m.faults.file_fault(f, i, i) == FaultKind::Minor);
    CHECK(policy.markers == 0);
    CHECK(m.faults.file_fault(f, 4, 4) == FaultKind::Minor);
    CHECK(policy.markers == 1);
    CHECK(m.cache.nrpages() == 16);
    Page* far = m.cache.find_get_page(f, 15);
    REQUIRE(far);
    m.cache.page_locks().wait_on_page_locked(*far); // the async read completes
    CHECK(far->test(PG_uptodate));
    m.cache.put_page(far);
    CHECK(m.device.requests() == 2);
    for (std::uint64_t v = 0; v < 5; ++v)
        if (Page* p = m.table.unmap(v))
            m.cache.put_page(p);
}

TEST_CASE("a fault with no free frame fails cleanly", "[mm][fault]")
{
    Process m(2);
    const FileId f = m.cache.add_file(8);
    CHECK(m.faults.file_fault(f, 0, 0) == FaultKind::Major);
    CHECK(m.faults.file_fault(f, 1, 1) == FaultKind::Major);
    CHECK(m.faults.file_fault(f, 2, 2) == FaultKind::NoMemory);
    CHECK(m.faults.anon_fault(3) == FaultKind::NoMemory);
    CHECK(m.table.read_pte(2) == nullptr);
    CHECK(m.faults.faults(FaultKind::NoMemory) == 2);
}

TEST_CASE("removing a page under I/O waits for the read, so its frame is not reused meanwhile",
    "[mm][fault][race][modelled-too]")
{
    test::on_test_machine([&] {
        sync::LockRegistry registry;
        FrameAllocator memory(1, registry); // one frame: a freed frame is reused at once
        IndexSpec spec;
        PageCache cache(spec, memory, registry);
        BlockDevice device({ 30'000'000, 0, 1.0 }, cache.page_locks()); // a 30 ms read
        const FileId f = cache.add_file(8);
        // Readahead's way: the page is created locked, its read submitted, and
        // the creator's reference dropped; only the cache holds it.
        auto p = cache.find_or_create_page(f, 0);
        REQUIRE(p.status == PageCache::AddStatus::Created);
        device.submit_read({ p.page });
        cache.put_page(p.page);
        std::atomic<bool> removed { false };
        std::atomic<std::uint64_t> read_when_removed { 0 };
        TaskThread remover("remover", [&] {
            removed = cache.remove(f, 0);
            read_when_removed = device.pages_read();
        });
        remover.join();
        CHECK(removed.load());
        // The removal waited for the read: the device counts a read done before
        // it unlocks the page (not a time: a loaded machine may sleep a test
        // thread through the whole read).
        CHECK(read_when_removed.load() == 1);
        rcu::barrier();
        CHECK(memory.in_use() == 0);
        // The frame, reused for another page, is that page's alone: no late
        // completion marks it read or unlocks it.
        auto q = cache.find_or_create_page(f, 1);
        REQUIRE(q.status == PageCache::AddStatus::Created);
        test::sleep_ms(40);
        CHECK(q.page->test(PG_locked));
        CHECK_FALSE(q.page->test(PG_uptodate));
        cache.page_locks().unlock_page(*q.page);
        cache.put_page(q.page);
    });
}

namespace {

/// The reverse map of a Process whose file @f is mapped at vpn = index:
/// what the engine gives the cache, for truncate and reclaim to unmap.
void map_linearly(Process& m)
{
    m.cache.set_try_to_unmap([&m](Page& page) {
        Page* mapped = m.table.unmap(page.index);
        if (!mapped)
            return false;
        if (mapped != &page) {
            m.table.install(page.index, mapped);
            return false;
        }
        m.cache.put_page(mapped); // the mapping's reference
        return true;
    });
}

bool cached(Process& m, FileId f, pgoff_t index, Page* page)
{
    rcu::ReadGuard guard;
    return m.cache.file(f).index->lookup(index) == page;
}

} // namespace

namespace {

/// No readahead, and a hook called when the fault path has found a page
/// (on_access): between its lookup and its install.
struct FoundHook final : ReadaheadPolicy {
    std::function<void()> hook;
    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override { return { r.index, 1, 0, RaRule::None }; }
    ReadaheadWindow async_readahead(const ReadaheadRequest&) override { return {}; }
    void on_access(const ReadaheadRequest&, bool hit) override
    {
        if (hit && hook)
            std::exchange(hook, nullptr)();
    }
};

} // namespace

TEST_CASE("a truncate between a fault's lookup and its install leaves no PTE to the truncated page",
    "[mm][fault][race][truncate]")
{
    // filemap_fault locks the page it found and checks it is still in the
    // cache before the install: a truncate that came in between is seen,
    // and the fault looks again (and reads the page anew). Installing what
    // the lookup found would map a page that is out of the cache.
    FoundHook policy;
    Process m(1024, PageTable::Scheme::Split, {}, { 20'000, 1'000, 1.0 }, &policy);
    map_linearly(m);
    const FileId f = m.cache.add_file(32);
    REQUIRE(m.faults.read(f, 3, 1).pages == 1); // cached, up to date, not mapped
    policy.hook = [&] { REQUIRE(m.cache.remove(f, 3)); };
    CHECK(m.faults.file_fault(f, 3, 3) == FaultKind::Major); // read again
    CHECK_FALSE(policy.hook);
    Page* pte = m.table.read_pte(3);
    REQUIRE(pte);
    CHECK(cached(m, f, 3, pte));
    CHECK(m.cache.stats().removes == 1);
}

TEST_CASE("a truncate racing a fault's install never leaves a PTE pointing at a page no longer cached",
    "[mm][fault][race][truncate][modelled-too]")
{
    test::on_test_machine([&] {
        // The fault has found the page and is installing it when a truncate
        // comes. The fault holds the page lock from its recheck to the install,
        // and truncate takes the page lock and unmaps before it removes the
        // page: either order leaves no mapping of a page out of the cache.
        Process m;
        map_linearly(m);
        const FileId f = m.cache.add_file(32);
        REQUIRE(m.faults.read(f, 3, 1).pages == 1); // cached, up to date, not mapped
        std::atomic<bool> truncated { false };
        TaskThread truncator;
        bool first = true;
        m.table.set_locked_hook([&](std::uint64_t vpn) {
            if (!first || vpn != 3)
                return;
            first = false;
            truncator = TaskThread("truncate", [&] {
                m.cache.remove(f, 3);
                truncated = true;
            });
            // Give the truncate every chance to run inside the install.
            for (int i = 0; i < 300 && !truncated; ++i)
                test::sleep_ms(1);
        });
        CHECK(m.faults.file_fault(f, 3, 3) == FaultKind::Minor);
        truncator.join();
        CHECK(truncated.load());
        Page* pte = m.table.read_pte(3);
        CHECK(m.cache.find_get_page(f, 3) == nullptr);
        CHECK(pte == nullptr); // truncate unmapped it
        CHECK(m.table.mapped_count() == 0);
        rcu::barrier();
        CHECK(m.memory.in_use() == 0);
    });
}

// Three CPUs fault four pages in, at their linear addresses, while
// truncating them at random: a truncate that removed a page between a
// fault's recheck and its install would leave a PTE to a page out of the
// cache, for good (a later fault backs out to it, a later truncate finds
// nothing to remove). The fault holds the page lock from its recheck to the
// install, so none can.
TEST_CASE("CPUs faulting and truncating the same few pages leave no PTE to a page out of the cache",
    "[mm][fault][race][truncate][modelled-too]")
{
    const unsigned kRounds = test::rounds(3000);
    test::on_test_machine([&] {
        Process m(64);
        map_linearly(m);
        const FileId f = m.cache.add_file(4);
        test::run_threads(3, [&](unsigned t) {
            std::uint64_t x = 0x9e3779b97f4a7c15ull * (t + 1);
            for (unsigned r = 0; r < kRounds; ++r) {
                test::step();
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                const pgoff_t i = x % 4;
                if (x % 3 == 0)
                    m.cache.remove(f, i);
                else
                    m.faults.file_fault(f, i, i);
            }
        });
        for (pgoff_t i = 0; i < 4; ++i)
            if (Page* pte = m.table.read_pte(i)) {
                INFO("page " << i);
                CHECK(cached(m, f, i, pte));
            }
    });
}

TEST_CASE("a store through a mapping dirties the page under its lock before the fault returns", "[mm][fault][write]")
{
    Process m(4);
    map_linearly(m);
    const FileId f = m.cache.add_file(32);
    // The page is dirty and locked when its PTE is installed: nothing can
    // clean it, evict it or truncate it between the store and the dirtying.
    bool seen_locked_dirty = false;
    m.table.set_locked_hook([&](std::uint64_t vpn) {
        if (vpn != 0)
            return;
        Page* page = m.cache.file(f).index->lookup(0);
        seen_locked_dirty = page && page->test(PG_locked) && page->test(PG_dirty);
    });
    CHECK(m.faults.file_fault(f, 0, 0, true) == FaultKind::Major);
    CHECK(seen_locked_dirty);
    Page* page = m.table.read_pte(0);
    REQUIRE(page);
    CHECK(page->test(PG_dirty));
    CHECK(m.cache.file(f).index->test_tag(0, kTagDirty));
    // Reclaim can only pass it over: a dirty page is never thrown away.
    for (pgoff_t i = 1; i < 4; ++i)
        REQUIRE(m.faults.file_fault(f, i, i) == FaultKind::Major);
    for (int pass = 0; pass < 4; ++pass)
        m.cache.try_to_free_pages();
    CHECK(cached(m, f, 0, page));
    CHECK(m.cache.stats().dirty_skipped >= 1);

    // Write-notify: the first store to a page mapped clean faults to
    // dirty it; a store to a page mapped dirty is no fault at all.
    REQUIRE(m.faults.file_fault(f, 5, 5) == FaultKind::Major);
    Page* clean = m.table.read_pte(5);
    REQUIRE(clean);
    CHECK_FALSE(clean->test(PG_dirty));
    CHECK(m.faults.file_fault(f, 5, 5, true) == FaultKind::Mapped);
    CHECK(clean->test(PG_dirty));
    CHECK(m.cache.file(f).index->test_tag(5, kTagDirty));
    CHECK(m.faults.file_fault(f, 5, 5, true) == FaultKind::Mapped);
    CHECK_FALSE(clean->test(PG_locked));
}

TEST_CASE("a store to a clean mapped page that is truncated meanwhile faults the page in anew",
    "[mm][fault][write][race][modelled-too]")
{
    test::on_test_machine([&] {
        // Write-notify finds page 5 mapped clean, takes a reference and sleeps
        // on the page lock, which a truncate holds: it unmaps the page and
        // takes it out of the cache. The store must not be dropped with the
        // page: the fault goes on as a fault of an unmapped address.
        Process m(16);
        map_linearly(m);
        const FileId f = m.cache.add_file(32);
        REQUIRE(m.faults.file_fault(f, 5, 5) == FaultKind::Major);
        Page* old = m.table.read_pte(5);
        REQUIRE(old);
        REQUIRE_FALSE(old->test(PG_dirty));
        m.cache.page_locks().lock_page(*old); // the truncate's
        std::atomic<int> kind { -1 };
        TaskThread store("store", [&] { kind = int(m.faults.file_fault(f, 5, 5, true)); });
        while (old->lock_waiters.load() == 0)
            test::pause();
        // What PageCache::remove does under the page lock: unmap, then out of
        // the index, then the cache's reference.
        REQUIRE(m.table.unmap(5) == old);
        m.cache.put_page(old); // the mapping's
        REQUIRE(m.cache.file(f).index->erase(5) == old);
        m.cache.put_page(old); // the cache's; the store's own keeps it
        m.cache.page_locks().unlock_page(*old);
        store.join();
        CHECK(kind.load() == int(FaultKind::Major));
        Page* now = m.table.read_pte(5);
        REQUIRE(now);
        CHECK(now->test(PG_dirty));
        CHECK(cached(m, f, 5, now));
    });
}
