#include "sim/chrome_trace.h"

#include "events/lanes.h"
#include "lib/json.h"
#include "mm/fault.h"
#include "mm/readahead.h"
#include "sim/span_model.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace pcl {

namespace {

constexpr int kPid = 1;

/// A slice or an instant, before it has its Chrome thread.
struct Item {
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0; ///< == start_ns for an instant
    std::uint32_t event = 0;  ///< the record it comes from (the ending one)
    std::uint16_t lane = 0;
    bool slice = true;
};

/// The name of the lock an event is about: its own name, or its class's
/// for an anonymous lock (a radix-tree node's).
std::string lock_label(const RunResult& r, std::uint32_t lock_id, std::uint32_t class_id)
{
    if (lock_id && lock_id <= r.lock_names.size() && !r.lock_names[lock_id - 1].empty())
        return r.lock_names[lock_id - 1];
    if (class_id && class_id <= r.class_names.size())
        return r.class_names[class_id - 1];
    return "lock #" + std::to_string(lock_id);
}

/// The records drawn as instants; begins (their ends carry the duration),
/// node and tag changes are not drawn (see the metadata).
bool is_instant(EventKind kind)
{
    switch (kind) {
    case EventKind::ReadaheadWindow:
    case EventKind::PageEvicted:
    case EventKind::PageRefault:
    case EventKind::IndexHeightGrow:
    case EventKind::IndexHeightShrink:
        return true;
    default:
        return false;
    }
}

/// The lanes of @r (events/lanes.h).
LaneLayout lanes_of(const RunResult& r)
{
    return LaneLayout(unsigned(r.cpus.size()), unsigned(r.devices.size()));
}

/// What the lanes of @r are called: its CPUs, its disks, then kswapd.
std::string lane_name(const RunResult& r, unsigned lane)
{
    const LaneLayout lanes = lanes_of(r);
    const unsigned index = lanes.index(lane);
    switch (lanes.kind(lane)) {
    case LaneKind::Cpu:
        return "CPU " + std::to_string(index);
    case LaneKind::Disk:
        return "disk " + std::to_string(index) + " (" + r.devices[index].model + ")";
    case LaneKind::Kswapd:
        if (r.kswapd_on)
            return "kswapd";
        break;
    case LaneKind::Beyond:
        break;
    }
    return "lane " + std::to_string(lane);
}

double micros(std::uint64_t ns, std::uint64_t origin_ns)
{
    return double(ns >= origin_ns ? ns - origin_ns : 0) / 1000.0;
}

/// The name, category and arguments of an item's record.
struct Described {
    std::string name;
    std::string cat;
    json::Value args;
};

Described describe(const RunResult& r, const Event& e)
{
    switch (e.kind) {
    case EventKind::LockAcquired: {
        const ev::LockAcquired v { e };
        return { "wait " + lock_label(r, v.lock_id(), v.class_id()), "lock",
            json::Object { { "wait_ns", v.wait_ns() } } };
    }
    case EventKind::LockReleased: {
        const ev::LockReleased v { e };
        return { "hold " + lock_label(r, v.lock_id(), v.class_id()), "lock",
            json::Object { { "hold_ns", v.hold_ns() } } };
    }
    case EventKind::FaultEnd: {
        const ev::FaultEnd v { e };
        return { std::string(fault_kind_name(FaultKind(v.fault_kind()))) + " fault", "fault",
            json::Object { { "file", std::uint64_t(v.file()) }, { "page", std::uint64_t(v.page()) }, { "vpn", v.vpn() },
                { "duration_ns", v.duration_ns() } } };
    }
    case EventKind::PageLockWoken: {
        const ev::PageLockWoken v { e };
        return { "page lock sleep", "page_lock",
            json::Object { { "file", std::uint64_t(v.file()) }, { "page", std::uint64_t(v.page()) },
                { "slept_ns", v.slept_ns() } } };
    }
    case EventKind::IoComplete: {
        const ev::IoComplete v { e };
        return { std::string(v.write() ? "write " : "read ") + std::to_string(v.pages()) + " pages", "io",
            json::Object { { "file", std::uint64_t(v.file()) }, { "first_page", std::uint64_t(v.first_page()) },
                { "pages", v.pages() }, { "request", v.request() } } };
    }
    case EventKind::ReadaheadWindow: {
        const ev::ReadaheadWindow v { e };
        return { std::string(v.async() ? "async" : "sync") + " readahead window", "readahead",
            json::Object { { "file", std::uint64_t(v.file()) }, { "start", std::uint64_t(v.start()) },
                { "size", v.size() }, { "async_size", v.async_size() }, { "rule", ra_rule_name(RaRule(v.rule())) } } };
    }
    case EventKind::PageEvicted: {
        const ev::PageEvicted v { e };
        return { v.wasted() ? "evict unused readahead page" : "evict", "reclaim",
            json::Object {
                { "file", std::uint64_t(v.file()) }, { "page", std::uint64_t(v.page()) }, { "mapped", v.mapped() } } };
    }
    case EventKind::PageRefault: {
        const ev::PageRefault v { e };
        return { "refault", "reclaim",
            json::Object { { "file", std::uint64_t(v.file()) }, { "page", std::uint64_t(v.page()) },
                { "distance", v.distance() }, { "active", v.active() } } };
    }
    case EventKind::IndexHeightGrow:
    case EventKind::IndexHeightShrink: {
        const ev::IndexHeightGrow v { e };
        const bool grow = e.kind == EventKind::IndexHeightGrow;
        return { std::string(grow ? "tree grows" : "tree shrinks") + " to height " + std::to_string(v.height()),
            "index", json::Object { { "file", std::uint64_t(v.file()) }, { "height", v.height() } } };
    }
    default:
        return { std::string(to_string(e.kind)), "other", json::Object {} };
    }
}

/// Places each item of one lane on the first of the lane's Chrome threads
/// where it nests inside what is open there (or after it), opening threads
/// as needed. @items are sorted by start, longer first. Returns the thread
/// of each item (0 = the lane's own) and how many threads the lane needs.
std::pair<std::vector<std::uint32_t>, std::uint32_t> nest(const std::vector<Item>& items)
{
    std::vector<std::vector<std::uint64_t>> open; // per thread: ends of the slices open there, innermost last
    std::vector<std::uint32_t> thread(items.size(), 0);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item& it = items[i];
        if (!it.slice)
            continue; // an instant needs no room
        std::size_t t = 0;
        for (; t < open.size(); ++t) {
            auto& stack = open[t];
            while (!stack.empty() && stack.back() <= it.start_ns)
                stack.pop_back();
            if (stack.empty() || stack.back() >= it.end_ns)
                break;
        }
        if (t == open.size())
            open.emplace_back();
        open[t].push_back(it.end_ns);
        thread[i] = static_cast<std::uint32_t>(t);
    }
    return { std::move(thread), std::uint32_t(std::max<std::size_t>(open.size(), 1)) };
}

} // namespace

ChromeTrace::ChromeTrace(std::size_t max_events)
    : max_events_(max_events)
{
}

void ChromeTrace::add(const std::vector<Event>& batch)
{
    for (const Event& e : batch) {
        if (events_.size() < max_events_)
            events_.push_back(e);
        else
            ++left_out_;
    }
}

std::string ChromeTrace::json(const RunResult& r) const
{
    // The items: the activities the span model reads out of the records
    // (a wait, a hold, a fault, a sleep, a request), and the instants.
    SpanModel model(SpanModel::Keep { .spans = false, .activities = true });
    model.reset(lanes_of(r));
    std::vector<Item> items;
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    std::size_t ended = 0;
    for (std::uint32_t i = 0; i < events_.size(); ++i) {
        const Event& e = events_[i];
        model.add(e);
        origin = std::min(origin, e.time_ns);
        for (; ended < model.activities().size(); ++ended) {
            const Activity& a = model.activities()[ended];
            origin = std::min(origin, a.start_ns);
            items.push_back(Item { a.start_ns, a.end_ns, i, a.lane, true });
        }
        if (is_instant(e.kind))
            items.push_back(Item { e.time_ns, e.time_ns, i, e.cpu, false });
    }
    for (const MetricsSample& s : r.series)
        if (s.clock_ns) {
            const auto begun = static_cast<std::uint64_t>(s.interval_s * 1e9);
            origin = std::min(origin, s.clock_ns >= begun ? s.clock_ns - begun : 0);
        }
    if (origin == std::numeric_limits<std::uint64_t>::max())
        origin = 0;

    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        return std::tie(a.lane, a.start_ns) < std::tie(b.lane, b.start_ns)
            || (a.lane == b.lane && a.start_ns == b.start_ns && a.end_ns > b.end_ns);
    });

    // Chrome threads: every lane of the run has its own, numbered
    // lane * threads_per_lane + 1, and the lanes whose slices overlap get
    // more right after it; threads_per_lane (a power of ten, 1000 at least)
    // leaves room for the busiest lane, so no two lanes share a number.
    std::vector<std::string> lines;
    auto emit = [&lines](const json::Value& v) { lines.push_back(json::write(v, -1)); };
    std::map<unsigned, std::uint32_t> threads_of_lane;
    const unsigned known_lanes = r.kswapd_on ? lanes_of(r).lanes() : lanes_of(r).kswapd_lane();
    for (unsigned lane = 0; lane < known_lanes; ++lane)
        threads_of_lane[lane] = 1;
    struct LaneItems {
        std::size_t first, last;
        std::vector<std::uint32_t> thread;
    };
    std::vector<LaneItems> lanes;
    for (std::size_t first = 0; first < items.size();) {
        std::size_t last = first;
        while (last < items.size() && items[last].lane == items[first].lane)
            ++last;
        auto [thread, threads] = nest({ items.begin() + std::ptrdiff_t(first), items.begin() + std::ptrdiff_t(last) });
        const unsigned lane = items[first].lane;
        threads_of_lane[lane] = std::max(threads_of_lane[lane], threads);
        lanes.push_back({ first, last, std::move(thread) });
        first = last;
    }
    std::uint64_t threads_per_lane = 1000;
    for (const auto& [lane, threads] : threads_of_lane)
        while (threads >= threads_per_lane)
            threads_per_lane *= 10;
    auto tid_of = [threads_per_lane](unsigned lane, std::uint32_t thread) {
        return std::uint64_t(lane) * threads_per_lane + thread + 1;
    };

    // A disk's lane carries its requests and what its flusher does (the
    // flusher records on its device's lane): a thread of requests alone is
    // named for them, one that holds anything else for the overlap.
    std::set<std::pair<unsigned, std::uint32_t>> not_only_requests;
    std::uint64_t slices = 0, instants = 0;
    for (const LaneItems& l : lanes) {
        const unsigned lane = items[l.first].lane;
        for (std::size_t k = 0; k < l.last - l.first; ++k) {
            const Item& it = items[l.first + k];
            const std::uint32_t thread = l.thread[k];
            if (events_[it.event].kind != EventKind::IoComplete)
                not_only_requests.insert({ lane, thread });
            Described d = describe(r, events_[it.event]);
            json::Object o { { "name", d.name }, { "cat", d.cat }, { "ph", it.slice ? "X" : "i" },
                { "ts", micros(it.start_ns, origin) }, { "pid", kPid }, { "tid", tid_of(lane, thread) } };
            if (it.slice)
                o.emplace_back("dur", double(it.end_ns - it.start_ns) / 1000.0);
            else
                o.emplace_back("s", "t");
            o.emplace_back("args", std::move(d.args));
            emit(json::Value(std::move(o)));
            ++(it.slice ? slices : instants);
        }
    }

    // Counter tracks from the metrics series.
    for (const MetricsSample& s : r.series) {
        if (!s.clock_ns)
            continue;
        const double ts = micros(s.clock_ns, origin);
        auto counter = [&](const char* name, const char* key, json::Value value) {
            emit(json::Object { { "name", name }, { "ph", "C" }, { "ts", ts }, { "pid", kPid },
                { "args", json::Object { { key, std::move(value) } } } });
        };
        counter("operations", "per second", s.operations_per_s);
        counter("page cache", "pages", s.pages_cached);
        counter("dirty", "pages", s.nr_dirty);
        counter("I/O", "in flight", s.io_in_flight);
    }

    // Names: the process is the run, each thread a lane (or its overflow).
    const std::string title = r.scenario.title.empty() ? std::string("a run") : r.scenario.title;
    const std::uint64_t dropped = r.events_dropped + left_out_;
    const bool every_event = r.scenario.engine.ops_per_second > 0;
    emit(json::Object { { "name", "process_name" }, { "ph", "M" }, { "pid", kPid },
        { "args", json::Object { { "name", "Page Cache Lab: " + title } } } });
    std::string label = every_event ? "every event recorded" : "notable events only (unpaced run)";
    if (dropped)
        label += "; " + std::to_string(dropped) + " events dropped";
    emit(json::Object { { "name", "process_labels" }, { "ph", "M" }, { "pid", kPid },
        { "args", json::Object { { "labels", label } } } });
    for (const auto& [lane, threads] : threads_of_lane)
        for (std::uint32_t t = 0; t < threads; ++t) {
            const std::uint64_t tid = tid_of(lane, t);
            const bool disk = lanes_of(r).kind(lane) == LaneKind::Disk;
            const bool requests = disk && !not_only_requests.count({ lane, t });
            const std::string name = lane_name(r, lane)
                + (t ? (requests ? ", request " : ", overlapping ") + std::to_string(t + 1) : std::string());
            emit(json::Object { { "name", "thread_name" }, { "ph", "M" }, { "pid", kPid }, { "tid", tid },
                { "args", json::Object { { "name", name } } } });
            emit(json::Object { { "name", "thread_sort_index" }, { "ph", "M" }, { "pid", kPid }, { "tid", tid },
                { "args", json::Object { { "sort_index", tid } } } });
        }

    json::Object other {
        { "generator", std::string("Page Cache Lab ") + PCL_VERSION },
        { "title", title },
        { "cpus", std::uint64_t(r.cpus.size()) },
        { "disks", std::uint64_t(r.devices.size()) },
        { "recording",
            every_event ? "every event (a paced run)"
                        : "notable events only (an unpaced run: uncontended locks and faults that did not wait "
                          "are counted but not recorded)" },
        { "events_pushed", r.events_pushed },
        { "events_dropped_by_rings", r.events_dropped },
        { "events_left_out_at_size_limit", left_out_ },
        { "events_dropped", dropped },
        { "complete", dropped == 0 },
        { "slices", slices },
        { "instants", instants },
        { "not_drawn", "index node and tag changes, hash chain lengths (see the event log)" },
        { "ended_by", std::string(run_end_name(r.ended_by)) },
        { "parameters", scenario_to_json(r.scenario, true) },
    };

    std::string out = "{\"displayTimeUnit\": \"ns\",\n\"otherData\": " + json::write(json::Value(std::move(other)), -1)
        + ",\n\"traceEvents\": [\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        out += i + 1 < lines.size() ? ",\n" : "\n";
    }
    out += "]}\n";
    return out;
}

} // namespace pcl
