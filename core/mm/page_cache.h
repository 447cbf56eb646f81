// PageCache: the files' pages, found through each file's index.
//
// find_get_page() looks a page up and takes a reference to it. With an
// index whose lookups take a lock (2.4's pagecache_lock, 2.6.0's tree_lock)
// it takes the reference under that lock, one lookup per call, as those
// kernels did; with a lockless index it does so speculatively, as the
// 2.6.27 lockless pagecache does - under RCU, with get_page_unless_zero()
// and a second look that the index still holds that page.
// find_or_create_page() adds a missing page: it allocates a frame, marks
// the new page locked (the caller reads it in and unlocks it) and inserts it.
// When two CPUs miss on the same page at once both allocate, one insert
// wins, and the other frees its page and uses the winner's: an *insert
// race*, counted. Which index and locking scheme the cache uses is a run
// parameter (IndexSpec): one global hash for all files, or a radix tree or
// skip list per file.
//
// References: the cache holds one on every page it contains; each successful
// find_get_page() or find_or_create_page() gives the caller one more, which
// it drops with put_page(). A page's frame goes back to the FrameAllocator,
// after an RCU grace period, when its last reference goes.
//
// Memory pressure (mm/swap.c, mm/vmscan.c, mm/workingset.c): every page the
// cache adds goes on the zone's LRU lists (lru.h). The read and fault paths
// report each use with mark_page_accessed(): the first sets PG_referenced,
// a second while the page is inactive promotes it to the active list. When
// the FrameAllocator has no free frame, the allocating CPU reclaims
// (try_to_free_pages, in vmscan.cpp): it scans the lists from their tails,
// a share that grows as its priority drops, gives referenced pages a second
// chance, skips pages that are locked, dirty or in use, unmaps mapped ones
// through the try_to_unmap hook, and evicts the rest - out of their file's
// index, a shadow entry left for refault detection (workingset.h), the
// frame freed - and tells the allocator what it found, which decides
// whether to retry (frame_allocator.h). A readahead page evicted before
// anyone used it is wasted readahead, counted per file and reported through
// the on_thrash hook.
//
// Lock order: the page lock (reclaim only ever trylocks it) before the
// index's locks and the page-table locks the unmap hook takes;
// zone.lru_lock is innermost: nothing else is taken while it is held.
#pragma once

#include "base/wait_queue.h"
#include "index/index_factory.h"
#include "mm/address_space.h"
#include "mm/frame_allocator.h"
#include "mm/lru.h"
#include "mm/page_cache_stats.h"
#include "mm/page_lock.h"
#include "mm/workingset.h"
#include "sync/lock_stats.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace pcl {

class HashIndex;

class PageCache {
public:
    /// A cache whose files are indexed as @spec says (kind, scheme,
    /// parameters), taking frames from @frames. Throws std::invalid_argument
    /// for a bad spec.
    PageCache(
        const IndexSpec& spec, FrameAllocator& frames, sync::LockRegistry& registry = sync::LockRegistry::global());
    ~PageCache();
    PageCache(const PageCache&) = delete;
    PageCache& operator=(const PageCache&) = delete;

    /// Adds a file of @size_pages pages; returns its id (0, 1, 2...). Files
    /// are set up before the cache is used concurrently (a run's files are
    /// fixed by its scenario); file() then needs no lock.
    FileId add_file(pgoff_t size_pages);
    AddressSpace& file(FileId id);
    std::size_t file_count() const;

    /// The page of @file at @index with a reference taken, or nullptr.
    Page* find_get_page(FileId file, pgoff_t index);

    enum class AddStatus : std::uint8_t {
        Found,      ///< the page was cached already (or another CPU's insert won)
        Created,    ///< a new page was added, locked: fill it, set PG_uptodate, unlock_page
        NoMemory,   ///< no frame free, or the index could not allocate a node
        OutOfRange, ///< @index is beyond the end of the file
    };
    struct AddResult {
        Page* page = nullptr; ///< with a reference for the caller (Found, Created)
        AddStatus status = AddStatus::Found;
    };
    /// find_or_create_page: the cached page, or a new locked one, its frame
    /// allocated as @gfp says (readahead's pages: Gfp::NoRetry).
    AddResult find_or_create_page(FileId file, pgoff_t index, Gfp gfp = Gfp::Kernel);

    /// Truncates the page at @index: unmaps it (through the try_to_unmap
    /// hook), removes it from the cache and drops the cache's reference
    /// (truncate_complete_page). Takes the page lock, so a page being read
    /// is removed after its read completes and a fault that is mapping it
    /// has finished; waits for a write of it to complete
    /// (wait_on_page_writeback), and a dirty page's data is dropped
    /// (cancel_dirty_page).
    bool remove(FileId file, pgoff_t index);
    /// Drops a reference; the last one takes the page off the LRU and
    /// frees the frame (__page_cache_release).
    void put_page(Page* page);

    /// mark_page_accessed (mm/swap.c): @page was used by read(2), write(2)
    /// or a fault. Clears PG_ra_unused; the first reference sets
    /// PG_referenced, a second while the page is inactive moves it to the
    /// active list (activate_page) and clears PG_referenced.
    void mark_page_accessed(Page& page);
    /// An access through a mapping: the MMU sets the PTE's accessed bit
    /// (PG_young), which reclaim reads and clears (page_referenced).
    /// Clears PG_ra_unused. Never promotes: only reclaim looks at it. The
    /// caller holds a reference, or an RCU read-side section across reading
    /// the PTE and this call, so the page cannot be reclaimed and its frame
    /// reused in between.
    void mark_page_young(Page& page);

    /// Direct reclaim (do_try_to_free_pages): from priority kDefPriority
    /// down to 0, scans size >> priority pages of each LRU list (all of
    /// them at 0), in chunks of reclaim_batch(), until reclaim_batch()
    /// pages are freed. Returns what it found; it never sleeps but when too
    /// many pages are isolated by other reclaimers (too_many_isolated), and
    /// then once. The FrameAllocator calls it when it has no frame free; the
    /// caller must not be inside an RCU read-side section (it waits for a
    /// grace period before handing the frames back).
    ReclaimOutcome try_to_free_pages();
    /// The same pass on kswapd's behalf (kswapd.h): counted by kswapd, not
    /// as an allocation stall.
    ReclaimOutcome kswapd_shrink() { return do_try_to_free_pages(); }
    static constexpr unsigned kDefPriority = 12; ///< DEF_PRIORITY: 1/4096 of the lists first
    /// Pages reclaim frees per run before it returns, and pages it takes
    /// off a list at a time (SWAP_CLUSTER_MAX, 32, by default; 1..1024).
    /// Throws std::invalid_argument naming reclaim_batch otherwise. Set
    /// before concurrent use.
    void set_reclaim_batch(unsigned pages);
    /// Reclaim's used-once detection (page_check_references, 2.6.34; on by
    /// default): a page with PG_referenced and no accessed PTE is reclaimed.
    /// Off: every page with PG_referenced or an accessed PTE gets a second
    /// chance, as the kernels before it did. Set before concurrent use.
    void set_page_check_references(bool on) noexcept { page_check_references_ = on; }
    unsigned reclaim_batch() const noexcept { return reclaim_batch_; }
    /// try_to_unmap: reclaim calls @hook for a page that holds references
    /// beyond the cache's and its own (it is mapped); @hook removes the
    /// page's mappings, drops their references and returns true if it
    /// removed any. Without a hook, mapped pages are never reclaimed. Set
    /// before concurrent use.
    void set_try_to_unmap(std::function<bool(Page&)> hook) { try_to_unmap_ = std::move(hook); }
    /// Called, on the reclaiming CPU and with no lock held, once for every
    /// wasted readahead page of a file (ReadaheadPolicy::note_thrash is
    /// what a run wires here). Set before concurrent use.
    void set_on_thrash(std::function<void(FileId)> hook) { on_thrash_ = std::move(hook); }

    // Dirty pages and writeback (mm/page-writeback.c, in page_writeback.cpp).
    // The first three are called with the page locked and checked to be
    // still in its file's index: the page lock orders each page's dirty and
    // writeback flags, their tags and their counts.

    /// set_page_dirty (__set_page_dirty_nobuffers): marks @page dirty, tags
    /// it dirty in its file's index and counts it (account_page_dirtied),
    /// unless it was dirty already; true if it was clean.
    bool set_page_dirty(Page& page);
    /// clear_page_dirty_for_io: clears PG_dirty before the page is
    /// written; true if it was dirty, and then set_page_writeback must
    /// follow under the same page lock (it moves the tag and the count).
    /// Clearing PG_dirty is also page_mkclean's work: a mapping's PTE is
    /// writable without a fault only while its page is dirty (fault.h), so
    /// the next store through a mapping faults and dirties the page again.
    bool clear_page_dirty_for_io(Page& page);
    /// set_page_writeback: PG_writeback set; the writeback tag set before
    /// the dirty and towrite tags are cleared, and the page counted under
    /// writeback before it is uncounted as dirty, so that no one looking
    /// for either misses it.
    void set_page_writeback(Page& page);
    /// end_page_writeback, called by the device when the write of @page
    /// completes, with no lock held: clears the writeback tag and
    /// PG_writeback, wakes the page's waiters, and moves a page that
    /// reclaim wanted (PG_reclaim) to the inactive tail
    /// (rotate_reclaimable_page).
    void end_page_writeback(Page& page);
    /// wait_on_page_writeback: sleeps until @page's writeback is over.
    void wait_on_page_writeback(Page& page) { page_locks_.wait_on_page_writeback(page); }
    /// Pages dirty, and under writeback, now (all files).
    std::uint64_t nr_dirty() const noexcept { return nr_dirty_.load(std::memory_order_relaxed); }
    std::uint64_t nr_writeback() const noexcept { return nr_writeback_.load(std::memory_order_relaxed); }
    /// wakeup_flusher_threads(WB_REASON_VMSCAN): reclaim calls @hook after
    /// each pass, with no lock held, with the number of dirty pages it met
    /// and could not reclaim (perhaps 0); the hook returns whether a flusher
    /// will write them. If so the allocator waits for writeback; if not
    /// (no hook, or the flushers have stopped), nothing cleans them and they
    /// pin their frames. Set before concurrent use.
    void set_wakeup_flusher(std::function<bool(std::uint64_t)> hook) { wakeup_flusher_ = std::move(hook); }
    bool has_flusher() const noexcept { return bool(wakeup_flusher_); }
    /// Pages whose writeback completed, ever (nr_written).
    std::uint64_t written() const noexcept { return std::uint64_t(count_.written.sum(std::memory_order_seq_cst)); }
    /// Sleeps until a page's writeback completes after written() was
    /// @seen, or @timeout passes (a throttled writer's pause).
    void wait_writeback_completion(std::uint64_t seen, std::chrono::nanoseconds timeout);
    /// Wakes everyone in wait_writeback_completion now (their caller is
    /// being told to stop waiting).
    void wake_writeback_waiters();

    /// Pages on the active and inactive LRU lists now.
    std::uint64_t nr_active() const noexcept { return lru_.size(LruList::Active); }
    std::uint64_t nr_inactive() const noexcept { return lru_.size(LruList::Inactive); }
    /// The pages of @list, head (most recent) to tail, for tests and checks.
    std::vector<Page*> lru_pages(LruList list) { return lru_.pages(list); }
    /// The inactive list's age: evictions plus activations so far
    /// (zone->inactive_age); refault distances are differences of it.
    std::uint64_t inactive_age() const noexcept { return inactive_age_.load(std::memory_order_relaxed); }
    /// Shadow entries held now, and the most there can be (2 x frames).
    std::uint64_t nr_shadows();
    std::uint64_t max_shadows() const noexcept { return shadows_.capacity(); }

    PageWaitTable& page_locks() noexcept { return page_locks_; }
    FrameAllocator& frames() noexcept { return frames_; }
    const IndexSpec& index_spec() const noexcept { return spec_; }
    PageCacheStats stats() const noexcept;
    /// Pages in the cache, all files.
    std::uint64_t nrpages() const;

    /// Test hook: called after a new page is allocated and before it is
    /// inserted, so a test can let another CPU insert first (a forced
    /// insert race). Set before concurrent use.
    std::function<void(FileId, pgoff_t)> before_insert;

private:
    /// lru_cache_add of a page just inserted, with workingset_refault: a
    /// page whose shadow is recent enough starts on the active list.
    void lru_cache_add(Page& page);
    /// activate_page: @page to the active list if it is on the inactive one.
    void activate_page(Page& page);
    /// shrink_active_list: moves up to @n pages from the active tail to the
    /// inactive head, clearing PG_referenced and PG_active.
    void shrink_active_list(std::uint64_t n);
    /// shrink_inactive_list + shrink_page_list: looks at up to @n pages from
    /// the inactive tail and adds what it found to @sc; the pages it evicts
    /// go on @evicted, still isolated, for free_evicted.
    void shrink_inactive_list(std::uint64_t n, ReclaimOutcome& sc, std::vector<Page*>& evicted);
    /// Frees the frames of @evicted after an RCU grace period.
    void free_evicted(std::vector<Page*>& evicted);
    void wake_isolated_waiters();
    /// rotate_reclaimable_page: @page, written, to the inactive tail if it
    /// is on an LRU list and clean.
    void rotate_reclaimable_page(Page& page);
    /// account_page_cleaned: @page (of @as) is no longer dirty.
    void account_page_cleaned(AddressSpace& as);
    /// too_many_isolated: more pages in other reclaimers' hands than an
    /// eighth of the inactive list (@own: the caller's, still isolated).
    bool too_many_isolated(std::uint64_t own) const noexcept;
    ReclaimOutcome do_try_to_free_pages();

    IndexSpec spec_;
    FrameAllocator& frames_;
    sync::LockRegistry& registry_;
    std::shared_ptr<HashIndex> hash_; ///< the one global table, for IndexKind::Hash
    std::deque<AddressSpace> files_;
    PageWaitTable page_locks_;
    PageCacheCounts count_; ///< stats()'s counts (written with seq_cst: see written())

    LruLists lru_;
    ShadowTable shadows_;                           ///< under lru_.lock()
    std::atomic<std::uint64_t> inactive_age_ { 0 }; ///< written under lru_.lock()
    std::atomic<std::uint64_t> isolated_ { 0 };     ///< pages reclaimers hold off the lists (written under lru_.lock())
    WaitMutex isolated_mutex_;                      ///< the too_many_isolated wait queue
    WaitQueue isolated_wq_;                         ///< woken at putback
    std::atomic<int> isolated_waiters_ { 0 };
    unsigned reclaim_batch_ = 32;
    bool page_check_references_ = true;
    std::function<bool(Page&)> try_to_unmap_;
    std::function<void(FileId)> on_thrash_;
    std::function<bool(std::uint64_t)> wakeup_flusher_;
    std::atomic<std::uint64_t> nr_dirty_ { 0 }, nr_writeback_ { 0 };
    WaitMutex written_mutex_; ///< the writeback-completion wait queue
    WaitQueue written_wq_;
    std::atomic<int> written_waiters_ { 0 };
};

} // namespace pcl
