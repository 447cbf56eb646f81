// Page reclaim (mm/vmscan.c): the PageCache's reclaim pass, as the
// allocating CPU runs it when the zone is at its min watermark (direct
// reclaim) and as kswapd runs it below the low one (kswapd.h).
//
// do_try_to_free_pages lowers the priority from DEF_PRIORITY (12) to 0 and
// at each one scans size >> priority pages of each list (get_scan_count:
// 1/4096 of them first, all of them at 0), in chunks of SWAP_CLUSTER_MAX,
// until it has freed SWAP_CLUSTER_MAX pages (shrink_lruvec); unlike Linux,
// a chunk is no larger than what is still to be freed, so that a small
// memory is not emptied for one page. The inactive
// list is kept at least as long as the active one (inactive_file_is_low ->
// shrink_active_list). For each page of a chunk, shrink_page_list:
//   - locked (under I/O, being filled or removed): put back;
//   - under writeback: marked PG_reclaim and put back, counted; when the
//     device has written it, end_page_writeback moves it to the inactive
//     tail, where the next pass finds it clean (rotate_reclaimable_page);
//   - dirty: marked PG_reclaim and put back, counted, and the flusher woken
//     for as many pages as the pass met (wakeup_flusher_threads). Direct
//     reclaim never writes a file page itself (since 3.2 only kswapd's
//     pageout may, for a page it meets dirty a second time, and many
//     filesystems refuse even that): the flusher writes and reclaim waits
//     for it (the allocator's should_reclaim_retry; reclaim_throttle's
//     VMSCAN_THROTTLE_WRITEBACK in 5.16).
//     A dirty page is never evicted unwritten. Without a flusher (a cache
//     used alone) nothing cleans a dirty page, and it pins its frame;
//   - page_check_references (2.6.34): a mapped page whose PTE was
//     accessed since the last look (PG_young, cleared as page_referenced
//     clears it) is kept: PG_referenced is set and the page goes back to
//     the inactive head, a second chance (PAGEREF_KEEP); if PG_referenced
//     was set already, it was used twice, and goes to the active list
//     (PAGEREF_ACTIVATE). A page with PG_referenced and no accessed PTE
//     was used once through read(2) or write(2), and is reclaimed
//     (PAGEREF_RECLAIM_CLEAN: a page used twice that way is on the active
//     list already, mark_page_accessed saw to that). With used-once
//     detection off (set_page_check_references), any reference earns a
//     second chance, as before 2.6.34;
//   - referenced by anyone but the cache and reclaim: a mapped page is
//     unmapped through the try_to_unmap hook, anything else put back;
//   - otherwise __remove_mapping: page_freeze_refs (2 -> 0), out of its
//     file's index, a shadow entry recorded (workingset_eviction), and the
//     frame freed after an RCU grace period, so that lockless lookups that
//     saw the page are over before its frame is reused. Under an index
//     whose lookups take its lock the grace period stays too: lockless PTE
//     reads of a mapped file, and the views' reads of page state
//     (page_state.h), take no reference and rely on it.
// A speculative find_get_page that meets the frozen page fails its
// get_unless_zero and looks again, and finds the page gone.
//
// What a pass found - how many pages were locked, in use, referenced,
// dirty - goes back to the allocator, whose should_reclaim_retry decides
// whether to look again, wait, or declare memory exhausted. Reclaim itself
// sleeps only when other reclaimers hold too many pages isolated
// (too_many_isolated: more than an eighth of the inactive list), on a wait
// queue woken at putback, at most 20 ms (reclaim_throttle's HZ/50), once.
#include "mm/page_cache.h"

#include "base/clock.h"
#include "events/tracepoint.h"
#include "sync/rcu.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

namespace pcl {

bool PageCache::too_many_isolated(std::uint64_t own) const noexcept
{
    return isolated_.load(std::memory_order_seq_cst) - own > nr_inactive() / 8;
}

ReclaimOutcome PageCache::try_to_free_pages()
{
    count_.direct_reclaims.add(1, std::memory_order_relaxed);
    return do_try_to_free_pages();
}

ReclaimOutcome PageCache::do_try_to_free_pages()
{
    const std::uint64_t target = reclaim_batch_;
    ReclaimOutcome sc;
    std::vector<Page*> evicted; // isolated and out of the cache; freed after one grace period, at the end
    evicted.reserve(target);
    for (int priority = int(kDefPriority); priority >= 0 && sc.reclaimed < target && !sc.throttled; --priority) {
        // get_scan_count for this priority, taken once, as shrink_lruvec does.
        std::uint64_t nr_active = lru_.size(LruList::Active) >> priority;
        std::uint64_t nr_inactive = lru_.size(LruList::Inactive) >> priority;
        if (nr_inactive) {
            // What the pages are now: the last priority's look, the widest,
            // is what the allocator decides on.
            sc.locked = sc.in_use = sc.rotated = sc.dirty = sc.writeback = sc.unmappable = sc.freeing = 0;
        }
        while ((nr_active || nr_inactive) && sc.reclaimed < target && !sc.throttled) {
            if (nr_active) {
                const std::uint64_t n = std::min(nr_active, target);
                nr_active -= n;
                if (lru_.inactive_is_low())
                    shrink_active_list(n);
            }
            if (nr_inactive) {
                // A chunk of SWAP_CLUSTER_MAX, but no more than is still to
                // be freed: in a small memory one chunk is a large share.
                const std::uint64_t n = std::min({ nr_inactive, target, target - sc.reclaimed });
                nr_inactive -= n;
                shrink_inactive_list(n, sc, evicted);
            }
        }
    }
    free_evicted(evicted);
    sc.flusher = wakeup_flusher_ && wakeup_flusher_(sc.dirty);
    sc.lru_pages = nr_active() + nr_inactive();
    sc.under_io = page_locks_.pages_under_io();
    sc.under_writeback = nr_writeback();
    return sc;
}

void PageCache::shrink_active_list(std::uint64_t n)
{
    // Every page taken from the active tail goes to the inactive head with
    // PG_referenced and PG_active cleared (2.6.28 deactivates file pages
    // whatever page_referenced says, which clears PG_referenced). Done under
    // the lock: there is no rmap walk to do outside it.
    std::uint64_t moved = 0;
    {
        std::lock_guard g(lru_.lock());
        for (; moved < n; ++moved) {
            Page* page = lru_.tail_locked(LruList::Active);
            if (!page)
                break;
            // Moved, not taken off and put back: nobody's reference
            // keeps this page, and its last put must find PG_lru set.
            page->clear(PG_referenced);
            lru_.move_locked(*page, LruList::Inactive);
        }
    }
    count_.deactivations.add(moved, std::memory_order_relaxed);
}

void PageCache::shrink_inactive_list(std::uint64_t n, ReclaimOutcome& sc, std::vector<Page*>& evicted)
{
    const std::uint64_t evicted_before = evicted.size(); // ours, still counted isolated
    if (too_many_isolated(evicted_before)) {
        // Others hold the pages: wait for a putback, once, then leave it
        // to the allocator (which waits for them in its turn).
        count_.reclaim_throttled.add(1, std::memory_order_relaxed);
        isolated_waiters_.fetch_add(1, std::memory_order_seq_cst);
        {
            std::unique_lock lock(isolated_mutex_);
            isolated_wq_.wait_until_ns(
                lock, now_ns() + 20'000'000, [&] { return !too_many_isolated(evicted_before); }); // 20 ms
        }
        isolated_waiters_.fetch_sub(1, std::memory_order_relaxed);
        if (too_many_isolated(evicted_before)) {
            sc.throttled = true;
            return;
        }
    }
    // isolate_lru_pages (__isolate_lru_page): a reference of our own first,
    // then off the list. A page whose count already reached zero is being
    // freed by its last holder, who will take it off the list: it stays
    // linked, PG_lru set, moved to the head so the scan moves on. Taking it
    // off and putting it back would clear PG_lru for a moment, and a holder
    // testing it then (put_page, without the lock) would free the frame
    // with the page still linked.
    std::vector<Page*> isolated;
    isolated.reserve(n);
    std::uint64_t looked = 0;
    {
        std::lock_guard g(lru_.lock());
        for (; looked < n; ++looked) {
            Page* page = lru_.tail_locked(LruList::Inactive);
            if (!page)
                break;
            if (page->get_unless_zero()) {
                // In transit before it leaves the list: a CPU that reads
                // the list's length and then the frames in transit never
                // misses the page (the length is stored with release).
                frames_.unsettle();
                lru_.del_locked(*page);
                isolated.push_back(page);
            } else {
                lru_.move_locked(*page, LruList::Inactive);
                ++sc.freeing;
            }
        }
        // Counted under the lock that took them off (NR_ISOLATED_FILE), so
        // a reclaimer that finds the lists empty sees where the pages are.
        isolated_.store(isolated_.load(std::memory_order_relaxed) + isolated.size(), std::memory_order_seq_cst);
    }
    sc.scanned += looked;
    count_.scanned.add(looked, std::memory_order_relaxed);

    std::vector<Page*> keep;        // back to the inactive list
    std::vector<Page*> keep_active; // to the active list (PAGEREF_ACTIVATE)
    for (Page* page : isolated) {
        AddressSpace& as = files_[page->mapping];
        if (!PageWaitTable::trylock_page(*page)) {
            ++sc.locked;
            keep.push_back(page);
            continue;
        }
        auto keep_locked = [&] {
            page_locks_.unlock_page(*page);
            keep.push_back(page);
        };
        // Truncated meanwhile (remove() erases with the page lock held, so
        // the answer holds while we hold it): no longer the cache's; it
        // leaves the LRU with its last reference.
        bool cached;
        {
            rcu::ReadGuard guard;
            cached = as.index->lookup(page->index) == page;
        }
        if (!cached) {
            keep_locked();
            continue;
        }
        if (page->test(PG_writeback) || page->test(PG_dirty)) {
            // Written first, then taken: the completion rotates it to the tail.
            count_.dirty_skipped.add(1, std::memory_order_relaxed);
            ++(page->test(PG_writeback) ? sc.writeback : sc.dirty);
            page->set(PG_reclaim);
            keep_locked();
            continue;
        }
        // The cache's reference and ours; more means mappings (or a CPU
        // using the page right now, which the unmap cannot help).
        const bool referenced_page = page->test_and_clear(PG_referenced);
        const bool referenced_pte = page->test_and_clear(PG_young) && page->count.load(std::memory_order_acquire) > 2;
        if (!page_check_references_ && (referenced_page || referenced_pte)) {
            // Before 2.6.34: any reference, a second chance.
            count_.rotated.add(1, std::memory_order_relaxed);
            ++sc.rotated;
            keep_locked();
            continue;
        }
        if (referenced_pte) {
            page->set(PG_referenced);
            if (referenced_page) {
                count_.activations.add(1, std::memory_order_relaxed);
                ++sc.rotated;
                page_locks_.unlock_page(*page);
                keep_active.push_back(page);
                continue;
            }
            count_.rotated.add(1, std::memory_order_relaxed);
            ++sc.rotated;
            keep_locked();
            continue;
        }
        // With no way to unmap, an extra reference pins the page.
        bool mapped = false;
        if (page->count.load(std::memory_order_acquire) > 2) {
            if (!try_to_unmap_) {
                ++sc.unmappable;
                keep_locked();
                continue;
            }
            if (!try_to_unmap_(*page)) {
                ++sc.in_use;
                keep_locked();
                continue;
            }
            mapped = true;
        }
        if (!page->freeze_refs(2)) {
            ++sc.in_use; // a CPU took a reference meanwhile
            keep_locked();
            continue;
        }
        const bool wasted = page->test(PG_ra_unused);
        {
            // workingset_eviction: the shadow, with the age after this
            // eviction, goes in before the page leaves the index, so a
            // refault can never miss it.
            std::lock_guard g(lru_.lock());
            const std::uint64_t age = inactive_age_.load(std::memory_order_relaxed) + 1;
            inactive_age_.store(age, std::memory_order_relaxed);
            if (shadows_.remember(page->mapping, page->index, age))
                count_.shadows_dropped.add(1, std::memory_order_relaxed);
        }
        as.index->erase(page->index); // the page lock keeps remove() off it: it is ours
        page_locks_.unlock_page(*page);
        evicted.push_back(page);
        count_.evictions.add(1, std::memory_order_relaxed);
        as.evictions.fetch_add(1, std::memory_order_relaxed);
        if (mapped)
            count_.mapped_evictions.add(1, std::memory_order_relaxed);
        trace::page_evicted(
            { .page_id = page->pfn, .file = page->mapping, .page = page->index, .wasted = wasted, .mapped = mapped });
        if (wasted) {
            count_.wasted_readahead.add(1, std::memory_order_relaxed);
            as.wasted_readahead.fetch_add(1, std::memory_order_relaxed);
            if (on_thrash_)
                on_thrash_(page->mapping);
        }
    }

    // putback_lru_page for the rest, in scan order at the inactive head, so
    // that their relative order is kept; the activated to the active head.
    const std::size_t kept = keep.size() + keep_active.size();
    if (kept) {
        std::lock_guard g(lru_.lock());
        for (Page* page : keep)
            lru_.add_locked(*page, LruList::Inactive);
        for (Page* page : keep_active)
            lru_.add_locked(*page, LruList::Active);
        isolated_.store(isolated_.load(std::memory_order_relaxed) - kept, std::memory_order_seq_cst);
    }
    frames_.put_back(kept);
    sc.put_back += kept;
    keep.insert(keep.end(), keep_active.begin(), keep_active.end());
    for (Page* page : keep)
        put_page(page); // our isolation reference; perhaps the last, if the page was truncated meanwhile

    sc.reclaimed += evicted.size() - evicted_before;
    if (kept)
        wake_isolated_waiters();
}

void PageCache::free_evicted(std::vector<Page*>& evicted)
{
    if (evicted.empty())
        return;
    // Lockless readers that found these pages finish before the frames are
    // handed out again: one grace period for the whole pass.
    rcu::synchronize();
    for (Page* page : evicted)
        frames_.free(page);
    {
        std::lock_guard g(lru_.lock());
        isolated_.store(isolated_.load(std::memory_order_relaxed) - evicted.size(), std::memory_order_seq_cst);
    }
    evicted.clear();
    wake_isolated_waiters();
}

void PageCache::wake_isolated_waiters()
{
    // putback (and the frees) wake the reclaimers throttled on too_many_isolated.
    if (isolated_waiters_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard g(isolated_mutex_);
        isolated_wq_.wake_all();
    }
}

} // namespace pcl
