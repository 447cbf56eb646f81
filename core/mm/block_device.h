// A basic block device: the disk the page cache reads from.
//
// Each read request costs a fixed time per request plus a time per page, the
// shape of any device's latency. Requests are served one at a time, in the
// order they were submitted, by the device's own thread (the disk works
// while the CPUs do something else, or sleep on the pages they wait for).
// Completing a request does what end_page_read() does for each page: marks
// it up to date and unlocks it, which wakes every CPU waiting on it.
// `time_scale` stretches every latency, so a demonstration can slow the disk
// down to human speed.
#pragma once

#include "mm/page.h"
#include "mm/page_lock.h"
#include "sync/histogram.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace pcl {

class EventRing;

struct BlockDeviceConfig {
    static constexpr pgoff_t kMaxRaPages = 65536; ///< 256 MiB: far past any device's setting
    std::uint64_t request_ns = 100'000; ///< per request (seek, command overhead)
    std::uint64_t page_ns = 10'000;     ///< per page transferred
    double time_scale = 1.0;            ///< multiplies both (demo mode slows the device down)
    pgoff_t ra_pages = 32; ///< the device's maximum readahead window (blockdev --setra; 32 pages = 128 KiB)

    /// Throws std::invalid_argument naming the field.
    void validate() const;
};

class BlockDevice {
public:
    /// @events: the ring the device thread records completions into (none:
    /// not traced), its records carrying CPU number @trace_cpu (the
    /// device's lane in the event stream).
    BlockDevice(const BlockDeviceConfig& config, PageWaitTable& page_locks, EventRing* events = nullptr,
        int trace_cpu = -1);
    /// Serves what was submitted, then stops the device thread.
    ~BlockDevice();
    BlockDevice(const BlockDevice&) = delete;
    BlockDevice& operator=(const BlockDevice&) = delete;

    /// Queues a read of @pages, all locked by the caller (PG_locked), which
    /// the device unlocks when the read completes. Never blocks.
    void submit_read(std::vector<Page*> pages);

    std::uint64_t requests() const noexcept { return requests_.load(std::memory_order_relaxed); }
    std::uint64_t pages_read() const noexcept { return pages_.load(std::memory_order_relaxed); }
    /// Requests submitted and not yet completed (the one being served included).
    std::uint64_t in_flight() const noexcept { return in_flight_.load(std::memory_order_relaxed); }
    /// Submit-to-completion time of each request.
    const LatencyHistogram& latency() const noexcept { return latency_; }
    const BlockDeviceConfig& config() const noexcept { return config_; }

private:
    struct Request {
        std::vector<Page*> pages;
        std::uint64_t submitted_ns;
        std::uint64_t id; ///< request number, as the event stream names it
    };
    void run();

    BlockDeviceConfig config_;
    PageWaitTable& page_locks_;
    std::mutex mutex_; ///< protects queue_ and stopping_
    std::condition_variable cv_;
    std::deque<Request> queue_;
    bool stopping_ = false;
    std::atomic<std::uint64_t> requests_ { 0 }, pages_ { 0 }, in_flight_ { 0 }, next_id_ { 1 };
    EventRing* events_;
    int trace_cpu_;
    LatencyHistogram latency_;
    std::thread thread_;
};

} // namespace pcl
