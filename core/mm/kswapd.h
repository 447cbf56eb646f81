// kswapd (mm/vmscan.c): the zone's background reclaimer.
//
// An allocation that finds the zone at or under its low watermark wakes
// kswapd (wakeup_kswapd) and goes on with what is left above the min
// watermark; kswapd reclaims, pass after pass, until the zone has more than
// its high watermark free (balance_pgdat), and sleeps again. So long as it
// keeps up, no allocating CPU reclaims for itself: the faults that would
// have stalled in direct reclaim find a free frame at once, and the
// reclaim's lock traffic moves to one thread. Its passes are the cache's
// reclaim, counted apart (/proc/vmstat's pgscan_kswapd and pgsteal_kswapd
// against pgscan_direct, pgsteal_direct and allocstall).
//
// A pass that frees nothing (every page dirty, under writeback, locked or
// mapped) counts a failure, and kswapd waits for progress - a frame freed,
// a writeback completed - before the next, at most 10 ms (reclaim_throttle,
// HZ/10 in 5.16). After kMaxReclaimRetries passes in a row without a page
// (MAX_RECLAIM_RETRIES, pgdat->kswapd_failures) it stops: wakeups are
// ignored until a direct reclaim frees something, and the allocating CPUs
// reclaim for themselves meanwhile, which is what decides whether memory
// is really exhausted.
#pragma once

#include "base/task_thread.h"
#include "base/wait_queue.h"
#include "lib/counter_table.h"
#include "mm/frame_allocator.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <thread>

namespace pcl {

class EventRing;

/// What kswapd did, since it was created: each counter declared once
/// (lib/counter_table.h), written in the result's totals.reclaim.kswapd.
/// To add one: a line here, then count it where it happens
/// (count_.name.fetch_add in Kswapd).
// clang-format off
#define PCL_KSWAPD_COUNTERS(X) \
    X(wakeups, "wakeups", "", \
        "Times kswapd was woken: by an allocation that found memory low, or by itself finding it low again.") \
    X(runs, "runs", "", /* pageoutrun */ \
        "Times kswapd set out to bring free memory back above its high mark.") \
    X(passes, "passes", "", \
        "Reclaim passes kswapd made over the page lists.") \
    X(scanned, "pages scanned", "pages", /* pgscan_kswapd */ \
        "Pages on the inactive list kswapd's passes looked at.") \
    X(reclaimed, "pages reclaimed", "pages", /* pgsteal_kswapd */ \
        "Pages kswapd's passes freed.") \
    X(gave_up, "gave up", "", \
        "Times kswapd stopped after many passes in a row that freed nothing.")
// clang-format on

struct KswapdStats {
#define PCL_KSWAPD_STATS_MEMBER(member, label, unit, meaning) std::uint64_t member = 0;
    PCL_KSWAPD_COUNTERS(PCL_KSWAPD_STATS_MEMBER)
#undef PCL_KSWAPD_STATS_MEMBER
};

/// The table of PCL_KSWAPD_COUNTERS, in its order (all counts, in the
/// group "kswapd").
std::span<const Counter<KswapdStats>> kswapd_counters() noexcept;

class Kswapd {
public:
    static constexpr unsigned kMaxReclaimRetries = 16;

    /// A reclaimer for @frames whose passes are @shrink (PageCache::kswapd_shrink).
    Kswapd(FrameAllocator& frames, std::function<ReclaimOutcome()> shrink);
    /// Stops the thread.
    ~Kswapd();
    Kswapd(const Kswapd&) = delete;
    Kswapd& operator=(const Kswapd&) = delete;

    /// Its evictions go to @ring, recorded as simulated CPU @lane. Before start().
    void set_trace(EventRing* ring, int lane) noexcept
    {
        ring_ = ring;
        lane_ = lane;
    }
    /// Starts the thread (asleep until woken); once.
    void start();
    /// Ends the thread after the pass it is in; idempotent.
    void stop();
    /// wakeup_kswapd: from an allocation at or under the low watermark.
    /// Cheap when kswapd is awake already or has given up.
    void wakeup() noexcept;
    /// A direct reclaim freed pages: kswapd may help again.
    /// seq_cst, against run()'s look after it clears awake_: either that
    /// look sees the reset, or a later wakeup() sees kswapd asleep.
    void reset_failures() noexcept { failures_.store(0, std::memory_order_seq_cst); }
    /// Whether it is reclaiming now.
    bool awake() const noexcept { return awake_.load(std::memory_order_relaxed); }
    KswapdStats stats() const noexcept;

private:
    void run();
    void balance_pgdat();

    FrameAllocator& frames_;
    std::function<ReclaimOutcome()> shrink_;
    EventRing* ring_ = nullptr;
    int lane_ = -1;
    /// stop() from the last CPU and from Engine::stop at once. Held across
    /// the join: a WaitMutex, so a task of a modelled machine parks on it.
    WaitMutex stop_mutex_;
    TaskThread thread_;
    WaitMutex mutex_;
    WaitQueue wq_;
    bool woken_ = false;    ///< under mutex_
    bool stopping_ = false; ///< under mutex_
    std::atomic<bool> stop_ { false };
    std::atomic<bool> awake_ { false };
    std::atomic<unsigned> failures_ { 0 };
    struct Counts {
#define PCL_KSWAPD_ATOMIC(member, label, unit, meaning) std::atomic<std::uint64_t> member { 0 };
        PCL_KSWAPD_COUNTERS(PCL_KSWAPD_ATOMIC)
#undef PCL_KSWAPD_ATOMIC
    } count_;
};

} // namespace pcl
