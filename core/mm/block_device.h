// The block device: the disk the page cache reads from and writes back to.
//
// Glossary:
//   submission  one submit_read() or submit_write() call: a run of
//               consecutive pages of one file (a bio, in Linux terms)
//   request     what the device serves: one submission, or several merged
//               into one contiguous read or write (a struct request)
//   queued      submitted, not yet dispatched: it can still be merged into
//   in flight   dispatched: the device is serving it
//   head        where the previous request left the disk head
//
// Cost of one request (service_ns), the same formula for every model:
//   request_ns + page_ns * pages, plus seek_ns + rotation_ns when the
//   request does not start where the previous one ended.
// A hard disk pays a seek and half a revolution to reach a request that is
// not where the head is; flash has no head, so its presets leave both at 0
// and pay only the per-command latency and the transfer.
//
// Queue depth: up to queue_depth requests are served at once (NCQ, NVMe
// submission queues). Their per-request latency (command, seek, rotation)
// overlaps, their transfers share the device's bandwidth one after another:
// so a deep queue multiplies the rate of small random reads, which is what
// a queue depth buys on real flash, and never the bandwidth. A disk with one
// head serves one request at a time (queue_depth 1).
//
// Merging (block/elevator.c, back and front merges): a submission that
// continues, or ends just before, a request still queued for the same file
// in the same direction joins it, as long as the request stays within
// max_request_pages (max_sectors_kb). Requests are dispatched in submission
// order (FIFO, the "none" scheduler), so a merge never reorders I/O. Reads
// and writes share the queue, the head and the formula: a hard disk pays a
// seek to write a run that is not where the head is, as it does to read.
//
// A read's completion does what end_page_read() does for each page: marks
// all the request's pages up to date, then unlocks them, which wakes every
// CPU waiting on them. A write's pages are not locked (they carry
// PG_writeback instead); its completion calls the end_write hook for each
// page (the page cache's end_page_writeback). `time_scale` stretches every wait, so a demonstration can
// slow the disk down to human speed; the figures the device reports
// (busy_ns) are unscaled.
//
// One thread serves the device: it dispatches, sleeps until the earliest
// request in flight is done (or something changes), completes it, and
// records the device's events into its one ring.
#pragma once

#include "base/page.h"
#include "base/task_thread.h"
#include "base/wait_queue.h"
#include "mm/page_lock.h"
#include "sync/histogram.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace pcl {

class EventRing;

/// A run of consecutive pages of one file: what a request reads. Files are
/// laid out contiguously on the disk, so an extent is one run of sectors.
struct IoExtent {
    FileId file = 0;         ///< the file read
    pgoff_t first = 0;       ///< its first page offset
    std::uint64_t pages = 0; ///< how many pages

    pgoff_t end() const noexcept { return first + pages; }
};

/// Where the disk head is: just past the last page the previous request
/// read. A fresh device's head is nowhere, so its first request seeks.
struct DiskHead {
    bool positioned = false; ///< false until the first request is served
    FileId file = 0;         ///< the file the previous request read
    pgoff_t next = 0;        ///< the page after its last page

    /// Whether @io starts where the head is: no seek, no rotational delay.
    bool at(const IoExtent& io) const noexcept { return positioned && io.file == file && io.first == next; }
    /// The head after serving @io.
    static DiskHead after(const IoExtent& io) noexcept { return { true, io.file, io.end() }; }
};

struct BlockDeviceConfig {
    static constexpr pgoff_t kMaxRaPages = 65536;      ///< 256 MiB: far past any device's setting
    static constexpr unsigned kMaxQueueDepth = 256;    ///< deeper than any preset, shallow enough to watch
    static constexpr pgoff_t kMaxRequestPages = 65536; ///< 256 MiB, as kMaxRaPages
    static constexpr std::uint64_t kMaxLatencyNs = 10'000'000'000ull; ///< 10 s, for request/seek/rotation
    /// The models, as device.model names them.
    static constexpr std::array<std::string_view, 4> kModels { "hdd", "ssd", "nvme", "custom" };

    // The first four fields keep their order: configurations are written
    // as { request_ns, page_ns, time_scale } in many places.
    std::uint64_t request_ns = 100'000; ///< per request: command overhead, flash read latency
    std::uint64_t page_ns = 10'000;     ///< per page transferred (4 KiB at the device's bandwidth)
    double time_scale = 1.0;            ///< multiplies every wait (demo mode slows the device down); 0: instant
    pgoff_t ra_pages = 32;           ///< the device's maximum readahead window (blockdev --setra; 32 pages = 128 KiB)
    std::string model = "custom";    ///< which preset the figures came from: hdd, ssd, nvme, custom
    std::uint64_t seek_ns = 0;       ///< moving the head to a request that is not where it is
    std::uint64_t rotation_ns = 0;   ///< then waiting for the sector to come round (half a revolution)
    unsigned queue_depth = 1;        ///< requests served at once (1 for a disk with one head)
    pgoff_t max_request_pages = 128; ///< a merge never makes a request larger (max_sectors_kb; 512 KiB)
    /// No merging: every submission is its own request (sysfs queue/nomerges).
    /// Set in the custom model, whose device serves submissions exactly as
    /// given; the presets merge, as Linux does by default.
    bool nomerges = true;

    /// The figures of @model: "custom" is the default configuration above;
    /// "hdd", "ssd" and "nvme" are typical devices of each kind (the
    /// sources are cited in block_device.cpp). Throws
    /// std::invalid_argument naming device.model for any other name.
    static BlockDeviceConfig preset(std::string_view model);

    /// Whether a request reading @io with the head at @head pays seek_ns +
    /// rotation_ns (a device with neither never does).
    bool pays_seek(const IoExtent& io, const DiskHead& head) const noexcept
    {
        return (seek_ns || rotation_ns) && !head.at(io);
    }
    /// The time the device takes to serve a request reading @io with the
    /// head at @head, alone and unscaled: request_ns + page_ns * pages,
    /// plus seek_ns + rotation_ns if it pays a seek.
    std::uint64_t service_ns(const IoExtent& io, const DiskHead& head) const noexcept
    {
        return request_ns + page_ns * io.pages + (pays_seek(io, head) ? seek_ns + rotation_ns : 0);
    }

    /// Throws FieldError naming the field by its member of the device object
    /// ("queue_depth"), worded "device.queue_depth must be ...".
    void validate() const;
};

class BlockDevice {
public:
    /// @events: the ring the device thread records completions into (none:
    /// not traced), its records carrying CPU number @trace_cpu (the
    /// device's lane in the event stream).
    BlockDevice(
        const BlockDeviceConfig& config, PageWaitTable& page_locks, EventRing* events = nullptr, int trace_cpu = -1);
    /// Completes everything submitted at once, cutting every wait short (a
    /// slow demonstration disk does not hold the shutdown), so every page
    /// is unlocked and no waiter is left asleep; then stops the device
    /// thread. Nothing may be submitted meanwhile.
    ~BlockDevice();
    BlockDevice(const BlockDevice&) = delete;
    BlockDevice& operator=(const BlockDevice&) = delete;

    /// Queues a read of @pages: consecutive pages of one file, in offset
    /// order, all locked by the caller (PG_locked), which the device unlocks
    /// when the read completes. Records IoSubmit with a new submission id.
    /// Never blocks (beyond the queue's lock).
    ///
    /// Events: each submission gets exactly one IoComplete, on the device's
    /// lane, when the request it was served in completes: object, file,
    /// index and arg0 as its IoSubmit, arg1 = how many other submissions
    /// were merged into the same request (0: served alone).
    void submit_read(std::vector<Page*> pages);
    /// Queues a write of @pages: consecutive pages of one file, in offset
    /// order, each under PG_writeback (set_page_writeback), for each of
    /// which the device calls the end_write hook when the write completes.
    /// Events as submit_read's, with detail 1.
    void submit_write(std::vector<Page*> pages);
    /// What a write's completion does for each of its pages
    /// (end_page_writeback), on the device thread. Set before the first
    /// submit_write; it must stay callable until the device is destroyed,
    /// which completes everything still queued.
    void set_end_write(std::function<void(Page&)> hook) { end_write_ = std::move(hook); }

    /// Stops dispatching (blk_mq_quiesce_queue): requests in flight still
    /// complete, new submissions stay queued, where they can merge, until
    /// unquiesce(). Shutdown completes everything regardless.
    void quiesce();
    /// Dispatches again (blk_mq_unquiesce_queue).
    void unquiesce();

    // Counters, readable from any thread. A CPU woken by a completion
    // already sees it counted.

    /// Submissions (submit_read calls with pages).
    std::uint64_t submitted() const noexcept { return submitted_.load(std::memory_order_relaxed); }
    /// Submissions merged into a queued request instead of becoming one.
    std::uint64_t merged() const noexcept { return merged_.load(std::memory_order_relaxed); }
    /// Requests completed, reads and writes (after merging: submitted() -
    /// merged() once idle).
    std::uint64_t requests() const noexcept { return requests_.load(std::memory_order_relaxed); }
    /// Of which were writes.
    std::uint64_t write_requests() const noexcept { return write_requests_.load(std::memory_order_relaxed); }
    /// Pages read by completed requests.
    std::uint64_t pages_read() const noexcept { return pages_.load(std::memory_order_relaxed); }
    /// Pages written by completed requests.
    std::uint64_t pages_written() const noexcept { return pages_written_.load(std::memory_order_relaxed); }
    /// Requests dispatched and being served: at most queue_depth.
    std::uint64_t in_flight() const noexcept { return in_flight_.load(std::memory_order_relaxed); }
    /// Requests waiting to be dispatched.
    std::uint64_t queued() const noexcept { return queued_.load(std::memory_order_relaxed); }
    /// Requests submitted and not yet completed, queued or in flight: the
    /// I/O a CPU may be waiting for. Kept as one figure so a reader never
    /// sees a request counted twice or missed while it is dispatched.
    std::uint64_t outstanding() const noexcept { return outstanding_.load(std::memory_order_relaxed); }
    /// Sum of the unscaled service_ns of completed requests: the device's
    /// simulated busy time, the same for the same requests at any speed.
    std::uint64_t busy_ns() const noexcept { return busy_ns_.load(std::memory_order_relaxed); }
    /// Completed requests that paid seek_ns + rotation_ns.
    std::uint64_t seeks() const noexcept { return seeks_.load(std::memory_order_relaxed); }
    /// Submit-to-completion time of each submission (merged or not: the
    /// time its submitter waited for the disk).
    const LatencyHistogram& latency() const noexcept { return latency_; }
    const BlockDeviceConfig& config() const noexcept { return config_; }

private:
    /// One submit_read() inside a request.
    struct Submission {
        std::uint64_t id;           ///< as IoSubmit named it
        std::uint64_t submitted_ns; ///< when it was submitted
        IoExtent extent;
    };
    struct Request {
        IoExtent extent;               ///< all of it
        bool write = false;            ///< a write (its pages under PG_writeback), not a read
        std::vector<Page*> pages;      ///< in offset order
        std::vector<Submission> parts; ///< in offset order
        std::uint64_t cost_ns = 0;     ///< service_ns at dispatch, unscaled
        bool seek = false;             ///< whether it paid a seek
        std::uint64_t done_ns = 0;     ///< when it completes (now_ns time)
    };
    /// Queues @pages as a read or a write.
    void submit(std::vector<Page*> pages, bool write);
    /// Merges @pages into a queued request of the same direction if one is
    /// adjacent; mutex_ held.
    bool try_merge(std::vector<Page*>& pages, const Submission& s, bool write);
    /// Starts serving the first queued request; mutex_ held.
    void dispatch(std::uint64_t now);
    /// Marks @req's pages up to date, records its completions and unlocks
    /// its pages; mutex_ not held.
    void complete(Request& req);
    void run();

    BlockDeviceConfig config_;
    PageWaitTable& page_locks_;
    WaitMutex mutex_; ///< protects queue_, flight_, head_, bus_free_ns_, stopping_, quiesced_
    WaitQueue wq_;
    std::deque<Request> queue_;     ///< queued, in dispatch order
    std::deque<Request> flight_;    ///< in flight, in completion order (done_ns never decreases)
    DiskHead head_;                 ///< after the last request dispatched
    std::uint64_t bus_free_ns_ = 0; ///< when the transfer of the last request dispatched ends
    bool stopping_ = false;
    bool quiesced_ = false;
    std::atomic<std::uint64_t> submitted_ { 0 }, merged_ { 0 }, requests_ { 0 }, pages_ { 0 }, in_flight_ { 0 },
        queued_ { 0 }, outstanding_ { 0 }, busy_ns_ { 0 }, seeks_ { 0 }, next_id_ { 1 }, write_requests_ { 0 },
        pages_written_ { 0 };
    std::function<void(Page&)> end_write_;
    EventRing* events_;
    int trace_cpu_;
    LatencyHistogram latency_;
    TaskThread thread_;
};

} // namespace pcl
