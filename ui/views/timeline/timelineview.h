// The CPUs view: a timeline with one lane per simulated CPU and one for the
// disk, coloured by what each was doing (colors::cpu*), live.
//
// It follows the newest events while a run goes on, until the user zooms
// (wheel, around the cursor) or pans (drag); Follow goes back to the live
// edge. A click sets marker A, a shift-click or a right-click marker B, and
// the header shows the time between them. Hovering a span says what it was:
// which lock and who held it, which page, which fault.
//
// Drawing is level-of-detail: each lane is drawn per pixel column, each
// state it covers as tall as its part of the column's time
// (TimelineModel::columns), so that a lane reads as what its CPU mostly did
// at any zoom, and the cost is the width plus the spans in view, however
// many events a window holds.
// TimelineLayout says what goes where; this widget keeps the range in view
// and the markers, paints, and turns the mouse into view changes. It
// repaints when events arrive, at most once per Simulation tick.
#pragma once

#include "kit/structureview.h"
#include "views/timeline/timelinelayout.h"
#include "views/timeline/timelinemodel.h"

#include <optional>

class QToolButton;

namespace pcl::ui {

class Simulation;

class TimelineView : public StructureView {
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
    /// Time across the lanes.
    Viewport viewport() const override;
    /// Every event held, following the live edge.
    void fit() override;

    /// Markers, event clock in ns.
    std::optional<double> markerA() const { return markerA_; }
    std::optional<double> markerB() const { return markerB_; }
    void setMarkerA(double t);
    void setMarkerB(double t);
    void clearMarkers();
    /// Shows the lanes of group @group alone (TimelineLayout::kGroupLanes
    /// CPUs from group * kGroupLanes), or every lane for -1: a click on a
    /// group's name does it when there are too many lanes to name each.
    void showLaneGroup(int group);
    /// The first lane shown and how many (0: every lane).
    int shownLaneCount() const { return zoomLanes_; }
    int firstShownLane() const { return zoomFirst_; }
    /// Outlines the waits for the lock named @name (the lock selected in the
    /// Locks view); empty: none.
    void setHighlightedLock(const QString& name);
    QString highlightedLock() const { return highlighted_; }
    /// Outlines CPU @cpu's lane (a lesson's step points at it); nullopt: none.
    void setHighlightedCpu(std::optional<unsigned> cpu);
    std::optional<unsigned> highlightedCpu() const { return highlightedCpu_; }
    /// The header's marker line: "A 12.30 ms   B 13.61 ms   B − A 1.31 ms".
    QString markerText() const;

    QString toolTipAt(const QPoint& pos) const override;
    /// The lane at @pos, -1 if none; the time at x.
    int laneAt(const QPoint& pos) const;
    double timeAt(double x) const;
    double xAt(double t) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    /// A click sets marker A, a shift-click marker B.
    void clickAt(QMouseEvent* e) override;
    /// Follow in the top right corner, Fit before it.
    void placeControls() override;
    bool event(QEvent* e) override;
    /// A right-click sets marker B.
    void mousePressEvent(QMouseEvent* e) override;
    void styleChanged() override;

private:
    /// Where everything is, at the widget's size and font and the range in view.
    TimelineLayout layout() const;
    void onRunReset() override;
    void onEvents(const std::vector<Event>& events) override;
    void onTicked() override;
    void updateIdleGap();
    QString legendToolTip() const;
    void paintHeader(QPainter& p, const TimelineLayout& l);
    void paintLanes(QPainter& p, const TimelineLayout& l);
    /// "CPUs 8–15" (lanes @first..@last), or a disk's name.
    QString laneGroupName(int first, int last) const;
    void paintHighlight(QPainter& p, const TimelineLayout& l);
    void paintAxis(QPainter& p, const TimelineLayout& l);
    void paintMarkers(QPainter& p, const TimelineLayout& l);

    /// The run on screen: its clock, state, pacing and lock names.
    Simulation& sim_;
    TimelineModel model_;
    QToolButton* followButton_ = nullptr;
    bool follow_ = true;
    double start_ = 0;    ///< view start when not following
    double span_ = 200e6; ///< visible time, ns
    std::optional<double> markerA_;
    std::optional<double> markerB_;
    QRect legendRect_;                           ///< where the legend was drawn, for its tooltip
    std::vector<TimelineModel::Column> columns_; ///< scratch, one per pixel column
    std::vector<TimelineLayout::Run> runs_;      ///< scratch, one lane's runs
    std::uint64_t liveEdgeNs_ = 0;               ///< the present while the run plays (event clock), 0 before
    QString highlighted_;
    std::optional<unsigned> highlightedCpu_;
    int zoomFirst_ = 0;
    int zoomLanes_ = 0;
};

} // namespace pcl::ui
