// core/mm: the two-list LRU (mm/swap.c), reclaim's order of eviction
// (mm/vmscan.c) and refault detection (mm/workingset.c), single-threaded so
// that every order and count is exact.
#include "events/tracepoint.h"
#include "mm/page_cache.h"
#include "sync/rcu.h"

#include "index_spec_support.h"
#include "page_cache_support.h"
#include "ring_events.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <mutex>
#include <vector>

using namespace pcl;

namespace {

struct Memory {
    explicit Memory(std::uint64_t frames, unsigned batch = 1)
        : frames(frames, registry)
        , cache(test::radix_rcu_spec(), this->frames, registry)
    {
        cache.set_reclaim_batch(batch);
        file = cache.add_file(1024);
    }
    ~Memory() { rcu::barrier(); }

    /// Adds page @i, read in (up to date, unlocked), holding only the
    /// cache's reference; returns the status of the add.
    PageCache::AddStatus add(pgoff_t i) { return test::read_in(cache, file, i).status; }
    /// Adds pages 0 .. @n - 1, each new to the cache, in order.
    void fill(pgoff_t n)
    {
        for (pgoff_t i = 0; i < n; ++i)
            REQUIRE(add(i) == PageCache::AddStatus::Created);
    }
    /// Two accesses to each of @pages: the second promotes it to the active list.
    void activate(std::initializer_list<pgoff_t> pages)
    {
        for (pgoff_t i : pages) {
            touch(i);
            touch(i);
        }
    }
    /// An access to page @i, which must be cached (a read(2) hit).
    void touch(pgoff_t i)
    {
        Page* p = cache.find_get_page(file, i);
        REQUIRE(p);
        cache.mark_page_accessed(*p);
        cache.put_page(p);
    }
    bool cached(pgoff_t i)
    {
        Page* p = cache.find_get_page(file, i);
        if (p)
            cache.put_page(p);
        return p != nullptr;
    }
    Page* page(pgoff_t i)
    {
        Page* p = cache.find_get_page(file, i);
        if (p)
            cache.put_page(p); // the cache's reference keeps it: single-threaded
        return p;
    }
    /// The indexes on @list, head (most recent) to tail.
    std::vector<pgoff_t> list(LruList which)
    {
        std::vector<pgoff_t> out;
        for (Page* p : cache.lru_pages(which))
            out.push_back(p->index);
        return out;
    }

    sync::LockRegistry registry;
    FrameAllocator frames;
    PageCache cache;
    FileId file = 0;
};

using Idx = std::vector<pgoff_t>;

} // namespace

TEST_CASE("new pages go on the inactive head, the second reference promotes", "[mm][lru]")
{
    Memory m(8);
    m.fill(4);
    CHECK(m.list(LruList::Inactive) == Idx { 3, 2, 1, 0 });
    CHECK(m.list(LruList::Active).empty());
    CHECK(m.cache.nr_inactive() == 4);
    CHECK(m.cache.nr_active() == 0);
    CHECK_FALSE(m.page(1)->test(PG_referenced));

    m.touch(1); // first reference: PG_referenced, still inactive
    CHECK(m.page(1)->test(PG_referenced));
    CHECK_FALSE(m.page(1)->test(PG_active));
    CHECK(m.cache.nr_active() == 0);

    m.touch(1); // second: activate_page, PG_referenced cleared
    CHECK(m.page(1)->test(PG_active));
    CHECK_FALSE(m.page(1)->test(PG_referenced));
    CHECK(m.list(LruList::Active) == Idx { 1 });
    CHECK(m.list(LruList::Inactive) == Idx { 3, 2, 0 });
    CHECK(m.cache.stats().activations == 1);
    CHECK(m.cache.inactive_age() == 1); // an activation ages the inactive list

    m.touch(1); // active and referenced: stays where it is
    CHECK(m.page(1)->test(PG_active));
    CHECK(m.page(1)->test(PG_referenced));
    CHECK(m.cache.stats().activations == 1);
    CHECK(m.cache.nr_active() + m.cache.nr_inactive() == m.cache.nrpages());
}

TEST_CASE("reclaim evicts inactive pages oldest first and spares the active ones", "[mm][lru][reclaim]")
{
    Memory m(8);
    test::EventRecorder events;
    m.fill(8);
    m.activate({ 2, 5 });
    CHECK(m.list(LruList::Active) == Idx { 5, 2 });
    CHECK(m.list(LruList::Inactive) == Idx { 7, 6, 4, 3, 1, 0 });
    CHECK(m.frames.free_frames() == 0);

    // Each new page needs a frame: one victim each, from the inactive tail.
    const Idx expected_victims { 0, 1, 3, 4 };
    for (std::size_t k = 0; k < expected_victims.size(); ++k) {
        REQUIRE(m.add(8 + k) == PageCache::AddStatus::Created);
        for (std::size_t v = 0; v <= k; ++v)
            CHECK_FALSE(m.cached(expected_victims[v]));
        for (pgoff_t i : { 2, 5, 6, 7 })
            CHECK(m.cached(i));
    }
    const std::vector<Event> evicted = events.take(EventKind::PageEvicted);
    REQUIRE(evicted.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) {
        CHECK(evicted[k].index == expected_victims[k]);
        // The page's identity is its frame's number: fill() took frames
        // 0..7 in order for pages 0..7.
        CHECK(evicted[k].object == expected_victims[k]);
        CHECK(evicted[k].file == m.file);
        CHECK(evicted[k].arg0 == 0); // not readahead
        CHECK(evicted[k].arg1 == 0); // not mapped
    }
    const PageCacheStats s = m.cache.stats();
    CHECK(s.evictions == 4);
    CHECK(s.scanned == 4);
    CHECK(s.rotated == 0);
    CHECK(s.deactivations == 0);
    CHECK(s.direct_reclaims == 4);
    CHECK(m.frames.reclaims() == 4);
    CHECK(m.frames.failures() == 0);
    CHECK(m.list(LruList::Active) == Idx { 5, 2 });
    CHECK(m.list(LruList::Inactive) == Idx { 11, 10, 9, 8, 7, 6 });
    CHECK(m.cache.file(m.file).evictions == 4);
    CHECK(m.cache.file(m.file).nrpages() == 8);
    CHECK(m.frames.in_use() == 8);
}

TEST_CASE("a page read once, referenced and not mapped, is reclaimed at the tail", "[mm][lru][reclaim]")
{
    // page_check_references (2.6.34): PG_referenced without an accessed
    // PTE is a page used once through read(2), PAGEREF_RECLAIM_CLEAN. Only
    // a second use (mark_page_accessed promotes it) or a mapping's accessed
    // bit keeps it (test_reclaim has the mapped case).
    Memory m(4);
    m.fill(4);
    m.touch(0); // referenced once: inactive with PG_referenced
    REQUIRE(m.page(0)->test(PG_referenced));
    REQUIRE(m.add(4) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(0));
    CHECK(m.list(LruList::Inactive) == Idx { 4, 3, 2, 1 });
    CHECK(m.cache.stats().rotated == 0);
    CHECK(m.cache.stats().scanned == 1);
    CHECK(m.cache.stats().evictions == 1);
    // Touched twice, page 1 is active and survives the next two additions.
    m.activate({ 1 });
    REQUIRE(m.add(5) == PageCache::AddStatus::Created);
    REQUIRE(m.add(6) == PageCache::AddStatus::Created);
    CHECK(m.cached(1));
    CHECK_FALSE(m.cached(2));
    CHECK_FALSE(m.cached(3));
    CHECK(m.list(LruList::Active) == Idx { 1 });
    CHECK(m.list(LruList::Inactive) == Idx { 6, 5, 4 });
}

TEST_CASE("a short inactive list is refilled from the active tail", "[mm][lru][reclaim]")
{
    Memory m(4);
    m.fill(4);
    m.activate({ 0, 1, 2 });
    m.touch(0); // active and referenced
    CHECK(m.list(LruList::Active) == Idx { 2, 1, 0 });
    CHECK(m.list(LruList::Inactive) == Idx { 3 });
    // 1 inactive < 3 active: the active tail (0) is deactivated first,
    // losing PG_referenced, then the inactive tail (3) is the victim.
    REQUIRE(m.add(4) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(3));
    CHECK(m.cache.stats().deactivations == 1);
    CHECK_FALSE(m.page(0)->test(PG_active));
    CHECK_FALSE(m.page(0)->test(PG_referenced));
    CHECK(m.list(LruList::Active) == Idx { 2, 1 });
    CHECK(m.list(LruList::Inactive) == Idx { 4, 0 });
    // 2 inactive, 2 active: balanced, so the deactivated page goes next.
    REQUIRE(m.add(5) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(0));
    CHECK(m.cache.stats().deactivations == 1);
    CHECK(m.list(LruList::Inactive) == Idx { 5, 4 });
}

TEST_CASE("with nothing reclaimable the allocation fails, after looking at everything", "[mm][lru][reclaim]")
{
    SECTION("pages in use")
    {
        Memory m(2);
        auto a = m.cache.find_or_create_page(m.file, 0);
        auto b = m.cache.find_or_create_page(m.file, 1);
        REQUIRE(a.status == PageCache::AddStatus::Created);
        REQUIRE(b.status == PageCache::AddStatus::Created);
        m.cache.page_locks().unlock_page(*a.page);
        m.cache.page_locks().unlock_page(*b.page);
        // Both referenced by the test, and with no try_to_unmap hook an
        // extra reference pins a page: a pass (1 page at priority 1, both
        // at 0) finds nothing to wait for, a second one a wait later
        // confirms it, and the allocation fails.
        CHECK(m.add(2) == PageCache::AddStatus::NoMemory);
        CHECK(m.frames.failures() == 1);
        CHECK(m.frames.stalls() == 1);
        CHECK(m.cache.stats().evictions == 0);
        CHECK(m.cache.stats().scanned == 6);
        CHECK(m.cache.nr_inactive() == 2);
        CHECK(m.frames.last_failure().describe()
            == "every one of the 2 frames is pinned: 2 referenced beyond the cache with no way to unmap them");
        // A page locked, with no read in flight, is a CPU's brief hold:
        // waited for, kMaxReclaimRetries times and at least a quarter of a
        // second, before the allocation fails.
        REQUIRE(PageWaitTable::trylock_page(*b.page));
        CHECK(m.add(2) == PageCache::AddStatus::NoMemory);
        CHECK(m.frames.failures() == 2);
        CHECK(m.frames.reclaims() > 1 + FrameAllocator::kMaxReclaimRetries);
        CHECK(m.frames.stalls() >= FrameAllocator::kMaxReclaimRetries);
        CHECK(m.cache.stats().scanned == 3 * m.frames.reclaims());
        CHECK(m.frames.last_failure().reclaim.locked == 1);
        CHECK(m.frames.last_failure().reclaim.unmappable == 1);
        m.cache.page_locks().unlock_page(*b.page);
        m.cache.put_page(a.page);
        m.cache.put_page(b.page);
        CHECK(m.add(2) == PageCache::AddStatus::Created); // now one can go
        CHECK(m.cache.stats().evictions == 1);
    }
    SECTION("dirty pages, with no flusher to write them")
    {
        Memory m(2);
        REQUIRE(m.add(0) == PageCache::AddStatus::Created);
        REQUIRE(m.add(1) == PageCache::AddStatus::Created);
        m.page(0)->set(PG_dirty);
        m.page(1)->set(PG_dirty);
        CHECK(m.add(2) == PageCache::AddStatus::NoMemory);
        CHECK(m.cache.stats().dirty_skipped == 6);
        CHECK(m.frames.stalls() == 1);
        CHECK(m.frames.last_failure().describe()
            == "every one of the 2 frames is pinned: 2 dirty, with no writeback to clean them");
        m.page(1)->clear(PG_dirty);
        CHECK(m.add(2) == PageCache::AddStatus::Created);
        CHECK_FALSE(m.cached(1));
        CHECK(m.cached(0));
    }
}

TEST_CASE("a refault within the active list's size is activated", "[mm][lru][workingset]")
{
    Memory m(6);
    test::EventRecorder events;
    m.fill(6);
    m.activate({ 4, 5 });
    CHECK(m.cache.inactive_age() == 2);
    REQUIRE(m.add(6) == PageCache::AddStatus::Created); // evicts 0: shadow age 3
    CHECK_FALSE(m.cached(0));
    CHECK(m.cache.inactive_age() == 3);
    CHECK(m.cache.nr_shadows() == 1);
    // Page 0 again: the reclaim for its frame evicts 1 (age 4); distance
    // 4 - 3 = 1 <= 2 active pages: it starts on the active list.
    REQUIRE(m.add(0) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(1));
    CHECK(m.page(0)->test(PG_active));
    CHECK(m.list(LruList::Active) == Idx { 0, 5, 4 });
    CHECK(m.cache.inactive_age() == 5); // the activation ages it too
    CHECK(m.cache.nr_shadows() == 1);   // 0's was taken, 1's is there
    const PageCacheStats s = m.cache.stats();
    CHECK(s.refaults == 1);
    CHECK(s.refault_activations == 1);
    CHECK(s.activations == 2); // the two promotions; a refault activation is counted apart
    CHECK(m.cache.file(m.file).refaults == 1);
    const std::vector<Event> refaults = events.take(EventKind::PageRefault);
    REQUIRE(refaults.size() == 1);
    CHECK(refaults[0].index == 0);
    CHECK(refaults[0].arg0 == 1);
    CHECK(refaults[0].arg1 == 1);
}

TEST_CASE("a refault from further back starts inactive again", "[mm][lru][workingset]")
{
    Memory m(4);
    test::EventRecorder events;
    m.fill(4);
    for (pgoff_t i = 4; i < 7; ++i)
        REQUIRE(m.add(i) == PageCache::AddStatus::Created); // evict 0, 1, 2: ages 1, 2, 3
    REQUIRE(m.add(0) == PageCache::AddStatus::Created);     // evicts 3 (age 4); 0's distance 4 - 1 = 3 > 0 active
    CHECK_FALSE(m.page(0)->test(PG_active));
    CHECK(m.list(LruList::Inactive) == Idx { 0, 6, 5, 4 });
    CHECK(m.cache.stats().refaults == 1);
    CHECK(m.cache.stats().refault_activations == 0);
    const std::vector<Event> refaults = events.take(EventKind::PageRefault);
    REQUIRE(refaults.size() == 1);
    CHECK(refaults[0].arg0 == 3);
    CHECK(refaults[0].arg1 == 0);
    // A page never evicted is no refault.
    REQUIRE(m.add(100) == PageCache::AddStatus::Created);
    CHECK(m.cache.stats().refaults == 1);
}

TEST_CASE("shadow entries are bounded at twice the frames, oldest dropped first", "[mm][lru][workingset]")
{
    Memory m(2);
    CHECK(m.cache.max_shadows() == 4);
    for (pgoff_t i = 0; i < 8; ++i)
        REQUIRE(m.add(i) == PageCache::AddStatus::Created); // evicts 0..5
    CHECK(m.cache.stats().evictions == 6);
    CHECK(m.cache.nr_shadows() == 4);
    CHECK(m.cache.stats().shadows_dropped == 2);
    REQUIRE(m.add(0) == PageCache::AddStatus::Created); // 0's shadow was dropped: no refault
    CHECK(m.cache.stats().refaults == 0);
    REQUIRE(m.add(5) == PageCache::AddStatus::Created); // 5's is there
    CHECK(m.cache.stats().refaults == 1);
}

TEST_CASE("ShadowTable: replace, take, bound", "[mm][lru][workingset]")
{
    ShadowTable t(3);
    std::uint64_t age = 0;
    CHECK_FALSE(t.remember(0, 1, 10));
    CHECK_FALSE(t.remember(0, 2, 11));
    CHECK_FALSE(t.remember(0, 1, 12)); // replaces 1's
    CHECK(t.size() == 2);
    CHECK(t.take(0, 1, age));
    CHECK(age == 12);
    CHECK_FALSE(t.take(0, 1, age));
    CHECK_FALSE(t.take(1, 2, age)); // another file
    CHECK_FALSE(t.remember(1, 2, 13));
    CHECK(t.remember(0, 3, 14)); // the queue holds 3 entries: (0,2) is the oldest live one and goes
    CHECK_FALSE(t.take(0, 2, age));
    CHECK(t.take(1, 2, age));
    CHECK(age == 13);
    CHECK(t.take(0, 3, age));
    CHECK(t.size() == 0);
    REQUIRE_THROWS_WITH(ShadowTable(0), Catch::Contains("capacity"));
}

TEST_CASE("reclaim_batch is validated", "[mm][lru]")
{
    Memory m(2);
    REQUIRE_THROWS_WITH(m.cache.set_reclaim_batch(0), Catch::Contains("reclaim_batch") && Catch::Contains("got 0"));
    REQUIRE_THROWS_WITH(m.cache.set_reclaim_batch(1025), Catch::Contains("reclaim_batch"));
    m.cache.set_reclaim_batch(32);
    CHECK(m.cache.reclaim_batch() == 32);
}

TEST_CASE(
    "without used-once detection a referenced inactive page gets a second chance, then goes", "[mm][lru][reclaim]")
{
    // Before 2.6.34 (and in the 2002 kernels the readahead-thrashing
    // lesson runs): any reference earns a second chance.
    Memory m(4);
    m.cache.set_page_check_references(false);
    m.fill(4);
    m.touch(0); // referenced once: inactive with PG_referenced
    REQUIRE(m.add(4) == PageCache::AddStatus::Created);
    // Page 0 was at the tail: rotated to the head with PG_referenced
    // cleared; page 1, next, went.
    CHECK(m.cached(0));
    CHECK_FALSE(m.cached(1));
    CHECK_FALSE(m.page(0)->test(PG_referenced));
    CHECK(m.list(LruList::Inactive) == Idx { 4, 0, 3, 2 });
    CHECK(m.cache.stats().rotated == 1);
    CHECK(m.cache.stats().scanned == 2);
    REQUIRE(m.add(5) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(2));
    REQUIRE(m.add(6) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(3));
    REQUIRE(m.add(7) == PageCache::AddStatus::Created);
    CHECK_FALSE(m.cached(0)); // its second chance is used up
    CHECK(m.list(LruList::Inactive) == Idx { 7, 6, 5, 4 });
    CHECK(m.cache.stats().rotated == 1);
    CHECK(m.cache.stats().evictions == 4);
}

TEST_CASE("a page moved to the inactive tail is the next one reclaim looks at, from either list", "[mm][lru]")
{
    sync::LockRegistry registry;
    LruLists lru(registry);
    Page a, b, c;
    {
        std::lock_guard g(lru.lock());
        lru.add_locked(a, LruList::Inactive);
        lru.add_locked(b, LruList::Inactive);
        lru.add_locked(c, LruList::Active);
        REQUIRE(lru.tail_locked(LruList::Inactive) == &a);
        lru.move_tail_locked(b, LruList::Inactive); // rotate_reclaimable_page
        CHECK(lru.tail_locked(LruList::Inactive) == &b);
        lru.move_tail_locked(c, LruList::Inactive); // written while active
        CHECK(lru.tail_locked(LruList::Inactive) == &c);
        CHECK(lru.tail_locked(LruList::Active) == nullptr);
    }
    CHECK_FALSE(c.test(PG_active));
    CHECK(c.test(PG_lru));
    CHECK(lru.size(LruList::Inactive) == 3);
    CHECK(lru.size(LruList::Active) == 0);
    CHECK(lru.pages(LruList::Inactive) == std::vector<Page*> { &a, &b, &c });
}
