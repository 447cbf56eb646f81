#include "mm/page_cache.h"

#include "base/machine_calls.h"
#include "events/tracepoint.h"
#include "index/hash_index.h"
#include "sync/cpu_relax.h"
#include "sync/rcu.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

namespace pcl {

PageCache::PageCache(const IndexSpec& spec, FrameAllocator& frames, sync::LockRegistry& registry)
    : spec_(spec)
    , frames_(frames)
    , registry_(registry)
    , lru_(registry)
    , shadows_(2 * frames.total())
{
    index_schemes(spec.kind); // throws for a value outside the enumeration
    if (spec.kind == IndexKind::Hash)
        hash_ = HashIndex::create(HashConfig::from_spec(spec), registry);
    frames_.set_reclaim([this] { return try_to_free_pages(); });
}

PageCache::~PageCache()
{
    frames_.set_reclaim({});
    // The cache's own references go; pages still referenced elsewhere are
    // their holders' to put.
    for (auto& as : files_) {
        Page* batch[64];
        pgoff_t next = 0;
        for (;;) {
            const std::size_t n = as.index->gang_lookup(next, 64, batch);
            for (std::size_t k = 0; k < n; ++k) {
                next = batch[k]->index + 1;
                if (as.index->erase(batch[k]->index) == batch[k])
                    put_page(batch[k]);
            }
            if (n < 64)
                break;
        }
    }
}

FileId PageCache::add_file(pgoff_t size_pages)
{
    const FileId id = FileId(files_.size());
    AddressSpace& as = files_.emplace_back();
    as.id = id;
    as.size_pages = size_pages;
    if (hash_)
        as.index = hash_->mapping(id);
    else
        as.index = make_page_index(spec_, id, registry_);
    return id;
}

AddressSpace& PageCache::file(FileId id)
{
    if (id >= files_.size())
        throw std::out_of_range("file " + std::to_string(id) + " does not exist (the cache has "
            + std::to_string(files_.size()) + " files)");
    return files_[id];
}

std::size_t PageCache::file_count() const
{
    return files_.size();
}

Page* PageCache::find_get_page(FileId file_id, pgoff_t index)
{
    AddressSpace& as = file(file_id);
    count_.lookups.add(1, std::memory_order_relaxed);
    if (!as.index->lockless_lookups()) {
        // 2.4 and 2.6.0: the reference is taken under the lock the lookup
        // holds anyway, one round trip of pagecache_lock or tree_lock (the
        // walk is charged there, under the lock).
        Page* page = as.index->lookup_get_locked(index);
        if (page)
            count_.hits.add(1, std::memory_order_relaxed);
        return page;
    }
    // The speculative get of the lockless pagecache (2.6.27): a page found
    // in the index may be removed and on its way back to the allocator
    // before we take our reference. RCU keeps its frame from being reused
    // meanwhile; get_unless_zero refuses a page whose last reference is
    // gone; the second look refuses one that was removed (and perhaps
    // replaced) in between.
    as.index->charge_walk();
    rcu::ReadGuard guard;
    for (;;) {
        Page* page = as.index->lookup(index);
        if (!page)
            return nullptr;
        // Each step of the speculative get is a point another CPU may act
        // between: an explored schedule tries the removal in every window.
        preemption_point();
        if (!page->get_unless_zero()) {
            sync::retry_relax(); // its last holder is taking it out
            continue;
        }
        preemption_point();
        if (as.index->lookup(index) == page) {
            count_.hits.add(1, std::memory_order_relaxed);
            return page;
        }
        put_page(page);
    }
}

PageCache::AddResult PageCache::find_or_create_page(FileId file_id, pgoff_t index, Gfp gfp)
{
    AddressSpace& as = file(file_id);
    if (index >= as.size_pages)
        return { nullptr, AddStatus::OutOfRange };
    for (;;) {
        if (Page* page = find_get_page(file_id, index))
            return { page, AddStatus::Found };
        Page* page = frames_.alloc(file_id, index, gfp);
        if (!page) {
            // A readahead page not had is a window cut short, not an error.
            (gfp == Gfp::NoRetry ? count_.readahead_cut : count_.no_memory).add(1);
            return { nullptr, AddStatus::NoMemory };
        }
        // Locked before anyone can see it: whoever finds it waits for the
        // read to complete. One reference for the cache, one for the caller.
        page->set(PG_locked);
        page->get();
        if (before_insert)
            before_insert(file_id, index);
        as.index->charge_walk();
        switch (as.index->insert(index, page)) {
        case InsertResult::Inserted:
            count_.adds.add(1, std::memory_order_relaxed);
            lru_cache_add(*page);
            return { page, AddStatus::Created };
        case InsertResult::Exists:
            // Another CPU's page got there first: ours was never visible,
            // so its frame goes straight back; use the winner's.
            count_.insert_races.add(1, std::memory_order_relaxed);
            page->count.store(0, std::memory_order_relaxed);
            frames_.free(page);
            continue;
        case InsertResult::NoMemory:
            count_.no_memory.add(1, std::memory_order_relaxed);
            page->count.store(0, std::memory_order_relaxed);
            frames_.free(page);
            return { nullptr, AddStatus::NoMemory };
        }
    }
}

bool PageCache::remove(FileId file_id, pgoff_t index)
{
    // truncate_inode_pages for one page, done with the page locked, as in
    // Linux: a page under I/O is removed only once its read has completed,
    // so the device never completes a read into a frame that was freed and
    // reused. A mapped page is unmapped first (unmap_mapping_range): a
    // fault installs its PTE with the page locked, so under the lock no
    // mapping can appear that would outlive the page's place in the cache.
    AddressSpace& as = file(file_id);
    Page* page = find_get_page(file_id, index);
    if (!page)
        return false;
    page_locks_.lock_page(*page);
    bool ours = as.index->lookup(index) == page;
    if (ours) {
        // The cache's reference and ours; more may be a mapping.
        if (page->count.load(std::memory_order_acquire) > 2 && try_to_unmap_)
            try_to_unmap_(*page);
        // truncate_inode_pages: a write in flight finishes first (no new
        // one can start: that takes the page lock); unwritten data goes.
        wait_on_page_writeback(*page);
        if (page->test_and_clear(PG_dirty)) {
            as.index->clear_tag(index, kTagDirty);
            account_page_cleaned(as);
            count_.cancelled_dirty.add(1, std::memory_order_relaxed);
        }
        ours = as.index->erase(index) == page;
    }
    page_locks_.unlock_page(*page);
    if (ours) {
        count_.removes.add(1, std::memory_order_relaxed);
        put_page(page); // the cache's reference
    }
    put_page(page); // find_get_page's
    return ours;
}

void PageCache::put_page(Page* page)
{
    if (page->put()) {
        // Between the count reaching zero and PG_lru's test reclaim may
        // meet the page on its list (an explored schedule tries it).
        preemption_point();
        // __page_cache_release: off the LRU before the frame goes. Once the
        // count is zero PG_lru changes only here: only holders of a
        // reference add pages to a list or isolate them, and a page moved
        // between lists keeps PG_lru set (LruLists::move_locked), so the
        // test without the lock cannot miss a page that is linked.
        if (page->test(PG_lru)) {
            std::lock_guard g(lru_.lock());
            if (page->test(PG_lru)) {
                frames_.unsettle(); // in transit before it leaves the list, a grace period from free
                lru_.del_locked(*page);
            }
        }
        frames_.free_rcu(page);
    }
}

void PageCache::lru_cache_add(Page& page)
{
    // lru_cache_add_file, with add_to_page_cache_lru's workingset_refault
    // (3.15): a page with a shadow is a refault; if it was evicted no more
    // than nr_active inactive-list moves ago, an active slot would have
    // kept it, so it starts on the active list (and that activation ages
    // the inactive list, workingset_activation).
    bool refault = false;
    bool activate = false;
    std::uint64_t distance = 0;
    {
        std::lock_guard g(lru_.lock());
        std::uint64_t shadow = 0;
        if (shadows_.size() && shadows_.take(page.mapping, page.index, shadow)) {
            refault = true;
            const std::uint64_t age = inactive_age_.load(std::memory_order_relaxed);
            distance = age - shadow;
            activate = distance <= lru_.size(LruList::Active);
            if (activate)
                inactive_age_.store(age + 1, std::memory_order_relaxed);
        }
        lru_.add_locked(page, activate ? LruList::Active : LruList::Inactive);
    }
    frames_.settle(); // where reclaim can find it
    if (refault) {
        count_.refaults.add(1, std::memory_order_relaxed);
        file(page.mapping).refaults.fetch_add(1, std::memory_order_relaxed);
        if (activate)
            count_.refault_activations.add(1, std::memory_order_relaxed);
        trace::page_refault({ .file = page.mapping, .page = page.index, .distance = distance, .active = activate });
    }
}

void PageCache::activate_page(Page& page)
{
    bool moved = false;
    {
        std::lock_guard g(lru_.lock());
        // Isolated by reclaim, or already active: nothing to do (as Linux).
        if (page.test(PG_lru) && !page.test(PG_active)) {
            lru_.move_locked(page, LruList::Active);
            inactive_age_.store(inactive_age_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
            moved = true;
        }
    }
    if (moved)
        count_.activations.add(1, std::memory_order_relaxed);
}

void PageCache::mark_page_accessed(Page& page)
{
    // mm/swap.c (2.6.28): inactive,unreferenced -> inactive,referenced ->
    // active,unreferenced. The flag tests go first so that a hot page
    // costs reads, not writes, of its flags word.
    const std::uint32_t f = page.flags.load(std::memory_order_acquire);
    if (f & PG_ra_unused)
        page.clear(PG_ra_unused);
    if (!(f & PG_active) && (f & PG_referenced) && (f & PG_lru)) {
        activate_page(page);
        page.clear(PG_referenced);
    } else if (!(f & PG_referenced)) {
        page.set(PG_referenced);
    }
}

void PageCache::mark_page_young(Page& page)
{
    const std::uint32_t f = page.flags.load(std::memory_order_acquire);
    if (f & PG_ra_unused)
        page.clear(PG_ra_unused);
    if (!(f & PG_young))
        page.set(PG_young);
}

void PageCache::set_reclaim_batch(unsigned pages)
{
    if (pages < 1 || pages > 1024)
        throw std::invalid_argument("reclaim_batch must be between 1 and 1024, got " + std::to_string(pages));
    reclaim_batch_ = pages;
}

std::uint64_t PageCache::nr_shadows()
{
    std::lock_guard g(lru_.lock());
    return shadows_.size();
}

PageCacheStats PageCache::stats() const noexcept
{
    PageCacheStats s;
#define PCL_PAGE_CACHE_READ_Count(member) s.member = std::uint64_t(count_.member.sum());
#define PCL_PAGE_CACHE_READ_Gauge(member) s.member = member();
#define PCL_PAGE_CACHE_READ(kind, member, name, group, label, unit, meaning) PCL_PAGE_CACHE_READ_##kind(member)
    PCL_PAGE_CACHE_COUNTERS(PCL_PAGE_CACHE_READ)
#undef PCL_PAGE_CACHE_READ
#undef PCL_PAGE_CACHE_READ_Gauge
#undef PCL_PAGE_CACHE_READ_Count
    return s;
}

std::uint64_t PageCache::nrpages() const
{
    std::uint64_t n = 0;
    for (const auto& as : files_)
        n += as.nrpages();
    return n;
}

} // namespace pcl
