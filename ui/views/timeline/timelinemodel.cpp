// Spans from the event stream. Each lane keeps a cursor: everything before it
// is already in spans, and the next event decides what the time between the
// cursor and itself was (a wait that ends, a fault piece, running or idle).
#include "views/timeline/timelinemodel.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace pcl::ui {

namespace {

/// Reads a CPU has in flight at once are few (one fault, one readahead
/// window); more means completions were lost, and the oldest go.
constexpr std::size_t kMaxSubmittedPerLane = 16;
/// Requests whose completion was never seen are forgotten past this many.
constexpr std::size_t kMaxInFlight = 65536;

bool mergeable(const TimelineSpan& a, const TimelineSpan& b)
{
    // Running and idle stretches carry no detail but their fault: adjacent
    // ones are one span, which keeps a lane's span count near the number of
    // waits whatever the event rate.
    return a.state == b.state && (a.state == CpuState::Running || a.state == CpuState::Idle) && a.end_ns == b.start_ns
        && a.in_fault == b.in_fault && (!a.in_fault || a.fault_start_ns == b.fault_start_ns);
}

} // namespace

TimelineModel::TimelineModel()
{
    reset(0);
}

void TimelineModel::reset(unsigned cpus, unsigned disks)
{
    layout_ = LaneLayout(cpus, std::max(disks, 1u));
    // The CPUs' lanes and the disks': kswapd's (after them) is not drawn.
    lanes_.assign(layout_.kswapd_lane(), Lane {});
    inFlight_.clear();
    lockIds_.clear();
    lockNames_.clear();
    origin_ = 0;
    latest_ = 0;
}

std::uint64_t TimelineModel::earliestNs() const
{
    std::uint64_t t = 0;
    for (const Lane& l : lanes_)
        if (!l.spans.empty() && (t == 0 || l.spans.front().start_ns < t))
            t = l.spans.front().start_ns;
    return t;
}

void TimelineModel::addEvents(const std::vector<Event>& events)
{
    for (const Event& e : events)
        addEvent(e);
    evict();
}

TimelineSpan TimelineModel::piece(const Lane& l, CpuState state, std::uint64_t start, std::uint64_t end) const
{
    TimelineSpan s;
    s.start_ns = start;
    s.end_ns = end;
    s.state = state;
    if (l.fault) {
        s.in_fault = true;
        s.fault_start_ns = l.fault->start;
        if (state == CpuState::Running) {
            s.file = l.fault->file;
            s.page = l.fault->page;
        }
    }
    return s;
}

void TimelineModel::append(int lane, TimelineSpan span)
{
    Lane& l = lanes_[lane];
    if (span.end_ns < span.start_ns)
        span.end_ns = span.start_ns;
    if (!l.spans.empty() && mergeable(l.spans.back(), span)) {
        l.setBackEnd(span.end_ns);
    } else {
        l.pushBack(span);
        if (l.spans.size() > maxSpans_)
            l.popFront();
    }
    l.cursor = span.end_ns;
}

void TimelineModel::Lane::account(std::uint64_t seq, const TimelineSpan& s, double sign)
{
    Sums& b = blocks[std::size_t(seq / kBlock - firstSeq / kBlock)];
    const double d = sign * double(s.end_ns - s.start_ns);
    b[std::size_t(s.state)] += d;
    if (s.in_fault)
        b[kCpuStateCount] += d;
}

void TimelineModel::Lane::pushBack(const TimelineSpan& s)
{
    const std::uint64_t seq = firstSeq + spans.size();
    if (seq % kBlock == 0 || blocks.empty())
        blocks.push_back(Sums {});
    spans.push_back(s);
    account(seq, s, 1);
}

void TimelineModel::Lane::setBackEnd(std::uint64_t end)
{
    const std::uint64_t seq = firstSeq + spans.size() - 1;
    account(seq, spans.back(), -1);
    spans.back().end_ns = end;
    account(seq, spans.back(), 1);
}

void TimelineModel::Lane::popBack()
{
    const std::uint64_t seq = firstSeq + spans.size() - 1;
    account(seq, spans.back(), -1);
    spans.pop_back();
    if (seq % kBlock == 0 || spans.empty())
        blocks.pop_back();
}

void TimelineModel::Lane::popFront()
{
    spans.pop_front();
    ++firstSeq;
    // The front block keeps the sums of spans already gone until it is
    // gone itself; columns() never uses a block that is not whole.
    if (firstSeq % kBlock == 0 || spans.empty())
        blocks.pop_front();
    if (spans.empty())
        blocks.clear();
}

void TimelineModel::advance(int lane, std::uint64_t t, bool busy)
{
    Lane& l = lanes_[lane];
    if (l.cursor == 0) {
        l.cursor = t; // nothing is known of the time before a lane's first event
        return;
    }
    // Time under a wait belongs to the wait, which becomes a span when it ends.
    if (t <= l.cursor || l.wait)
        return;
    CpuState state = CpuState::Running;
    if (isDiskLane(lane))
        state = CpuState::Idle; // the disk records only completions: between requests it is idle
    else if (!l.fault && !busy && t - l.cursor > idleGapNs_)
        state = CpuState::Idle;
    append(lane, piece(l, state, l.cursor, t));
}

std::uint32_t TimelineModel::internLock(const Event& e)
{
    // Every lock record (wait, acquire, release) names its lock the same way.
    const ev::LockAcquired lock { e };
    const std::uint64_t key = (std::uint64_t(lock.lock_id()) << 32) | lock.class_id();
    if (auto it = lockIds_.find(key); it != lockIds_.end())
        return it->second;
    QString name = namer_ ? namer_(e) : QString();
    if (name.isEmpty())
        name = lock.lock_id() ? QStringLiteral("lock #%1").arg(lock.lock_id())
                              : QStringLiteral("lock of class #%1").arg(lock.class_id());
    const auto id = static_cast<std::uint32_t>(lockNames_.size());
    lockNames_.push_back(name);
    lockIds_.emplace(key, id);
    return id;
}

QString TimelineModel::lockName(std::uint32_t id) const
{
    return id < lockNames_.size() ? lockNames_[id] : QString();
}

void TimelineModel::endFault(int lane, std::uint64_t t, FaultKind kind, std::uint64_t start)
{
    Lane& l = lanes_[lane];
    advance(lane, t);
    // Every piece of this fault (split around its waits) learns how it ended.
    for (auto it = l.spans.rbegin(); it != l.spans.rend(); ++it) {
        if (!it->in_fault || it->fault_start_ns != start || it->fault_kind_known)
            break;
        it->fault_end_ns = t;
        it->fault_kind = kind;
        it->fault_kind_known = true;
    }
    l.fault.reset();
}

void TimelineModel::addEvent(const Event& e)
{
    if (e.cpu >= lanes_.size())
        return;
    const int lane = e.cpu;
    Lane& l = lanes_[lane];
    const std::uint64_t t = e.time_ns;
    if (origin_ == 0)
        origin_ = t;
    latest_ = std::max(latest_, t);

    // A wait that ends with no begin on record (lost to a full ring, or
    // before the window): its duration is in arg0.
    auto startFromDuration = [&](std::uint64_t took) {
        const std::uint64_t start = std::max(l.cursor, t - std::min(t, took));
        advance(lane, start);
        return start;
    };

    switch (e.kind) {
    case EventKind::LockWaitBegin: {
        advance(lane, t);
        if (l.wait) // its end was lost: it ends here
            append(lane, piece(l, l.wait->state, l.wait->start, t));
        OpenWait w;
        w.state = CpuState::Spinning;
        w.start = t;
        w.lock = internLock(e);
        const int holder = ev::LockWaitBegin { e }.holder_cpu();
        w.holder = static_cast<std::int16_t>(holder >= 0 && holder < 32768 ? holder : -1);
        l.wait = w;
        break;
    }
    case EventKind::LockAcquired: {
        std::optional<OpenWait> w;
        if (l.wait && (l.wait->state == CpuState::Spinning || l.wait->state == CpuState::Blocked)) {
            w = l.wait;
            l.wait.reset();
        } else if (const std::uint64_t wait = ev::LockAcquired { e }.wait_ns(); wait > 0 && !l.wait) {
            OpenWait lost;
            lost.start = startFromDuration(wait);
            lost.lock = internLock(e);
            w = lost;
        }
        if (!w) {
            advance(lane, t);
            break;
        }
        TimelineSpan s = piece(l, t - w->start < kSpinLimitNs ? CpuState::Spinning : CpuState::Blocked, w->start, t);
        s.lock = w->lock;
        s.holder = w->holder;
        append(lane, s);
        break;
    }
    case EventKind::PageLockWait: {
        advance(lane, t);
        if (l.wait)
            append(lane, piece(l, l.wait->state, l.wait->start, t));
        OpenWait w;
        w.state = CpuState::PageWait;
        w.start = t;
        w.file = e.file;
        w.page = e.index;
        // Asleep on a page of its own read: the CPU is in I/O from the
        // submit on (a major fault), not waiting on someone else's read.
        auto own = std::find_if(l.submitted.begin(), l.submitted.end(),
            [&](const Submitted& r) { return r.file == e.file && e.index >= r.first && e.index < r.first + r.pages; });
        if (own != l.submitted.end()) {
            w.state = CpuState::InIo;
            w.request = own->id;
            w.pages = own->pages;
            // What ran after the submit (the page-cache locks taken on the
            // way to the wait) is given back to the I/O.
            while (!l.spans.empty() && l.spans.back().state == CpuState::Running && l.spans.back().end_ns > own->time) {
                if (l.spans.back().start_ns >= own->time)
                    l.popBack();
                else
                    l.setBackEnd(own->time);
            }
            w.start = l.spans.empty() ? std::min(own->time, t) : l.spans.back().end_ns;
            l.cursor = w.start;
        }
        l.wait = w;
        break;
    }
    case EventKind::PageLockWoken: {
        std::optional<OpenWait> w;
        if (l.wait && (l.wait->state == CpuState::PageWait || l.wait->state == CpuState::InIo)) {
            w = l.wait;
            l.wait.reset();
        } else if (const ev::PageLockWoken woken { e }; woken.slept_ns() > 0 && !l.wait) {
            OpenWait lost;
            lost.state = CpuState::PageWait;
            lost.start = startFromDuration(woken.slept_ns());
            lost.file = woken.file();
            lost.page = woken.page();
            w = lost;
        }
        if (!w) {
            advance(lane, t);
            break;
        }
        TimelineSpan s = piece(l, w->state, w->start, t);
        s.file = w->file;
        s.page = w->page;
        s.request = w->request;
        s.pages = w->pages;
        append(lane, s);
        break;
    }
    case EventKind::FaultBegin:
        advance(lane, t);
        if (l.fault) // its end was lost
            endFault(lane, t, FaultKind::Minor, l.fault->start);
        l.fault = OpenFault { t, ev::FaultBegin { e }.file(), ev::FaultBegin { e }.page() };
        break;
    case EventKind::FaultEnd: {
        const ev::FaultEnd fault { e };
        const auto kind = static_cast<FaultKind>(fault.fault_kind());
        if (l.fault) {    // faults do not nest: an end ends the open one
            if (l.wait) { // a wait whose end was lost ends with the fault
                append(lane, piece(l, l.wait->state, l.wait->start, t));
                l.wait.reset();
            }
            endFault(lane, t, kind, l.fault->start);
            break;
        }
        // An uneventful fault: only its end was recorded, with its duration.
        if (l.wait)
            break; // cannot be: a CPU in a wait does not fault
        l.fault.reset();
        const std::uint64_t start = startFromDuration(fault.duration_ns());
        l.fault = OpenFault { start, fault.file(), fault.page() };
        endFault(lane, t, kind, start);
        break;
    }
    case EventKind::IoSubmit: {
        advance(lane, t);
        const ev::IoSubmit io { e };
        const Submitted r { io.request(), t, io.file(), io.first_page(),
            static_cast<std::uint32_t>(std::max<std::uint64_t>(io.pages(), 1)) };
        if (inFlight_.size() >= kMaxInFlight)
            inFlight_.clear();
        inFlight_[r.id] = r;
        if (l.submitted.size() >= kMaxSubmittedPerLane)
            l.submitted.erase(l.submitted.begin());
        l.submitted.push_back(r);
        break;
    }
    case EventKind::IoComplete: {
        auto it = inFlight_.find(ev::IoComplete { e }.request());
        if (it == inFlight_.end()) {
            advance(lane, t); // submitted before the window: its service time is unknown
            break;
        }
        const Submitted r = it->second;
        inFlight_.erase(it);
        for (Lane& other : lanes_)
            std::erase_if(other.submitted, [&](const Submitted& s) { return s.id == r.id; });
        // One request at a time, first come first served: it was in service
        // from its submission or from the previous completion, whichever
        // was later (the time before that it queued).
        const std::uint64_t start = l.cursor ? std::max(l.cursor, r.time) : r.time;
        advance(lane, start);
        if (l.cursor == 0)
            l.cursor = start;
        TimelineSpan s = piece(l, CpuState::InIo, l.cursor, t);
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

void TimelineModel::evict()
{
    if (latest_ <= windowNs_)
        return;
    const std::uint64_t cutoff = latest_ - windowNs_;
    for (Lane& l : lanes_)
        while (!l.spans.empty() && l.spans.front().end_ns < cutoff)
            l.popFront();
}

std::pair<std::size_t, std::size_t> TimelineModel::spansIn(int lane, std::uint64_t t0, std::uint64_t t1) const
{
    const auto& s = lanes_[lane].spans;
    // Spans partition the lane: both their starts and their ends are sorted.
    const auto first = std::partition_point(s.begin(), s.end(), [&](const TimelineSpan& x) { return x.end_ns < t0; });
    const auto last = std::partition_point(first, s.end(), [&](const TimelineSpan& x) { return x.start_ns <= t1; });
    return { std::size_t(first - s.begin()), std::size_t(last - s.begin()) };
}

std::optional<TimelineSpan> TimelineModel::openSpan(int lane) const
{
    const Lane& l = lanes_[lane];
    if (!l.wait || latest_ < l.wait->start)
        return std::nullopt;
    const OpenWait& w = *l.wait;
    CpuState state = w.state;
    if (state == CpuState::Spinning && latest_ - w.start >= kSpinLimitNs)
        state = CpuState::Blocked;
    TimelineSpan s = piece(l, state, w.start, latest_);
    s.lock = w.lock;
    s.holder = w.holder;
    s.file = w.file;
    s.page = w.page;
    s.request = w.request;
    s.pages = w.pages;
    return s;
}

std::optional<TimelineSpan> TimelineModel::spanAt(int lane, std::uint64_t t) const
{
    if (lane < 0 || lane >= laneCount())
        return std::nullopt;
    const auto& s = lanes_[lane].spans;
    const auto it = std::partition_point(s.begin(), s.end(), [&](const TimelineSpan& x) { return x.end_ns <= t; });
    if (it != s.end() && it->start_ns <= t)
        return *it;
    if (auto open = openSpan(lane); open && open->start_ns <= t && t <= open->end_ns)
        return open;
    return std::nullopt;
}

void TimelineModel::columns(int lane, double t0, double t1, std::vector<Column>& out) const
{
    const std::size_t n = out.size();
    std::fill(out.begin(), out.end(), Column {});
    if (n == 0 || t1 <= t0 || lane < 0 || lane >= laneCount())
        return;
    const double w = (t1 - t0) / double(n);
    std::vector<std::array<float, kCpuStateCount + 1>> acc(n, std::array<float, kCpuStateCount + 1> {});
    const double invW = 1.0 / w;
    auto add = [&](const TimelineSpan& s) {
        const double a = std::max(double(s.start_ns), t0);
        const double b = std::min(double(s.end_ns), t1);
        if (b < a)
            return;
        const auto c0 = std::min(n - 1, std::size_t((a - t0) * invW));
        const auto c1 = std::min(n - 1, std::size_t((b - t0) * invW));
        const int st = int(s.state);
        const int fault = s.in_fault ? kCpuStateCount : -1;
        // A span too short to measure still counts a little, so a column of
        // nothing but instants is not empty.
        auto put = [&](std::size_t c, double d) {
            const auto f = float(std::max(d, 1e-3));
            acc[c][st] += f;
            if (fault >= 0)
                acc[c][fault] += f;
        };
        if (c0 == c1) { // zoomed out, most spans fall in one column
            put(c0, b - a);
            return;
        }
        put(c0, t0 + double(c0 + 1) * w - a);
        for (std::size_t c = c0 + 1; c < c1; ++c)
            put(c, w);
        put(c1, b - (t0 + double(c1) * w));
    };
    const auto [first, last] = spansIn(lane, std::uint64_t(std::max(t0, 0.0)), std::uint64_t(std::max(t1, 0.0)));
    const Lane& l = lanes_[lane];
    const auto& spans = l.spans;
    // Zoomed out, a whole block of spans often falls into one column: its
    // sums stand for its spans, and the spans themselves are not read.
    auto columnOf = [&](double t) { return std::size_t((t - t0) * invW); };
    std::size_t i = first;
    while (i < last) {
        const std::uint64_t seq = l.firstSeq + i;
        if (seq % kBlock == 0 && i + kBlock <= last) { // a whole block: its first span is still kept
            const TimelineSpan& a = spans[i];
            const TimelineSpan& z = spans[i + kBlock - 1];
            if (double(a.start_ns) >= t0 && double(z.end_ns) <= t1
                && columnOf(double(a.start_ns)) == columnOf(double(z.end_ns)) && columnOf(double(z.end_ns)) < n) {
                const Sums& b = l.blocks[std::size_t(seq / kBlock - l.firstSeq / kBlock)];
                auto& c = acc[columnOf(double(a.start_ns))];
                for (int st = 0; st <= kCpuStateCount; ++st)
                    c[st] += float(b[std::size_t(st)]);
                i += kBlock;
                continue;
            }
        }
        add(spans[i]);
        ++i;
    }
    if (auto open = openSpan(lane))
        add(*open);
    for (std::size_t c = 0; c < n; ++c) {
        float total = 0;
        int best = -1;
        for (int st = 0; st < kCpuStateCount; ++st) {
            total += acc[c][st];
            out[c].shares[std::size_t(st)] = std::min(1.0f, acc[c][st] / float(w));
            if (acc[c][st] > 0 && (best < 0 || acc[c][st] > acc[c][best]))
                best = st;
        }
        out[c].state = static_cast<std::int8_t>(best);
        out[c].share = best >= 0 ? std::min(1.0f, acc[c][best] / float(w)) : 0.0f;
        out[c].in_fault = total > 0 && acc[c][kCpuStateCount] * 2 >= total;
    }
}

QString formatDuration(double ns)
{
    const double a = std::abs(ns);
    auto fmt = [](double v, const char* unit) {
        const double av = std::abs(v);
        const int decimals = av >= 100 ? 0 : av >= 10 ? 1 : 2;
        return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
    };
    if (a < 1e3)
        return QString::number(std::llround(ns)) + QStringLiteral(" ns");
    if (a < 1e6)
        return fmt(ns / 1e3, "µs");
    if (a < 1e9)
        return fmt(ns / 1e6, "ms");
    return fmt(ns / 1e9, "s");
}

} // namespace pcl::ui
