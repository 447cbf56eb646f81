// The CPUs timeline's geometry: areas, time <-> x, legend, runs, labels,
// ticks, markers, and what a span under the mouse was.
#include "views/timeline/timelinelayout.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>

namespace pcl::ui {

namespace {

QString faultName(FaultKind kind)
{
    switch (kind) {
    case FaultKind::Mapped:
        return QStringLiteral("fault (already mapped)");
    case FaultKind::Minor:
        return QStringLiteral("minor fault");
    case FaultKind::Major:
        return QStringLiteral("major fault");
    case FaultKind::WaitIo:
        return QStringLiteral("fault waiting on another CPU's read");
    case FaultKind::Anon:
        return QStringLiteral("anonymous fault");
    case FaultKind::NoMemory:
        return QStringLiteral("fault that found no memory");
    case FaultKind::OutOfRange:
        return QStringLiteral("fault beyond the end of the file");
    }
    return QStringLiteral("fault");
}

QString pageName(FileId file, std::uint64_t page)
{
    if (file == kAnonymousFile)
        return QStringLiteral("anonymous page %1").arg(page);
    return QStringLiteral("file %1 page %2").arg(file).arg(page);
}

struct LegendState {
    CpuState state;
    const char* label;
    const char* shortLabel;
};
constexpr std::array<LegendState, kCpuStateCount> kLegend { {
    { CpuState::Running, "running", "running" },
    { CpuState::Spinning, "spinning on a lock", "spinning" },
    { CpuState::Blocked, "blocked on a lock", "blocked" },
    { CpuState::PageWait, "waiting on a page under I/O", "page wait" },
    { CpuState::InIo, "in I/O", "in I/O" },
    { CpuState::Idle, "idle", "idle" },
} };

/// A tick label: @t (ns since the origin) in the unit of @range (the
/// largest time on the axis, so that neighbouring labels share a unit), with
/// as many decimals as @step needs.
QString tickLabel(double t, double step, double range)
{
    double unit = 1;
    const char* name = "ns";
    if (range >= 1e9) {
        unit = 1e9;
        name = "s";
    } else if (range >= 1e6) {
        unit = 1e6;
        name = "ms";
    } else if (range >= 1e3) {
        unit = 1e3;
        name = "µs";
    }
    const int decimals = std::clamp(int(std::ceil(-std::log10(step / unit) - 1e-9)), 0, 6);
    return QString::number(t / unit, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(name);
}

bool isWait(const TimelineSpan& s)
{
    return s.state == CpuState::Spinning || s.state == CpuState::Blocked;
}

} // namespace

TimelineLayout::TimelineLayout(
    const QFontMetrics& fm, QSize size, int laneCount, double startNs, double spanNs, int firstLane, int shownLanes)
    : fm_(fm)
    , laneCount_(laneCount)
    , start_(startNs)
    , span_(spanNs)
{
    const int lineH = fm.height();
    pad_ = std::max(4, lineH / 3);
    const int headerH = lineH + 2 * pad_ + 2;
    const int labelW
        = std::max(fm.horizontalAdvance(QStringLiteral("CPUs 88–95")), fm.horizontalAdvance(tr("disk"))) + 3 * pad_;
    const int axisH = lineH + pad_ + 6;
    header_ = QRect(0, 0, size.width(), headerH);
    firstShown_ = shownLanes > 0 ? std::clamp(firstLane, 0, std::max(0, laneCount - 1)) : 0;
    shown_ = shownLanes > 0 ? std::min(shownLanes, std::max(1, laneCount - firstShown_)) : std::max(1, laneCount);
    const int n = shown_;
    laneGap_ = std::max(2.0, lineH * 0.2);
    const double avail = size.height() - headerH - axisH - pad_;
    laneHeight_ = std::clamp((avail - laneGap_ * (n - 1)) / n, 4.0, lineH * 6.0);
    if (laneHeight_ * n + laneGap_ * (n - 1) > avail) {
        // Too many to fit apart (64 modelled CPUs): close together, a gap
        // between groups, at least a pixel and a half each.
        const int gaps = std::max(0, groups() - 1);
        laneGap_ = 0;
        groupGap_ = std::max(2.0, lineH * 0.25);
        laneHeight_ = std::max(1.5, (avail - groupGap_ * gaps) / n);
    }
    namesEach_ = laneHeight_ + laneGap_ >= lineH * 0.8;
    const double lastBottom = lane(firstShown_ + n - 1).bottom() - headerH;
    const int lanesH = int(std::ceil(lastBottom));
    labels_ = QRect(0, headerH, labelW, lanesH);
    lanes_ = QRect(labelW, headerH, std::max(1, size.width() - labelW - pad_ * 2), lanesH);
    axis_ = QRect(labelW, headerH + lanesH, lanes_.width(), axisH);
}

QRectF TimelineLayout::lane(int i) const
{
    const int row = i - firstShown_;
    if (row < 0 || row >= shown_)
        return {};
    const int group = i / kGroupLanes - firstShown_ / kGroupLanes;
    const double top = header_.bottom() + 1 + row * (laneHeight_ + laneGap_) + group * groupGap_;
    return QRectF(labels_.width(), top, lanes_.width(), laneHeight_);
}

QRectF TimelineLayout::groupNameRect(int g) const
{
    const int first = groupFirstLane(g);
    const int last = std::min(first + kGroupLanes, firstShown_ + shown_) - 1;
    const QRectF top = lane(std::max(first, firstShown_));
    const QRectF bottom = lane(last);
    return QRectF(0, top.top(), labels_.width() - pad_, bottom.bottom() - top.top());
}

int TimelineLayout::groupAt(const QPoint& pos) const
{
    if (pos.x() >= lanes_.left())
        return -1;
    for (int g = 0; g < groups(); ++g)
        if (groupNameRect(g).contains(QPointF(pos)))
            return g;
    return -1;
}

QRectF TimelineLayout::laneOutline(int i) const
{
    const QRectF r = lane(i);
    const double out = laneGap_ / 2;
    return QRectF(pad_ / 2.0, r.top() - out, r.right() + out - pad_ / 2.0, r.height() + 2 * out);
}

double TimelineLayout::timeAt(double x) const
{
    return start_ + (x - lanes_.left()) / double(lanes_.width()) * span_;
}

double TimelineLayout::xAt(double t) const
{
    return lanes_.left() + (t - start_) / span_ * double(lanes_.width());
}

int TimelineLayout::laneAt(const QPoint& pos) const
{
    if (pos.x() < lanes_.left() || pos.x() > lanes_.right())
        return -1;
    for (int i = 0; i < laneCount_; ++i)
        if (lane(i).contains(QPointF(pos)))
            return i;
    return -1;
}

// ---- header ----------------------------------------------------------------

TimelineLayout::Header TimelineLayout::layoutHeader(const QString& markerText, int right) const
{
    const int pad = pad_;
    const int chip = fm_.ascent();

    // The marker line sits at the right, the legend takes the rest; the
    // legend shortens its labels before it would run into the markers.
    const int markersW = fm_.horizontalAdvance(markerText);
    auto legendWidth = [&](bool shortLabels) {
        int w = 0;
        for (const LegendState& e : kLegend)
            w += chip + pad + fm_.horizontalAdvance(tr(shortLabels ? e.shortLabel : e.label)) + 2 * pad;
        w += chip + pad + fm_.horizontalAdvance(tr(shortLabels ? "fault" : "in a page fault"));
        return w;
    };
    const bool shortLabels = pad + legendWidth(false) + 3 * pad + markersW > right;

    Header h;
    int x = pad;
    const int cy = header_.center().y();
    // Beside a lesson the view can be narrower than even the short labels:
    // the entries that would run under the buttons are left out (the
    // legend's tooltip lists them all).
    const auto fits = [&](const char* text) { return x + chip + pad + fm_.horizontalAdvance(tr(text)) <= right; };
    for (const LegendState& e : kLegend) {
        if (!fits(shortLabels ? e.shortLabel : e.label))
            break;
        LegendEntry entry;
        entry.chip = QRectF(x, cy - chip / 2.0, chip, chip);
        entry.state = e.state;
        x += chip + pad;
        entry.text = tr(shortLabels ? e.shortLabel : e.label);
        entry.label = QRect(x, header_.top(), fm_.horizontalAdvance(entry.text) + 1, header_.height());
        x += fm_.horizontalAdvance(entry.text) + 2 * pad;
        h.legend.push_back(entry);
    }
    if (h.legend.size() == kLegend.size() && fits(shortLabels ? "fault" : "in a page fault")) {
        // The fault band: a running chip with the band drawn under it.
        LegendEntry entry;
        entry.chip = QRectF(x, cy - chip / 2.0, chip, chip);
        entry.state = CpuState::Running;
        entry.faultBand = true;
        x += chip + pad;
        entry.text = tr(shortLabels ? "fault" : "in a page fault");
        entry.label = QRect(x, header_.top(), fm_.horizontalAdvance(entry.text) + 1, header_.height());
        x += fm_.horizontalAdvance(entry.text);
        h.legend.push_back(entry);
    }
    h.legendRect = QRect(0, header_.top(), x + pad, header_.height());
    h.markers = QRect(std::max(x + 2 * pad, right - markersW), header_.top(), markersW + 1, header_.height());
    return h;
}

QRectF TimelineLayout::chipBand(const QRectF& box)
{
    const double chip = box.height();
    return QRectF(box.left() + 1, box.bottom() - chip * 0.3, box.width() - 2, chip * 0.3 - 1);
}

// ---- lanes -----------------------------------------------------------------

QString TimelineLayout::laneName(const TimelineModel& model, int lane)
{
    if (model.isDiskLane(lane))
        return model.disks() > 1 ? tr("disk %1").arg(model.diskOf(lane)) : tr("disk");
    return tr("CPU %1").arg(lane);
}

QRectF TimelineLayout::laneNameRect(int i) const
{
    const QRectF r = lane(i);
    return QRectF(0, r.top(), labels_.width() - pad_, r.height());
}

double TimelineLayout::faultBandHeight(int i) const
{
    return std::max(3.0, lane(i).height() * 0.14);
}

QRectF TimelineLayout::faultBand(const Run& run, int i) const
{
    const double bandH = faultBandHeight(i);
    return QRectF(run.rect.left(), lane(i).bottom() - bandH, run.rect.width(), bandH);
}

void TimelineLayout::runs(
    const TimelineModel& model, int i, std::vector<TimelineModel::Column>& columns, std::vector<Run>& out) const
{
    out.clear();
    const int cols = std::max(1, lanes_.width());
    columns.resize(std::size_t(cols));
    const QRectF r = lane(i);
    model.columns(i, start_, start_ + span_, columns);
    // Each column is a stack of its states, each as tall as its part of the
    // column's time, in the legend's order from the top: zoomed out, a
    // lane that waited 62 % of the time is 62 % wait colour in every
    // column, where the state that covered the most of each column would
    // show running everywhere as soon as the wait is split between
    // spinning and sleeping, or between columns. Zoomed in, a column lies
    // inside one span and is that span's colour. Heights are whole pixels,
    // so that columns of equal shares are equal and merge into one
    // rectangle per state.
    struct Open {
        int from = -1; ///< first column of the run, -1: none open
        int y0 = 0;
        int y1 = 0;
        bool inFault = false;
    };
    std::array<Open, kCpuStateCount> open {};
    const double height = r.height();
    auto flush = [&](int st, int to) {
        Open& o = open[std::size_t(st)];
        if (o.from >= 0)
            out.push_back(
                { QRectF(r.left() + o.from, r.top() + o.y0, to - o.from, o.y1 - o.y0), CpuState(st), o.inFault });
        o.from = -1;
    };
    for (int c = 0; c < cols; ++c) {
        const TimelineModel::Column& col = columns[std::size_t(c)];
        float total = 0;
        for (float share : col.shares)
            total += share;
        double cumulative = 0;
        int y = 0;
        for (int st = 0; st < kCpuStateCount; ++st) {
            const float share = total > 0 && col.state >= 0 ? col.shares[std::size_t(st)] : 0.0f;
            cumulative += share;
            const int y1 = share > 0 ? int(std::lround(cumulative / total * height)) : y;
            // The last state of the stack carries the fault band along the lane's bottom.
            const bool bottom = y1 >= int(std::lround(height)) && y1 > y;
            const bool inFault = col.in_fault && bottom;
            Open& o = open[std::size_t(st)];
            if (o.from >= 0 && (o.y0 != y || o.y1 != y1 || o.inFault != inFault))
                flush(st, c);
            if (y1 > y && o.from < 0)
                o = { c, y, y1, inFault };
            y = y1;
        }
    }
    for (int st = 0; st < kCpuStateCount; ++st)
        flush(st, cols);
}

std::vector<TimelineLayout::LockLabel> TimelineLayout::lockLabels(const TimelineModel& model, int i) const
{
    // Zoomed in far enough, a wait is wide enough to carry its lock's name.
    std::vector<LockLabel> labels;
    const QRectF r = lane(i);
    const double t1 = start_ + span_;
    const auto [first, last] = model.spansIn(i, std::uint64_t(std::max(start_, 0.0)), std::uint64_t(std::max(t1, 0.0)));
    if (last - first > kMaxNamedSpans || r.height() < fm_.height())
        return labels;
    const double bandH = faultBandHeight(i);
    const auto& spans = model.spans(i);
    for (std::size_t k = first; k < last; ++k) {
        const TimelineSpan& s = spans[k];
        if (!isWait(s))
            continue;
        const double x0 = std::max(xAt(double(s.start_ns)), r.left());
        const double x1 = std::min(xAt(double(s.end_ns)), r.right());
        const QString name = model.lockName(s.lock);
        if (x1 - x0 < fm_.horizontalAdvance(name) + 2 * pad_)
            continue;
        const double textH = r.height() - (s.in_fault ? bandH : 0);
        labels.push_back({ QRectF(x0 + pad_, r.top(), x1 - x0 - 2 * pad_, textH), name, s.state });
    }
    return labels;
}

std::vector<QRectF> TimelineLayout::highlights(const TimelineModel& model, const QString& name) const
{
    std::vector<QRectF> outlines;
    const double t1 = start_ + span_;
    for (int i = 0; i < model.laneCount(); ++i) {
        const QRectF r = lane(i);
        const auto [first, last]
            = model.spansIn(i, std::uint64_t(std::max(start_, 0.0)), std::uint64_t(std::max(t1, 0.0)));
        if (last - first > kMaxOutlinedSpans)
            continue;
        const auto& spans = model.spans(i);
        for (std::size_t k = first; k < last; ++k) {
            const TimelineSpan& s = spans[k];
            if (!isWait(s) || model.lockName(s.lock) != name)
                continue;
            const double x0 = std::max(xAt(double(s.start_ns)), r.left());
            const double x1 = std::min(xAt(double(s.end_ns)), r.right());
            outlines.push_back(QRectF(x0, r.top() + 1, std::max(1.0, x1 - x0), r.height() - 2));
        }
    }
    return outlines;
}

// ---- axis and markers --------------------------------------------------------

std::vector<TimelineLayout::Tick> TimelineLayout::ticks(double origin) const
{
    // A step of 1, 2 or 5 times a power of ten, about kTickSpacing pixels apart.
    const double raw = span_ * kTickSpacing / double(std::max(1, lanes_.width()));
    const double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double step = mag;
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (mag * m >= raw) {
            step = mag * m;
            break;
        }
    std::vector<Tick> ticks;
    const double t0 = start_;
    const double first = std::ceil((t0 - origin) / step) * step;
    for (double rel = first; rel <= t0 - origin + span_; rel += step) {
        const double x = xAt(origin + rel);
        if (x < lanes_.left() || x > lanes_.right())
            continue;
        Tick tick;
        tick.x = x;
        tick.label = tickLabel(rel, step, std::max(std::abs(t0 - origin), std::abs(t0 - origin + span_)));
        const double w = fm_.horizontalAdvance(tick.label);
        const double lx = std::clamp(x - w / 2, double(axis_.left()), double(axis_.right()) - w);
        tick.labelRect = QRectF(lx, axis_.top() + 5, w + 1, fm_.height());
        ticks.push_back(tick);
    }
    return ticks;
}

QRectF TimelineLayout::markerShade(double a, double b) const
{
    const double xa = xAt(a);
    const double xb = xAt(b);
    return QRectF(std::min(xa, xb), lanes_.top(), std::abs(xb - xa), lanes_.height());
}

std::optional<QRectF> TimelineLayout::markerFlag(double t, const QString& name) const
{
    const double x = xAt(t);
    if (x < lanes_.left() - 1 || x > lanes_.right() + 1)
        return std::nullopt;
    return QRectF(x, lanes_.top(), fm_.horizontalAdvance(name) + 8, fm_.height());
}

// ---- what is under the mouse -----------------------------------------------

std::optional<TimelineSpan> TimelineLayout::spanAt(const TimelineModel& model, int lane, double x) const
{
    // A pixel may cover many spans: show the longest wait under it, the
    // thing the colour is most likely about, else whatever is at the cursor.
    const double t = timeAt(x);
    const double halfPx = span_ / double(std::max(1, lanes_.width())) / 2;
    const auto lo = std::uint64_t(std::max(0.0, t - halfPx));
    const auto hi = std::uint64_t(std::max(0.0, t + halfPx));
    const auto [first, last] = model.spansIn(lane, lo, hi);
    std::optional<TimelineSpan> best;
    const auto& spans = model.spans(lane);
    auto consider = [&](const TimelineSpan& s) {
        const bool wait = s.state != CpuState::Running && s.state != CpuState::Idle;
        const bool bestWait = best && best->state != CpuState::Running && best->state != CpuState::Idle;
        if (!best || (wait && !bestWait) || (wait == bestWait && s.end_ns - s.start_ns > best->end_ns - best->start_ns))
            best = s;
    };
    for (std::size_t i = first; i < last && i < first + 4096; ++i)
        consider(spans[i]);
    if (auto open = model.openSpan(lane); open && double(open->start_ns) <= t + halfPx)
        consider(*open);
    return best;
}

QString TimelineLayout::describe(const TimelineModel& model, int lane, const TimelineSpan& s)
{
    const QString who = laneName(model, lane);
    const QString dur = formatDuration(double(s.end_ns - s.start_ns));
    const QString sep = QStringLiteral(" · ");
    QString text;
    switch (s.state) {
    case CpuState::Spinning:
    case CpuState::Blocked: {
        text = who + sep
            + (s.state == CpuState::Spinning ? tr("spinning %1 for %2") : tr("waiting %1 for %2"))
                  .arg(dur, model.lockName(s.lock));
        if (s.holder >= 0)
            text += tr(" (held by CPU %1)").arg(s.holder);
        break;
    }
    case CpuState::PageWait:
        text = who + sep + tr("waiting %1 for %2, under another CPU's read").arg(dur, pageName(s.file, s.page));
        break;
    case CpuState::InIo:
        if (model.isDiskLane(lane)) {
            const QString what = s.pages == 1 ? pageName(s.file, s.page)
                                              : tr("%1 (%2 pages)").arg(pageName(s.file, s.page)).arg(s.pages);
            text = who + sep
                + tr("reading %1 for %2, %3 after it was submitted")
                      .arg(what, dur, formatDuration(double(s.end_ns - s.fault_start_ns)));
        } else {
            text = who + sep + tr("in I/O %1: its own read of %2").arg(dur, pageName(s.file, s.page));
            if (s.pages > 1)
                text += tr(" (a request of %1 pages)").arg(s.pages);
        }
        break;
    case CpuState::Running:
        if (s.in_fault) {
            const QString kind = s.fault_kind_known ? faultName(s.fault_kind) : tr("fault in progress");
            const QString took = s.fault_end_ns
                ? formatDuration(double(s.fault_end_ns - s.fault_start_ns))
                : tr("%1 so far").arg(formatDuration(double(model.latestNs() - s.fault_start_ns)));
            return who + sep + tr("%1, %2, %3").arg(kind, pageName(s.file, s.page), took);
        }
        text = who + sep + tr("running %1 (time not accounted to a wait)").arg(dur);
        break;
    case CpuState::Idle:
        text = who + sep
            + (model.isDiskLane(lane) ? tr("idle %1 (no request in service)").arg(dur)
                                      : tr("idle %1 (nothing recorded)").arg(dur));
        break;
    }
    if (s.in_fault && s.state != CpuState::Running) {
        if (s.fault_kind_known)
            text += tr("\nduring a %1 of %2")
                        .arg(faultName(s.fault_kind), formatDuration(double(s.fault_end_ns - s.fault_start_ns)));
        else
            text += tr("\nduring a fault in progress");
    }
    return text;
}

} // namespace pcl::ui
