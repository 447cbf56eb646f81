// The page descriptor (struct page): what the page cache indexes hold.
//
// A page knows which file (address space) and which page offset it caches,
// so a gang lookup's results identify themselves; it carries the page flags
// and the reference count of mm/, and the statistics of its page lock (the
// lock itself is the PG_locked bit; its waiters sleep on hashed wait queues,
// see page_lock.h). Pages are not copyable: like struct page, one exists per
// physical frame and everything else points at it.
#pragma once

#include <atomic>
#include <cstdint>

namespace pcl {

/// A page offset within a file, in pages (the kernel's pgoff_t).
using pgoff_t = std::uint64_t;

/// Identifies a file (address space) inside one page cache.
using FileId = std::uint32_t;

/// Page flags (include/linux/page-flags.h), bits of Page::flags.
enum PageFlag : std::uint32_t {
    PG_locked = 1u << 0,     ///< under I/O or being filled: lock_page() holders only
    PG_uptodate = 1u << 1,   ///< contents valid (read completed)
    PG_dirty = 1u << 2,      ///< written since last written back
    PG_writeback = 1u << 3,  ///< being written back
    PG_readahead = 1u << 4,  ///< the readahead marker: reading it starts async readahead
    PG_referenced = 1u << 5, ///< accessed since the LRU last looked
    PG_active = 1u << 6,     ///< on the active LRU list
    PG_lru = 1u << 7,        ///< on an LRU list (not isolated by reclaim, not being freed); changes under zone.lru_lock
    /// Brought in by readahead and not accessed since. Linux keeps no such
    /// bit (its later readahead-thrashing detection infers it from
    /// PG_readahead and PageReferenced); here reclaim reads it to count an
    /// evicted, never-used readahead page as wasted readahead.
    PG_ra_unused = 1u << 8,
    /// The accessed bit of the PTE that maps the page. A page has at most
    /// one mapping here, so the bit lives with the page (as page_idle's
    /// PG_young does): set by an access through the mapping, read and
    /// cleared by reclaim (page_referenced).
    PG_young = 1u << 9,
    /// Reclaim wanted this page while it was dirty or under writeback:
    /// when its writeback completes it goes to the inactive list's tail
    /// (rotate_reclaimable_page), to be the next one reclaim takes.
    PG_reclaim = 1u << 10,
};

// One cache line each, as the kernel's struct page on x86-64 (64 bytes, in
// a mem_map aligned to them): a descriptor that straddled two lines would
// share one with its neighbour, and two CPUs taking references to
// neighbouring frames (each its own file's) would bounce it between them.
struct alignas(64) Page {
    Page() = default;
    Page(FileId file, pgoff_t offset) noexcept
        : mapping(file)
        , index(offset)
    {
    }
    Page(const Page&) = delete;
    Page& operator=(const Page&) = delete;

    FileId mapping = 0; ///< the file this page caches (page->mapping)
    /// The frame's number (page_to_pfn), fixed for the frame's life: set
    /// when the frame allocator builds the descriptor, 0 for a page made
    /// outside one. What the event stream and the page-lock hash know the
    /// page by, where Linux uses the struct page's address: a frame's
    /// number is the same in every run, an address is not. 32 bits, in the
    /// padding after `mapping` (a descriptor stays one cache line): a
    /// machine has at most 2^32 frames.
    std::uint32_t pfn = 0;
    pgoff_t index = 0;                      ///< its offset in that file, in pages (page->index)
    std::atomic<std::uint32_t> flags { 0 }; ///< PageFlag bits; PG_locked changes only through page_lock.h
    std::atomic<std::int32_t> count { 0 };  ///< references (page_count): the cache, mappings, lookups in progress

    // page->lru: the links of the LRU list the page is on (lru.h), written
    // and read only under zone.lru_lock.
    Page* lru_prev = nullptr;
    Page* lru_next = nullptr;

    // Page lock statistics, written by the waiters themselves.
    std::atomic<std::uint32_t> lock_waiters { 0 }; ///< threads sleeping in lock_page/wait_on_page_locked now
    std::atomic<std::uint64_t> lock_waits { 0 };   ///< times a CPU had to sleep on this page's lock
    std::atomic<std::uint64_t> lock_wait_ns { 0 }; ///< total time slept on it

    bool test(PageFlag f) const noexcept { return flags.load(std::memory_order_acquire) & f; }
    void set(PageFlag f) noexcept { flags.fetch_or(f, std::memory_order_release); }
    void clear(PageFlag f) noexcept { flags.fetch_and(~std::uint32_t(f), std::memory_order_release); }
    /// __SetPageX: sets @f with a plain store, for a page no other CPU can
    /// see yet (a fresh anonymous frame before its PTE is installed), as
    /// do_anonymous_page's __SetPageUptodate does; the publication that
    /// follows orders it.
    void set_nonatomic(PageFlag f) noexcept
    {
        flags.store(flags.load(std::memory_order_relaxed) | f, std::memory_order_relaxed);
    }
    /// Sets @f and returns whether it was already set (TestSetPageX).
    bool test_and_set(PageFlag f) noexcept { return flags.fetch_or(f, std::memory_order_acq_rel) & f; }
    /// Clears @f and returns whether it was set (TestClearPageX).
    bool test_and_clear(PageFlag f) noexcept
    {
        return flags.fetch_and(~std::uint32_t(f), std::memory_order_acq_rel) & f;
    }

    void get() noexcept { count.fetch_add(1, std::memory_order_relaxed); }
    /// Takes a reference unless the page is already on its way to being
    /// freed (get_page_unless_zero, the lockless pagecache's speculative get).
    bool get_unless_zero() noexcept
    {
        std::int32_t c = count.load(std::memory_order_relaxed);
        while (c > 0)
            if (count.compare_exchange_weak(c, c + 1, std::memory_order_acquire, std::memory_order_relaxed))
                return true;
        return false;
    }
    /// page_freeze_refs: takes every reference at once if exactly @expected
    /// are held (the cache's and reclaim's own), so the count becomes 0 and a
    /// concurrent speculative get_unless_zero fails; false if anyone else
    /// holds one.
    bool freeze_refs(std::int32_t expected) noexcept
    {
        return count.compare_exchange_strong(expected, 0, std::memory_order_acq_rel, std::memory_order_relaxed);
    }
    /// Drops a reference; true if it was the last.
    bool put() noexcept { return count.fetch_sub(1, std::memory_order_acq_rel) == 1; }
};

static_assert(sizeof(void*) != 8 || sizeof(Page) == 64, "a page descriptor is one cache line");

} // namespace pcl
