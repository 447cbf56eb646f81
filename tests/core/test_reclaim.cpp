// core/mm: reclaim under memory pressure - the index shrinks, mapped pages
// are unmapped through the hook, wasted readahead is counted exactly - and
// a concurrent stress of faults, reads, unmaps, truncation and reclaim that
// checks the LRU, reference and frame invariants afterwards.
#include "events/tracepoint.h"
#include "mm/fault.h"
#include "sync/rcu.h"

#include "fault_rig.h"
#include "index_spec_support.h"
#include "page_cache_support.h"
#include "ring_events.h"
#include "sanitizer_support.h"
#include "test_machine.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace pcl;

namespace {

// Windows of 8 aligned pages, no marker; counts note_thrash per file.
struct Window8 final : ReadaheadPolicy {
    std::array<std::atomic<int>, 4> thrash {};
    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override
    {
        return clamp_window({ r.index - r.index % 8, 8, 0, RaRule::Initial }, r.file_pages);
    }
    ReadaheadWindow async_readahead(const ReadaheadRequest&) override { return {}; }
    void note_thrash(FileId file) override { thrash.at(file).fetch_add(1); }
};

// One process: memory, cache, page table, disk, fault handler; each file
// mapped once, linearly, from vpn file * kSpan, and the try_to_unmap hook
// the engine installs (the rmap is vpn = base(file) + index).
struct Rig : test::PolicyFaultRig {
    static constexpr std::uint64_t kSpan = 4096;

    Rig(std::uint64_t frames, ReadaheadPolicy& policy, bool unmap_hook = true,
        const IndexSpec& spec = test::radix_rcu_spec())
        : PolicyFaultRig(frames, policy, spec, { 20'000, 1'000, 1.0 })
    {
        if (unmap_hook)
            cache.set_try_to_unmap([this](Page& page) {
                Page* mapped = table.unmap(page.mapping * kSpan + page.index);
                if (!mapped)
                    return false;
                if (mapped != &page) {
                    wrong_unmaps.fetch_add(1);
                    table.install(page.mapping * kSpan + page.index, mapped);
                    return false;
                }
                cache.put_page(mapped); // the mapping's reference
                return true;
            });
        cache.set_on_thrash([&policy](FileId f) { policy.note_thrash(f); });
    }
    ~Rig()
    {
        for (FileId f = 0; f < cache.file_count(); ++f)
            for (pgoff_t i = 0; i < cache.file(f).size_pages; ++i)
                if (Page* p = table.unmap(f * kSpan + i))
                    cache.put_page(p);
        settle();
    }
    /// Waits for every read in flight (the device unlocks each page it
    /// reads) and for deferred frees.
    void settle()
    {
        for (FileId f = 0; f < cache.file_count(); ++f)
            for (Page* p : pages(f))
                cache.page_locks().wait_on_page_locked(*p);
        rcu::barrier();
    }
    /// The pages of file @f, in index order (quiescent callers only).
    std::vector<Page*> pages(FileId f)
    {
        std::vector<Page*> out;
        Page* batch[64];
        pgoff_t next = 0;
        rcu::ReadGuard guard;
        for (;;) {
            const std::size_t n = cache.file(f).index->gang_lookup(next, 64, batch);
            for (std::size_t k = 0; k < n; ++k) {
                out.push_back(batch[k]);
                next = batch[k]->index + 1;
            }
            if (n < 64)
                return out;
        }
    }
    bool cached(FileId f, pgoff_t i)
    {
        Page* p = cache.find_get_page(f, i);
        if (p)
            cache.put_page(p);
        return p != nullptr;
    }

    std::atomic<int> wrong_unmaps { 0 };
};

/// Every index kind with every one of its locking schemes.
std::vector<IndexSpec> every_index()
{
    std::vector<IndexSpec> out;
    for (const IndexKind kind : index_kinds())
        for (const std::string& scheme : index_schemes(kind)) {
            IndexSpec s;
            s.kind = kind;
            s.scheme = scheme;
            out.push_back(s);
        }
    return out;
}

} // namespace

TEST_CASE("evictions shrink the file's index: count and radix-tree nodes", "[mm][reclaim][index]")
{
    NoReadahead none;
    Rig m(64, none);
    m.cache.set_reclaim_batch(32);
    const FileId a = m.cache.add_file(64 * 64);
    const FileId b = m.cache.add_file(64);
    // One page in each of 64 leaves of a's tree.
    for (pgoff_t k = 0; k < 64; ++k)
        REQUIRE(m.faults.read(a, k * 64, 1).ok);
    m.settle();
    const IndexShape before = m.cache.file(a).index->shape();
    CHECK(m.cache.file(a).nrpages() == 64);
    // One page of b needs a frame: a batch of 32 goes, a's oldest.
    REQUIRE(m.faults.read(b, 0, 1).ok);
    m.settle();
    CHECK(m.cache.stats().evictions == 32);
    CHECK(m.cache.file(a).nrpages() == 32);
    CHECK(m.cache.file(a).evictions == 32);
    for (pgoff_t k = 0; k < 64; ++k)
        CHECK(m.cached(a, k * 64) == (k >= 32));
    // The tree has exactly the nodes of a tree built with the survivors.
    sync::LockRegistry scratch;
    auto oracle = make_page_index(test::radix_rcu_spec(), 0, scratch);
    std::vector<Page> dummies(32);
    for (pgoff_t k = 32; k < 64; ++k)
        REQUIRE(oracle->insert(k * 64, &dummies[k - 32]) == InsertResult::Inserted);
    const IndexShape after = m.cache.file(a).index->shape();
    CHECK(after.nodes < before.nodes);
    CHECK(after.nodes == oracle->shape().nodes);
    CHECK(after.height == oracle->shape().height);
    for (pgoff_t k = 32; k < 64; ++k)
        oracle->erase(k * 64);
    rcu::barrier();
}

TEST_CASE("a mapped page is evicted through the try_to_unmap hook", "[mm][reclaim][mapped]")
{
    NoReadahead none;
    Rig m(4, none);
    m.cache.set_reclaim_batch(1);
    test::EventRecorder events;
    const FileId f = m.cache.add_file(64);
    for (pgoff_t i = 0; i < 4; ++i)
        REQUIRE(m.faults.file_fault(f, i, i) == FaultKind::Major);
    // Each fault marked its page accessed once: every page gets its second
    // chance (4 rotations), then page 0 is unmapped and evicted.
    REQUIRE(m.faults.file_fault(f, 4, 4) == FaultKind::Major);
    CHECK(m.table.read_pte(0) == nullptr);
    CHECK_FALSE(m.cached(f, 0));
    CHECK(m.table.mapped_count() == 4);
    PageCacheStats s = m.cache.stats();
    CHECK(s.rotated == 4);
    CHECK(s.evictions == 1);
    CHECK(s.mapped_evictions == 1);
    const std::vector<Event> evicted = events.take(EventKind::PageEvicted);
    REQUIRE(evicted.size() == 1);
    CHECK(evicted[0].index == 0);
    CHECK(evicted[0].arg1 == 1);
    // An access through the mapping (no fault) sets the accessed bit again:
    // page 1, at the tail, was kept once with PG_referenced set, so it has
    // been used twice and goes to the active list (PAGEREF_ACTIVATE); page
    // 2, kept once and not accessed since, goes.
    CHECK(m.faults.file_fault(f, 1, 1) == FaultKind::Mapped);
    const std::uint64_t activations = m.cache.stats().activations;
    REQUIRE(m.faults.file_fault(f, 5, 5) == FaultKind::Major);
    CHECK(m.table.read_pte(1) != nullptr);
    CHECK(m.table.read_pte(2) == nullptr);
    CHECK_FALSE(m.cached(f, 2));
    s = m.cache.stats();
    CHECK(s.rotated == 4);
    CHECK(s.activations == activations + 1);
    REQUIRE(m.table.read_pte(1));
    CHECK(m.table.read_pte(1)->test(PG_active));
    CHECK(s.mapped_evictions == 2);
    // Faulting an evicted page in again reads it again.
    CHECK(m.faults.file_fault(f, 0, 0) == FaultKind::Major);
    CHECK(m.cache.stats().refaults == 1);
    CHECK(m.wrong_unmaps == 0);
}

TEST_CASE("without the hook, mapped pages are not reclaimed", "[mm][reclaim][mapped]")
{
    NoReadahead none;
    Rig m(4, none, false);
    const FileId f = m.cache.add_file(64);
    for (pgoff_t i = 0; i < 4; ++i)
        REQUIRE(m.faults.file_fault(f, i, i) == FaultKind::Major);
    CHECK(m.faults.file_fault(f, 4, 4) == FaultKind::NoMemory);
    CHECK(m.cache.stats().evictions == 0);
    CHECK(m.memory.failures() == 1);
    // A page read, not mapped, is reclaimable.
    Page* unmapped = m.table.unmap(3);
    REQUIRE(unmapped != nullptr);
    m.cache.put_page(unmapped); // the mapping's reference
    CHECK(m.faults.file_fault(f, 4, 4) == FaultKind::Major);
    CHECK_FALSE(m.cached(f, 3));
}

TEST_CASE("readahead pages evicted before use are counted as wasted, exactly", "[mm][reclaim][readahead]")
{
    Window8 policy;
    Rig m(8, policy);
    test::EventRecorder events;
    const FileId a = m.cache.add_file(64);
    const FileId b = m.cache.add_file(64);
    // Page 0 of a, read with its window: pages 1..7 read ahead.
    REQUIRE(m.faults.read(a, 0, 1).ok);
    m.settle();
    for (pgoff_t i = 1; i < 8; ++i) {
        Page* p = m.cache.find_get_page(a, i);
        REQUIRE(p);
        CHECK(p->test(PG_ra_unused));
        m.cache.put_page(p);
    }
    // Page 3 is used after all: no longer unused.
    REQUIRE(m.faults.read(a, 3, 1).ok);
    // b's window needs all 8 frames. The first reclaim passes over 0 and 3
    // (referenced: second chance) and evicts the six unused ones; the
    // second evicts 0 and 3, used, while b's new pages are locked for
    // their read and stay.
    REQUIRE(m.faults.read(b, 0, 1).ok);
    m.settle();
    const PageCacheStats s = m.cache.stats();
    CHECK(s.evictions == 8);
    CHECK(s.wasted_readahead == 6);
    CHECK(m.cache.file(a).wasted_readahead == 6);
    CHECK(m.cache.file(a).evictions == 8);
    CHECK(m.cache.file(b).wasted_readahead == 0);
    CHECK(policy.thrash[a] == 6);
    CHECK(policy.thrash[b] == 0);
    CHECK(m.cache.file(a).nrpages() == 0);
    CHECK(m.cache.file(b).nrpages() == 8);
    std::vector<pgoff_t> wasted, used;
    for (const Event& e : events.take(EventKind::PageEvicted)) {
        CHECK(e.file == a);
        (e.arg0 ? wasted : used).push_back(e.index);
    }
    CHECK(wasted == std::vector<pgoff_t> { 1, 2, 4, 5, 6, 7 });
    CHECK(used == std::vector<pgoff_t> { 0, 3 });
}

TEST_CASE("CPUs faulting, reading, unmapping and truncating under reclaim keep every invariant",
    "[mm][reclaim][stress][modelled-too]")
{
    const IndexSpec spec = GENERATE(from_range(every_index()));
    INFO("index " << index_kind_name(spec.kind) << "/" << spec.scheme);
    test::on_test_machine([&] {
        Window8 policy;
        // 32 frames for 4 CPUs and the default batch of 32: one reclaimer can
        // hold the whole LRU isolated, and four 8-page windows more than fill
        // memory.
        Rig m(32, policy, true, spec);
        REQUIRE(m.cache.reclaim_batch() == 32);
        constexpr pgoff_t kPages = 256;
        const FileId mapped_file = m.cache.add_file(kPages); // faulted, read and truncated under its faults
        const FileId read_file = m.cache.add_file(kPages);   // read and truncated, never mapped
        constexpr unsigned kThreads = 4;
        const int kOps = int(test::rounds(test::kSanitized ? 1000 : 2000));
        std::atomic<int> failures { 0 };
        std::vector<TaskThread> cpus;
        for (unsigned t = 0; t < kThreads; ++t)
            cpus.emplace_back("cpu" + std::to_string(t), [&, t] {
                std::mt19937 rng(1234 + t);
                std::uniform_int_distribution<pgoff_t> page(0, kPages - 1);
                std::uniform_int_distribution<int> what(0, 9);
                for (int k = 0; k < kOps; ++k) {
                    test::step();
                    const pgoff_t i = page(rng);
                    switch (what(rng)) {
                    case 0:
                    case 1:
                    case 2:
                    case 3: {
                        const FaultKind kind = m.faults.file_fault(mapped_file, i, mapped_file * Rig::kSpan + i);
                        failures += kind == FaultKind::NoMemory;
                        break;
                    }
                    case 4:
                    case 5:
                        failures += !m.faults.read(mapped_file, i, std::min<pgoff_t>(3, kPages - i)).ok;
                        break;
                    case 6:
                    case 7:
                        failures += !m.faults.read(read_file, i, std::min<pgoff_t>(3, kPages - i)).ok;
                        break;
                    case 8:
                        if (Page* p = m.table.unmap(mapped_file * Rig::kSpan + i))
                            m.cache.put_page(p); // munmap of one page
                        break;
                    case 9:
                        // Truncation, of a mapped page half the time: it
                        // races the faults' recheck and install.
                        m.cache.remove(k % 2 ? mapped_file : read_file, i);
                        break;
                    }
                }
            });
        for (auto& c : cpus)
            c.join();
        m.settle();

        INFO("last refusal: " << m.memory.last_failure().describe());
        CHECK(failures == 0);
        CHECK(m.wrong_unmaps == 0);
        const PageCacheStats s = m.cache.stats();
        CHECK(s.evictions > 0);
        CHECK(s.mapped_evictions > 0);
        CHECK(s.no_memory == 0);
        // Every page added left by truncation or eviction, or is still here.
        CHECK(s.adds - s.removes - s.evictions == m.cache.nrpages());
        CHECK(s.evictions == m.cache.file(mapped_file).evictions + m.cache.file(read_file).evictions);
        CHECK(s.wasted_readahead
            == m.cache.file(mapped_file).wasted_readahead + m.cache.file(read_file).wasted_readahead);
        CHECK(s.wasted_readahead == std::uint64_t(policy.thrash[0] + policy.thrash[1]));
        CHECK(s.wasted_readahead <= s.evictions);
        // Every cached page is on exactly one LRU list, and nothing else is.
        std::set<Page*> indexed;
        std::uint64_t active = 0;
        for (FileId f : { mapped_file, read_file })
            for (Page* p : m.pages(f)) {
                CHECK(p->mapping == f);
                CHECK(p->test(PG_lru));
                CHECK_FALSE(p->test(PG_locked));
                CHECK(p->count >= 1);
                active += p->test(PG_active);
                indexed.insert(p);
            }
        const std::vector<Page*> act = m.cache.lru_pages(LruList::Active);
        const std::vector<Page*> inact = m.cache.lru_pages(LruList::Inactive);
        std::set<Page*> listed(act.begin(), act.end());
        listed.insert(inact.begin(), inact.end());
        CHECK(listed.size() == act.size() + inact.size()); // no page on both, none twice
        CHECK(listed == indexed);
        CHECK(act.size() == active);
        CHECK(m.cache.nr_active() == act.size());
        CHECK(m.cache.nr_inactive() == inact.size());
        CHECK(m.cache.nr_active() + m.cache.nr_inactive() == m.cache.nrpages());
        // Frames: exactly the cached pages (a mapped page is always cached here),
        // none left in transit, no read left in flight.
        CHECK(m.memory.in_use() == m.cache.nrpages());
        CHECK(m.memory.in_transit() == 0);
        CHECK(m.cache.page_locks().pages_under_io() == 0);
        // Every mapping points at the page the cache holds for it, with the
        // cache's and the mapping's references.
        std::uint64_t mapped = 0;
        for (pgoff_t i = 0; i < kPages; ++i)
            if (Page* p = m.table.read_pte(mapped_file * Rig::kSpan + i)) {
                ++mapped;
                CHECK(p->mapping == mapped_file);
                CHECK(p->index == i);
                CHECK(indexed.count(p) == 1);
                CHECK(p->count >= 2);
            }
        CHECK(mapped == m.table.mapped_count());
    });
}

TEST_CASE("a page whose last reference goes while reclaim scans it leaves the LRU with it",
    "[mm][reclaim][stress][modelled-too]")
{
    test::on_test_machine([&] {
        // __page_cache_release tests PG_lru without zone.lru_lock. Reclaim
        // meets pages whose count is already zero (truncated, last put under
        // way) and must leave PG_lru set on them while they stay linked:
        // cleared for a moment, the last put skips the list and frees a frame
        // that is still linked, and its next page is linked twice.
        Window8 policy;
        Rig m(4096, policy, false);
        const FileId f = m.cache.add_file(1024);
        // Pages reclaim isolates and puts back every round: held by the test,
        // and with no unmap hook nothing can take them.
        std::vector<Page*> pinned;
        for (pgoff_t i = 0; i < 4; ++i) {
            REQUIRE(test::read_in(m.cache, f, 512 + i).status == PageCache::AddStatus::Created);
            pinned.push_back(m.cache.find_get_page(f, 512 + i));
            m.cache.mark_page_accessed(*pinned.back());
            m.cache.mark_page_accessed(*pinned.back()); // active: reclaim moves it back to the inactive list
        }
        std::atomic<bool> done { false };
        CpuScope cpu0 { 0 };
        TaskThread reclaimer("reclaim", [&] {
            CpuScope cpu1 { 1 };
            while (!done.load(std::memory_order_acquire)) {
                // A pass on a modelled machine is charged only its locks
                // and lines, not its scan of each page: between two
                // passes the other CPU's request for the LRU's lock must
                // get in, as it does on the host, where a pass takes
                // microseconds.
                test::step(2'000);
                m.cache.try_to_free_pages();
                test::pause(); // waits for the other CPU's rounds (test_machine.h)
            }
        });
        const int kRounds = int(test::rounds(100'000));
        for (int k = 0; k < kRounds; ++k) {
            test::step();
            const pgoff_t i = pgoff_t(k % 64);
            test::read_in(m.cache, f, i); // one page on the lists, the cache's reference only
            m.cache.remove(f, i);         // truncated: its last put races with reclaim
        }
        done.store(true, std::memory_order_release);
        reclaimer.join();
        m.settle();

        // Counted before walking: a page linked twice would make the walk loop.
        REQUIRE(m.cache.nr_active() + m.cache.nr_inactive() == m.cache.nrpages());
        REQUIRE(m.memory.in_use() == m.cache.nrpages());
        const std::vector<Page*> act = m.cache.lru_pages(LruList::Active);
        const std::vector<Page*> inact = m.cache.lru_pages(LruList::Inactive);
        std::set<Page*> listed(act.begin(), act.end());
        listed.insert(inact.begin(), inact.end());
        const std::vector<Page*> cached = m.pages(f);
        CHECK(listed == std::set<Page*>(cached.begin(), cached.end()));
        CHECK(listed.size() == act.size() + inact.size());
        for (Page* p : pinned)
            m.cache.put_page(p);
    });
}
