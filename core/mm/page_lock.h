// The page lock: PG_locked, and the queues its waiters sleep on.
//
// As in Linux (mm/filemap.c), the lock is one bit in the page's flags and a
// CPU that finds it set sleeps until it is cleared: a page is locked while it
// is being read from the device or filled by another CPU, and a fault on it
// must wait for the I/O to complete. Waiters do not sleep on the page itself
// (a struct page has no room for a wait queue) but on one of a fixed table of
// hashed wait queues, as page_waitqueue() does; unlock_page() looks at the
// page's waiter count and wakes the page's queue only if someone sleeps.
//
// Locking rule: Page::lock_waiters is raised before a sleeper's last look at
// PG_locked and unlock_page() reads it after clearing PG_locked (both
// sequentially consistent), so either the sleeper sees the bit clear or the
// unlocker sees the sleeper and wakes it: no lost wake-up.
#pragma once

#include "base/machine_calls.h"
#include "base/page.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace pcl {

/// Totals over every page that used this table.
struct PageLockStats {
    std::uint64_t waits = 0;       ///< times a CPU slept on a page lock (lock_page or wait_on_page_locked)
    std::uint64_t wait_ns = 0;     ///< total time slept
    std::uint64_t max_wait_ns = 0; ///< longest single sleep
    std::uint32_t sleeping = 0;    ///< CPUs sleeping on a page lock right now
};

class PageWaitTable {
public:
    /// @buckets hashed wait queues (a power of two).
    explicit PageWaitTable(unsigned buckets = 256);
    ~PageWaitTable();
    PageWaitTable(const PageWaitTable&) = delete;
    PageWaitTable& operator=(const PageWaitTable&) = delete;

    /// Takes PG_locked without sleeping; true if it was free (trylock_page).
    static bool trylock_page(Page& page) noexcept
    {
        if (page.test_and_set(PG_locked))
            return false;
        note_lock_acquired(lock_key(page));
        return true;
    }
    /// A page lock's name in the order of a modelled run's lock
    /// acquisitions (note_lock_acquired): its frame, in a range no lock
    /// class's trace identity reaches.
    static constexpr LineKey lock_key(const Page& page) noexcept { return (LineKey(1) << 62) | page.pfn; }
    /// Takes PG_locked, sleeping while another CPU holds it (lock_page).
    void lock_page(Page& page);
    /// Clears PG_locked and wakes the page's sleepers (unlock_page).
    void unlock_page(Page& page);
    /// Sleeps until PG_locked is clear, without taking it
    /// (wait_on_page_locked: a fault waiting for another CPU's read).
    /// Returns true if it had to sleep.
    bool wait_on_page_locked(Page& page);
    /// Sleeps until PG_writeback is clear (wait_on_page_writeback: a
    /// truncate, an fsync or a write of the page waiting for the device to
    /// finish writing it). Returns true if it had to sleep.
    bool wait_on_page_writeback(Page& page);
    /// Wakes the page's sleepers if it has any (wake_up_page), after a bit
    /// they wait on was cleared: PG_locked (unlock_page does it) or
    /// PG_writeback (end_page_writeback).
    void wake_up_page(Page& page);

    /// The block device holds the locks of the pages it reads, from
    /// submission to completion (the bio owns the page lock in Linux):
    /// submit_read counts them in, completion out before it unlocks them.
    /// Reclaim tells a page locked for I/O, which will be unlocked whatever
    /// anyone does, from one a CPU holds by how many are under I/O.
    void io_started(std::uint64_t pages) noexcept { under_io_.fetch_add(pages, std::memory_order_relaxed); }
    void io_done(std::uint64_t pages) noexcept { under_io_.fetch_sub(pages, std::memory_order_relaxed); }
    /// Pages whose read is queued or in flight on a device now.
    std::uint64_t pages_under_io() const noexcept { return under_io_.load(std::memory_order_relaxed); }

    PageLockStats stats() const noexcept;
    /// Which of the hashed queues @page's sleepers use (page_waitqueue):
    /// a hash of its frame number (Page::pfn), the same in every run.
    unsigned queue_index(const Page& page) const noexcept;

private:
    struct Queue;
    Queue& queue(const Page& page) noexcept;
    /// Sleeps on @page's queue until @done() holds; records the wait.
    template <class Done> void sleep_until(Page& page, Done&& done);

    unsigned bits_; ///< log2 of the queues (PAGE_WAIT_TABLE_BITS)
    std::unique_ptr<Queue[]> queues_;
    std::atomic<std::uint64_t> waits_ { 0 };
    std::atomic<std::uint64_t> wait_ns_ { 0 };
    std::atomic<std::uint64_t> max_wait_ns_ { 0 };
    std::atomic<std::uint32_t> sleeping_ { 0 };
    std::atomic<std::uint64_t> under_io_ { 0 };
};

} // namespace pcl
