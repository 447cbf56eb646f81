// The CPUs view: a timeline with one lane per simulated CPU and one for the
// disk, coloured by what each was doing (colors::cpu*), live.
//
// It follows the newest events while a run goes on, until the user zooms
// (wheel, around the cursor) or pans (drag); Follow goes back to the live
// edge. A click sets marker A, a shift-click or a right-click marker B, and
// the header shows the time between them. Hovering a span says what it was:
// which lock and who held it, which page, which fault.
//
// Drawing is level-of-detail: each lane is drawn per pixel column, in the
// state that covers most of the column (TimelineModel::columns), so the cost
// is the width plus the spans in view, however many events a window holds.
// TimelineLayout says what goes where; this widget keeps the range in view
// and the markers, paints, and turns the mouse into view changes. It
// repaints when events arrive, at most once per Simulation tick.
#pragma once

#include "views/timeline/timelinelayout.h"
#include "views/timeline/timelinemodel.h"

#include <QWidget>

#include <optional>

class QToolButton;

namespace pcl::ui {

class Simulation;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(Simulation& sim, QWidget* parent = nullptr);

    const TimelineModel& model() const { return model_; }
    TimelineModel& model() { return model_; }

    /// Whether the view follows the live edge.
    bool following() const { return follow_; }
    void setFollowing(bool on);

    /// The visible time range, event clock in ns.
    double viewStartNs() const;
    double viewSpanNs() const { return span_; }
    /// Shows [t0, t0 + span] and stops following.
    void setViewRange(double t0, double span);

    /// Markers, event clock in ns.
    std::optional<double> markerA() const { return markerA_; }
    std::optional<double> markerB() const { return markerB_; }
    void setMarkerA(double t);
    void setMarkerB(double t);
    void clearMarkers();
    /// Outlines the waits for the lock named @name (the lock selected in the
    /// Locks view); empty: none.
    void setHighlightedLock(const QString& name);
    QString highlightedLock() const { return highlighted_; }
    /// The header's marker line: "A 12.30 ms   B 13.61 ms   B − A 1.31 ms".
    QString markerText() const;

    /// What hovering @pos shows; empty over nothing.
    QString toolTipAt(const QPoint& pos) const;
    /// The lane at @pos, -1 if none; the time at x.
    int laneAt(const QPoint& pos) const;
    double timeAt(double x) const;
    double xAt(double t) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    /// Where everything is, at the widget's size and font and the range in view.
    TimelineLayout layout() const;
    void onRunReset();
    void onEvents(const std::vector<Event>& events);
    void onTicked();
    void updateIdleGap();
    QString legendToolTip() const;
    void paintHeader(QPainter& p, const TimelineLayout& l);
    void paintLanes(QPainter& p, const TimelineLayout& l);
    void paintHighlight(QPainter& p, const TimelineLayout& l);
    void paintAxis(QPainter& p, const TimelineLayout& l);
    void paintMarkers(QPainter& p, const TimelineLayout& l);

    Simulation& sim_;
    TimelineModel model_;
    QToolButton* followButton_ = nullptr;
    bool follow_ = true;
    double start_ = 0;    ///< view start when not following
    double span_ = 200e6; ///< visible time, ns
    std::optional<double> markerA_;
    std::optional<double> markerB_;
    QPoint pressPos_;
    double pressStart_ = 0;
    bool dragging_ = false;
    QRect legendRect_;                           ///< where the legend was drawn, for its tooltip
    std::vector<TimelineModel::Column> columns_; ///< scratch, one per pixel column
    std::vector<TimelineLayout::Run> runs_;      ///< scratch, one lane's runs
    std::uint64_t liveEdgeNs_ = 0;               ///< the present while the run plays (event clock), 0 before
    QString highlighted_;
};

} // namespace pcl::ui
