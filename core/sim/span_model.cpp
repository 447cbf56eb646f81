#include "sim/span_model.h"

#include <algorithm>
#include <initializer_list>

namespace pcl {

namespace {

/// Reads a CPU has in flight at once: a fault's read and the requests of
/// its readahead windows, one per contiguous run of missing pages (Morton's
/// thrashing test keeps about 50 in flight for each reader). Past this
/// many, completions were lost, and the oldest go.
constexpr std::size_t kMaxSubmittedPerLane = 256;
/// Requests whose completion was never seen are forgotten past this many.
constexpr std::size_t kMaxInFlight = 65536;

bool mergeable(const LaneSpan& a, const LaneSpan& b)
{
    // Running and idle stretches carry no detail but their fault: adjacent
    // ones are one span, which keeps a lane's span count near the number of
    // waits whatever the event rate.
    return a.state == b.state && (a.state == LaneState::Running || a.state == LaneState::Idle) && a.end_ns == b.start_ns
        && a.in_fault == b.in_fault && (!a.in_fault || a.fault_start_ns == b.fault_start_ns);
}

/// The start of what an ending record at @t measured as lasting @took.
std::uint64_t measured_start(std::uint64_t t, std::uint64_t took)
{
    return t >= took ? t - took : 0;
}

} // namespace

SpanModel::SpanModel()
    : SpanModel(Keep {})
{
}

SpanModel::SpanModel(Keep keep)
    : keep_(keep)
{
    reset(layout_);
}

std::shared_ptr<void> SpanModel::reset(const LaneLayout& layout)
{
    layout_ = layout;
    auto old = std::make_shared<std::vector<Lane>>(std::move(lanes_));
    lanes_.assign(layout_.lanes(), Lane {});
    in_flight_.clear();
    waiting_.clear();
    activities_.clear();
    lock_ids_.clear();
    locks_.clear();
    records_ = 0;
    origin_ = 0;
    origin_set_ = false;
    latest_ = 0;
    return old;
}

std::uint64_t SpanModel::earliest_ns() const
{
    std::uint64_t t = 0;
    for (const Lane& l : lanes_)
        if (!l.spans.empty() && (t == 0 || l.spans.spans().front().start_ns < t))
            t = l.spans.spans().front().start_ns;
    return t;
}

void SpanModel::add(const std::vector<Event>& batch)
{
    for (const Event& e : batch)
        add(e);
    evict();
}

void SpanModel::add(const Event& e)
{
    const std::uint64_t record = records_++;
    std::optional<Submitted> request;
    if (e.kind == EventKind::IoSubmit)
        request = submit(e);
    else if (e.kind == EventKind::IoComplete)
        request = complete(e);
    if (keep_.activities)
        measure(e, record, request);
    if (e.cpu >= lanes_.size())
        return;
    if (origin_ == 0 && !origin_set_)
        origin_ = e.time_ns;
    latest_ = std::max(latest_, e.time_ns);
    if (keep_.spans)
        partition(e, request);
}

std::optional<SpanModel::Submitted> SpanModel::submit(const Event& e)
{
    const ev::IoSubmit io { e };
    const Submitted r { io.request(), e.time_ns, io.file(), io.first_page(),
        static_cast<std::uint32_t>(std::max<std::uint64_t>(io.pages(), 1)) };
    if (in_flight_.size() >= kMaxInFlight)
        in_flight_.clear();
    in_flight_[{ r.id, r.file, r.first }] = r;
    return r;
}

std::optional<SpanModel::Submitted> SpanModel::complete(const Event& e)
{
    const ev::IoComplete io { e };
    const auto it = in_flight_.find({ io.request(), io.file(), io.first_page() });
    if (it == in_flight_.end())
        return std::nullopt; // submitted before the first record: its service time is unknown
    const Submitted r = it->second;
    in_flight_.erase(it);
    return r;
}

void SpanModel::measure(const Event& e, std::uint64_t record, const std::optional<Submitted>& request)
{
    const std::uint64_t t = e.time_ns;
    auto measured = [&](ActivityKind kind, std::uint64_t took) {
        activities_.push_back(Activity { measured_start(t, took), t, record, e.cpu, kind });
    };
    switch (e.kind) {
    case EventKind::LockWaitBegin:
        ++waiting_[{ e.cpu, ev::LockWaitBegin { e }.lock() }];
        break;
    case EventKind::LockAcquired: {
        const ev::LockAcquired acquired { e };
        const auto it = waiting_.find({ e.cpu, acquired.lock() });
        const bool waited = it != waiting_.end();
        if (waited && --it->second == 0)
            waiting_.erase(it);
        if (acquired.wait_ns() || waited)
            measured(ActivityKind::LockWait, acquired.wait_ns());
        break;
    }
    case EventKind::LockReleased:
        measured(ActivityKind::LockHold, ev::LockReleased { e }.hold_ns());
        break;
    case EventKind::FaultEnd:
        measured(ActivityKind::Fault, ev::FaultEnd { e }.duration_ns());
        break;
    case EventKind::PageLockWoken:
        measured(ActivityKind::PageSleep, ev::PageLockWoken { e }.slept_ns());
        break;
    case EventKind::IoComplete:
        activities_.push_back(Activity { request ? request->time : t, t, record, e.cpu, ActivityKind::Request });
        break;
    default:
        break; // begins: the ends carry the duration
    }
}

LaneSpan SpanModel::within_fault(const Lane& l, LaneSpan s)
{
    if (l.fault) {
        s.in_fault = true;
        s.fault_start_ns = l.fault->start;
        if (s.state == LaneState::Running) {
            s.file = l.fault->file;
            s.page = l.fault->page;
        }
    }
    return s;
}

LaneSpan SpanModel::piece(const Lane& l, LaneState state, std::uint64_t start, std::uint64_t end) const
{
    LaneSpan s;
    s.start_ns = start;
    s.end_ns = end;
    s.state = state;
    return within_fault(l, s);
}

void SpanModel::append(unsigned lane, LaneSpan span)
{
    Lane& l = lanes_[lane];
    if (span.end_ns < span.start_ns)
        span.end_ns = span.start_ns;
    if (!l.spans.empty() && mergeable(l.spans.back(), span)) {
        l.spans.set_back_end(span.end_ns);
    } else {
        l.spans.push_back(span);
        if (l.spans.size() > max_spans_)
            l.spans.pop_front();
    }
    l.cursor = span.end_ns;
}

void SpanModel::advance(unsigned lane, std::uint64_t t, bool busy)
{
    Lane& l = lanes_[lane];
    if (l.cursor == 0) {
        l.cursor = t; // nothing is known of the time before a lane's first record
        return;
    }
    // Time under a wait belongs to the wait, which becomes a span when it ends.
    if (t <= l.cursor || l.wait)
        return;
    LaneState state = LaneState::Running;
    if (layout_.kind(lane) == LaneKind::Disk)
        state = LaneState::Idle; // a disk records its completions: between requests it is idle
    else if (!l.fault && !busy && t - l.cursor > idle_gap_ns_)
        state = LaneState::Idle;
    append(lane, piece(l, state, l.cursor, t));
}

std::uint32_t SpanModel::intern_lock(const Event& e)
{
    // Every lock record (wait, acquire, release) names its lock the same way.
    const ev::LockAcquired lock { e };
    const std::uint64_t key = (std::uint64_t(lock.lock_id()) << 32) | lock.class_id();
    if (auto it = lock_ids_.find(key); it != lock_ids_.end())
        return it->second;
    const auto id = static_cast<std::uint32_t>(locks_.size());
    locks_.push_back(e);
    lock_ids_.emplace(key, id);
    return id;
}

void SpanModel::end_fault(unsigned lane, std::uint64_t t, FaultKind kind, std::uint64_t start)
{
    Lane& l = lanes_[lane];
    advance(lane, t);
    // Every piece of this fault (split around its waits) learns how it ended.
    l.spans.end_fault(start, t, kind);
    l.fault.reset();
}

void SpanModel::partition(const Event& e, const std::optional<Submitted>& request)
{
    const unsigned lane = e.cpu;
    Lane& l = lanes_[lane];
    const std::uint64_t t = e.time_ns;

    // A wait that ends with no begin on record (lost to a full ring, or
    // before the first record): its duration is in the ending record.
    auto startFromDuration = [&](std::uint64_t took) {
        const std::uint64_t start = std::max(l.cursor, t - std::min(t, took));
        advance(lane, start);
        return start;
    };
    // A wait begins: one whose end was lost ends here.
    auto begin_wait = [&](LaneState state) {
        advance(lane, t);
        if (l.wait)
            append(lane, piece(l, l.wait->state, l.wait->start_ns, t));
        l.wait = LaneSpan {};
        l.wait->start_ns = t;
        l.wait->state = state;
    };
    // A wait of @kinds ends at t: the open one, or one the ending record
    // measured (@lost: its start and what it waited for). Appended in @state.
    auto end_wait = [&](std::initializer_list<LaneState> kinds, auto&& lost, auto&& state) {
        std::optional<LaneSpan> w;
        if (l.wait && std::find(kinds.begin(), kinds.end(), l.wait->state) != kinds.end()) {
            w = l.wait;
            l.wait.reset();
        } else if (!l.wait) {
            w = lost();
        }
        if (!w) {
            advance(lane, t);
            return;
        }
        w->end_ns = t;
        w->state = state(*w);
        append(lane, within_fault(l, *w));
    };

    switch (e.kind) {
    case EventKind::LockWaitBegin: {
        const std::uint32_t lock = intern_lock(e);
        const int holder = ev::LockWaitBegin { e }.holder_cpu();
        begin_wait(LaneState::Spinning);
        l.wait->lock = lock;
        l.wait->holder = static_cast<std::int16_t>(holder >= 0 && holder < 32768 ? holder : -1);
        break;
    }
    case EventKind::LockAcquired:
        end_wait(
            { LaneState::Spinning, LaneState::Blocked },
            [&]() -> std::optional<LaneSpan> {
                const std::uint64_t wait = ev::LockAcquired { e }.wait_ns();
                if (wait == 0)
                    return std::nullopt;
                LaneSpan lost;
                lost.start_ns = startFromDuration(wait);
                lost.lock = intern_lock(e);
                return lost;
            },
            [&](const LaneSpan& w) {
                return t - w.start_ns < kSpinLimitNs ? LaneState::Spinning : LaneState::Blocked;
            });
        break;
    case EventKind::PageLockWait: {
        begin_wait(LaneState::PageWait);
        l.wait->file = e.file;
        l.wait->page = e.index;
        // Asleep on a page of its own read: the CPU is in I/O from the
        // submit on (a major fault), not waiting on someone else's read.
        auto own = std::find_if(l.submitted.begin(), l.submitted.end(),
            [&](const Submitted& r) { return r.file == e.file && e.index >= r.first && e.index < r.first + r.pages; });
        if (own != l.submitted.end()) {
            l.wait->state = LaneState::InIo;
            l.wait->request = own->id;
            l.wait->pages = own->pages;
            // What ran after the submit (the page-cache locks taken on the
            // way to the wait) is given back to the I/O.
            while (
                !l.spans.empty() && l.spans.back().state == LaneState::Running && l.spans.back().end_ns > own->time) {
                if (l.spans.back().start_ns >= own->time)
                    l.spans.pop_back();
                else
                    l.spans.set_back_end(own->time);
            }
            l.wait->start_ns = l.spans.empty() ? std::min(own->time, t) : l.spans.back().end_ns;
            l.cursor = l.wait->start_ns;
        }
        break;
    }
    case EventKind::PageLockWoken:
        end_wait(
            { LaneState::PageWait, LaneState::InIo },
            [&]() -> std::optional<LaneSpan> {
                const ev::PageLockWoken woken { e };
                if (woken.slept_ns() == 0)
                    return std::nullopt;
                LaneSpan lost;
                lost.state = LaneState::PageWait;
                lost.start_ns = startFromDuration(woken.slept_ns());
                lost.file = woken.file();
                lost.page = woken.page();
                return lost;
            },
            [](const LaneSpan& w) { return w.state; });
        break;
    case EventKind::FaultBegin:
        advance(lane, t);
        if (l.fault) // its end was lost
            end_fault(lane, t, FaultKind::Minor, l.fault->start);
        l.fault = OpenFault { t, ev::FaultBegin { e }.file(), ev::FaultBegin { e }.page() };
        break;
    case EventKind::FaultEnd: {
        const ev::FaultEnd fault { e };
        const auto kind = static_cast<FaultKind>(fault.fault_kind());
        if (l.fault) {    // faults do not nest: an end ends the open one
            if (l.wait) { // a wait whose end was lost ends with the fault
                append(lane, piece(l, l.wait->state, l.wait->start_ns, t));
                l.wait.reset();
            }
            end_fault(lane, t, kind, l.fault->start);
            break;
        }
        // An uneventful fault: only its end was recorded, with its duration.
        if (l.wait)
            break; // cannot be: a CPU in a wait does not fault
        const std::uint64_t start = startFromDuration(fault.duration_ns());
        l.fault = OpenFault { start, fault.file(), fault.page() };
        end_fault(lane, t, kind, start);
        break;
    }
    case EventKind::IoSubmit:
        advance(lane, t);
        if (l.submitted.size() >= kMaxSubmittedPerLane)
            l.submitted.erase(l.submitted.begin());
        l.submitted.push_back(*request);
        break;
    case EventKind::IoComplete: {
        if (!request) {
            advance(lane, t); // submitted before the first record: its service time is unknown
            break;
        }
        const Submitted& r = *request;
        for (Lane& other : lanes_)
            std::erase_if(other.submitted,
                [&](const Submitted& x) { return x.id == r.id && x.file == r.file && x.first == r.first; });
        // One request at a time, first come first served: it was in service
        // from its submission or from the previous completion, whichever
        // was later (the time before that it queued).
        const std::uint64_t start = l.cursor ? std::max(l.cursor, r.time) : r.time;
        advance(lane, start);
        if (l.cursor == 0)
            l.cursor = start;
        LaneSpan s = piece(l, LaneState::InIo, l.cursor, t);
        s.file = r.file;
        s.page = r.first;
        s.pages = r.pages;
        s.request = r.id;
        s.fault_start_ns = r.time; // the submission, for the queueing time in a tooltip
        append(lane, s);
        break;
    }
    case EventKind::LockReleased: {
        // The CPU held the lock for hold_ns before this: it was running
        // then, however long nothing else was recorded.
        const std::uint64_t held = ev::LockReleased { e }.hold_ns();
        advance(lane, std::max(l.cursor, t - std::min(t, held)));
        advance(lane, t, true);
        break;
    }
    default:
        advance(lane, t);
        break;
    }
}

void SpanModel::evict()
{
    if (latest_ <= window_ns_)
        return;
    const std::uint64_t cutoff = latest_ - window_ns_;
    for (Lane& l : lanes_)
        while (!l.spans.empty() && l.spans.spans().front().end_ns < cutoff)
            l.spans.pop_front();
}

void SpanModel::lose_track() noexcept
{
    for (Lane& l : lanes_) {
        l.wait.reset();
        l.fault.reset();
        l.cursor = 0;
    }
}

std::optional<LaneSpan> SpanModel::open_span(unsigned lane, std::uint64_t until) const
{
    const Lane& l = lanes_[lane];
    if (!until)
        until = latest_;
    if (!l.wait || until < l.wait->start_ns)
        return std::nullopt;
    LaneSpan s = *l.wait;
    s.end_ns = until;
    if (s.state == LaneState::Spinning && until - s.start_ns >= kSpinLimitNs)
        s.state = LaneState::Blocked;
    return within_fault(l, s);
}

std::optional<LaneSpan> SpanModel::span_at(unsigned lane, std::uint64_t t) const
{
    if (lane >= lanes())
        return std::nullopt;
    if (auto s = lanes_[lane].spans.at(t))
        return s;
    if (auto open = open_span(lane); open && open->start_ns <= t && t <= open->end_ns)
        return open;
    return std::nullopt;
}

void SpanModel::columns(unsigned lane, double t0, double t1, std::vector<SpanColumn>& out) const
{
    if (lane >= lanes()) {
        std::fill(out.begin(), out.end(), SpanColumn {});
        return;
    }
    lanes_[lane].spans.columns(t0, t1, open_span(lane), out);
}

} // namespace pcl
