// The CPUs timeline: level-of-detail drawing, zoom, pan, markers and
// tooltips. All state it shows comes from TimelineModel, and where it goes
// from TimelineLayout.
#include "views/timeline/timelineview.h"

#include "kit/colors.h"
#include "run/simulation.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolButton>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

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

} // namespace

TimelineView::TimelineView(Simulation& sim, QWidget* parent)
    : StructureView(sim, parent)
    , sim_(sim)
{
    setFitToolTip(tr("Show every event held and follow the newest (double-click does the same)"));
    followButton_ = new QToolButton(this);
    followButton_->setText(tr("Follow"));
    followButton_->setCheckable(true);
    followButton_->setChecked(true);
    followButton_->setToolTip(tr("Follow the newest events (zooming or dragging stops following)"));
    connect(followButton_, &QToolButton::toggled, this, &TimelineView::setFollowing);

    model_.setLockNamer([this](const Event& e) { return sim_.lockName(e); });
    // A gap in the stream is shown as one: a lane's wait is not drawn on
    // over time whose events were left out.
    connect(&sim_, &LiveRun::eventsLeftOut, this, [this] { model_.loseTrack(); });
    onRunReset();
}

QSize TimelineView::sizeHint() const
{
    return QSize(960, 360);
}

QSize TimelineView::minimumSizeHint() const
{
    // Eight lines: the header, the axis and a few lanes; the rewind bar
    // under the views takes the rest of what a small window has.
    return QSize(320, fontMetrics().height() * 8);
}

void TimelineView::onRunReset()
{
    model_.reset(source_.cpus(), source_.hasSecondDevice() ? 2 : 1);
    // A modelled run stands at its start when it is built, also when it is
    // built again to be taken back: the axis counts from there, not from
    // the first of the newest events the views are given.
    if (sim_.canRewind())
        model_.setOriginNs(sim_.clockNowNs() - sim_.runningNs());
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
    const std::uint64_t now = sim_.clockNowNs();
    liveEdgeNs_ = std::max(liveEdgeNs_, now > lag ? now - lag : 0);
    if (follow_)
        update();
}

void TimelineView::setViewRange(double t0, double span)
{
    setFollowing(false);
    span_ = std::clamp(span, TimelineLayout::kMinSpanNs, double(model_.windowNs()) * 1.5);
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

TimelineLayout TimelineView::layout() const
{
    return TimelineLayout(fontMetrics(), size(), model_.laneCount(), viewStartNs(), span_, zoomFirst_, zoomLanes_);
}

double TimelineView::timeAt(double x) const
{
    return layout().timeAt(x);
}

double TimelineView::xAt(double t) const
{
    return layout().xAt(t);
}

int TimelineView::laneAt(const QPoint& pos) const
{
    return layout().laneAt(pos);
}

QString TimelineView::toolTipAt(const QPoint& pos) const
{
    const TimelineLayout l = layout();
    const int lane = l.laneAt(pos);
    if (lane < 0 || model_.empty())
        return {};
    const std::optional<TimelineSpan> span = l.spanAt(model_, lane, pos.x());
    return span ? TimelineLayout::describe(model_, lane, *span) : QString();
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
    return StructureView::event(e);
}

void TimelineView::styleChanged()
{
    update();
}

void TimelineView::placeControls()
{
    const TimelineLayout l = layout();
    const QSize hint = followButton_->sizeHint();
    const int y = l.header().top() + (l.header().height() - hint.height()) / 2;
    followButton_->setGeometry(width() - hint.width() - 4, y, hint.width(), hint.height());
    const QSize fit = fitButton()->sizeHint();
    fitButton()->setGeometry(followButton_->x() - fit.width() - 4, y, fit.width(), hint.height());
}

Viewport TimelineView::viewport() const
{
    const TimelineLayout l = layout();
    Viewport v;
    v.x.first = viewStartNs();
    v.x.span = span_;
    v.x.minSpan = TimelineLayout::kMinSpanNs;
    v.x.maxSpan = double(model_.windowNs()) * 1.5;
    v.x.origin = l.lanes().left();
    v.x.pixels = model_.empty() ? 0 : double(l.lanes().width());
    return v;
}

void TimelineView::setViewport(const Viewport& v)
{
    setViewRange(v.x.first, v.x.span);
}

void TimelineView::fit()
{
    if (!model_.empty()) {
        const double held = double(std::max(model_.latestNs(), liveEdgeNs_) - model_.earliestNs());
        span_ = std::clamp(held, TimelineLayout::kMinSpanNs, double(model_.windowNs()) * 1.5);
    }
    setFollowing(true);
}

void TimelineView::mousePressEvent(QMouseEvent* e)
{
    const QPoint pos = e->position().toPoint();
    if (e->button() == Qt::RightButton && layout().lanes().contains(pos) && !model_.empty())
        setMarkerB(timeAt(pos.x()));
    StructureView::mousePressEvent(e);
    e->accept();
}

void TimelineView::clickAt(QMouseEvent* e)
{
    // A group's name (lanes too many to name each): its CPUs alone; the
    // name of a group shown alone: every lane again.
    const TimelineLayout l = layout();
    if (const int g = l.groupAt(e->position().toPoint()); g >= 0 && (zoomLanes_ > 0 || !l.namesEachLane())) {
        if (zoomLanes_ > 0)
            showLaneGroup(-1);
        else
            showLaneGroup(l.groupFirstLane(g) / TimelineLayout::kGroupLanes);
        return;
    }
    // A CPU's name: that CPU in focus, outlined (what Back one operation
    // takes back); its name again: none.
    if (l.namesEachLane())
        for (int i = 0; i < int(model_.cpus()); ++i)
            if (l.laneNameRect(i).contains(e->position()) && l.lanes().intersects(l.lane(i).toAlignedRect())) {
                setHighlightedCpu(highlightedCpu_ == unsigned(i) ? std::nullopt : std::optional<unsigned>(unsigned(i)));
                return;
            }
    if (!l.lanes().contains(e->position().toPoint()) || model_.empty())
        return;
    const double t = timeAt(e->position().x());
    if (e->modifiers() & Qt::ShiftModifier)
        setMarkerB(t);
    else
        setMarkerA(t);
}

void TimelineView::paintScene(QPainter& p)
{
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Window));
    const TimelineLayout l = layout();
    paintHeader(p, l);
    paintLanes(p, l);
    paintHighlight(p, l);
    paintAxis(p, l);
    paintMarkers(p, l);
}

void TimelineView::paintHeader(QPainter& p, const TimelineLayout& l)
{
    const QPalette& pal = palette();
    const QString markers = markerText();
    const int right = fitButton()->geometry().left() - 2 * l.pad();
    const TimelineLayout::Header header = l.layoutHeader(markers, right);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const TimelineLayout::LegendEntry& e : header.legend) {
        p.setPen(QPen(pal.color(QPalette::Mid), 1));
        p.setBrush(stateColor(e.state, pal));
        p.drawRoundedRect(e.chip.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        if (e.faultBand) {
            // The fault band: a running chip with the band drawn under it.
            p.setPen(Qt::NoPen);
            p.setBrush(faultColor(pal));
            p.drawRect(TimelineLayout::chipBand(e.chip));
        }
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(e.label, Qt::AlignVCenter, e.text);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    legendRect_ = header.legendRect;

    QColor dim = pal.color(QPalette::WindowText);
    if (!markerA_ && !markerB_)
        dim = pal.color(QPalette::PlaceholderText);
    // How to set the markers is a hint, left out where it would run under
    // the buttons; the markers' times, once set, are always shown.
    if (!markerA_ && !markerB_ && header.markers.right() > right + 1)
        return;
    p.setPen(dim);
    p.drawText(header.markers, Qt::AlignVCenter | Qt::AlignRight, markers);
}

void TimelineView::paintLanes(QPainter& p, const TimelineLayout& l)
{
    const QPalette& pal = palette();
    const int n = model_.laneCount();
    const QColor laneBg = pal.color(QPalette::Base);
    const QColor band = faultColor(pal);
    // Time nothing is known about (before a lane's first event, after a
    // finished CPU's last) is hatched, so it never reads as idle.
    QColor hatchColour = pal.color(QPalette::WindowText);
    hatchColour.setAlphaF(0.10);
    const QBrush hatch(hatchColour, Qt::BDiagPattern);

    // Lane backgrounds (what no span covers) and names: each lane's, or
    // when they are too many for that, each group's ("CPUs 8–15"), which a
    // click shows alone. The outlines are outlines: the header left the
    // brush at its last legend chip's colour, which would fill every lane
    // with that state (in I/O, or the fault band's grey) where nothing is
    // known.
    p.setBrush(Qt::NoBrush);
    for (int i = 0; i < n; ++i) {
        const QRectF r = l.lane(i);
        if (r.isEmpty())
            continue;
        p.fillRect(r, laneBg);
        p.fillRect(r, hatch);
        if (l.namesEachLane()) {
            p.setPen(pal.color(QPalette::Mid));
            p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5));
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(l.laneNameRect(i), Qt::AlignVCenter | Qt::AlignRight, TimelineLayout::laneName(model_, i));
        }
    }
    if (!l.namesEachLane() || zoomLanes_ > 0)
        for (int g = 0; g < l.groups(); ++g) {
            const QRectF r = l.groupNameRect(g);
            p.setPen(pal.color(QPalette::Mid));
            p.drawLine(QPointF(r.right() - 2, r.top()), QPointF(r.right() - 2, r.bottom()));
            if (l.namesEachLane())
                continue; // shown alone, each lane named: the bracket says which group
            // At least a line high, centred on the group (a lone disk lane
            // is thinner than its name).
            const double grow = std::max(0.0, (fontMetrics().height() - r.height()) / 2);
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(r.adjusted(0, -grow, -l.pad(), grow), Qt::AlignVCenter | Qt::AlignRight,
                laneGroupName(l.groupFirstLane(g), l.groupFirstLane(g) + TimelineLayout::kGroupLanes - 1));
        }
    if (model_.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(l.lanes(), Qt::AlignCenter,
            source_.hasRun() ? tr("No events yet: press Play") : tr("No run: open a scenario"));
        return;
    }

    for (int i = 0; i < n; ++i) {
        l.runs(model_, i, columns_, runs_);
        for (const TimelineLayout::Run& run : runs_) {
            p.fillRect(run.rect, stateColor(run.state, pal));
            // A band under a lane a few pixels high would be all of it: its
            // colour must stay what the CPU did.
            if (run.inFault && run.rect.height() >= 3 * l.faultBandHeight(i))
                p.fillRect(l.faultBand(run, i), band);
        }
        const std::vector<TimelineLayout::LockLabel> labels = l.lockLabels(model_, i);
        if (labels.empty())
            continue;
        p.save();
        p.setClipRect(l.lane(i));
        for (const TimelineLayout::LockLabel& label : labels) {
            p.setPen(textOn(stateColor(label.state, pal)));
            p.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft, label.text);
        }
        p.restore();
    }
}

QString TimelineView::laneGroupName(int first, int last) const
{
    last = std::min(last, model_.laneCount() - 1);
    const int cpus = int(model_.cpus());
    if (first >= cpus)
        return TimelineLayout::laneName(model_, first);
    return tr("CPUs %1–%2").arg(first).arg(std::min(last, cpus - 1));
}

void TimelineView::showLaneGroup(int group)
{
    if (group < 0) {
        zoomFirst_ = 0;
        zoomLanes_ = 0;
    } else {
        zoomFirst_ = group * TimelineLayout::kGroupLanes;
        zoomLanes_ = TimelineLayout::kGroupLanes;
    }
    update();
}

void TimelineView::setHighlightedLock(const QString& name)
{
    if (name == highlighted_)
        return;
    highlighted_ = name;
    update();
}

void TimelineView::setHighlightedCpu(std::optional<unsigned> cpu)
{
    if (cpu == highlightedCpu_)
        return;
    highlightedCpu_ = cpu;
    update();
}

void TimelineView::paintHighlight(QPainter& p, const TimelineLayout& l)
{
    const QColor highlight = colors::highlight(palette());
    // The CPU's lane, before the run has events too: the step names the
    // CPU to watch before anything happens on it.
    if (highlightedCpu_ && int(*highlightedCpu_) < int(model_.cpus())) {
        const QRectF outline = l.laneOutline(int(*highlightedCpu_));
        QColor tint = highlight;
        tint.setAlphaF(0.3);
        p.fillRect(l.laneNameRect(int(*highlightedCpu_)).adjusted(l.pad() / 2.0, 0, 0, 0), tint);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(l.laneNameRect(int(*highlightedCpu_)), Qt::AlignVCenter | Qt::AlignRight,
            TimelineLayout::laneName(model_, int(*highlightedCpu_)));
        QPen pen(highlight, 3);
        pen.setJoinStyle(Qt::MiterJoin);
        p.save();
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(outline);
        p.restore();
    }
    if (highlighted_.isEmpty() || model_.empty())
        return;
    // Inside each wait, never beyond it: zoomed out, a wait is a few
    // pixels wide, and outlines drawn round such waits would paint the
    // whole lane in the highlight colour (its blue reads as "in I/O" or
    // running), hiding the red of the very waits they mark. A wait too
    // narrow for an outline is marked along its top edge only.
    QPen pen(highlight, 2);
    pen.setJoinStyle(Qt::MiterJoin);
    p.save();
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    for (const QRectF& wait : l.highlights(model_, highlighted_)) {
        if (wait.width() >= TimelineLayout::kMinOutlinedPx)
            p.drawRect(wait.adjusted(1, 1, -1, -1));
        else
            p.fillRect(QRectF(wait.left(), wait.top(), wait.width(), 2), highlight);
    }
    p.restore();
}

void TimelineView::paintAxis(QPainter& p, const TimelineLayout& l)
{
    const QPalette& pal = palette();
    QColor grid = pal.color(QPalette::WindowText);
    grid.setAlphaF(0.12);
    QColor tick = pal.color(QPalette::WindowText);
    tick.setAlphaF(0.6);
    p.setPen(tick);
    p.drawLine(l.axis().left(), l.axis().top(), l.axis().right(), l.axis().top());
    if (model_.empty())
        return;
    for (const TimelineLayout::Tick& t : l.ticks(double(model_.originNs()))) {
        p.setPen(grid);
        p.drawLine(QPointF(t.x, l.lanes().top()), QPointF(t.x, l.lanes().bottom()));
        p.setPen(tick);
        p.drawLine(QPointF(t.x, l.axis().top()), QPointF(t.x, l.axis().top() + 4));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(t.labelRect, Qt::AlignLeft | Qt::AlignTop, t.label);
    }
}

void TimelineView::paintMarkers(QPainter& p, const TimelineLayout& l)
{
    if (model_.empty())
        return;
    const QPalette& pal = palette();
    p.save();
    p.setClipRect(l.lanes().adjusted(0, 0, 1, 0));
    // Markers in the text colour: every state's fill (the in-I/O blue is
    // the highlight colour of many palettes) lets it show.
    const QColor ink = pal.color(QPalette::WindowText);
    if (markerA_ && markerB_) {
        QColor shade = ink;
        shade.setAlphaF(colors::isDark(pal) ? 0.14 : 0.09);
        p.fillRect(l.markerShade(*markerA_, *markerB_), shade);
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    auto marker = [&](double t, const QString& name) {
        const std::optional<QRectF> flag = l.markerFlag(t, name);
        if (!flag)
            return;
        const double x = flag->left();
        p.setPen(QPen(ink, 1.5));
        p.drawLine(QPointF(x, l.lanes().top()), QPointF(x, l.lanes().bottom()));
        // A flag with the marker's letter at the top.
        p.setPen(Qt::NoPen);
        p.setBrush(ink);
        p.drawRoundedRect(*flag, 2, 2);
        p.setPen(pal.color(QPalette::Window));
        p.drawText(*flag, Qt::AlignCenter, name);
    };
    if (markerA_)
        marker(*markerA_, QStringLiteral("A"));
    if (markerB_)
        marker(*markerB_, QStringLiteral("B"));
    p.restore();
}

} // namespace pcl::ui
