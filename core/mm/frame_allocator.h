// "Physical memory": a fixed budget of page frames.
//
// Every page the cache holds occupies one frame. A frame is taken from the
// zone's free list under the zone's lock (zone->lock, whose contention the
// lock table shows like any other) and given back when its last reference
// goes. With per-CPU lists configured (reclaim_config.h), a CPU takes and
// gives frames on its own list under its own lock (pcp.lock), and only a
// batch at a time goes between that list and the zone (rmqueue_bulk,
// free_pcppages_bulk): zone.lock is taken once a batch instead of once a
// page, and stops being the lock every fault of every CPU shares.
//
// Watermarks (reclaim_config.h): an allocation takes a frame at once while
// the zone has more than the low watermark free (get_page_from_freelist
// with ALLOC_WMARK_LOW). At or under it, the slow path wakes kswapd
// (kswapd.h) and tries again against the min watermark, so that most
// allocations go on while kswapd reclaims in the background. Only at the
// min watermark does the allocating CPU reclaim for itself. Unconfigured,
// all three marks are 0 and every frame can be taken.
//
// When the zone is at its min watermark, alloc() takes the slow path of
// __alloc_pages_slowpath: the CPU first submits the reads queued on its plug
// (blk_plug.h), then reclaims directly (the page cache registers its
// try_to_free_pages with set_reclaim) and looks at the free list again after
// every reclaim, whoever freed what, after taking back the frames the CPUs'
// lists hold (drain_all_pages). With nothing freed, should_reclaim_retry
// decides, under zone.lock, from what reclaim found and what other CPUs are
// doing:
//   - a frame came back, or some are a grace period away: look again;
//   - frames in transit (allocated and not yet on a list, isolated by
//     another reclaimer, or on their way back), pages under read I/O,
//     dirty pages the flusher was woken to write and pages under writeback
//     (reclaim_throttle's VMSCAN_THROTTLE_WRITEBACK), or pages other
//     reclaimers held while this pass looked: each of these settles
//     whatever this CPU does, so wait for progress and look again, for as
//     long as it takes;
//   - pages only a CPU holds for a moment (locked by it, referenced by it,
//     or referenced and given a second chance): wait and look again, up to
//     kMaxReclaimRetries times without progress (MAX_RECLAIM_RETRIES);
//   - nothing free above the min watermark, nothing in transit, nothing
//     under I/O and every page
//     pinned (anonymous, mapped with no way to unmap it, or dirty with no
//     writeback to clean it), on two passes in a row a wait apart: out of
//     memory, and last_failure() says what pins the frames.
// Waits sleep on a wait queue that every freed frame, every page put on an
// LRU list and every completed writeback wakes, with a timeout (reclaim_throttle's), never on a bare
// timer. An allocation that has made no progress for kStallLimit fails
// whatever the reason, so that a run cannot hang.
//
// A readahead allocation (Gfp::NoRetry, readahead_gfp_mask's __GFP_NORETRY)
// reclaims once and never waits: the window is cut where it fails.
#pragma once

#include "base/page.h"
#include "base/wait_queue.h"
#include "mm/reclaim_config.h"
#include "sync/lock_stats.h"
#include "sync/percpu_counter.h"
#include "sync/spinlock.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pcl {

class Kswapd;

/// How hard an allocation may try (the gfp flags that matter here).
enum class Gfp : std::uint8_t {
    Kernel,  ///< GFP_KERNEL: reclaims, waits and retries; fails only when every frame is pinned
    NoRetry, ///< readahead's __GFP_NORETRY: one reclaim pass, no waiting, no retry
};

/// What one direct reclaim pass found (try_to_free_pages' scan_control),
/// which should_reclaim_retry reads.
struct ReclaimOutcome {
    std::uint64_t reclaimed = 0;       ///< frames freed
    std::uint64_t scanned = 0;         ///< pages looked at
    std::uint64_t locked = 0;          ///< locked: under read I/O, or held by a CPU for a moment
    std::uint64_t in_use = 0;          ///< referenced by a CPU besides the cache (and not unmappable)
    std::uint64_t rotated = 0;         ///< referenced: a second chance, reclaimable on the next pass
    std::uint64_t dirty = 0;           ///< dirty: left for the flusher (with none, pinned)
    std::uint64_t writeback = 0;       ///< under writeback: reclaimable once the device has written them
    std::uint64_t unmappable = 0;      ///< mapped, and reclaim has no way to unmap it
    std::uint64_t put_back = 0;        ///< isolated pages this pass put back on the lists (put_back())
    std::uint64_t freeing = 0;         ///< pages whose last reference was going: their frames are on the way back
    std::uint64_t lru_pages = 0;       ///< pages on the LRU lists when the pass ended
    std::uint64_t under_io = 0;        ///< pages whose reads were queued or in flight when it ended
    std::uint64_t under_writeback = 0; ///< pages being written back, every file, when it ended
    bool flusher = false;              ///< the flusher was woken for the dirty pages: writeback will clean them
    bool throttled = false;            ///< too many pages isolated by other reclaimers: waited, then gave up the pass
};

/// Why the last refused allocation was refused, and what held the frames.
struct OomReport {
    std::uint64_t frames = 0;  ///< the budget
    ReclaimOutcome reclaim;    ///< the last reclaim pass before the refusal
    std::uint64_t pinned = 0;  ///< frames in use on no LRU list and not in transit (anonymous memory)
    std::uint64_t reserve = 0; ///< frames free but kept as the reserve at or under the min watermark
    bool stalled = false;      ///< refused after kStallLimit without progress, not because all is pinned
    /// One sentence for the run's error: what pins the frames.
    std::string describe() const;
};

class FrameAllocator {
public:
    /// Retries without progress while only CPUs' brief holds keep pages
    /// from reclaim (MAX_RECLAIM_RETRIES).
    static constexpr unsigned kMaxReclaimRetries = 16;
    /// The longest an allocation waits without any frame coming back or
    /// any page reaching an LRU list, whatever it waits for.
    static constexpr std::chrono::seconds kStallLimit { 30 };

    /// The most frames the allocators of one machine number (Page::pfn).
    static constexpr std::uint64_t kMaxFrames = std::uint64_t(1) << 32;

    /// @frames page frames (at least 1), numbered from @first_pfn (a NUMA
    /// node's first frame: the nodes of a machine number their frames one
    /// after another). Throws std::invalid_argument naming memory_pages
    /// unless 1 <= frames and first_pfn + frames <= kMaxFrames.
    explicit FrameAllocator(
        std::uint64_t frames, sync::LockRegistry& registry = sync::LockRegistry::global(), std::uint64_t first_pfn = 0);
    /// Waits for the frees queued with free_rcu.
    ~FrameAllocator();
    FrameAllocator(const FrameAllocator&) = delete;
    FrameAllocator& operator=(const FrameAllocator&) = delete;

    /// A free frame as a page of @file at @index, with one reference and no
    /// flags, in transit until its owner settles it. With none free, the
    /// slow path above; nullptr when memory is exhausted (or, for NoRetry,
    /// when one reclaim pass freed nothing), counted in failures(). Must not
    /// be called inside an RCU read-side section (it may wait for a grace
    /// period).
    Page* alloc(FileId file, pgoff_t index, Gfp gfp = Gfp::Kernel);
    /// Direct reclaim: @reclaim frees frames (with free()) and says what it
    /// found. Set before concurrent use; an empty function removes it, and
    /// then an allocation that finds the zone at its min watermark (and the
    /// CPUs' lists empty) fails at once.
    void set_reclaim(std::function<ReclaimOutcome()> reclaim) { reclaim_ = std::move(reclaim); }
    /// The zone's watermarks, and per-CPU lists for the simulated CPUs
    /// 0..@cpus-1 (a thread with no simulated CPU uses the zone). Before
    /// concurrent use, with every frame free (throws std::logic_error
    /// otherwise); unconfigured, the marks are 0 and there are no per-CPU
    /// lists.
    void configure(const Watermarks& marks, const PcpSizing& pcp, unsigned cpus);
    /// The background reclaimer an allocation wakes at the low watermark;
    /// set before concurrent use, null for none.
    void set_kswapd(Kswapd* kswapd) noexcept { kswapd_ = kswapd; }
    const Watermarks& watermarks() const noexcept { return wmark_; }
    const PcpSizing& pcp_sizing() const noexcept { return pcp_sizing_; }
    /// Whether the zone's free list (not the CPUs' lists: NR_FREE_PAGES
    /// does not count them) holds more than @mark frames (zone_watermark_ok).
    bool zone_watermark_ok(std::uint64_t mark) const noexcept { return zone_free() > mark; }
    /// Gives the frames on every CPU's list back to the zone (drain_all_pages);
    /// returns how many moved.
    std::uint64_t drain_all_pages();
    /// Sleeps until a frame is freed, a page settles, is put back or becomes
    /// reclaimable, or @timeout passes: kswapd's throttle (reclaim_throttle).
    void throttle(std::chrono::microseconds timeout);

    /// Gives @page's frame back (its last reference is gone); the frame
    /// leaves transit. On a simulated CPU with a per-CPU list, to that list.
    void free(Page* page);
    /// Gives @page's frame back, to the zone, after an RCU grace period: a
    /// page that was in an index may still be looked at by lockless
    /// readers, which must not see its frame reused for another page
    /// meanwhile.
    void free_rcu(Page* page);

    /// Frames in transit: in use, on no LRU list, and not pinned for good.
    /// alloc() puts a frame in transit; its owner settles it when a new page
    /// goes on an LRU list, or is pinned (an anonymous page mapped), and
    /// unsettles it when it comes off every list (isolated by reclaim, or
    /// its last reference gone); reclaim puts back what it isolated and did
    /// not free; free() takes a frame out. A settled page is progress for a
    /// waiting allocation; a page put back is not (it was there before), but
    /// another reclaimer's put back during a pass is a page the pass missed.
    void settle(std::uint64_t n = 1) noexcept;
    void put_back(std::uint64_t n) noexcept;
    /// A page on an LRU list became reclaimable (its writeback completed):
    /// progress for a waiting allocation.
    void note_reclaimable() noexcept;
    void unsettle(std::uint64_t n = 1) noexcept { in_transit_.add(std::int64_t(n)); }
    std::uint64_t in_transit() const noexcept;

    /// Whether @page is one of this allocator's frames.
    bool owns(const Page* page) const noexcept;
    /// The frame number of one of this allocator's pages (page_to_pfn):
    /// first_pfn() for its first frame.
    std::uint64_t page_to_pfn(const Page* page) const noexcept
    {
        return first_pfn_ + std::uint64_t(page - frames_.get());
    }
    std::uint64_t first_pfn() const noexcept { return first_pfn_; }

    std::uint64_t total() const noexcept { return total_; }
    std::uint64_t in_use() const noexcept
    {
        const std::int64_t n = in_use_.sum();
        return n > 0 ? std::uint64_t(n) : 0;
    }
    /// Frames free, on the zone's list and on the CPUs' lists.
    std::uint64_t free_frames() const noexcept { return total_ - in_use(); }
    /// Frames on the zone's free list (NR_FREE_PAGES).
    std::uint64_t zone_free() const noexcept { return zone_free_.load(std::memory_order_relaxed); }
    /// Frames on the CPUs' free lists.
    std::uint64_t pcp_free() const noexcept
    {
        const std::int64_t n = pcp_free_.sum();
        return n > 0 ? std::uint64_t(n) : 0;
    }
    /// Batches a CPU's list took from the zone (rmqueue_bulk) and gave back
    /// to it (free_pcppages_bulk), and the drains of every list.
    std::uint64_t pcp_refills() const noexcept { return pcp_refills_.load(std::memory_order_relaxed); }
    std::uint64_t pcp_spills() const noexcept { return pcp_spills_.load(std::memory_order_relaxed); }
    std::uint64_t pcp_drains() const noexcept { return pcp_drains_.load(std::memory_order_relaxed); }
    /// Allocations refused.
    std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }
    /// Times an allocation found no frame free and called reclaim.
    std::uint64_t reclaims() const noexcept { return reclaims_.load(std::memory_order_relaxed); }
    /// Times an allocation slept waiting for progress (reclaim_throttle).
    std::uint64_t stalls() const noexcept { return stalls_.load(std::memory_order_relaxed); }
    /// Why the last refused Gfp::Kernel allocation was refused.
    OomReport last_failure() const;
    /// Bytes of page descriptors (the mem_map), not of page contents.
    std::uint64_t memory_bytes() const noexcept { return total_ * sizeof(Page); }

private:
    /// What should_reclaim_retry tells the slow path to do.
    enum class Retry : std::uint8_t { Now, Wait, WaitCounted, OutOfMemory };

    struct Pcp;
    struct DeferredFree;
    /// The calling thread's per-CPU list, or null.
    Pcp* this_cpu_pcp() const noexcept;
    /// A frame, put in transit, if the zone has more than @mark free (or
    /// @mark is 0): from the calling CPU's list, refilled from the zone
    /// when empty, or from the zone itself; null otherwise.
    Page* rmqueue(std::uint64_t mark);
    Page* take_zone();
    /// Refills @pcp with a batch from the zone; @pcp's lock held.
    void rmqueue_bulk(Pcp& pcp);
    /// Gives @pcp's @n coldest frames to the zone; @pcp's lock held.
    void free_pcppages_bulk(Pcp& pcp, std::size_t n);
    /// free() to @pcp, or to the zone if null.
    void free_to(Page* page, Pcp* pcp);
    Page* alloc_slowpath(Gfp gfp);
    /// Progress and put-backs, as seen before a reclaim pass.
    struct Marks {
        std::uint64_t progress;
        std::uint64_t returned;
    };
    Marks marks() const noexcept;
    /// What to do after a pass that freed nothing, given the marks from
    /// before it; @seen gets the marks the decision was made on.
    Retry should_reclaim_retry(const ReclaimOutcome& o, const Marks& before, Marks& seen);
    /// Sleeps until a frame is freed, a page settles or is put back after
    /// @before, or @timeout passes.
    void wait_for_progress(const Marks& before, std::chrono::microseconds timeout);
    void wait_until(const Marks& before, std::chrono::microseconds timeout);
    void wake_waiters();
    /// Waits for the frames queued by free_rcu so far; false if none were.
    bool wait_for_rcu_frees();
    Page* refuse(const ReclaimOutcome& o, bool stalled);

    /// Frees the mem_map's memory (its pages are trivially destroyed).
    struct FreeMemMap {
        void operator()(Page* map) const noexcept;
    };
    /// The zone's free frames (free_, and the frames never handed out);
    /// under zone.lock.
    std::uint64_t zone_free_count() const noexcept { return free_.size() + (total_ - fresh_); }
    /// The next frame never handed out, its struct page built now; under
    /// zone.lock, with one there.
    Page* take_fresh() noexcept;
    /// Builds the struct page of frame @i (counted from this allocator's
    /// first), with its frame number.
    Page* build_page(std::uint64_t i) noexcept;

    std::uint64_t total_;
    std::uint64_t first_pfn_;
    /// The mem_map, allocated but not touched: a frame's struct page is
    /// built the first time the frame is handed out, so that a machine of
    /// millions of frames costs nothing to set up (or to take down) beyond
    /// the frames its run used. Linux's deferred struct page init
    /// (CONFIG_DEFERRED_STRUCT_PAGE_INIT) defers the same work at boot.
    std::unique_ptr<Page, FreeMemMap> frames_;
    sync::LockRegistry& registry_;
    sync::SpinLock zone_lock_; ///< "zone.lock": protects free_ and fresh_
    /// Free frames handed out before, most recently freed last (hot first):
    /// the top of the zone's free stack.
    std::vector<Page*> free_;
    /// Frames from here to total_ were never handed out: the bottom of the
    /// zone's free stack, the lowest on top, so a fresh run hands out
    /// frames in order.
    std::uint64_t fresh_ = 0;
    std::atomic<std::uint64_t> zone_free_;   ///< zone_free_count(), for lockless watermark checks
    sync::PercpuCounter pcp_free_;           ///< frames on the CPUs' lists
    std::vector<std::unique_ptr<Pcp>> pcps_; ///< per simulated CPU; empty without per-CPU lists
    Watermarks wmark_;
    PcpSizing pcp_sizing_;
    Kswapd* kswapd_ = nullptr;
    std::atomic<std::uint64_t> pcp_refills_ { 0 };
    std::atomic<std::uint64_t> pcp_spills_ { 0 };
    std::atomic<std::uint64_t> pcp_drains_ { 0 };
    // Counted on every allocation and free: split across cache lines
    // (the kernel's vmstat counters are per CPU for the same reason), or
    // two CPUs faulting pages bounce them on every fault.
    sync::PercpuCounter in_use_;
    sync::PercpuCounter in_transit_;
    std::atomic<std::uint64_t> failures_ { 0 };
    std::atomic<std::uint64_t> reclaims_ { 0 };
    std::atomic<std::uint64_t> stalls_ { 0 };
    std::atomic<std::uint64_t> rcu_queued_ { 0 }; ///< frames ever queued by free_rcu
    std::atomic<std::uint64_t> rcu_done_ { 0 };   ///< of which are back on the free list
    /// Frames freed plus frames settled, ever: what a waiting allocation
    /// calls progress.
    sync::PercpuCounter progress_;
    std::atomic<std::uint64_t> returned_ { 0 }; ///< pages ever put back by reclaim
    std::atomic<int> waiters_ { 0 };
    WaitMutex wait_mutex_;
    WaitQueue wait_wq_;
    mutable std::mutex failure_mutex_;
    OomReport last_failure_;
    std::function<ReclaimOutcome()> reclaim_;
};

} // namespace pcl
