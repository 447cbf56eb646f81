// Writeback (mm/page-writeback.c, fs/fs-writeback.c): who writes dirty
// pages to the disk, when, and who waits for it.
//
// Glossary:
//   dirty threshold       pages dirty or under writeback at which a writer
//                         is throttled (vm.dirty_ratio of memory)
//   background threshold  pages dirty at which the flusher starts writing
//                         in the background (vm.dirty_background_ratio)
//   flusher               one thread per disk (the bdi writeback worker,
//                         wb_workfn) that writes the dirty pages of that
//                         disk's files
//
// write_cache_pages does the writing, for the flusher and for fsync alike:
// with WB_SYNC_ALL it first tags every dirty page "towrite"
// (tag_pages_for_writeback), so that pages dirtied meanwhile do not keep it
// going for ever, then walks the tagged pages in batches (gang lookups by
// tag), and for each: lock_page, check it is still the file's, skip it if
// it is under writeback (WB_SYNC_NONE) or wait for that (WB_SYNC_ALL),
// clear_page_dirty_for_io, set_page_writeback, unlock. Consecutive pages go
// to the disk as one write (a bio per contiguous run, up to the device's
// max_request_pages); the device's completion ends each page's writeback.
//
// The flusher wakes:
//   - when a writer finds more than the background threshold dirty
//     (balance_dirty_pages -> wb_start_background_writeback), and writes
//     until the pages dirty are at or under it;
//   - when reclaim meets dirty pages (wakeup_flusher_threads(WB_REASON_VMSCAN)),
//     and writes every dirty page of its disk;
//   - every writeback_interval_ms (dirty_writeback_centisecs), and writes the
//     files whose first dirty page is older than dirty_expire_ms
//     (dirty_expire_centisecs: wb_check_old_data_flush).
// Files are written oldest-dirtied first, at most kWriteChunk pages at a
// time (MAX_WRITEBACK_PAGES), so that one big file does not starve others.
//
// balance_dirty_pages: a writer that has dirtied a page, with no page lock
// held, wakes the flusher past the background threshold, and past the dirty
// threshold sleeps until writeback brings the count back under it, in pauses
// of at most 200 ms (MAX_PAUSE) that wake the flusher again. Linux paces a
// writer by its share of the disk's bandwidth; here it waits for the pages
// themselves, which is the same bound without the rate estimates. The
// thresholds are at least 1 and 2 pages, so a memory of a few frames still
// lets a writer dirty a page while the flusher cleans another.
#pragma once

#include "base/page.h"
#include "base/wait_queue.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pcl {

class BlockDevice;
class EventRing;
class PageCache;

struct WritebackConfig {
    static constexpr std::uint64_t kMaxMs = 3'600'000; ///< an hour: longer than any run

    unsigned dirty_background_ratio = 10;       ///< % of memory dirty that starts background writeback
    unsigned dirty_ratio = 20;                  ///< % of memory dirty or under writeback that throttles writers
    std::uint64_t dirty_expire_ms = 30'000;     ///< age at which periodic writeback writes dirty data
    std::uint64_t writeback_interval_ms = 5000; ///< the flusher's period; 0: no periodic writeback

    /// Throws FieldError naming the field ("dirty_ratio").
    void validate() const;
    /// The thresholds in pages for a memory of @frames pages, as
    /// domain_dirty_limits computes them: a background threshold at or
    /// above the dirty threshold becomes half of it. At least 1 and 2.
    std::uint64_t background_thresh(std::uint64_t frames) const noexcept;
    std::uint64_t dirty_thresh(std::uint64_t frames) const noexcept;
};

/// struct writeback_control: what one write_cache_pages call is to do.
struct WritebackControl {
    enum class SyncMode : std::uint8_t {
        None, ///< WB_SYNC_NONE: write what can be written, skip pages under writeback
        All,  ///< WB_SYNC_ALL: data integrity (fsync): every page dirty at the start, waiting where needed
    };
    SyncMode sync_mode = SyncMode::None;
    std::uint64_t nr_to_write = ~std::uint64_t(0); ///< pages still to write (None stops at 0)
    pgoff_t range_start = 0;
    pgoff_t range_end = ~pgoff_t(0); ///< inclusive
    std::uint64_t written = 0;       ///< pages this call put under writeback
    std::uint64_t submissions = 0;   ///< writes it submitted (one per contiguous run)
};

/// write_cache_pages for @file, whose pages go to @device.
void write_cache_pages(PageCache& cache, FileId file, BlockDevice& device, WritebackControl& wbc);
/// filemap_fdatawait: sleeps until no page of @file is under writeback
/// (those tagged when each batch is looked up).
void filemap_fdatawait(PageCache& cache, FileId file);

/// Why the flusher ran (enum wb_reason).
enum class WbReason : std::uint8_t { Background, Vmscan, Periodic };
inline constexpr unsigned kWbReasons = 3;

struct WritebackStats {
    std::uint64_t pages_submitted = 0; ///< pages put under writeback by flushers and fsyncs
    std::uint64_t submissions = 0;     ///< writes submitted to the disks
    std::uint64_t runs[kWbReasons] {}; ///< flusher runs, by WbReason
    std::uint64_t fsyncs = 0;          ///< fsync(2) calls
    std::uint64_t syncs = 0;           ///< sync(2) calls
    std::uint64_t throttled = 0;       ///< writers balance_dirty_pages put to sleep
    std::uint64_t throttle_ns = 0;     ///< their total sleep
};

class Writeback {
public:
    /// Write-back for @cache, whose files' pages go to @device unless
    /// set_device says otherwise; the thresholds are those of the cache's
    /// memory. Wires the page cache (reclaim wakes the flusher) and the
    /// device (its write completions end writeback). Throws FieldError for
    /// a bad @config.
    Writeback(PageCache& cache, BlockDevice& device, const WritebackConfig& config);
    /// stop().
    ~Writeback();
    Writeback(const Writeback&) = delete;
    Writeback& operator=(const Writeback&) = delete;

    /// @file's pages go to @device, whose completions are wired as the
    /// default device's. Before start().
    void set_device(FileId file, BlockDevice& device);
    /// The flusher of @device records its events (the writes it submits)
    /// into @ring, as simulated CPU @lane: the device's own lane, so that a
    /// view draws each write from its submission to its completion there.
    /// None: not traced. Before start().
    void set_trace(const BlockDevice& device, EventRing* ring, int lane);
    /// Starts one flusher per disk, for the files the cache has now.
    void start();
    /// Lets throttled writers go, now and from now on (a run is ending:
    /// its CPUs must be able to leave); the flushers go on writing, so that
    /// a CPU waiting in reclaim for them still gets its frame.
    void release_writers();
    /// release_writers(), then stops the flushers (after the CPUs have
    /// left); writes already submitted still complete on their devices, and
    /// reclaim no longer counts on a flusher. Idempotent.
    void stop();

    /// balance_dirty_pages_ratelimited: called after a page was dirtied,
    /// with no page lock held and outside any RCU read-side section.
    void balance_dirty_pages();
    /// Wakes the flushers for @reason (reclaim met @nr_pages dirty pages).
    void wakeup_flusher_threads(WbReason reason, std::uint64_t nr_pages = 0);
    /// fsync(2) of @file: writes every page dirty now and waits until each
    /// is on the disk (filemap_write_and_wait).
    void fsync(FileId file);
    /// sync(2): fsync of every file.
    void sync();

    std::uint64_t background_thresh() const noexcept { return background_thresh_; }
    std::uint64_t dirty_thresh() const noexcept { return dirty_thresh_; }
    const WritebackConfig& config() const noexcept { return config_; }
    WritebackStats stats() const noexcept;
    /// The device @file's pages are written to.
    BlockDevice& device_of(FileId file) noexcept;
    /// Pages dirty, and under writeback, now, of the files written to
    /// @device: the disk's share of the totals, as the kernel keeps per
    /// bdi_writeback (wb_stat WB_RECLAIMABLE and WB_WRITEBACK).
    struct DiskDirty {
        std::uint64_t dirty = 0;
        std::uint64_t writeback = 0;
    };
    DiskDirty dirty_of(const BlockDevice& device) const;

    /// Most pages one file is written at a time before the next file's turn
    /// (MAX_WRITEBACK_PAGES: 1024 pages, 4 MiB).
    static constexpr std::uint64_t kWriteChunk = 1024;

private:
    struct Flusher;
    void run_flusher(Flusher& f);
    /// Writes @f's files, oldest-dirtied first: up to kWriteChunk pages of
    /// each in turn while @more() holds and a round wrote something; with
    /// @expired_only, only files dirtied at least dirty_expire_ms ago.
    template <class More> void writeback_files(Flusher& f, WbReason reason, bool expired_only, More&& more);
    void wire(BlockDevice& device);
    void count(const WritebackControl& wbc);

    PageCache& cache_;
    BlockDevice& device_;
    WritebackConfig config_;
    std::uint64_t background_thresh_;
    std::uint64_t dirty_thresh_;
    std::vector<BlockDevice*> devices_; ///< per file; null: device_
    std::vector<std::unique_ptr<Flusher>> flushers_;
    struct Trace {
        const BlockDevice* device;
        EventRing* ring;
        int lane;
    };
    std::vector<Trace> traces_;
    std::atomic<bool> stopping_ { false };  ///< the flushers are stopping
    std::atomic<bool> releasing_ { false }; ///< throttled writers go
    bool started_ = false;
    WaitMutex stop_mutex_; ///< held across the flushers' joins: a task parks on it
    std::atomic<std::uint64_t> pages_submitted_ { 0 }, submissions_ { 0 }, fsyncs_ { 0 }, syncs_ { 0 },
        throttled_ { 0 }, throttle_ns_ { 0 };
    std::atomic<std::uint64_t> runs_[kWbReasons] {};
};

} // namespace pcl
