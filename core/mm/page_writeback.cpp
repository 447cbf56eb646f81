// The page cache's side of writeback (mm/page-writeback.c): a page's dirty
// and writeback state, its tags in the file's index and the counts, kept
// in step.
//
// A page's PG_dirty and PG_writeback change, and their tags with them,
// under its page lock - except at end_page_writeback, which runs on the
// device thread. So that end_page_writeback never clears the tag of a
// writeback started after it (Linux does both under the mapping's
// tree_lock; here the index's lock is its own), it clears the tag first
// and the flag after: until PG_writeback is clear no new writeback of the
// page can begin, and set_page_writeback sets the flag before the tag.
//
// A page being put under writeback always carries one of the two tags, so
// that an fsync looking for dirty pages, then for pages under writeback,
// cannot miss it: clear_page_dirty_for_io clears only the flag, and
// set_page_writeback sets the writeback tag before it clears the dirty one
// (__folio_start_writeback). Likewise the page is counted under writeback
// before it stops being counted dirty.
//
// A file's dirtied_when is set whenever the file is dirty and has none,
// and cleared when its last dirty page is cleaned, then set again if a page
// was dirtied meanwhile: a file with dirty pages is never left undated.
#include "mm/page_cache.h"

#include "base/clock.h"

#include <mutex>

namespace pcl {

bool PageCache::set_page_dirty(Page& page)
{
    if (page.test_and_set(PG_dirty))
        return false;
    AddressSpace& as = files_[page.mapping];
    as.index->set_tag(page.index, kTagDirty);
    // __mark_inode_dirty: a dirty file without a date gets one.
    as.nr_dirty.fetch_add(1, std::memory_order_seq_cst);
    if (as.dirtied_when_ns.load(std::memory_order_seq_cst) == 0) {
        std::uint64_t undated = 0;
        as.dirtied_when_ns.compare_exchange_strong(undated, now_ns(), std::memory_order_seq_cst);
    }
    nr_dirty_.fetch_add(1, std::memory_order_relaxed);
    count_.dirtied.add(1, std::memory_order_relaxed);
    return true;
}

void PageCache::account_page_cleaned(AddressSpace& as)
{
    nr_dirty_.fetch_sub(1, std::memory_order_relaxed);
    if (as.nr_dirty.fetch_sub(1, std::memory_order_seq_cst) != 1)
        return;
    as.dirtied_when_ns.store(0, std::memory_order_seq_cst);
    // A page dirtied between the two saw the old date and kept it: date
    // the file again.
    if (as.nr_dirty.load(std::memory_order_seq_cst) > 0) {
        std::uint64_t undated = 0;
        as.dirtied_when_ns.compare_exchange_strong(undated, now_ns(), std::memory_order_seq_cst);
    }
}

bool PageCache::clear_page_dirty_for_io(Page& page)
{
    return page.test_and_clear(PG_dirty);
}

void PageCache::set_page_writeback(Page& page)
{
    AddressSpace& as = files_[page.mapping];
    page.set(PG_writeback);
    as.nr_writeback.fetch_add(1, std::memory_order_relaxed);
    nr_writeback_.fetch_add(1, std::memory_order_relaxed);
    account_page_cleaned(as);
    as.index->set_tag(page.index, kTagWriteback);
    as.index->clear_tag(page.index, kTagDirty);
    as.index->clear_tag(page.index, kTagTowrite);
}

void PageCache::end_page_writeback(Page& page)
{
    // A reference for the duration (folio_end_writeback's folio_get): once
    // PG_writeback is clear a truncate may remove the page and its last
    // reference go while this still looks at it.
    page.get();
    AddressSpace& as = files_[page.mapping];
    as.index->clear_tag(page.index, kTagWriteback);
    as.nr_writeback.fetch_sub(1, std::memory_order_relaxed);
    as.written.fetch_add(1, std::memory_order_relaxed);
    nr_writeback_.fetch_sub(1, std::memory_order_relaxed);
    count_.written.add(1, std::memory_order_seq_cst);
    // PG_reclaim was set for this writeback: taken before the flag goes, or
    // it could be the mark of the next one (folio_end_writeback).
    const bool reclaim = page.test_and_clear(PG_reclaim);
    // Sequentially consistent, to pair with the sleepers' count (page_lock.h).
    page.flags.fetch_and(~std::uint32_t(PG_writeback), std::memory_order_seq_cst);
    page_locks_.wake_up_page(page);
    if (reclaim)
        rotate_reclaimable_page(page);
    // A page that can now be reclaimed: progress for an allocation waiting
    // on writeback.
    frames_.note_reclaimable();
    if (written_waiters_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard g(written_mutex_);
        written_wq_.wake_all();
    }
    put_page(&page);
}

void PageCache::wake_writeback_waiters()
{
    std::lock_guard g(written_mutex_);
    written_wq_.wake_all();
}

void PageCache::wait_writeback_completion(std::uint64_t seen, std::chrono::nanoseconds timeout)
{
    written_waiters_.fetch_add(1, std::memory_order_seq_cst);
    {
        std::unique_lock lock(written_mutex_);
        written_wq_.wait_until_ns(
            lock, now_ns() + static_cast<std::uint64_t>(timeout.count()), [&] { return written() != seen; });
    }
    written_waiters_.fetch_sub(1, std::memory_order_relaxed);
}

void PageCache::rotate_reclaimable_page(Page& page)
{
    bool rotated = false;
    {
        std::lock_guard g(lru_.lock());
        // Isolated by reclaim meanwhile: it sees the page clean anyway.
        // Redirtied: it has to be written again first. Otherwise to the
        // inactive tail from either list (lru_move_tail_fn).
        if (page.test(PG_lru) && !page.test(PG_dirty)) {
            lru_.move_tail_locked(page, LruList::Inactive);
            rotated = true;
        }
    }
    if (rotated)
        count_.reclaim_rotated_written.add(1, std::memory_order_relaxed);
}

} // namespace pcl
