#include "sim/chrome_trace.h"

#include "events/lanes.h"
#include "lib/json.h"
#include "lib/report.h"
#include "lib/text.h"
#include "mm/fault.h"
#include "mm/readahead.h"
#include "sim/span_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
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

/// Where a page is: its file and its offset there (@key), or, for an
/// anonymous page, its virtual page alone: such a page belongs to no file,
/// and its file number, kAnonymousFile (~0), would read as a file numbered
/// 4294967295.
void put_page(json::Object& o, FileId file, pgoff_t page, const char* key = "page")
{
    if (file == kAnonymousFile) {
        o.emplace_back("vpn", std::uint64_t(page)); // an anonymous page's offset is its virtual page (mm/fault.cpp)
        return;
    }
    o.emplace_back("file", std::uint64_t(file));
    o.emplace_back(key, std::uint64_t(page));
}

/// What an item's record is called and says. A slice's name is the kind of
/// work, the same for every slice of that kind, and it carries no args (the
/// header says why); what its record says besides its length goes on the
/// instant beside it, @detail, named @detail_name. An instant's own values
/// are its args.
struct Described {
    Described(std::string n, const char* c, json::Object a = {}, const char* detail_of = nullptr)
        : name(std::move(n))
        , cat(c)
        , args(std::move(a))
        , detail_name(detail_of)
    {
    }

    std::string name;
    std::string cat;
    json::Object args;
    const char* detail_name; ///< nullptr: the slice has nothing more to say
    json::Object detail;
};

Described describe(const RunResult& r, const Event& e)
{
    switch (e.kind) {
    case EventKind::LockAcquired: {
        const ev::LockAcquired v { e };
        return { "wait " + lock_label(r, v.lock_id(), v.class_id()), "lock" }; // wait_ns: the slice's dur
    }
    case EventKind::LockReleased: {
        const ev::LockReleased v { e };
        return { "hold " + lock_label(r, v.lock_id(), v.class_id()), "lock" }; // hold_ns: the slice's dur
    }
    case EventKind::FaultEnd: {
        const ev::FaultEnd v { e };
        Described d { std::string(fault_kind_name(FaultKind(v.fault_kind()))) + " fault", "fault", {}, "faulted page" };
        put_page(d.detail, v.file(), v.page());
        if (v.file() != kAnonymousFile)
            d.detail.emplace_back("vpn", v.vpn());
        return d;
    }
    case EventKind::PageLockWoken: {
        const ev::PageLockWoken v { e };
        Described d { "page lock sleep", "page_lock", {}, "page slept on" };
        put_page(d.detail, v.file(), v.page());
        return d;
    }
    case EventKind::IoComplete: {
        const ev::IoComplete v { e };
        Described d { v.write() ? "write" : "read", "io", {}, "request" };
        put_page(d.detail, v.file(), v.first_page(), "first_page");
        d.detail.emplace_back("pages", v.pages());
        d.detail.emplace_back("request", v.request());
        return d;
    }
    case EventKind::ReadaheadWindow: {
        const ev::ReadaheadWindow v { e };
        Described d { std::string(v.async() ? "async" : "sync") + " readahead window", "readahead" };
        put_page(d.args, v.file(), v.start(), "start");
        d.args.emplace_back("size", v.size());
        d.args.emplace_back("async_size", v.async_size());
        d.args.emplace_back("rule", ra_rule_name(RaRule(v.rule())));
        return d;
    }
    case EventKind::PageEvicted: {
        const ev::PageEvicted v { e };
        Described d { v.wasted() ? "evict unused readahead page" : "evict", "reclaim" };
        put_page(d.args, v.file(), v.page());
        d.args.emplace_back("mapped", v.mapped());
        return d;
    }
    case EventKind::PageRefault: {
        const ev::PageRefault v { e };
        Described d { "refault", "reclaim" };
        put_page(d.args, v.file(), v.page());
        d.args.emplace_back("distance", v.distance());
        d.args.emplace_back("active", v.active());
        return d;
    }
    case EventKind::IndexHeightGrow:
    case EventKind::IndexHeightShrink: {
        const ev::IndexHeightGrow v { e };
        const bool grow = e.kind == EventKind::IndexHeightGrow;
        return { grow ? "tree grows" : "tree shrinks", "index",
            json::Object { { "file", std::uint64_t(v.file()) }, { "height", v.height() } } };
    }
    default:
        return { std::string(to_string(e.kind)), "other" };
    }
}

/// Where a run started on the records' clock, as a sample of it says: the
/// sample was taken time_s of running time in, at clock_ns (one reading,
/// sim/run_loop.cpp), and pauses are out of both.
std::uint64_t start_of(const MetricsSample& s)
{
    const auto ran = static_cast<std::uint64_t>(std::llround(s.time_s * 1e9));
    return s.clock_ns >= ran ? s.clock_ns - ran : 0;
}

/// @start_ns plus @seconds, on the records' clock; far enough is the end of it.
std::uint64_t after(std::uint64_t start_ns, double seconds)
{
    const double ns = std::max(0.0, seconds * 1e9);
    const auto room = std::numeric_limits<std::uint64_t>::max() - start_ns;
    return ns >= double(room) ? std::numeric_limits<std::uint64_t>::max()
                              : start_ns + static_cast<std::uint64_t>(std::llround(ns));
}

/// Seconds as a person gives them: "0.5", "1.2", "30".
std::string seconds_text(double s)
{
    std::ostringstream out;
    out << s;
    return out.str();
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

ChromeTrace::ChromeTrace(std::size_t max_events, std::optional<Window> window)
    : max_events_(max_events)
    , window_(window)
{
}

void ChromeTrace::add(const std::vector<Event>& batch)
{
    for (const Event& e : batch) {
        // A window is measured from the run's start, which the first
        // sample tells; until then, what comes waits.
        if (window_ && !start_ns_)
            pending_.push_back(e);
        else
            keep(e);
    }
}

ChromeTrace::Mark ChromeTrace::mark() const noexcept
{
    return { events_.size(), pending_.size(), left_out_, outside_window_, newest_kept_ns_, start_ns_ };
}

void ChromeTrace::cut_to(const Mark& m)
{
    // Where records were dropped by a full ring, two passes over the same
    // run may have drained different ones; the trace then keeps what it has.
    events_.resize(std::min(m.kept, events_.size()));
    pending_.resize(std::min(m.pending, pending_.size()));
    left_out_ = m.left_out;
    outside_window_ = m.outside_window;
    newest_kept_ns_ = m.newest_kept_ns;
    start_ns_ = m.start_ns;
}

void ChromeTrace::add_sample(const MetricsSample& s)
{
    if (!start_ns_ && s.clock_ns)
        set_start(start_of(s));
}

void ChromeTrace::set_start(std::uint64_t start_ns)
{
    start_ns_ = start_ns;
    if (window_) {
        from_ns_ = after(start_ns, window_->from_s);
        to_ns_ = after(start_ns, window_->to_s);
    }
    std::vector<Event> waiting;
    waiting.swap(pending_);
    for (const Event& e : waiting)
        keep(e);
}

void ChromeTrace::keep(const Event& e)
{
    // A record stamped before the start (a stamp the run's clock leaves as
    // it is: run_clock.h) is before every window.
    if (window_ && (e.time_ns < from_ns_ || e.time_ns >= to_ns_)) {
        ++outside_window_;
        return;
    }
    if (events_.size() >= max_events_) {
        ++left_out_;
        return;
    }
    events_.push_back(e);
    newest_kept_ns_ = std::max(newest_kept_ns_, e.time_ns);
}

std::uint64_t ChromeTrace::start_ns(const RunResult& r) const
{
    if (start_ns_)
        return *start_ns_;
    for (const MetricsSample& s : r.series)
        if (s.clock_ns)
            return start_of(s);
    std::uint64_t oldest = std::numeric_limits<std::uint64_t>::max();
    for (const std::vector<Event>* records : { &events_, &pending_ })
        for (const Event& e : *records)
            oldest = std::min(oldest, e.time_ns);
    return oldest == std::numeric_limits<std::uint64_t>::max() ? 0 : oldest;
}

double ChromeTrace::kept_until_s(const RunResult& r) const
{
    const std::uint64_t start = start_ns(r);
    return events_.empty() || newest_kept_ns_ < start ? 0.0 : double(newest_kept_ns_ - start) / 1e9;
}

std::string ChromeTrace::cut_note(const RunResult& r) const
{
    if (!left_out_)
        return {};
    const std::string first = "the first " + with_commas(events_kept()) + " of ";
    const std::string until = "up to " + fixed(kept_until_s(r), 3) + " s";
    if (window_)
        return first + "the " + with_commas(events_kept() + left_out_) + " events from " + seconds_text(window_->from_s)
            + " s to " + seconds_text(window_->to_s) + " s of the run, " + until;
    return first + with_commas(events_kept() + left_out_) + " events, " + until + " of the run's "
        + fixed(r.wall_seconds, 3) + " s";
}

std::string ChromeTrace::json(const RunResult& r) const
{
    // A window whose start no sample gave: the run's series gives it now.
    if (!pending_.empty()) {
        ChromeTrace placed = *this;
        placed.set_start(start_ns(r));
        return placed.json(r);
    }

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
    std::uint64_t slices = 0, instants = 0, details = 0;
    for (const LaneItems& l : lanes) {
        const unsigned lane = items[l.first].lane;
        for (std::size_t k = 0; k < l.last - l.first; ++k) {
            const Item& it = items[l.first + k];
            const std::uint32_t thread = l.thread[k];
            if (events_[it.event].kind != EventKind::IoComplete)
                not_only_requests.insert({ lane, thread });
            Described d = describe(r, events_[it.event]);
            const double ts = micros(it.start_ns, origin);
            const std::uint64_t tid = tid_of(lane, thread);
            json::Object o { { "name", d.name }, { "cat", d.cat }, { "ph", it.slice ? "X" : "i" }, { "ts", ts },
                { "pid", kPid }, { "tid", tid } };
            if (it.slice) {
                // No args: speedscope would make a frame of each set of them.
                o.emplace_back("dur", double(it.end_ns - it.start_ns) / 1000.0);
                emit(json::Value(std::move(o)));
                ++slices;
            } else {
                o.emplace_back("s", "t");
                o.emplace_back("args", std::move(d.args));
                emit(json::Value(std::move(o)));
                ++instants;
            }
            // What the slice's record says besides its length, on an
            // instant at its start: after the slice, so that a viewer that
            // nests what starts together puts it inside the slice.
            if (it.slice && d.detail_name) {
                emit(json::Object { { "name", d.detail_name }, { "cat", d.cat }, { "ph", "i" }, { "ts", ts },
                    { "pid", kPid }, { "tid", tid }, { "s", "t" }, { "args", std::move(d.detail) } });
                ++details;
            }
        }
    }

    // Counter tracks from the metrics series (the window's samples).
    for (const MetricsSample& s : r.series) {
        if (!s.clock_ns || (window_ && (s.time_s < window_->from_s || s.time_s > window_->to_s)))
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
    if (window_)
        label += "; " + seconds_text(window_->from_s) + " s to " + seconds_text(window_->to_s) + " s of the run";
    if (left_out_)
        label += "; cut at " + fixed(kept_until_s(r), 3) + " s by the size limit";
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
        { "size_limit", max_events_ == kNoLimit ? json::Value("none") : json::Value(std::uint64_t(max_events_)) },
        { "events_kept", std::uint64_t(events_.size()) },
        { "events_left_out_at_size_limit", left_out_ },
        { "events_dropped", dropped },
        { "complete", dropped == 0 },
    };
    if (left_out_) {
        other.emplace_back("kept_until_s", kept_until_s(r));
        other.emplace_back("cut", "this trace holds " + cut_note(r) + "; the rest were left out at the size limit");
    }
    if (window_) {
        other.emplace_back("window_s", json::Object { { "from", window_->from_s }, { "to", window_->to_s } });
        other.emplace_back("events_outside_window", outside_window_);
    }
    other.emplace_back("slices", slices);
    other.emplace_back("instants", instants);
    other.emplace_back("slice_details",
        json::Object { { "instants", details },
            { "names",
                "faulted page, page slept on, request: at a slice's start, what its record says besides its "
                "length (slices carry no args, so that viewers aggregate them by name)" } });
    other.emplace_back("not_drawn", "index node and tag changes, hash chain lengths (see the event log)");
    other.emplace_back("ended_by", std::string(run_end_name(r.ended_by)));
    other.emplace_back("parameters", scenario_to_json(r.scenario, true));

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
