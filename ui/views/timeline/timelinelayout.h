// TimelineLayout: what the CPUs timeline draws where, for one frame of a
// widget of a given size and font, showing [startNs, startNs + spanNs) of
// the event clock: computed without painting, so that TimelineView only
// paints what it says and asks it what is under the mouse.
//
//   header   the legend (a chip per CPU state, then the fault band), and
//            the marker line at its right; the legend shortens its labels
//            before it would run into the markers, and leaves out the
//            entries that would still run under the buttons
//   labels   the lane names, left of the lanes
//   lanes    one row per lane (CPU, then disk), each pixel column a stack
//            of the states it covers, each as tall as its part of the
//            column's time (TimelineModel::columns), equal columns merged
//            into runs, the fault band under those inside a page fault, the lock's name on a wait wide enough to
//            carry it, and the outlines of the highlighted lock's waits
//   axis     time ticks, 1, 2 or 5 times a power of ten about kTickSpacing
//            pixels apart, labelled since the model's origin
// Markers are lines over the lanes with a flag at the top, the time between
// two of them shaded.
#pragma once

#include "views/timeline/timelinemodel.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPoint>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace pcl::ui {

class TimelineLayout {
    Q_DECLARE_TR_FUNCTIONS(TimelineLayout)

public:
    /// Zoom limits: a few hundred nanoseconds (one lock wait fills the view)
    /// up to a bit more than the model's window.
    static constexpr double kMinSpanNs = 200;
    /// Pixels between time ticks, roughly.
    static constexpr double kTickSpacing = 110;
    /// A lane shows lock names while it has at most this many spans in view.
    static constexpr std::size_t kMaxNamedSpans = 400;
    /// Zoomed far out, a lane has more waits than pixels: outline none rather than stall the frame.
    static constexpr std::size_t kMaxOutlinedSpans = 4000;

    /// Lanes are grouped by this many (a socket's or a few nodes' CPUs) when
    /// there are too many to name each: the group is named, and may be
    /// shown alone (a window of lanes).
    static constexpr int kGroupLanes = 8;

    /// A widget of @size drawn with @fm, @laneCount lanes (at least one is
    /// laid out), showing [startNs, startNs + spanNs); only lanes
    /// [@firstLane, @firstLane + @shownLanes) when @shownLanes > 0 (a group
    /// zoomed into), the others with no row.
    TimelineLayout(const QFontMetrics& fm, QSize size, int laneCount, double startNs, double spanNs, int firstLane = 0,
        int shownLanes = 0);

    QRect header() const { return header_; } ///< legend and markers
    QRect labels() const { return labels_; } ///< lane names
    QRect lanes() const { return lanes_; }   ///< the spans
    QRect axis() const { return axis_; }     ///< time ticks
    /// The row of lane @i (empty for a lane not shown).
    QRectF lane(int i) const;
    /// Whether each lane is tall enough to carry its own name; if not, the
    /// lanes are drawn close, a gap between groups, and each group named.
    bool namesEachLane() const { return namesEach_; }
    /// The groups of lanes shown (kGroupLanes each, the last maybe fewer),
    /// and where group @g (its lanes from g * kGroupLanes) is named.
    int groups() const { return (firstShown_ + shown_ - 1) / kGroupLanes - firstShown_ / kGroupLanes + 1; }
    int groupFirstLane(int g) const { return (firstShown_ / kGroupLanes + g) * kGroupLanes; }
    QRectF groupNameRect(int g) const;
    /// The group whose name is at @pos, -1 if none.
    int groupAt(const QPoint& pos) const;
    /// The outline of lane @i when a lesson points at it: its name and its
    /// row, in the gaps around them, so that it shows over any span's colour.
    QRectF laneOutline(int i) const;
    /// Space between the text and what is around it.
    int pad() const { return pad_; }

    double startNs() const { return start_; }
    double spanNs() const { return span_; }
    /// The time at x, and the x of a time (event clock, ns).
    double timeAt(double x) const;
    double xAt(double t) const;
    /// The lane at @pos, -1 if none.
    int laneAt(const QPoint& pos) const;

    /// One entry of the legend: a chip and its label.
    struct LegendEntry {
        QRectF chip;
        QRect label;
        QString text;
        CpuState state = CpuState::Running;
        bool faultBand = false; ///< the running chip with the fault band under it
    };
    struct Header {
        std::vector<LegendEntry> legend;
        QRect legendRect; ///< all of the legend, for its tooltip
        QRect markers;    ///< where the marker line goes (right aligned)
    };
    /// The header with @markerText at its right, ending at x = @right.
    Header layoutHeader(const QString& markerText, int right) const;
    /// The fault band's rectangle inside a legend chip.
    static QRectF chipBand(const QRectF& chip);

    /// The name of lane @i, and where it is written.
    static QString laneName(const TimelineModel& model, int lane);
    QRectF laneNameRect(int lane) const;

    /// A run of pixel columns drawing one state at the same height in each.
    struct Run {
        QRectF rect;
        CpuState state = CpuState::Idle;
        bool inFault = false; ///< the bottom of its columns, which were mostly inside a fault
    };
    /// The runs of lane @lane, into @out; @columns is scratch (one per pixel column).
    void runs(
        const TimelineModel& model, int lane, std::vector<TimelineModel::Column>& columns, std::vector<Run>& out) const;
    /// Height of the fault band under a run inside a page fault.
    double faultBandHeight(int lane) const;
    /// The band of @run (inside a fault) of lane @lane.
    QRectF faultBand(const Run& run, int lane) const;

    /// A lock's name on a wait wide enough to carry it.
    struct LockLabel {
        QRectF rect;
        QString text;
        CpuState state = CpuState::Spinning;
    };
    std::vector<LockLabel> lockLabels(const TimelineModel& model, int lane) const;
    /// A wait for the highlighted lock at least this wide is outlined; a
    /// narrower one is marked along its top edge only, so that zoomed out
    /// the outlines of thousands of waits do not cover the lanes' colours.
    static constexpr double kMinOutlinedPx = 6;
    /// The waits for lock @name in view (each at least a pixel wide).
    std::vector<QRectF> highlights(const TimelineModel& model, const QString& name) const;

    struct Tick {
        double x = 0;
        QString label;
        QRectF labelRect;
    };
    /// The axis ticks, labelled in time since @originNs.
    std::vector<Tick> ticks(double originNs) const;

    /// The shade between markers at @a and @b.
    QRectF markerShade(double a, double b) const;
    /// The flag of a marker @name at @t; nullopt when it is out of view.
    std::optional<QRectF> markerFlag(double t, const QString& name) const;

    /// The span of @lane a tooltip at x is about: a pixel may cover many
    /// spans, so the longest wait under it, else whatever is at the cursor.
    std::optional<TimelineSpan> spanAt(const TimelineModel& model, int lane, double x) const;
    /// What @span of lane @lane was, in words.
    static QString describe(const TimelineModel& model, int lane, const TimelineSpan& span);

private:
    QFontMetrics fm_;
    int laneCount_ = 0;
    int pad_ = 0;
    QRect header_;
    QRect labels_;
    QRect lanes_;
    QRect axis_;
    double laneHeight_ = 0;
    double laneGap_ = 0;
    double groupGap_ = 0;
    bool namesEach_ = true;
    int firstShown_ = 0;
    int shown_ = 0;
    double start_ = 0;
    double span_ = 1;
};

} // namespace pcl::ui
