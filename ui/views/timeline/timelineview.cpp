// The CPUs timeline: layout, level-of-detail drawing, zoom, pan, markers
// and tooltips. All state it shows comes from TimelineModel.
#include "timelineview.h"

#include "base/clock.h"
#include "colors.h"
#include "simulation.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace pcl::ui {

namespace {

/// Zoom limits: a few hundred nanoseconds (one lock wait fills the view)
/// up to a bit more than the model's window.
constexpr double kMinSpanNs = 200;
/// Pixels between time ticks, roughly.
constexpr double kTickSpacing = 110;

QColor stateColor(CpuState s, const QPalette& pal)
{
    switch (s) {
    case CpuState::Running:
        return colors::cpuRunning();
    case CpuState::Spinning:
        return colors::cpuSpinning();
    case CpuState::Blocked:
        return colors::cpuBlocked();
    case CpuState::PageWait:
        return colors::cpuPageWait();
    case CpuState::InIo:
        return colors::cpuInIo();
    case CpuState::Idle:
        return colors::cpuIdle(pal);
    }
    return colors::cpuIdle(pal);
}

/// The band under every piece of a page fault: neutral, so it reads as
/// "inside something" under any state's colour, in either theme.
QColor faultColor(const QPalette& pal)
{
    QColor c = pal.color(QPalette::WindowText);
    c.setAlphaF(colors::isDark(pal) ? 0.45 : 0.6);
    return c;
}

/// Black or white, whichever reads on @fill.
QColor textOn(const QColor& fill)
{
    return fill.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
}

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

struct LegendEntry {
    CpuState state;
    const char* label;
    const char* shortLabel;
};
constexpr std::array<LegendEntry, kCpuStateCount> kLegend { {
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

} // namespace

QRectF TimelineView::Layout::lane(int i) const
{
    return QRectF(lanes.left(), lanes.top() + i * (laneHeight + laneGap), lanes.width(), laneHeight);
}

TimelineView::TimelineView(Simulation& sim, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    followButton_ = new QToolButton(this);
    followButton_->setText(tr("Follow"));
    followButton_->setCheckable(true);
    followButton_->setChecked(true);
    followButton_->setToolTip(tr("Follow the newest events (zooming or dragging stops following)"));
    connect(followButton_, &QToolButton::toggled, this, &TimelineView::setFollowing);

    model_.setLockNamer([this](const Event& e) { return sim_.lockName(e); });
    connect(&sim_, &Simulation::runReset, this, &TimelineView::onRunReset);
    connect(&sim_, &Simulation::eventsArrived, this, &TimelineView::onEvents);
    connect(&sim_, &Simulation::ticked, this, &TimelineView::onTicked);
    onRunReset();
}

QSize TimelineView::sizeHint() const
{
    return QSize(960, 360);
}

QSize TimelineView::minimumSizeHint() const
{
    return QSize(320, fontMetrics().height() * 10);
}

void TimelineView::onRunReset()
{
    model_.reset(sim_.engine() ? sim_.engine()->config().workload.cpus : 0,
        sim_.engine() && sim_.engine()->second_device() ? 2 : 1);
    updateIdleGap();
    markerA_.reset();
    markerB_.reset();
    liveEdgeNs_ = 0;
    setFollowing(true);
    update();
}

void TimelineView::updateIdleGap()
{
    // A paced CPU sleeps between operations: a silence longer than half its
    // interval is that sleep. Unpaced, a CPU is busy until it finishes, and
    // only a long silence (uncontended work records nothing) is idle.
    const double ops = sim_.scenario().engine.ops_per_second;
    const double gap = ops > 0 ? std::clamp(0.5e9 / ops, 20e3, 1e6) : 1e6;
    model_.setIdleGapNs(std::uint64_t(gap));
}

void TimelineView::onEvents(const std::vector<Event>& events)
{
    updateIdleGap();
    model_.addEvents(events);
    // One batch per Simulation tick: repainting here is repainting at the
    // timer's rate at most (update() coalesces).
    if (!events.empty())
        update();
}

void TimelineView::setFollowing(bool on)
{
    if (!on && follow_)
        start_ = viewStartNs();
    follow_ = on;
    if (followButton_->isChecked() != on) {
        const QSignalBlocker block(followButton_);
        followButton_->setChecked(on);
    }
    update();
}

double TimelineView::viewStartNs() const
{
    if (follow_)
        return double(std::max(model_.latestNs(), liveEdgeNs_)) - span_;
    return start_;
}

void TimelineView::onTicked()
{
    // The live edge is the present, not the newest event: at benchmark
    // speed an untroubled CPU records nothing (sim/trace.h), and a view that
    // stopped at its last event would look as if the CPUs had stopped. The
    // time since the last event shows as "no events recorded". Two ticks
    // behind the clock, so the events still in the rings are not shown as
    // missing.
    if (sim_.state() != Simulation::State::Running || model_.empty())
        return;
    const std::uint64_t lag = 2'000'000'000ull / Simulation::kTicksPerSecond;
    const std::uint64_t now = now_ns();
    liveEdgeNs_ = std::max(liveEdgeNs_, now > lag ? now - lag : 0);
    if (follow_)
        update();
}

void TimelineView::setViewRange(double t0, double span)
{
    setFollowing(false);
    span_ = std::clamp(span, kMinSpanNs, double(model_.windowNs()) * 1.5);
    start_ = t0;
    update();
}

void TimelineView::setMarkerA(double t)
{
    markerA_ = t;
    update();
}

void TimelineView::setMarkerB(double t)
{
    markerB_ = t;
    update();
}

void TimelineView::clearMarkers()
{
    markerA_.reset();
    markerB_.reset();
    update();
}

QString TimelineView::markerText() const
{
    const double origin = double(model_.originNs());
    QStringList parts;
    if (markerA_)
        parts << tr("A %1").arg(formatDuration(*markerA_ - origin));
    if (markerB_)
        parts << tr("B %1").arg(formatDuration(*markerB_ - origin));
    if (markerA_ && markerB_)
        parts << tr("B − A %1").arg(formatDuration(*markerB_ - *markerA_));
    if (parts.isEmpty())
        return tr("click: marker A · shift- or right-click: marker B");
    return parts.join(QStringLiteral("   "));
}

TimelineView::Layout TimelineView::layout() const
{
    Layout l;
    const QFontMetrics fm = fontMetrics();
    const int lineH = fm.height();
    const int pad = std::max(4, lineH / 3);
    const int headerH = lineH + 2 * pad + 2;
    const int labelW
        = std::max(fm.horizontalAdvance(QStringLiteral("CPU 88")), fm.horizontalAdvance(tr("disk"))) + 3 * pad;
    const int axisH = lineH + pad + 6;
    l.header = QRect(0, 0, width(), headerH);
    const int n = std::max(1, model_.laneCount());
    l.laneGap = std::max(2.0, lineH * 0.2);
    const double avail = height() - headerH - axisH - pad;
    l.laneHeight = std::clamp((avail - l.laneGap * (n - 1)) / n, 4.0, lineH * 6.0);
    const int lanesH = int(std::ceil(l.laneHeight * n + l.laneGap * (n - 1)));
    l.labels = QRect(0, headerH, labelW, lanesH);
    l.lanes = QRect(labelW, headerH, std::max(1, width() - labelW - pad * 2), lanesH);
    l.axis = QRect(labelW, headerH + lanesH, l.lanes.width(), axisH);
    return l;
}

double TimelineView::timeAt(double x) const
{
    const Layout l = layout();
    return viewStartNs() + (x - l.lanes.left()) / double(l.lanes.width()) * span_;
}

double TimelineView::xAt(double t) const
{
    const Layout l = layout();
    return l.lanes.left() + (t - viewStartNs()) / span_ * double(l.lanes.width());
}

int TimelineView::laneAt(const QPoint& pos) const
{
    const Layout l = layout();
    if (pos.x() < l.lanes.left() || pos.x() > l.lanes.right())
        return -1;
    for (int i = 0; i < model_.laneCount(); ++i)
        if (l.lane(i).contains(QPointF(pos)))
            return i;
    return -1;
}

QString TimelineView::laneName(int lane) const
{
    if (model_.isDiskLane(lane))
        return model_.laneCount() - int(model_.cpus()) > 1 ? tr("disk %1").arg(model_.diskOf(lane)) : tr("disk");
    return tr("CPU %1").arg(lane);
}

QString TimelineView::describe(int lane, const TimelineSpan& s) const
{
    const QString who = laneName(lane);
    const QString dur = formatDuration(double(s.end_ns - s.start_ns));
    const QString sep = QStringLiteral(" · ");
    QString text;
    switch (s.state) {
    case CpuState::Spinning:
    case CpuState::Blocked: {
        text = who + sep
            + (s.state == CpuState::Spinning ? tr("spinning %1 for %2") : tr("waiting %1 for %2"))
                  .arg(dur, model_.lockName(s.lock));
        if (s.holder >= 0)
            text += tr(" (held by CPU %1)").arg(s.holder);
        break;
    }
    case CpuState::PageWait:
        text = who + sep + tr("waiting %1 for %2, under another CPU's read").arg(dur, pageName(s.file, s.page));
        break;
    case CpuState::InIo:
        if (model_.isDiskLane(lane)) {
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
                : tr("%1 so far").arg(formatDuration(double(model_.latestNs() - s.fault_start_ns)));
            return who + sep + tr("%1, %2, %3").arg(kind, pageName(s.file, s.page), took);
        }
        text = who + sep + tr("running %1 (time not accounted to a wait)").arg(dur);
        break;
    case CpuState::Idle:
        text = who + sep
            + (model_.isDiskLane(lane) ? tr("idle %1 (no request in service)").arg(dur)
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

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    const int lane = laneAt(pos);
    if (lane < 0 || model_.empty())
        return {};
    // A pixel may cover many spans: show the longest wait under it, the
    // thing the colour is most likely about, else whatever is at the cursor.
    const double t = timeAt(pos.x());
    const double halfPx = span_ / double(std::max(1, layout().lanes.width())) / 2;
    const auto lo = std::uint64_t(std::max(0.0, t - halfPx));
    const auto hi = std::uint64_t(std::max(0.0, t + halfPx));
    const auto [first, last] = model_.spansIn(lane, lo, hi);
    std::optional<TimelineSpan> best;
    const auto& spans = model_.spans(lane);
    auto consider = [&](const TimelineSpan& s) {
        const bool wait = s.state != CpuState::Running && s.state != CpuState::Idle;
        const bool bestWait = best && best->state != CpuState::Running && best->state != CpuState::Idle;
        if (!best || (wait && !bestWait) || (wait == bestWait && s.end_ns - s.start_ns > best->end_ns - best->start_ns))
            best = s;
    };
    for (std::size_t i = first; i < last && i < first + 4096; ++i)
        consider(spans[i]);
    if (auto open = model_.openSpan(lane); open && double(open->start_ns) <= t + halfPx)
        consider(*open);
    return best ? describe(lane, *best) : QString();
}

QString TimelineView::legendToolTip() const
{
    return tr("<b>What the colours mean</b><br>"
              "<b>running</b>: time not accounted to a wait, while the CPU was recording events "
              "(it may be computing, holding a lock, or in a fault).<br>"
              "<b>spinning on a lock</b>: waiting for a lock for less than %1.<br>"
              "<b>blocked on a lock</b>: waiting for a lock for %1 or more. The events do not say whether "
              "a waiter spun or slept: the length of the wait decides.<br>"
              "<b>waiting on a page under I/O</b>: asleep on a page another CPU is reading.<br>"
              "<b>in I/O</b>: from submitting its own read until it wakes with the data; "
              "on the disk lane, a request in service.<br>"
              "<b>idle</b>: nothing recorded for longer than %2 (a paced CPU sleeping between "
              "operations, a finished CPU, an idle disk).<br>"
              "The dark band under a stretch: it happened inside a page fault.<br>"
              "Where a pixel covers many spans it shows the state that covers most of it.")
        .arg(formatDuration(double(TimelineModel::kSpinLimitNs)), formatDuration(double(model_.idleGapNs())));
}

bool TimelineView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        QString text;
        if (legendRect_.contains(help->pos()))
            text = legendToolTip();
        else
            text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            e->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(e);
}

void TimelineView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange)
        update();
    QWidget::changeEvent(e);
}

void TimelineView::resizeEvent(QResizeEvent* e)
{
    const Layout l = layout();
    const QSize hint = followButton_->sizeHint();
    followButton_->setGeometry(width() - hint.width() - 4, l.header.top() + (l.header.height() - hint.height()) / 2,
        hint.width(), hint.height());
    QWidget::resizeEvent(e);
}

void TimelineView::wheelEvent(QWheelEvent* e)
{
    const Layout l = layout();
    const double x = std::clamp(e->position().x(), double(l.lanes.left()), double(l.lanes.right()));
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0 || model_.empty()) {
        e->ignore();
        return;
    }
    const double at = timeAt(x);
    const double span = std::clamp(span_ * std::pow(0.8, steps), kMinSpanNs, double(model_.windowNs()) * 1.5);
    const double frac = (x - l.lanes.left()) / double(l.lanes.width());
    setViewRange(at - frac * span, span);
    e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e)
{
    pressPos_ = e->position().toPoint();
    pressStart_ = viewStartNs();
    dragging_ = false;
    if (e->button() == Qt::RightButton && layout().lanes.contains(pressPos_) && !model_.empty())
        setMarkerB(timeAt(pressPos_.x()));
    e->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* e)
{
    if (!(e->buttons() & Qt::LeftButton))
        return;
    const QPoint pos = e->position().toPoint();
    if (!dragging_ && std::abs(pos.x() - pressPos_.x()) < 4)
        return;
    if (!dragging_) {
        dragging_ = true;
        setCursor(Qt::ClosedHandCursor);
    }
    const double nsPerPx = span_ / double(layout().lanes.width());
    setViewRange(pressStart_ - (pos.x() - pressPos_.x()) * nsPerPx, span_);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e)
{
    if (dragging_) {
        dragging_ = false;
        unsetCursor();
        return;
    }
    if (e->button() != Qt::LeftButton || !layout().lanes.contains(e->position().toPoint()) || model_.empty())
        return;
    const double t = timeAt(e->position().x());
    if (e->modifiers() & Qt::ShiftModifier)
        setMarkerB(t);
    else
        setMarkerA(t);
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    const Layout l = layout();
    paintHeader(p, l);
    paintLanes(p, l);
    paintHighlight(p, l);
    paintAxis(p, l);
    paintMarkers(p, l);
}

void TimelineView::paintHeader(QPainter& p, const Layout& l)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int pad = std::max(4, fm.height() / 3);
    const int chip = fm.ascent();
    const int right = followButton_->geometry().left() - 2 * pad;

    // The marker line sits at the right, the legend takes the rest; the
    // legend shortens its labels before it would run into the markers.
    const QString markers = markerText();
    const int markersW = fm.horizontalAdvance(markers);
    auto legendWidth = [&](bool shortLabels) {
        int w = 0;
        for (const LegendEntry& e : kLegend)
            w += chip + pad + fm.horizontalAdvance(tr(shortLabels ? e.shortLabel : e.label)) + 2 * pad;
        w += chip + pad + fm.horizontalAdvance(tr(shortLabels ? "fault" : "in a page fault"));
        return w;
    };
    const bool shortLabels = pad + legendWidth(false) + 3 * pad + markersW > right;

    int x = pad;
    const int cy = l.header.center().y();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const LegendEntry& e : kLegend) {
        const QRectF box(x, cy - chip / 2.0, chip, chip);
        p.setPen(QPen(pal.color(QPalette::Mid), 1));
        p.setBrush(stateColor(e.state, pal));
        p.drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        x += chip + pad;
        const QString label = tr(shortLabels ? e.shortLabel : e.label);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(
            QRect(x, l.header.top(), fm.horizontalAdvance(label) + 1, l.header.height()), Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label) + 2 * pad;
    }
    {
        // The fault band: a running chip with the band drawn under it.
        const QRectF box(x, cy - chip / 2.0, chip, chip);
        p.setPen(QPen(pal.color(QPalette::Mid), 1));
        p.setBrush(colors::cpuRunning());
        p.drawRoundedRect(box.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        p.setPen(Qt::NoPen);
        p.setBrush(faultColor(pal));
        p.drawRect(QRectF(box.left() + 1, box.bottom() - chip * 0.3, box.width() - 2, chip * 0.3 - 1));
        x += chip + pad;
        const QString label = tr(shortLabels ? "fault" : "in a page fault");
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(
            QRect(x, l.header.top(), fm.horizontalAdvance(label) + 1, l.header.height()), Qt::AlignVCenter, label);
        x += fm.horizontalAdvance(label);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    legendRect_ = QRect(0, l.header.top(), x + pad, l.header.height());

    QColor dim = pal.color(QPalette::WindowText);
    if (!markerA_ && !markerB_)
        dim = pal.color(QPalette::PlaceholderText);
    p.setPen(dim);
    p.drawText(QRect(std::max(x + 2 * pad, right - markersW), l.header.top(), markersW + 1, l.header.height()),
        Qt::AlignVCenter | Qt::AlignRight, markers);
}

void TimelineView::paintLanes(QPainter& p, const Layout& l)
{
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    const int pad = std::max(4, fm.height() / 3);
    const double t0 = viewStartNs();
    const double t1 = t0 + span_;
    const int n = model_.laneCount();
    const QColor laneBg = pal.color(QPalette::Base);
    const QColor band = faultColor(pal);
    // Time nothing is known about (before a lane's first event, after a
    // finished CPU's last) is hatched, so it never reads as idle.
    QColor hatchColour = pal.color(QPalette::WindowText);
    hatchColour.setAlphaF(0.10);
    const QBrush hatch(hatchColour, Qt::BDiagPattern);

    // Lane backgrounds (what no span covers) and names.
    for (int i = 0; i < n; ++i) {
        const QRectF r = l.lane(i);
        p.fillRect(r, laneBg);
        p.fillRect(r, hatch);
        p.setPen(pal.color(QPalette::Mid));
        p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5));
        p.setPen(pal.color(QPalette::WindowText));
        const QString name = laneName(i);
        p.drawText(QRectF(0, r.top(), l.labels.width() - pad, r.height()), Qt::AlignVCenter | Qt::AlignRight, name);
    }
    if (model_.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(
            l.lanes, Qt::AlignCenter, sim_.engine() ? tr("No events yet: press Play") : tr("No run: open a scenario"));
        return;
    }

    const int cols = std::max(1, l.lanes.width());
    columns_.resize(std::size_t(cols));
    for (int i = 0; i < n; ++i) {
        const QRectF r = l.lane(i);
        model_.columns(i, t0, t1, columns_);
        const double bandH = std::max(3.0, r.height() * 0.14);
        // Runs of equal columns are one rectangle each.
        int c = 0;
        while (c < cols) {
            const auto col = columns_[std::size_t(c)];
            int e = c + 1;
            while (e < cols && columns_[std::size_t(e)].state == col.state
                && columns_[std::size_t(e)].in_fault == col.in_fault)
                ++e;
            if (col.state >= 0) {
                const QRectF run(r.left() + c, r.top(), e - c, r.height());
                p.fillRect(run, stateColor(CpuState(col.state), pal));
                if (col.in_fault)
                    p.fillRect(QRectF(run.left(), r.bottom() - bandH, run.width(), bandH), band);
            }
            c = e;
        }

        // Zoomed in far enough, a wait is wide enough to carry its lock's name.
        const auto [first, last]
            = model_.spansIn(i, std::uint64_t(std::max(t0, 0.0)), std::uint64_t(std::max(t1, 0.0)));
        if (last - first > 400 || r.height() < fm.height())
            continue;
        const auto& spans = model_.spans(i);
        p.save();
        p.setClipRect(r);
        for (std::size_t k = first; k < last; ++k) {
            const TimelineSpan& s = spans[k];
            if (s.state != CpuState::Spinning && s.state != CpuState::Blocked)
                continue;
            const double x0 = std::max(xAt(double(s.start_ns)), r.left());
            const double x1 = std::min(xAt(double(s.end_ns)), r.right());
            const QString name = model_.lockName(s.lock);
            if (x1 - x0 < fm.horizontalAdvance(name) + 2 * pad)
                continue;
            p.setPen(textOn(stateColor(s.state, pal)));
            const double textH = r.height() - (s.in_fault ? bandH : 0);
            p.drawText(QRectF(x0 + pad, r.top(), x1 - x0 - 2 * pad, textH), Qt::AlignVCenter | Qt::AlignLeft, name);
        }
        p.restore();
    }
}

void TimelineView::setHighlightedLock(const QString& name)
{
    if (name == highlighted_)
        return;
    highlighted_ = name;
    update();
}

void TimelineView::paintHighlight(QPainter& p, const Layout& l)
{
    if (highlighted_.isEmpty() || model_.empty())
        return;
    const double t0 = viewStartNs();
    const double t1 = t0 + span_;
    QPen pen(palette().color(QPalette::Highlight), 2);
    pen.setJoinStyle(Qt::MiterJoin);
    p.save();
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    for (int i = 0; i < model_.laneCount(); ++i) {
        const QRectF r = l.lane(i);
        const auto [first, last]
            = model_.spansIn(i, std::uint64_t(std::max(t0, 0.0)), std::uint64_t(std::max(t1, 0.0)));
        // Zoomed far out, a lane has more waits than pixels: outline none
        // rather than stall the frame.
        if (last - first > kMaxOutlinedSpans)
            continue;
        const auto& spans = model_.spans(i);
        for (std::size_t k = first; k < last; ++k) {
            const TimelineSpan& s = spans[k];
            if ((s.state != CpuState::Spinning && s.state != CpuState::Blocked)
                || model_.lockName(s.lock) != highlighted_)
                continue;
            const double x0 = std::max(xAt(double(s.start_ns)), r.left());
            const double x1 = std::min(xAt(double(s.end_ns)), r.right());
            p.drawRect(QRectF(x0, r.top() + 1, std::max(2.0, x1 - x0), r.height() - 2));
        }
    }
    p.restore();
}

void TimelineView::paintAxis(QPainter& p, const Layout& l)
{
    const QPalette& pal = palette();
    const double t0 = viewStartNs();
    const double origin = double(model_.originNs());
    // A step of 1, 2 or 5 times a power of ten, about kTickSpacing pixels apart.
    const double raw = span_ * kTickSpacing / double(std::max(1, l.lanes.width()));
    const double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
    double step = mag;
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (mag * m >= raw) {
            step = mag * m;
            break;
        }
    QColor grid = pal.color(QPalette::WindowText);
    grid.setAlphaF(0.12);
    QColor tick = pal.color(QPalette::WindowText);
    tick.setAlphaF(0.6);
    p.setPen(tick);
    p.drawLine(l.axis.left(), l.axis.top(), l.axis.right(), l.axis.top());
    if (model_.empty())
        return;
    const QFontMetrics fm = fontMetrics();
    const double first = std::ceil((t0 - origin) / step) * step;
    for (double rel = first; rel <= t0 - origin + span_; rel += step) {
        const double x = xAt(origin + rel);
        if (x < l.lanes.left() || x > l.lanes.right())
            continue;
        p.setPen(grid);
        p.drawLine(QPointF(x, l.lanes.top()), QPointF(x, l.lanes.bottom()));
        p.setPen(tick);
        p.drawLine(QPointF(x, l.axis.top()), QPointF(x, l.axis.top() + 4));
        const QString label = tickLabel(rel, step, std::max(std::abs(t0 - origin), std::abs(t0 - origin + span_)));
        const double w = fm.horizontalAdvance(label);
        const double lx = std::clamp(x - w / 2, double(l.axis.left()), double(l.axis.right()) - w);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRectF(lx, l.axis.top() + 5, w + 1, fm.height()), Qt::AlignLeft | Qt::AlignTop, label);
    }
}

void TimelineView::paintMarkers(QPainter& p, const Layout& l)
{
    if (model_.empty())
        return;
    const QPalette& pal = palette();
    const QFontMetrics fm = fontMetrics();
    p.save();
    p.setClipRect(l.lanes.adjusted(0, 0, 1, 0));
    // Markers in the text colour: every state's fill (the in-I/O blue is
    // the highlight colour of many palettes) lets it show.
    const QColor ink = pal.color(QPalette::WindowText);
    if (markerA_ && markerB_) {
        QColor shade = ink;
        shade.setAlphaF(colors::isDark(pal) ? 0.14 : 0.09);
        const double xa = xAt(*markerA_);
        const double xb = xAt(*markerB_);
        p.fillRect(QRectF(std::min(xa, xb), l.lanes.top(), std::abs(xb - xa), l.lanes.height()), shade);
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    auto marker = [&](double t, const QString& name) {
        const double x = xAt(t);
        if (x < l.lanes.left() - 1 || x > l.lanes.right() + 1)
            return;
        const QColor c = ink;
        p.setPen(QPen(c, 1.5));
        p.drawLine(QPointF(x, l.lanes.top()), QPointF(x, l.lanes.bottom()));
        // A flag with the marker's letter at the top.
        const double w = fm.horizontalAdvance(name) + 8;
        const double h = fm.height();
        const QRectF flag(x, l.lanes.top(), w, h);
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRoundedRect(flag, 2, 2);
        p.setPen(pal.color(QPalette::Window));
        p.drawText(flag, Qt::AlignCenter, name);
    };
    if (markerA_)
        marker(*markerA_, QStringLiteral("A"));
    if (markerB_)
        marker(*markerB_, QStringLiteral("B"));
    p.restore();
}

} // namespace pcl::ui
