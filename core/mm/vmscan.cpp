// Page reclaim (mm/vmscan.c): the PageCache's direct reclaim, as the
// allocating CPU runs it when no frame is free.
//
// try_to_free_pages keeps the inactive list at least as long as the active
// one (inactive_file_is_low -> shrink_active_list) and shrinks the inactive
// list from its tail in batches. For each page of a batch, shrink_page_list:
//   - locked (under I/O, being filled or removed): put back;
//   - dirty or under writeback: put back and counted (no writeback is
//     modelled, so a dirty page stays until someone cleans it);
//   - PG_referenced: cleared, and the page goes back to the inactive head:
//     a second chance, after which it goes unless referenced again
//     (page_check_references' PAGEREF_KEEP; a page referenced twice is
//     already on the active list, mark_page_accessed saw to that);
//   - referenced by anyone but the cache and reclaim: a mapped page is
//     unmapped through the try_to_unmap hook, anything else put back;
//   - otherwise __remove_mapping: page_freeze_refs (2 -> 0), out of its
//     file's index, a shadow entry recorded (workingset_eviction), and the
//     frame freed after an RCU grace period, so that lockless lookups that
//     saw the page are over before its frame is reused.
// A speculative find_get_page that meets the frozen page fails its
// get_unless_zero and looks again, and finds the page gone.
#include "mm/page_cache.h"

#include "events/tracepoint.h"
#include "sync/rcu.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace pcl {

std::uint64_t PageCache::try_to_free_pages()
{
    direct_reclaims_.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t target = reclaim_batch_;
    for (unsigned round = 0;; ++round) {
        // Enough to look at every page twice: a referenced page loses
        // PG_referenced on the first look and goes on the second; an active
        // page is deactivated unreferenced and goes on its first look.
        const std::uint64_t budget = 2 * (nr_active() + nr_inactive()) + target;
        const std::uint64_t first_pass = nr_inactive();
        std::uint64_t reclaimed = 0;
        std::uint64_t scanned = 0;
        std::uint64_t locked = 0;
        // Pages other CPUs' reclaim holds off the lists right now: with
        // little memory one batch can be all of it.
        const bool others_reclaiming = isolated_.load(std::memory_order_acquire) > 0;
        while (reclaimed < target && scanned < budget) {
            // Stop after one pass over the inactive list that freed
            // something, rather than eat into the active list for a full
            // batch.
            if (reclaimed > 0 && scanned >= first_pass)
                break;
            if (lru_.inactive_is_low())
                shrink_active_list(target);
            const std::uint64_t before = scanned;
            reclaimed += shrink_inactive_list(std::min(target, budget - scanned), scanned, locked);
            if (scanned == before)
                break; // both lists empty: nothing to reclaim
        }
        // Nothing freed, but pages were locked - most likely under read I/O,
        // which will end - or isolated by another CPU's reclaim, which will
        // free or put them back: wait a while and look again (congestion_wait
        // in the allocator's retry loop), a bounded number of times, so that
        // an allocation fails only when memory is really all in use.
        const bool busy = locked > 0 || others_reclaiming || isolated_.load(std::memory_order_acquire) > 0;
        if (reclaimed > 0 || !busy || round == kReclaimRetries)
            return reclaimed;
        reclaim_waits_.fetch_add(1, std::memory_order_relaxed);
        const unsigned shift = std::min(round, 7u);
        std::this_thread::sleep_for(std::chrono::microseconds(std::min<std::uint64_t>(100u << shift, 10'000)));
    }
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
    deactivations_.fetch_add(moved, std::memory_order_relaxed);
}

std::uint64_t PageCache::shrink_inactive_list(std::uint64_t n, std::uint64_t& scanned, std::uint64_t& locked)
{
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
                lru_.del_locked(*page);
                isolated.push_back(page);
            } else {
                lru_.move_locked(*page, LruList::Inactive);
            }
        }
    }
    scanned += looked;
    scanned_.fetch_add(looked, std::memory_order_relaxed);
    // Counted until they are back on a list or their frames are free: a
    // CPU that finds the lists empty meanwhile waits for them instead of
    // failing its allocation (too_many_isolated's throttling in Linux).
    isolated_.fetch_add(isolated.size(), std::memory_order_relaxed);

    std::vector<Page*> keep;
    std::vector<Page*> evicted;
    for (Page* page : isolated) {
        AddressSpace& as = files_[page->mapping];
        if (!PageWaitTable::trylock_page(*page)) {
            ++locked;
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
        if (page->test(PG_dirty) || page->test(PG_writeback)) {
            dirty_skipped_.fetch_add(1, std::memory_order_relaxed);
            keep_locked();
            continue;
        }
        if (page->test_and_clear(PG_referenced)) {
            rotated_.fetch_add(1, std::memory_order_relaxed);
            keep_locked();
            continue;
        }
        // The cache's reference and ours; more means mappings (or a CPU
        // using the page right now, which the unmap cannot help).
        bool mapped = false;
        if (page->count.load(std::memory_order_acquire) > 2) {
            if (!try_to_unmap_ || !try_to_unmap_(*page)) {
                keep_locked();
                continue;
            }
            mapped = true;
        }
        if (!page->freeze_refs(2)) {
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
                shadows_dropped_.fetch_add(1, std::memory_order_relaxed);
        }
        as.index->erase(page->index); // the page lock keeps remove() off it: it is ours
        page_locks_.unlock_page(*page);
        evicted.push_back(page);
        evictions_.fetch_add(1, std::memory_order_relaxed);
        as.evictions.fetch_add(1, std::memory_order_relaxed);
        if (mapped)
            mapped_evictions_.fetch_add(1, std::memory_order_relaxed);
        trace::emit(EventKind::PageEvicted, reinterpret_cast<std::uintptr_t>(page), page->mapping, page->index,
            wasted ? 1 : 0, mapped ? 1 : 0);
        if (wasted) {
            wasted_readahead_.fetch_add(1, std::memory_order_relaxed);
            as.wasted_readahead.fetch_add(1, std::memory_order_relaxed);
            if (on_thrash_)
                on_thrash_(page->mapping);
        }
    }

    // putback_lru_page for the rest, in scan order at the inactive head, so
    // that their relative order is kept.
    if (!keep.empty()) {
        std::lock_guard g(lru_.lock());
        for (Page* page : keep)
            lru_.add_locked(*page, LruList::Inactive);
    }
    for (Page* page : keep)
        put_page(page); // our isolation reference; perhaps the last, if the page was truncated meanwhile

    if (!evicted.empty()) {
        // Lockless readers that found these pages finish before the frames
        // are handed out again.
        rcu::synchronize();
        for (Page* page : evicted)
            frames_.free(page);
    }
    isolated_.fetch_sub(isolated.size(), std::memory_order_release);
    return evicted.size();
}

} // namespace pcl
