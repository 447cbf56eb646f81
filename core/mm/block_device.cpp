#include "mm/block_device.h"

#include "base/clock.h"
#include "base/machine_calls.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "lib/report.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pcl {

namespace {

/// @ns stretched by @scale, capped far below overflow (a year), so that a
/// huge time_scale only means "never, until shutdown".
std::uint64_t scaled(std::uint64_t ns, double scale) noexcept
{
    constexpr double kCap = 365.0 * 24 * 3600 * 1e9;
    return static_cast<std::uint64_t>(std::min(double(ns) * scale, kCap));
}

std::string model_list()
{
    std::string s;
    for (std::string_view m : BlockDeviceConfig::kModels)
        s += (s.empty() ? "" : ", ") + std::string(m);
    return s;
}

/// A device field's error: named by its member of the device object, and
/// worded "device.<field> <reason>" for a caller without a path.
[[noreturn]] void device_error(const char* field, const std::string& reason)
{
    throw FieldError(field, reason, std::string("device.") + field + " " + reason);
}

} // namespace

BlockDeviceConfig BlockDeviceConfig::preset(std::string_view model)
{
    BlockDeviceConfig c;
    c.model = std::string(model);
    if (model == "custom")
        return c;
    // Every preset merges adjacent submissions into requests of up to
    // 512 KiB, Linux's long-standing default request size
    // (BLK_DEF_MAX_SECTORS, 1024 sectors; queue/max_sectors_kb).
    c.nomerges = false;
    c.max_request_pages = 128;
    if (model == "hdd") {
        // A 7200 rpm SATA disk. One revolution takes 60 s / 7200 = 8.33 ms,
        // so a random read waits half of one on average: 4.17 ms. Average
        // read seek of desktop 7200 rpm drives: about 8.5 ms (datasheets).
        // Sustained media rate about 150 MB/s: 4096 B / 150 MB/s = 27.3 us
        // a page. The command overhead is small beside the seek and
        // counted in it. One head, one request at a time.
        c.seek_ns = 8'500'000;
        c.rotation_ns = 4'166'667;
        c.request_ns = 0;
        c.page_ns = 27'307;
        c.queue_depth = 1;
    } else if (model == "ssd") {
        // A SATA flash drive: about 80 us from command to data for a 4 KiB
        // random read at queue depth 1 (NAND page read plus controller and
        // AHCI), and the SATA 3 link's ~500 MB/s: 4096 B / 500 MB/s =
        // 8.2 us a page. NCQ takes 32 commands at once, their flash reads
        // overlapping across the drive's channels; the link caps the rate
        // at 1 / 8.2 us = 122K random 4 KiB reads/s, the order of the IOPS
        // such drives are rated for.
        c.request_ns = 80'000;
        c.page_ns = 8'192;
        c.queue_depth = 32;
    } else if (model == "nvme") {
        // A PCIe NVMe drive: about 20 us per 4 KiB random read at queue
        // depth 1 (no AHCI layer, low-latency controllers) and ~3 GB/s:
        // 4096 B / 3 GB/s = 1.37 us a page. NVMe queues are deep (up to 64K
        // commands each); 64 keeps every channel busy, and the transfer cap
        // of 1 / 1.37 us = 730K reads/s is that class of drive's rating.
        c.request_ns = 20'000;
        c.page_ns = 1'365;
        c.queue_depth = 64;
    } else {
        device_error("model", "must be one of " + model_list() + ", got '" + std::string(model) + "'");
    }
    return c;
}

void BlockDeviceConfig::validate() const
{
    if (std::find(kModels.begin(), kModels.end(), model) == kModels.end())
        device_error("model", "must be one of " + model_list() + ", got '" + model + "'");
    if (!(time_scale >= 0.0) || !std::isfinite(time_scale) || time_scale > 1e6)
        device_error("time_scale", "must be between 0 and 1000000, got " + shown_number(time_scale));
    if (request_ns > kMaxLatencyNs)
        device_error("request_ns", "must be at most 10 s, got " + std::to_string(request_ns));
    if (page_ns > 1'000'000'000ull)
        device_error("page_ns", "must be at most 1 s, got " + std::to_string(page_ns));
    if (seek_ns > kMaxLatencyNs)
        device_error("seek_ns", "must be at most 10 s, got " + std::to_string(seek_ns));
    if (rotation_ns > kMaxLatencyNs)
        device_error("rotation_ns", "must be at most 10 s, got " + std::to_string(rotation_ns));
    if (ra_pages < 1 || ra_pages > kMaxRaPages)
        device_error("ra_pages",
            "must be between 1 and " + std::to_string(kMaxRaPages) + " pages, got " + std::to_string(ra_pages));
    if (queue_depth < 1 || queue_depth > kMaxQueueDepth)
        device_error("queue_depth",
            "must be between 1 and " + std::to_string(kMaxQueueDepth) + ", got " + std::to_string(queue_depth));
    if (max_request_pages < 1 || max_request_pages > kMaxRequestPages)
        device_error("max_request_pages",
            "must be between 1 and " + std::to_string(kMaxRequestPages) + " pages, got "
                + std::to_string(max_request_pages));
}

BlockDevice::BlockDevice(const BlockDeviceConfig& config, PageWaitTable& page_locks, EventRing* events, int trace_cpu)
    : config_(config)
    , page_locks_(page_locks)
    , events_(events)
    , trace_cpu_(trace_cpu)
{
    config_.validate();
    thread_ = TaskThread("disk", [this] {
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
    wq_.wake_all();
    thread_.join();
}

void BlockDevice::quiesce()
{
    std::lock_guard g(mutex_);
    quiesced_ = true;
}

void BlockDevice::unquiesce()
{
    {
        std::lock_guard g(mutex_);
        quiesced_ = false;
    }
    wq_.wake_all();
}

bool BlockDevice::try_merge(std::vector<Page*>& pages, const Submission& s, bool write)
{
    if (config_.nomerges)
        return false;
    // The most recent request first: a sequential reader's next window
    // continues the request it queued last (the elevator's last_merge hint).
    for (auto it = queue_.rbegin(); it != queue_.rend(); ++it) {
        Request& r = *it;
        if (r.write != write || r.extent.file != s.extent.file
            || r.extent.pages + s.extent.pages > config_.max_request_pages)
            continue;
        if (r.extent.end() == s.extent.first) { // back merge: s continues r
            r.pages.insert(r.pages.end(), pages.begin(), pages.end());
            r.parts.push_back(s);
            r.extent.pages += s.extent.pages;
            return true;
        }
        if (s.extent.end() == r.extent.first) { // front merge: s ends where r starts
            r.pages.insert(r.pages.begin(), pages.begin(), pages.end());
            r.parts.insert(r.parts.begin(), s);
            r.extent.first = s.extent.first;
            r.extent.pages += s.extent.pages;
            return true;
        }
    }
    return false;
}

void BlockDevice::submit_read(std::vector<Page*> pages)
{
    submit(std::move(pages), false);
}

void BlockDevice::submit_write(std::vector<Page*> pages)
{
    if (!pages.empty() && !end_write_)
        throw std::logic_error("BlockDevice::submit_write: no end_write hook to complete the write with");
    submit(std::move(pages), true);
}

void BlockDevice::submit(std::vector<Page*> pages, bool write)
{
    if (pages.empty())
        return;
    charge_work(Work::IoSubmit);
    const std::uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
    const Submission s { id, now_ns(), { pages.front()->mapping, pages.front()->index, pages.size() } };
    submitted_.fetch_add(1, std::memory_order_relaxed);
    // Only reads hold page locks for the device (pages_under_io).
    if (!write)
        page_locks_.io_started(pages.size());
    trace::io_submit(s.submitted_ns,
        { .request = id, .file = s.extent.file, .first_page = s.extent.first, .pages = pages.size(), .write = write });
    {
        std::lock_guard g(mutex_);
        if (try_merge(pages, s, write)) {
            merged_.fetch_add(1, std::memory_order_relaxed);
            return; // the request it joined is already queued: nothing new to dispatch
        }
        queued_.fetch_add(1, std::memory_order_relaxed);
        outstanding_.fetch_add(1, std::memory_order_relaxed);
        Request r;
        r.extent = s.extent;
        r.write = write;
        r.pages = std::move(pages);
        r.parts = { s };
        queue_.push_back(std::move(r));
    }
    wq_.wake_one();
}

void BlockDevice::dispatch(std::uint64_t now)
{
    Request r = std::move(queue_.front());
    queue_.pop_front();
    r.seek = config_.pays_seek(r.extent, head_);
    r.cost_ns = config_.service_ns(r.extent, head_);
    head_ = DiskHead::after(r.extent);
    // Reaching the data (command, seek, rotation) overlaps with the other
    // requests in flight; the transfer waits for the previous one's, so
    // done_ns never decreases along flight_.
    const double scale = config_.time_scale;
    const std::uint64_t ready = now + scaled(r.cost_ns - config_.page_ns * r.extent.pages, scale);
    r.done_ns = std::max(ready, bus_free_ns_) + scaled(config_.page_ns * r.extent.pages, scale);
    bus_free_ns_ = r.done_ns;
    queued_.fetch_sub(1, std::memory_order_relaxed);
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    flight_.push_back(std::move(r));
}

void BlockDevice::complete(Request& req)
{
    // Counted before the pages are unlocked, so a CPU woken by the
    // completion already sees it in the device's figures.
    requests_.fetch_add(1, std::memory_order_relaxed);
    if (req.write) {
        write_requests_.fetch_add(1, std::memory_order_relaxed);
        pages_written_.fetch_add(req.pages.size(), std::memory_order_relaxed);
    } else {
        pages_.fetch_add(req.pages.size(), std::memory_order_relaxed);
    }
    busy_ns_.fetch_add(req.cost_ns, std::memory_order_relaxed);
    if (req.seek)
        seeks_.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t now = now_ns();
    for (const Submission& s : req.parts)
        latency_.add(now - std::min(now, s.submitted_ns));
    in_flight_.fetch_sub(1, std::memory_order_relaxed);
    outstanding_.fetch_sub(1, std::memory_order_relaxed);
    const auto others = static_cast<int>(req.parts.size() - 1);
    auto trace_completions = [&] {
        if (!trace::enabled())
            return;
        for (const Submission& s : req.parts)
            trace::io_complete(now,
                { .request = s.id,
                    .file = s.extent.file,
                    .first_page = s.extent.first,
                    .pages = s.extent.pages,
                    .write = req.write,
                    .merged_with = others });
    };
    if (req.write) {
        // end_bio_page_write: each page's writeback ends (the hook clears
        // PG_writeback and its tag and wakes its waiters).
        trace_completions();
        for (Page* page : req.pages)
            end_write_(*page);
        return;
    }
    // The request completes as a whole: all its data is there before any
    // of its pages is unlocked (end_page_read for each), so a reader woken
    // on the first page finds the rest up to date.
    for (Page* page : req.pages)
        page->set(PG_uptodate);
    trace_completions();
    page_locks_.io_done(req.pages.size());
    for (Page* page : req.pages)
        page_locks_.unlock_page(*page);
}

void BlockDevice::run()
{
    const std::size_t depth = config_.queue_depth;
    std::unique_lock lock(mutex_);
    auto can_dispatch = [&] { return !queue_.empty() && flight_.size() < depth && (!quiesced_ || stopping_); };
    for (;;) {
        const std::uint64_t now = now_ns();
        while (can_dispatch())
            dispatch(now);
        // Shutting down cuts every wait short: nobody waits for a slow
        // demonstration disk to finish its queue.
        if (!flight_.empty() && (stopping_ || flight_.front().done_ns <= now)) {
            Request req = std::move(flight_.front());
            flight_.pop_front();
            lock.unlock();
            complete(req);
            lock.lock();
            continue;
        }
        if (flight_.empty()) {
            if (stopping_)
                return; // and, with nothing in flight, nothing queued: everything submitted was served
            wq_.wait(lock, [&] { return stopping_ || can_dispatch(); });
            continue;
        }
        // Until the first request in flight completes (a deadline on
        // now_ns(), the clock done_ns is on).
        wq_.wait_until_ns(lock, flight_.front().done_ns, [&] { return stopping_ || can_dispatch(); });
    }
}

} // namespace pcl
