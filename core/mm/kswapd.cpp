#include "mm/kswapd.h"

#include "events/tracepoint.h"

namespace pcl {

Kswapd::Kswapd(FrameAllocator& frames, std::function<ReclaimOutcome()> shrink)
    : frames_(frames)
    , shrink_(std::move(shrink))
{
}

Kswapd::~Kswapd()
{
    stop();
}

void Kswapd::start()
{
    if (thread_.joinable())
        return;
    thread_ = TaskThread("kswapd0", [this] {
        trace::ThreadTrace trace(ring_, lane_);
        run();
    });
}

void Kswapd::stop()
{
    std::lock_guard s(stop_mutex_);
    {
        std::lock_guard g(mutex_);
        stopping_ = true;
        stop_.store(true, std::memory_order_relaxed);
    }
    wq_.wake_all();
    if (thread_.joinable())
        thread_.join();
}

void Kswapd::wakeup() noexcept
{
    // Awake, it rechecks the high watermark before every pass; given up,
    // it waits for a direct reclaim to free something (wakeup_kswapd's
    // kswapd_failures test).
    // seq_cst against run()'s store of awake_ and its look at the failures
    // after it: a reset of the failures by a direct reclaim and kswapd's
    // going to sleep cannot both miss each other (a lost wakeup would
    // leave kswapd asleep with the zone under its low mark).
    if (awake_.load(std::memory_order_seq_cst) || failures_.load(std::memory_order_seq_cst) >= kMaxReclaimRetries)
        return;
    {
        std::lock_guard g(mutex_);
        if (woken_ || stopping_)
            return;
        woken_ = true;
    }
    count_.wakeups.fetch_add(1, std::memory_order_relaxed);
    wq_.wake_one();
}

void Kswapd::run()
{
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wq_.wait(lock, [&] { return woken_ || stopping_; });
            if (stopping_)
                return;
            woken_ = false;
            awake_.store(true, std::memory_order_relaxed);
        }
        balance_pgdat();
        // A wakeup during the run was skipped (awake_): look once more
        // before sleeping, as kswapd_try_to_sleep does, so that a zone
        // drained meanwhile is not left under its low mark.
        awake_.store(false, std::memory_order_seq_cst);
        if (!frames_.zone_watermark_ok(frames_.watermarks().low))
            wakeup();
    }
}

void Kswapd::balance_pgdat()
{
    count_.runs.fetch_add(1, std::memory_order_relaxed);
    while (!stop_.load(std::memory_order_relaxed) && !frames_.zone_watermark_ok(frames_.watermarks().high)) {
        const ReclaimOutcome o = shrink_();
        count_.passes.fetch_add(1, std::memory_order_relaxed);
        count_.scanned.fetch_add(o.scanned, std::memory_order_relaxed);
        count_.reclaimed.fetch_add(o.reclaimed, std::memory_order_relaxed);
        if (o.reclaimed) {
            failures_.store(0, std::memory_order_relaxed);
            continue;
        }
        if (failures_.fetch_add(1, std::memory_order_relaxed) + 1 >= kMaxReclaimRetries) {
            count_.gave_up.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        // Nothing could be freed now: wait for writeback, a put-back or a
        // free before looking again.
        frames_.throttle(std::chrono::milliseconds(10));
    }
}

KswapdStats Kswapd::stats() const noexcept
{
    KswapdStats s;
#define PCL_KSWAPD_READ(member, label, unit, meaning) s.member = count_.member.load(std::memory_order_relaxed);
    PCL_KSWAPD_COUNTERS(PCL_KSWAPD_READ)
#undef PCL_KSWAPD_READ
    return s;
}

#define PCL_KSWAPD_COUNTER_ROW(member, label, unit, meaning)                                                           \
    Counter<KswapdStats> { #member, &KswapdStats::member, CounterKind::Count, "kswapd", label, unit, meaning },
constexpr Counter<KswapdStats> kKswapdCounters[] { PCL_KSWAPD_COUNTERS(PCL_KSWAPD_COUNTER_ROW) };
#undef PCL_KSWAPD_COUNTER_ROW

std::span<const Counter<KswapdStats>> kswapd_counters() noexcept
{
    return kKswapdCounters;
}

} // namespace pcl
