#include "mm/writeback.h"

#include "base/clock.h"
#include "base/task_thread.h"
#include "base/wait_queue.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "mm/block_device.h"
#include "mm/page_cache.h"
#include "sync/rcu.h"

#include <algorithm>
#include <chrono>
#include <string>

namespace pcl {

namespace {

/// Pages a tagged gang lookup returns at a time (PAGEVEC_SIZE).
constexpr std::size_t kPagevec = 15;
/// balance_dirty_pages' longest pause (MAX_PAUSE, HZ/5).
constexpr std::chrono::milliseconds kMaxPause { 200 };

/// What one tagged gang lookup found.
struct TaggedBatch {
    std::size_t pages = 0; ///< pages referenced into the caller's array
    std::size_t seen = 0;  ///< entries the lookup returned (some may have gone meanwhile)
    pgoff_t next = 0;      ///< where the next lookup starts: after the last entry seen
};

/// Up to kPagevec pages of @as from @index carrying @tag, each with a
/// reference (find_get_pages_range_tag): the speculative get under RCU,
/// which keeps every frame the lookup returns from being reused, and a
/// second look that the index still holds the page.
TaggedBatch find_get_pages_tag(PageCache& cache, AddressSpace& as, pgoff_t index, unsigned tag, Page** out)
{
    Page* found[kPagevec];
    TaggedBatch b;
    std::vector<Page*> gone; // referenced, then found removed: put outside the read-side section
    {
        rcu::ReadGuard guard;
        b.seen = as.index->gang_lookup_tag(index, kPagevec, tag, found);
        for (std::size_t k = 0; k < b.seen; ++k) {
            Page* page = found[k];
            b.next = page->index + 1;
            if (!page->get_unless_zero())
                continue;
            if (as.index->lookup(page->index) != page) {
                gone.push_back(page);
                continue;
            }
            out[b.pages++] = page;
        }
    }
    for (Page* page : gone)
        cache.put_page(page); // perhaps the last reference: the truncate is done with it
    return b;
}

/// tag_pages_for_writeback: every dirty page of @as in the range gets the
/// towrite tag, so that a WB_SYNC_ALL pass writes what was dirty when it
/// began and is not kept going by pages dirtied behind it.
void tag_pages_for_writeback(AddressSpace& as, pgoff_t start, pgoff_t end)
{
    Page* batch[kPagevec];
    pgoff_t index = start;
    for (;;) {
        // The pages' own fields are read inside the read-side section: a
        // page truncated meanwhile keeps its frame until the section ends.
        rcu::ReadGuard guard;
        const std::size_t n = as.index->gang_lookup_tag(index, kPagevec, kTagDirty, batch);
        for (std::size_t k = 0; k < n; ++k) {
            const pgoff_t i = batch[k]->index;
            if (i > end)
                return;
            as.index->set_tag(i, kTagTowrite);
            index = i + 1;
        }
        if (n < kPagevec)
            return;
    }
}

} // namespace

void WritebackConfig::validate() const
{
    if (dirty_background_ratio > 100)
        throw FieldError(
            "dirty_background_ratio", "must be between 0 and 100 (%), got " + std::to_string(dirty_background_ratio));
    if (dirty_ratio < 1 || dirty_ratio > 100)
        throw FieldError("dirty_ratio", "must be between 1 and 100 (%), got " + std::to_string(dirty_ratio));
    if (dirty_expire_ms > kMaxMs)
        throw FieldError(
            "dirty_expire_ms", "must be at most 3600000 (an hour), got " + std::to_string(dirty_expire_ms));
    if (writeback_interval_ms > kMaxMs)
        throw FieldError("writeback_interval_ms",
            "must be at most 3600000 (an hour; 0 = no periodic writeback), got "
                + std::to_string(writeback_interval_ms));
}

std::uint64_t WritebackConfig::dirty_thresh(std::uint64_t frames) const noexcept
{
    return std::max<std::uint64_t>(2, frames * dirty_ratio / 100);
}

std::uint64_t WritebackConfig::background_thresh(std::uint64_t frames) const noexcept
{
    const std::uint64_t dirty = dirty_thresh(frames);
    std::uint64_t bg = frames * dirty_background_ratio / 100;
    if (bg >= dirty)
        bg = dirty / 2;
    return std::max<std::uint64_t>(1, bg);
}

void write_cache_pages(PageCache& cache, FileId file, BlockDevice& device, WritebackControl& wbc)
{
    AddressSpace& as = cache.file(file);
    const bool sync_all = wbc.sync_mode == WritebackControl::SyncMode::All;
    const unsigned tag = sync_all ? kTagTowrite : kTagDirty;
    if (sync_all)
        tag_pages_for_writeback(as, wbc.range_start, wbc.range_end);
    const pgoff_t max_run = std::max<pgoff_t>(1, device.config().max_request_pages);
    PageWaitTable& locks = cache.page_locks();
    std::vector<Page*> run;
    auto submit = [&] {
        if (run.empty())
            return;
        ++wbc.submissions;
        device.submit_write(std::move(run));
        run.clear();
    };
    Page* batch[kPagevec];
    pgoff_t index = wbc.range_start;
    bool done = false;
    while (!done) {
        const TaggedBatch b = find_get_pages_tag(cache, as, index, tag, batch);
        index = b.next;
        done = b.seen < kPagevec;
        std::size_t k = 0;
        for (; k < b.pages; ++k) {
            Page* page = batch[k];
            if (page->index > wbc.range_end) {
                done = true;
                break;
            }
            // A writer sleeps only with its writes submitted (the plug is
            // flushed before any sleep): whoever holds this page, or waits
            // for a page of the run to be written, must not wait on us.
            if (!PageWaitTable::trylock_page(*page)) {
                submit();
                locks.lock_page(*page);
            }
            const bool cached = [&] {
                rcu::ReadGuard guard;
                return as.index->lookup(page->index) == page;
            }();
            bool write = cached;
            if (write && page->test(PG_writeback)) {
                // A write of it is in flight: a data-integrity pass waits
                // for it (the page may have been dirtied since the write
                // began), a background one leaves it.
                if (sync_all) {
                    submit();
                    cache.wait_on_page_writeback(*page);
                } else {
                    write = false;
                }
            }
            if (write && !cache.clear_page_dirty_for_io(*page))
                write = false; // cleaned by someone else meanwhile
            if (write) {
                if (!run.empty() && (run.back()->index + 1 != page->index || run.size() >= max_run))
                    submit();
                cache.set_page_writeback(*page);
                run.push_back(page);
                ++wbc.written;
                if (wbc.nr_to_write)
                    --wbc.nr_to_write;
            } else if (cached && sync_all) {
                as.index->clear_tag(page->index, kTagTowrite);
            }
            locks.unlock_page(*page);
            // The device needs no reference: a page under writeback is
            // neither reclaimed nor truncated until its write completes.
            cache.put_page(page);
            if (!sync_all && wbc.nr_to_write == 0) {
                done = true;
                ++k;
                break;
            }
        }
        for (; k < b.pages; ++k)
            cache.put_page(batch[k]);
        // The run stays open across batches, so a long dirty range still
        // goes to the disk as requests of max_run pages.
    }
    submit();
}

void filemap_fdatawait(PageCache& cache, FileId file)
{
    AddressSpace& as = cache.file(file);
    Page* batch[kPagevec];
    pgoff_t index = 0;
    for (;;) {
        const TaggedBatch b = find_get_pages_tag(cache, as, index, kTagWriteback, batch);
        index = b.next;
        for (std::size_t k = 0; k < b.pages; ++k) {
            cache.wait_on_page_writeback(*batch[k]);
            cache.put_page(batch[k]);
        }
        if (b.seen < kPagevec)
            return;
    }
}

/// One disk's flusher (struct bdi_writeback and its worker).
struct Writeback::Flusher {
    BlockDevice* device = nullptr;
    EventRing* ring = nullptr; ///< where its events go (none: not traced)
    int lane = -1;
    std::vector<FileId> files;
    TaskThread thread;
    WaitMutex mutex; ///< protects the wake-up: the requests below are read under it
    WaitQueue wq;
    std::atomic<bool> background { false }; ///< a background run was asked for and not begun
    std::atomic<bool> vmscan { false };     ///< reclaim asked for every dirty page to be written
};

Writeback::Writeback(PageCache& cache, BlockDevice& device, const WritebackConfig& config)
    : cache_(cache)
    , device_(device)
    , config_(config)
{
    config_.validate();
    background_thresh_ = config_.background_thresh(cache.frames().total());
    dirty_thresh_ = config_.dirty_thresh(cache.frames().total());
    wire(device_);
    cache_.set_wakeup_flusher([this](std::uint64_t nr) {
        if (stopping_.load(std::memory_order_acquire))
            return false;
        if (nr)
            wakeup_flusher_threads(WbReason::Vmscan, nr);
        return true;
    });
}

Writeback::~Writeback()
{
    stop();
    cache_.set_wakeup_flusher({});
}

void Writeback::wire(BlockDevice& device)
{
    PageCache& cache = cache_;
    device.set_end_write([&cache](Page& page) { cache.end_page_writeback(page); });
}

void Writeback::set_device(FileId file, BlockDevice& device)
{
    if (devices_.size() <= file)
        devices_.resize(std::size_t(file) + 1, nullptr);
    devices_[file] = &device;
    wire(device);
}

BlockDevice& Writeback::device_of(FileId file) noexcept
{
    return file < devices_.size() && devices_[file] ? *devices_[file] : device_;
}

Writeback::DiskDirty Writeback::dirty_of(const BlockDevice& device) const
{
    DiskDirty d;
    const std::size_t files = cache_.file_count();
    for (FileId f = 0; f < files; ++f) {
        const BlockDevice& to = f < devices_.size() && devices_[f] ? *devices_[f] : device_;
        if (&to != &device)
            continue;
        const AddressSpace& as = cache_.file(f);
        d.dirty += as.nr_dirty.load(std::memory_order_relaxed);
        d.writeback += as.nr_writeback.load(std::memory_order_relaxed);
    }
    return d;
}

void Writeback::set_trace(const BlockDevice& device, EventRing* ring, int lane)
{
    traces_.push_back({ &device, ring, lane });
}

void Writeback::start()
{
    std::lock_guard g(stop_mutex_);
    if (started_)
        return;
    started_ = true;
    for (FileId file = 0; file < cache_.file_count(); ++file) {
        BlockDevice* device = &device_of(file);
        auto it = std::find_if(flushers_.begin(), flushers_.end(), [&](auto& f) { return f->device == device; });
        if (it == flushers_.end()) {
            flushers_.push_back(std::make_unique<Flusher>());
            flushers_.back()->device = device;
            it = flushers_.end() - 1;
        }
        (*it)->files.push_back(file);
    }
    for (auto& f : flushers_) {
        for (const Trace& t : traces_)
            if (t.device == f->device) {
                f->ring = t.ring;
                f->lane = t.lane;
            }
        f->thread = TaskThread("flush", [this, fl = f.get()] {
            trace::ThreadTrace trace(fl->ring, fl->lane);
            run_flusher(*fl);
        });
    }
}

void Writeback::release_writers()
{
    releasing_.store(true, std::memory_order_seq_cst);
    cache_.wake_writeback_waiters();
}

void Writeback::stop()
{
    std::lock_guard g(stop_mutex_);
    release_writers();
    stopping_.store(true, std::memory_order_seq_cst);
    for (auto& f : flushers_) {
        {
            std::lock_guard l(f->mutex);
        }
        f->wq.wake_all();
    }
    for (auto& f : flushers_)
        if (f->thread.joinable())
            f->thread.join();
}

void Writeback::wakeup_flusher_threads(WbReason reason, std::uint64_t)
{
    for (auto& f : flushers_) {
        std::atomic<bool>& flag = reason == WbReason::Vmscan ? f->vmscan : f->background;
        if (flag.exchange(true, std::memory_order_acq_rel))
            continue; // asked already, and not begun: the run to come covers this request too
        {
            std::lock_guard l(f->mutex);
        }
        f->wq.wake_one();
    }
}

void Writeback::balance_dirty_pages()
{
    // What a write costs when memory is not short: two counter reads. Dirty
    // first: set_page_writeback counts a page under writeback before it
    // uncounts it as dirty, so one moving in between is counted twice,
    // never missed.
    const std::uint64_t nr_dirty = cache_.nr_dirty();
    if (nr_dirty > background_thresh_)
        wakeup_flusher_threads(WbReason::Background);
    if (nr_dirty + cache_.nr_writeback() <= dirty_thresh_)
        return;
    const std::uint64_t t0 = now_ns();
    throttled_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
        // The completions seen before the look: one after it ends the pause.
        const std::uint64_t seen = cache_.written();
        if (releasing_.load(std::memory_order_acquire) || cache_.nr_dirty() + cache_.nr_writeback() <= dirty_thresh_)
            break;
        wakeup_flusher_threads(WbReason::Background);
        cache_.wait_writeback_completion(seen, kMaxPause);
    }
    throttle_ns_.fetch_add(now_ns() - t0, std::memory_order_relaxed);
}

void Writeback::count(const WritebackControl& wbc)
{
    pages_submitted_.fetch_add(wbc.written, std::memory_order_relaxed);
    submissions_.fetch_add(wbc.submissions, std::memory_order_relaxed);
}

void Writeback::fsync(FileId file)
{
    fsyncs_.fetch_add(1, std::memory_order_relaxed);
    WritebackControl wbc;
    wbc.sync_mode = WritebackControl::SyncMode::All;
    write_cache_pages(cache_, file, device_of(file), wbc);
    count(wbc);
    filemap_fdatawait(cache_, file);
}

void Writeback::sync()
{
    syncs_.fetch_add(1, std::memory_order_relaxed);
    // sync_inodes_sb: every file's writes first, so the disks work on all
    // of them at once, then the waits.
    for (FileId file = 0; file < cache_.file_count(); ++file) {
        WritebackControl wbc;
        wbc.sync_mode = WritebackControl::SyncMode::All;
        write_cache_pages(cache_, file, device_of(file), wbc);
        count(wbc);
    }
    for (FileId file = 0; file < cache_.file_count(); ++file)
        filemap_fdatawait(cache_, file);
}

template <class More> void Writeback::writeback_files(Flusher& f, WbReason reason, bool expired_only, More&& more)
{
    runs_[unsigned(reason)].fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t expire_ns = config_.dirty_expire_ms * 1'000'000;
    for (;;) {
        // b_io, oldest-dirtied first (queue_io by dirtied_when).
        std::vector<std::pair<std::uint64_t, FileId>> order;
        const std::uint64_t now = now_ns();
        for (FileId file : f.files) {
            const AddressSpace& as = cache_.file(file);
            if (as.nr_dirty.load(std::memory_order_relaxed) == 0)
                continue;
            // Dated as it is being dirtied again: as good as now.
            std::uint64_t when = as.dirtied_when_ns.load(std::memory_order_relaxed);
            if (when == 0)
                when = now;
            if (expired_only && now - std::min(now, when) < expire_ns)
                continue;
            order.emplace_back(when, file);
        }
        if (order.empty())
            return;
        std::sort(order.begin(), order.end());
        std::uint64_t wrote = 0;
        for (const auto& [when, file] : order) {
            if (stopping_.load(std::memory_order_acquire) || !more())
                return;
            WritebackControl wbc;
            wbc.nr_to_write = kWriteChunk;
            write_cache_pages(cache_, file, *f.device, wbc);
            count(wbc);
            wrote += wbc.written;
        }
        // Nothing writable (every dirty page already under writeback, or
        // locked): the completions, or the next request, bring more.
        if (wrote == 0)
            return;
    }
}

void Writeback::run_flusher(Flusher& f)
{
    // On now_ns(): a modelled machine's flusher wakes in virtual time.
    const std::uint64_t interval = std::uint64_t(config_.writeback_interval_ms) * 1'000'000;
    std::uint64_t next_periodic = now_ns() + interval;
    for (;;) {
        {
            std::unique_lock l(f.mutex);
            auto woken = [&] {
                return stopping_.load(std::memory_order_acquire) || f.background.load(std::memory_order_acquire)
                    || f.vmscan.load(std::memory_order_acquire);
            };
            if (config_.writeback_interval_ms)
                f.wq.wait_until_ns(l, next_periodic, woken);
            else
                f.wq.wait(l, woken);
        }
        if (stopping_.load(std::memory_order_acquire))
            return;
        if (f.vmscan.exchange(false, std::memory_order_acq_rel)) {
            // Reclaim needs clean pages: everything dirty on this disk.
            writeback_files(f, WbReason::Vmscan, false, [] { return true; });
        }
        if (f.background.exchange(false, std::memory_order_acq_rel) || cache_.nr_dirty() > background_thresh_) {
            writeback_files(f, WbReason::Background, false, [&] { return cache_.nr_dirty() > background_thresh_; });
        }
        if (config_.writeback_interval_ms && now_ns() >= next_periodic) {
            // wb_check_old_data_flush: the data older than the expiry.
            writeback_files(f, WbReason::Periodic, true, [] { return true; });
            next_periodic = now_ns() + interval;
        }
    }
}

WritebackStats Writeback::stats() const noexcept
{
    WritebackStats s;
    s.pages_submitted = pages_submitted_.load(std::memory_order_relaxed);
    s.submissions = submissions_.load(std::memory_order_relaxed);
    for (unsigned r = 0; r < kWbReasons; ++r)
        s.runs[r] = runs_[r].load(std::memory_order_relaxed);
    s.fsyncs = fsyncs_.load(std::memory_order_relaxed);
    s.syncs = syncs_.load(std::memory_order_relaxed);
    s.throttled = throttled_.load(std::memory_order_relaxed);
    s.throttle_ns = throttle_ns_.load(std::memory_order_relaxed);
    return s;
}

} // namespace pcl
