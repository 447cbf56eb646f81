#include "mm/frame_allocator.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "base/sleep.h"
#include "mm/blk_plug.h"
#include "mm/kswapd.h"
#include "sync/rcu.h"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <thread>
#include <type_traits>

namespace pcl {

namespace {

void add_part(std::string& out, std::uint64_t n, const char* what)
{
    if (n == 0)
        return;
    if (!out.empty())
        out += ", ";
    out += std::to_string(n) + " " + what;
}

} // namespace

std::string OomReport::describe() const
{
    std::string parts;
    add_part(parts, reclaim.dirty,
        reclaim.flusher ? "dirty, waiting to be written back" : "dirty, with no writeback to clean them");
    add_part(parts, reclaim.writeback, "under writeback");
    add_part(parts, pinned, "anonymous, which are never reclaimed (there is no swap)");
    add_part(parts, reclaim.unmappable, "referenced beyond the cache with no way to unmap them");
    add_part(parts, reclaim.in_use, "held by CPUs");
    add_part(parts, reclaim.locked, "locked");
    std::string s = stalled ? "no frame came back and no page became reclaimable for "
            + std::to_string(FrameAllocator::kStallLimit.count()) + " s"
        : reserve ? "every frame but the " + std::to_string(reserve)
            + " free ones kept in reserve under the min watermark is pinned"
        : frames == 1 ? std::string("the only frame is pinned")
                      : "every one of the " + std::to_string(frames) + " frames is pinned";
    if (!parts.empty())
        s += ": " + parts;
    return s;
}

/// A CPU's free list (struct per_cpu_pages). Its lock is taken by its CPU
/// for every allocation and free, and by another only to drain it (the
/// pcp->lock of Linux 6.0 on, which made remote draining a lock instead of
/// an IPI): uncontended unless a starved allocation drains every list.
struct alignas(64) FrameAllocator::Pcp {
    explicit Pcp(sync::LockClass& cls)
        : lock(cls)
    {
    }
    sync::SpinLock lock;
    std::vector<Page*> list; ///< most recently freed last (hot)
};

FrameAllocator::FrameAllocator(std::uint64_t frames, sync::LockRegistry& registry, std::uint64_t first_pfn)
    : total_(frames)
    , first_pfn_(first_pfn)
    , registry_(registry)
    , zone_lock_(registry, "zone.lock", "zone.lock")
    , zone_free_(frames)
{
    if (frames == 0)
        throw std::invalid_argument("memory_pages must be at least 1, got 0");
    if (first_pfn > kMaxFrames || frames > kMaxFrames - first_pfn)
        throw std::invalid_argument("memory_pages: frames " + std::to_string(first_pfn) + ".."
            + std::to_string(first_pfn + frames - 1) + " go past the last frame number, "
            + std::to_string(kMaxFrames - 1));
    // Memory this large comes from fresh anonymous mappings: not touched
    // (and not paid for) until a frame is first handed out.
    frames_.reset(static_cast<Page*>(::operator new(sizeof(Page) * frames, std::align_val_t(alignof(Page)))));
    free_.reserve(frames); // reserved, not touched: no reallocation under zone.lock
    last_failure_.frames = frames;
}

void FrameAllocator::FreeMemMap::operator()(Page* map) const noexcept
{
    static_assert(std::is_trivially_destructible_v<Page>, "the mem_map's pages are not destroyed one by one");
    ::operator delete(map, std::align_val_t(alignof(Page)));
}

Page* FrameAllocator::build_page(std::uint64_t i) noexcept
{
    Page* page = new (frames_.get() + i) Page();
    page->pfn = std::uint32_t(first_pfn_ + i);
    return page;
}

Page* FrameAllocator::take_fresh() noexcept
{
    return build_page(fresh_++);
}

void FrameAllocator::configure(const Watermarks& marks, const PcpSizing& pcp, unsigned cpus)
{
    if (in_use() != 0 || rcu_done_.load() != rcu_queued_.load())
        throw std::logic_error("FrameAllocator::configure: frames are in use");
    drain_all_pages();
    wmark_ = marks;
    pcp_sizing_ = pcp.high && pcp.batch && cpus ? pcp : PcpSizing {};
    pcps_.clear();
    if (pcp_sizing_.high) {
        sync::LockClass& cls = registry_.lock_class("pcp.lock");
        for (unsigned cpu = 0; cpu < cpus; ++cpu) {
            pcps_.push_back(std::make_unique<Pcp>(cls));
            pcps_.back()->list.reserve(pcp_sizing_.high + 1);
        }
    }
}

FrameAllocator::Pcp* FrameAllocator::this_cpu_pcp() const noexcept
{
    const int cpu = simulated_cpu();
    return cpu >= 0 && std::size_t(cpu) < pcps_.size() ? pcps_[std::size_t(cpu)].get() : nullptr;
}

Page* FrameAllocator::take_zone()
{
    std::lock_guard g(zone_lock_);
    if (zone_free_count() == 0)
        return nullptr;
    Page* page = nullptr;
    if (free_.empty()) {
        page = take_fresh();
    } else {
        page = free_.back();
        free_.pop_back();
    }
    zone_free_.store(zone_free_count(), std::memory_order_relaxed);
    in_transit_.add(1);
    return page;
}

Page* FrameAllocator::rmqueue(std::uint64_t mark)
{
    // zone_watermark_ok before the page is taken, as get_page_from_freelist
    // checks it: a lockless look, as Linux's (the decisive look, before
    // declaring memory exhausted, is under zone.lock).
    if (mark && !zone_watermark_ok(mark))
        return nullptr;
    Pcp* pcp = this_cpu_pcp();
    if (!pcp)
        return take_zone();
    std::lock_guard g(pcp->lock);
    if (pcp->list.empty())
        rmqueue_bulk(*pcp);
    if (pcp->list.empty())
        return nullptr;
    Page* page = pcp->list.back();
    pcp->list.pop_back();
    pcp_free_.add(-1);
    in_transit_.add(1);
    return page;
}

void FrameAllocator::rmqueue_bulk(Pcp& pcp)
{
    std::lock_guard g(zone_lock_);
    const std::size_t n = std::min<std::uint64_t>(pcp_sizing_.batch, zone_free_count());
    if (n == 0)
        return;
    // The hottest frames of the zone, the hottest last: the top of its free
    // stack, which ends in free_ and, below it, the frames never handed
    // out, the lowest on top.
    const std::size_t hot = std::min(n, free_.size());
    for (std::size_t i = n - hot; i-- > 0;)
        pcp.list.push_back(build_page(fresh_ + i));
    fresh_ += n - hot;
    pcp.list.insert(pcp.list.end(), free_.end() - std::ptrdiff_t(hot), free_.end());
    free_.resize(free_.size() - hot);
    zone_free_.store(zone_free_count(), std::memory_order_relaxed);
    pcp_free_.add(std::int64_t(n));
    pcp_refills_.fetch_add(1, std::memory_order_relaxed);
}

void FrameAllocator::free_pcppages_bulk(Pcp& pcp, std::size_t n)
{
    n = std::min(n, pcp.list.size());
    if (n == 0)
        return;
    {
        // The coldest frames, at the list's front, go.
        std::lock_guard g(zone_lock_);
        free_.insert(free_.end(), pcp.list.begin(), pcp.list.begin() + std::ptrdiff_t(n));
        zone_free_.store(zone_free_count(), std::memory_order_relaxed);
    }
    pcp.list.erase(pcp.list.begin(), pcp.list.begin() + std::ptrdiff_t(n));
    pcp_free_.add(-std::int64_t(n));
}

std::uint64_t FrameAllocator::drain_all_pages()
{
    std::uint64_t moved = 0;
    for (auto& pcp : pcps_) {
        std::lock_guard g(pcp->lock);
        moved += pcp->list.size();
        free_pcppages_bulk(*pcp, pcp->list.size());
    }
    if (moved)
        pcp_drains_.fetch_add(1, std::memory_order_relaxed);
    return moved;
}

Page* FrameAllocator::alloc(FileId file, pgoff_t index, Gfp gfp)
{
    Page* page = rmqueue(wmark_.low);
    if (!page)
        page = alloc_slowpath(gfp);
    if (!page)
        return nullptr;
    in_use_.add(1);
    // A new page in this frame: nothing of the previous one survives.
    page->mapping = file;
    page->index = index;
    page->flags.store(0, std::memory_order_relaxed);
    page->count.store(1, std::memory_order_relaxed);
    page->lock_waiters.store(0, std::memory_order_relaxed);
    page->lock_waits.store(0, std::memory_order_relaxed);
    page->lock_wait_ns.store(0, std::memory_order_relaxed);
    return page;
}

bool FrameAllocator::wait_for_rcu_frees()
{
    // Frames whose pages went recently are only a grace period away: wait
    // for those queued so far (not for later ones, which other CPUs may
    // keep queuing) before evicting anything.
    const std::uint64_t queued = rcu_queued_.load(std::memory_order_acquire);
    if (rcu_done_.load(std::memory_order_acquire) >= queued)
        return false;
    while (rcu_done_.load(std::memory_order_acquire) < queued)
        sleep_for_ns(20'000); // 20 us
    return true;
}

Page* FrameAllocator::alloc_slowpath(Gfp gfp)
{
    // At the low watermark: kswapd reclaims in the background while this
    // allocation takes what is left above the min one (wake_all_kswapds,
    // then get_page_from_freelist with ALLOC_WMARK_MIN).
    if (kswapd_)
        kswapd_->wakeup();
    if (Page* page = rmqueue(wmark_.min))
        return page;
    // Reclaim and its waits may sleep: reads this CPU has queued go to the
    // device first, or their locked pages would wait for nobody.
    blk_flush_plug();
    if (wait_for_rcu_frees())
        if (Page* page = rmqueue(wmark_.min))
            return page;
    if (!reclaim_) {
        // Nothing can be reclaimed: only frees bring frames back, and the
        // CPUs' lists may hold some.
        if (drain_all_pages())
            if (Page* page = rmqueue(wmark_.min))
                return page;
        if (gfp == Gfp::NoRetry)
            return nullptr;
        return refuse({}, false);
    }
    // Times on now_ns(): a modelled machine's stall is one in virtual time.
    std::uint64_t last_progress = now_ns();
    unsigned no_progress = 0; // counted retries since the last progress
    unsigned waits = 0;       // waits since the last progress
    bool confirmed = false;   // the previous pass found every frame pinned
    for (;;) {
        // What others freed meanwhile (kswapd, a CPU's reclaim) first.
        if (Page* page = rmqueue(wmark_.min))
            return page;
        const Marks before = marks();
        reclaims_.fetch_add(1, std::memory_order_relaxed);
        const ReclaimOutcome o = reclaim_();
        // Progress: kswapd, which may have given up, can help again
        // (shrink_node's kswapd_failures = 0).
        if (o.reclaimed && kswapd_)
            kswapd_->reset_failures();
        // Whoever freed what: the free list first, after every reclaim, and
        // then the CPUs' lists, where freed frames may sit
        // (__alloc_pages_direct_reclaim's drain_all_pages).
        if (Page* page = rmqueue(wmark_.min))
            return page;
        if (drain_all_pages())
            if (Page* page = rmqueue(wmark_.min))
                return page;
        if (gfp == Gfp::NoRetry)
            return nullptr;
        // The marks as the decision saw them: the wait below is for what
        // others do after it. Waiting on the marks from before the pass
        // would end at once whenever the pass put pages back itself (as
        // it does when every page it isolated was locked or in use): the
        // slow path would spin, never letting the disk or the holders run
        // on a busy machine, and the second look that out of memory needs
        // would come no later than the first.
        Marks seen = before;
        Retry r = o.reclaimed > 0 ? Retry::Now : should_reclaim_retry(o, before, seen);
        if (r == Retry::Now) {
            last_progress = now_ns();
            no_progress = waits = 0;
            confirmed = false;
            continue;
        }
        // Out of memory is declared on two passes in a row, a wait apart:
        // what one look found all pinned, the second confirms.
        if (r == Retry::OutOfMemory && confirmed)
            return refuse(o, false);
        confirmed = r == Retry::OutOfMemory;
        if (now_ns() - last_progress > static_cast<std::uint64_t>(std::chrono::nanoseconds(kStallLimit).count()))
            return refuse(o, true);
        // Brief holds count: after kMaxReclaimRetries without progress, and
        // a quarter of a second, they are not brief.
        if (r == Retry::WaitCounted && ++no_progress > kMaxReclaimRetries
            && now_ns() - last_progress > 250'000'000) // a quarter of a second
            return refuse(o, false);
        if (wait_for_rcu_frees())
            continue;
        // 50 us, doubling while nothing moves, at most 10 ms: a disk read
        // or a CPU's hold is usually over within the first.
        const auto timeout = std::chrono::microseconds(std::min<std::uint64_t>(50ull << std::min(waits, 8u), 10'000));
        ++waits;
        wait_for_progress(seen, timeout);
    }
}

FrameAllocator::Marks FrameAllocator::marks() const noexcept
{
    return { std::uint64_t(progress_.sum(std::memory_order_seq_cst)), returned_.load(std::memory_order_seq_cst) };
}

FrameAllocator::Retry FrameAllocator::should_reclaim_retry(const ReclaimOutcome& o, const Marks& before, Marks& seen)
{
    // Decided under zone.lock, with the CPUs' lists drained just before: a
    // frame freed since to a CPU's list counts as progress (progress_), one
    // still there as free, so none is missed; a mistaken look is caught by
    // the second pass that out of memory needs.
    std::lock_guard g(zone_lock_);
    const Marks now = marks();
    seen = now;
    if (zone_free_count() > wmark_.min || pcp_free() > 0 || now.progress != before.progress)
        return Retry::Now;
    if (rcu_done_.load(std::memory_order_acquire) < rcu_queued_.load(std::memory_order_acquire))
        return Retry::Wait;
    // These settle whatever this CPU does: wait for as long as it takes.
    // Pages other reclaimers held while this pass looked, back on the
    // lists now, are among them when this pass saw nothing pinned: it did
    // not see them at all.
    const bool others_put_back = now.returned - before.returned > o.put_back;
    // Pages under writeback are cleaned by the device whatever happens;
    // dirty ones only if a flusher is there to write them.
    const bool writeback = o.writeback > 0 || o.under_writeback > 0 || (o.flusher && o.dirty > 0);
    if (in_transit() > 0 || o.throttled || o.freeing > 0 || (o.locked > 0 && o.under_io > 0) || writeback
        || (others_put_back && o.dirty + o.unmappable == 0))
        return Retry::Wait;
    // Reclaimable on the next pass, or once a CPU lets go; or pinned pages
    // that other reclaimers put back as well.
    if (o.rotated > 0 || o.locked > 0 || o.in_use > 0 || others_put_back)
        return Retry::WaitCounted;
    return Retry::OutOfMemory;
}

void FrameAllocator::wait_for_progress(const Marks& before, std::chrono::microseconds timeout)
{
    stalls_.fetch_add(1, std::memory_order_relaxed);
    wait_until(before, timeout);
}

void FrameAllocator::throttle(std::chrono::microseconds timeout)
{
    wait_until(marks(), timeout);
}

void FrameAllocator::wait_until(const Marks& before, std::chrono::microseconds timeout)
{
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    {
        std::unique_lock lock(wait_mutex_);
        const auto timeout_ns = static_cast<std::uint64_t>(std::chrono::nanoseconds(timeout).count());
        wait_wq_.wait_until_ns(lock, now_ns() + timeout_ns, [&] {
            const Marks now = marks();
            return now.progress != before.progress || now.returned != before.returned;
        });
    }
    waiters_.fetch_sub(1, std::memory_order_relaxed);
}

void FrameAllocator::wake_waiters()
{
    if (waiters_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard g(wait_mutex_);
        wait_wq_.wake_all();
    }
}

Page* FrameAllocator::refuse(const ReclaimOutcome& o, bool stalled)
{
    failures_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard g(failure_mutex_);
    last_failure_.reclaim = o;
    last_failure_.stalled = stalled;
    const std::uint64_t listed = o.lru_pages + in_transit();
    last_failure_.pinned = in_use() > listed ? in_use() - listed : 0;
    last_failure_.reserve = std::min(zone_free(), wmark_.min);
    return nullptr;
}

OomReport FrameAllocator::last_failure() const
{
    std::lock_guard g(failure_mutex_);
    return last_failure_;
}

std::uint64_t FrameAllocator::in_transit() const noexcept
{
    const std::int64_t n = in_transit_.sum();
    return n > 0 ? std::uint64_t(n) : 0;
}

void FrameAllocator::settle(std::uint64_t n) noexcept
{
    in_transit_.add(-std::int64_t(n));
    // A new page on a list is one reclaim can take: progress for a waiter.
    progress_.add(std::int64_t(n), std::memory_order_seq_cst);
    wake_waiters();
}

void FrameAllocator::put_back(std::uint64_t n) noexcept
{
    if (n == 0)
        return;
    in_transit_.add(-std::int64_t(n));
    returned_.fetch_add(n, std::memory_order_seq_cst);
    wake_waiters();
}

void FrameAllocator::note_reclaimable() noexcept
{
    progress_.add(1, std::memory_order_seq_cst);
    wake_waiters();
}

void FrameAllocator::free(Page* page)
{
    free_to(page, this_cpu_pcp());
}

void FrameAllocator::free_to(Page* page, Pcp* pcp)
{
    if (!owns(page))
        throw std::invalid_argument("freeing a page that is not one of this allocator's frames");
    in_use_.add(-1);
    if (pcp) {
        // free_unref_page: to the CPU's list; past its high mark, a batch
        // of the coldest goes to the zone.
        std::lock_guard g(pcp->lock);
        pcp->list.push_back(page);
        pcp_free_.add(1);
        in_transit_.add(-1);
        progress_.add(1, std::memory_order_seq_cst);
        if (pcp->list.size() > pcp_sizing_.high) {
            free_pcppages_bulk(*pcp, pcp_sizing_.batch);
            pcp_spills_.fetch_add(1, std::memory_order_relaxed);
        }
    } else {
        std::lock_guard g(zone_lock_);
        free_.push_back(page);
        zone_free_.store(zone_free_count(), std::memory_order_relaxed);
        in_transit_.add(-1);
        progress_.add(1, std::memory_order_seq_cst);
    }
    wake_waiters();
}

/// A frame freed after a grace period. To the zone: the callbacks run on
/// a thread of their own (sync/rcu.cpp), not on the CPU that queued them as
/// Linux's softirqs do, and a frame put on a CPU's list from there would
/// take that CPU's lock from outside for every one.
struct FrameAllocator::DeferredFree {
    rcu::Head head; ///< first member: the callback's Head* is the object
    FrameAllocator* frames;
    Page* page;
};

void FrameAllocator::free_rcu(Page* page)
{
    if (!owns(page))
        throw std::invalid_argument("freeing a page that is not one of this allocator's frames");
    auto* d = new DeferredFree { {}, this, page };
    rcu_queued_.fetch_add(1, std::memory_order_release);
    rcu::call(&d->head, [](rcu::Head* h) {
        auto* d = reinterpret_cast<DeferredFree*>(h);
        d->frames->free_to(d->page, nullptr);
        d->frames->rcu_done_.fetch_add(1, std::memory_order_release);
        delete d;
    });
}

FrameAllocator::~FrameAllocator()
{
    rcu::barrier();
}

bool FrameAllocator::owns(const Page* page) const noexcept
{
    return page >= frames_.get() && page < frames_.get() + total_;
}

} // namespace pcl
