// The zone's LRU lists of page-cache pages (Linux 2.6.28 split LRU, file
// lists only): an active and an inactive list, each with its length, under
// one spinlock, zone->lru_lock ("zone.lru_lock" in the lock table).
//
// New pages go on the inactive list's head (lru_cache_add); a page
// referenced a second time while inactive moves to the active list's head
// (mark_page_accessed -> activate_page); reclaim takes pages from the
// inactive tail (shrink_inactive_list) and refills the inactive list from
// the active tail when the inactive list is the shorter
// (inactive_file_is_low, 2.6.31; shrink_active_list). Anonymous pages never
// go on these lists and are never reclaimed (there is no swap).
//
// PG_lru says a page is linked on a list; PG_active which one. Both change
// only under the lock (as atomic bit operations, since other bits of the
// same word change concurrently). A page that reclaim has isolated, or whose
// last reference is gone, is on no list and has PG_lru clear. Every method
// whose name ends in _locked expects the caller to hold lock().
#pragma once

#include "base/page.h"
#include "sync/lock_stats.h"
#include "sync/spinlock.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace pcl {

enum class LruList : std::uint8_t { Inactive, Active };

class LruLists {
public:
    explicit LruLists(sync::LockRegistry& registry);
    LruLists(const LruLists&) = delete;
    LruLists& operator=(const LruLists&) = delete;

    /// zone->lru_lock.
    sync::SpinLock& lock() noexcept { return lock_; }

    /// Links @page at the head of @list and sets PG_lru (and PG_active for
    /// the active list, clearing it for the inactive one).
    void add_locked(Page& page, LruList list) noexcept;
    /// Unlinks @page from the list it is on and clears PG_lru; PG_active
    /// stays, so the caller knows which list it came from.
    void del_locked(Page& page) noexcept;
    /// Moves @page, which is on a list, to the head of @list (list_move):
    /// PG_lru stays set throughout. A page whose count may be zero is only
    /// ever moved this way, never taken off and put back: its last holder
    /// tests PG_lru without the lock (__page_cache_release) and must not
    /// see it clear while the page is still linked, or the frame would be
    /// freed, and reused, with the page on a list.
    void move_locked(Page& page, LruList list) noexcept;
    /// Moves @page, which is on a list, to the tail of @list
    /// (rotate_reclaimable_page's list_move_tail): the next page reclaim
    /// looks at. PG_lru stays set, as for move_locked.
    void move_tail_locked(Page& page, LruList list) noexcept;
    /// The page at the tail (the least recently added) of @list, or null.
    Page* tail_locked(LruList list) const noexcept { return lists_[unsigned(list)].tail; }

    /// Pages on @list (readable without the lock: a counter). Stored with
    /// release and read with acquire: whoever reads a length also sees what
    /// the writer did before it changed the list (a page put in transit
    /// before it was taken off, frame_allocator.h).
    std::uint64_t size(LruList list) const noexcept
    {
        return lists_[unsigned(list)].nr.load(std::memory_order_acquire);
    }
    /// inactive_file_is_low: fewer inactive than active pages.
    bool inactive_is_low() const noexcept { return size(LruList::Inactive) < size(LruList::Active); }

    /// The pages of @list from head (most recently added) to tail, taken
    /// under the lock; for tests and checks, whose caller keeps the pages
    /// from being freed meanwhile.
    std::vector<Page*> pages(LruList list);

private:
    /// The list pointers and length only; the callers see to PG_lru.
    void unlink_locked(Page& page) noexcept;
    /// At the head of @list, or (@at_tail) at its tail.
    void link_locked(Page& page, LruList list, bool at_tail = false) noexcept;

    struct List {
        Page* head = nullptr;
        Page* tail = nullptr;
        std::atomic<std::uint64_t> nr { 0 };
    };

    sync::SpinLock lock_;
    List lists_[2];
};

} // namespace pcl
