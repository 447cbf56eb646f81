#include "mm/block_device.h"

#include "sim/trace.h"
#include "sync/clock.h"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pcl {

void BlockDeviceConfig::validate() const
{
    if (!(time_scale >= 0.0) || !std::isfinite(time_scale) || time_scale > 1e6)
        throw std::invalid_argument(
            "device.time_scale must be between 0 and 1000000, got " + std::to_string(time_scale));
    if (request_ns > 10'000'000'000ull)
        throw std::invalid_argument("device.request_ns must be at most 10 s, got " + std::to_string(request_ns));
    if (page_ns > 1'000'000'000ull)
        throw std::invalid_argument("device.page_ns must be at most 1 s, got " + std::to_string(page_ns));
    if (ra_pages < 1 || ra_pages > kMaxRaPages)
        throw std::invalid_argument("device.ra_pages must be between 1 and " + std::to_string(kMaxRaPages)
            + " pages, got " + std::to_string(ra_pages));
}

BlockDevice::BlockDevice(const BlockDeviceConfig& config, PageWaitTable& page_locks, EventRing* events, int trace_cpu)
    : config_(config)
    , page_locks_(page_locks)
    , events_(events)
    , trace_cpu_(trace_cpu)
{
    config_.validate();
    thread_ = std::thread([this] {
        trace::ThreadTrace trace(events_, trace_cpu_);
        run();
    });
}

BlockDevice::~BlockDevice()
{
    {
        std::lock_guard g(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void BlockDevice::submit_read(std::vector<Page*> pages)
{
    if (pages.empty())
        return;
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
    trace::emit(EventKind::IoSubmit, id, pages.front()->mapping, pages.front()->index,
        static_cast<std::int64_t>(pages.size()));
    {
        std::lock_guard g(mutex_);
        queue_.push_back({ std::move(pages), sync::now_ns(), id });
    }
    cv_.notify_one();
}

void BlockDevice::run()
{
    for (;;) {
        Request req;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty())
                return; // stopping, and everything submitted was served
            req = std::move(queue_.front());
            queue_.pop_front();
        }
        // The transfer time, cut short when the device is being shut down
        // (nobody waits for a slow demo disk to finish its queue).
        const double ns = double(config_.request_ns + config_.page_ns * req.pages.size()) * config_.time_scale;
        if (ns > 0) {
            std::unique_lock lock(mutex_);
            cv_.wait_for(lock, std::chrono::nanoseconds(std::uint64_t(ns)), [&] { return stopping_; });
        }
        // Counted before the pages are unlocked, so a CPU woken by the
        // completion already sees it in the device's figures.
        requests_.fetch_add(1, std::memory_order_relaxed);
        pages_.fetch_add(req.pages.size(), std::memory_order_relaxed);
        latency_.add(sync::now_ns() - req.submitted_ns);
        in_flight_.fetch_sub(1, std::memory_order_relaxed);
        // The request completes as a whole: all its data is there before
        // any of its pages is unlocked (end_page_read for each), so a reader
        // woken on the first page finds the rest up to date.
        for (Page* page : req.pages)
            page->set(PG_uptodate);
        trace::emit(EventKind::IoComplete, req.id, req.pages.front()->mapping, req.pages.front()->index,
            static_cast<std::int64_t>(req.pages.size()));
        for (Page* page : req.pages)
            page_locks_.unlock_page(*page);
    }
}

} // namespace pcl
