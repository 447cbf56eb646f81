// The CPUs timeline's data: the span model of the run's records
// (sim/span_model.h) over the lanes the timeline draws (the CPUs and the
// disks: kswapd's is not drawn), with the locks named for a student.
//
// Glossary:
//   lane   one simulated CPU (Event::cpu < cpus), or a disk's lane
//   span   a stretch of a lane's time in one state (sim/lane_span.h); a
//          lane's spans partition its time, so a query is a binary search
//          and a pixel column is a sum over a contiguous run
//
// Memory is bounded: spans older than the window (simulated wall time) or
// beyond a count per lane are dropped, oldest first.
#pragma once

#include "events/event.h"
#include "events/lanes.h"
#include "sim/span_model.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace pcl::ui {

/// What a lane was doing. The order is the legend's.
using CpuState = LaneState;
inline constexpr int kCpuStateCount = kLaneStateCount;
/// One stretch of a lane in one state; its lock is named by TimelineModel::lockName.
using TimelineSpan = LaneSpan;

class TimelineModel {
public:
    /// A lock wait shorter than this is drawn as spinning, a longer one as blocked.
    static constexpr std::uint64_t kSpinLimitNs = SpanModel::kSpinLimitNs;

    TimelineModel();

    /// Drops every span and sets the number of simulated CPUs and disks;
    /// the lanes are the CPUs then the disks, as the run records them
    /// (events/lanes.h).
    void reset(unsigned cpus, unsigned disks = 1);
    unsigned cpus() const { return spans_.layout().cpus(); }
    unsigned disks() const { return spans_.layout().disks(); }
    int laneCount() const { return static_cast<int>(spans_.layout().kswapd_lane()); }
    bool isDiskLane(int lane) const { return spans_.layout().kind(unsigned(lane)) == LaneKind::Disk; }
    /// Which disk a disk lane shows (0, 1).
    int diskOf(int lane) const { return static_cast<int>(spans_.layout().index(unsigned(lane))); }

    /// Names locks for the spans (Simulation::lockName); called once per
    /// distinct lock. Without one, a lock is named by its registry number.
    void setLockNamer(std::function<QString(const Event&)> namer) { namer_ = std::move(namer); }

    /// Spans older than this before the newest event are dropped.
    void setWindowNs(std::uint64_t ns) { spans_.set_window_ns(ns); }
    std::uint64_t windowNs() const { return spans_.window_ns(); }
    /// At most this many spans per lane are kept.
    void setMaxSpansPerLane(std::size_t n) { spans_.set_max_spans_per_lane(n); }
    std::size_t maxSpansPerLane() const { return spans_.max_spans_per_lane(); }
    /// A CPU that records nothing for longer than this was idle, a shorter
    /// silence was running.
    void setIdleGapNs(std::uint64_t ns) { spans_.set_idle_gap_ns(ns); }
    std::uint64_t idleGapNs() const { return spans_.idle_gap_ns(); }

    /// Appends a time-ordered batch. Events of lanes beyond the disks are ignored.
    void addEvents(const std::vector<Event>& events);
    /// The next events do not follow on from the last: nothing is known of
    /// any lane between its last event and its next (SpanModel::lose_track).
    void loseTrack() noexcept { spans_.lose_track(); }
    void addEvent(const Event& e);

    /// The time of the first event since reset (the run's origin on the axis), 0 if none.
    std::uint64_t originNs() const { return spans_.origin_ns(); }
    /// The run's start on its clock, when known before its first event.
    void setOriginNs(std::uint64_t ns) { spans_.set_origin(ns); }
    /// The time of the newest event, 0 if none.
    std::uint64_t latestNs() const { return spans_.latest_ns(); }
    /// The time of the oldest span still kept (over all lanes), 0 if none.
    std::uint64_t earliestNs() const { return spans_.earliest_ns(); }
    bool empty() const { return spans_.empty(); }

    /// The spans of @lane, oldest first.
    const std::deque<TimelineSpan>& spans(int lane) const { return spans_.lane(unsigned(lane)).spans(); }
    /// Indices [first, last) of the spans of @lane that overlap [t0, t1].
    std::pair<std::size_t, std::size_t> spansIn(int lane, std::uint64_t t0, std::uint64_t t1) const
    {
        return spans_.lane(unsigned(lane)).in(t0, t1);
    }
    /// The span of @lane that contains @t (closed spans first, then the open one), or nullopt.
    std::optional<TimelineSpan> spanAt(int lane, std::uint64_t t) const;
    /// The wait @lane is in now (begun, not ended), drawn up to latestNs(); nullopt if none.
    std::optional<TimelineSpan> openSpan(int lane) const { return spans_.open_span(unsigned(lane)); }

    /// Per pixel column: the state that covers most of it, the part of it each state covers, and
    /// whether most of it was inside a fault (LaneSpans::columns).
    using Column = SpanColumn;
    void columns(int lane, double t0, double t1, std::vector<Column>& out) const;

    /// The name of the lock a span waited for.
    QString lockName(std::uint32_t id) const;

private:
    /// Names the locks the spans have met since the last call.
    void nameLocks();

    SpanModel spans_;
    std::function<QString(const Event&)> namer_;
    std::vector<QString> lockNames_; ///< per SpanModel lock number
};

/// "1.31 ms", "420 ns", "2.5 s": a duration with a readable unit.
QString formatDuration(double ns);

} // namespace pcl::ui
