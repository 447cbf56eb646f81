// What each simulated CPU (and the disk) was doing, over time, built from
// the event stream: the data behind the CPUs timeline.
//
// Glossary:
//   lane   one simulated CPU (Event::cpu < cpus), or the device lane
//          (Event::cpu == cpus: the disk thread)
//   span   a stretch of a lane's time in one state. A lane's spans partition
//          its time: they are appended in time order, never overlap, and
//          each starts where the previous one ended, so a query is a binary
//          search and a pixel column is a sum over a contiguous run.
//   cursor the time up to which a lane is partitioned (its last span's end)
//
// A wait inside a page fault splits the fault into pieces around it: every
// piece, wait or not, carries the enclosing fault (its start, kind and, once
// the fault has ended, its end), so a view draws the wait on top of a fault
// band that runs underneath the whole fault.
//
// Like KernelShark's model, the view never walks raw events: it asks for the
// spans in [t0, t1] of a lane, or for the dominant state of each pixel
// column. Memory is bounded: spans older than the window (simulated wall
// time) or beyond a count per lane are dropped, oldest first.
#pragma once

#include "events/event.h"
#include "events/lanes.h"
#include "mm/fault.h"

#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace pcl::ui {

/// What a lane was doing. The order is the legend's.
enum class CpuState : std::uint8_t {
    Running,  ///< time not accounted to any wait, while the CPU was recording events
    Spinning, ///< waiting for a lock, a short wait (under the spin limit)
    Blocked,  ///< waiting for a lock, a long wait
    PageWait, ///< asleep on a page that another CPU's read has under I/O
    InIo,     ///< waiting for its own read (from submitting it to waking); on the disk lane: a request in service
    Idle,     ///< nothing recorded for longer than the idle gap (a paced CPU sleeping, a finished one, an idle disk)
};
inline constexpr int kCpuStateCount = 6;

/// One stretch of a lane in one state.
struct TimelineSpan {
    std::uint64_t start_ns = 0;       ///< event clock (now_ns)
    std::uint64_t end_ns = 0;         ///< exclusive; >= start_ns
    std::uint64_t page = 0;           ///< PageWait/InIo: the page; disk: the request's first page; fault: its page
    std::uint64_t fault_start_ns = 0; ///< the enclosing fault's start (in_fault); disk: when the request was submitted
    std::uint64_t fault_end_ns = 0;   ///< its end; 0 while the fault is still open
    std::uint64_t request = 0;        ///< InIo: the I/O request id
    FileId file = 0;                  ///< the file of page
    std::uint32_t lock = 0;           ///< Spinning/Blocked: the lock's name, TimelineModel::lockName(lock)
    std::uint32_t pages = 0;          ///< InIo: pages in the request
    std::int16_t holder = -1;         ///< Spinning/Blocked: CPU holding the lock when the wait began, -1 unknown
    CpuState state = CpuState::Running;
    bool in_fault = false;         ///< this stretch is part of a page fault
    bool fault_kind_known = false; ///< the fault has ended and fault_kind is set
    FaultKind fault_kind = FaultKind::Minor;
};

class TimelineModel {
public:
    /// A lock wait shorter than this is drawn as spinning, a longer one as
    /// blocked: the events do not say whether the waiter spun or slept, and
    /// 50 us is where the engine's own waits switch from spinning to
    /// sleeping (sync::hold_stretch).
    static constexpr std::uint64_t kSpinLimitNs = 50'000;

    TimelineModel();

    /// Drops every span and sets the number of simulated CPUs and disks;
    /// the lanes are the CPUs then the disks, as the run records them
    /// (events/lanes.h).
    void reset(unsigned cpus, unsigned disks = 1);
    unsigned cpus() const { return layout_.cpus(); }
    int laneCount() const { return static_cast<int>(lanes_.size()); }
    bool isDiskLane(int lane) const { return layout_.kind(unsigned(lane)) == LaneKind::Disk; }
    /// Which disk a disk lane shows (0, 1).
    int diskOf(int lane) const { return static_cast<int>(layout_.index(unsigned(lane))); }

    /// Names locks for the spans (Simulation::lockName); called once per
    /// distinct lock. Without one, a lock is named by its registry number.
    void setLockNamer(std::function<QString(const Event&)> namer) { namer_ = std::move(namer); }

    /// Spans older than this before the newest event are dropped.
    void setWindowNs(std::uint64_t ns) { windowNs_ = ns; }
    std::uint64_t windowNs() const { return windowNs_; }
    /// At most this many spans per lane are kept.
    void setMaxSpansPerLane(std::size_t n) { maxSpans_ = n ? n : 1; }
    std::size_t maxSpansPerLane() const { return maxSpans_; }
    /// A CPU that records nothing for longer than this was idle, a shorter
    /// silence was running.
    void setIdleGapNs(std::uint64_t ns) { idleGapNs_ = ns; }
    std::uint64_t idleGapNs() const { return idleGapNs_; }

    /// Appends a time-ordered batch. Events of lanes beyond the disk are ignored.
    void addEvents(const std::vector<Event>& events);
    void addEvent(const Event& e);

    /// The time of the first event since reset (the run's origin on the axis), 0 if none.
    std::uint64_t originNs() const { return origin_; }
    /// The time of the newest event, 0 if none.
    std::uint64_t latestNs() const { return latest_; }
    /// The time of the oldest span still kept (over all lanes), 0 if none.
    std::uint64_t earliestNs() const;
    bool empty() const { return latest_ == 0; }

    /// The spans of @lane, oldest first.
    const std::deque<TimelineSpan>& spans(int lane) const { return lanes_[lane].spans; }
    /// Indices [first, last) of the spans of @lane that overlap [t0, t1].
    std::pair<std::size_t, std::size_t> spansIn(int lane, std::uint64_t t0, std::uint64_t t1) const;
    /// The span of @lane that contains @t (closed spans first, then the open one), or nullopt.
    std::optional<TimelineSpan> spanAt(int lane, std::uint64_t t) const;
    /// The wait @lane is in now (begun, not ended), drawn up to latestNs(); nullopt if none.
    std::optional<TimelineSpan> openSpan(int lane) const;

    /// Per pixel column: the state that covers most of [t0 + i*w, t0 + (i+1)*w), w = (t1 - t0) / columns,
    /// the part of it each state covers, and whether most of it was inside a fault. Columns nothing covers get -1. Work
    /// is proportional to the columns plus the spans in the range, or a sixteenth of them where whole blocks of spans
    /// fall into one column (zoomed out): a block's time per state is kept as spans are added and dropped.
    struct Column {
        std::int8_t state = -1; ///< CpuState, -1 for nothing
        bool in_fault = false;
        float share = 0; ///< the part of the column's time that state covers, 0..1
        /// The part of the column's time each state covers (CpuState order), 0..1: what a column that
        /// covers many spans is drawn with, each state in proportion.
        std::array<float, kCpuStateCount> shares {};
    };
    void columns(int lane, double t0, double t1, std::vector<Column>& out) const;

    /// The name of the lock a span waited for.
    QString lockName(std::uint32_t id) const;

private:
    struct OpenWait {
        CpuState state = CpuState::Spinning; ///< Spinning (a lock; finalised at acquire), PageWait or InIo
        std::uint64_t start = 0;
        std::uint32_t lock = 0;
        std::int16_t holder = -1;
        FileId file = 0;
        std::uint64_t page = 0;
        std::uint64_t request = 0;
        std::uint32_t pages = 0;
    };
    struct OpenFault {
        std::uint64_t start = 0;
        FileId file = 0;
        pgoff_t page = 0;
    };
    struct Submitted {
        std::uint64_t id = 0;
        std::uint64_t time = 0;
        FileId file = 0;
        pgoff_t first = 0;
        std::uint32_t pages = 0;
    };
    /// Spans per summary block: a pixel column that covers a whole block
    /// takes its sums instead of reading its spans.
    static constexpr std::size_t kBlock = 16;
    using Sums = std::array<double, kCpuStateCount + 1>; ///< time per state, then time in a fault
    struct Lane {
        std::deque<TimelineSpan> spans;
        std::deque<Sums> blocks;    ///< block b holds spans with sequence numbers [b*kBlock, (b+1)*kBlock)
        std::uint64_t firstSeq = 0; ///< sequence number of spans.front()
        // Every change to spans goes through these, which keep blocks in step.
        void pushBack(const TimelineSpan& s);
        void setBackEnd(std::uint64_t end);
        void popBack();
        void popFront();
        void account(std::uint64_t seq, const TimelineSpan& s, double sign);
        std::uint64_t cursor = 0; ///< 0: nothing recorded yet
        std::optional<OpenWait> wait;
        std::optional<OpenFault> fault;
        std::vector<Submitted> submitted; ///< this CPU's reads in flight (few: bounded below)
    };

    /// Partitions @lane up to @t: the time since the cursor was running (@busy: whatever its length), or idle.
    void advance(int lane, std::uint64_t t, bool busy = false);
    void append(int lane, TimelineSpan span);
    TimelineSpan piece(const Lane& l, CpuState state, std::uint64_t start, std::uint64_t end) const;
    void endFault(int lane, std::uint64_t t, FaultKind kind, std::uint64_t start);
    std::uint32_t internLock(const Event& e);
    void evict();

    LaneLayout layout_ { 0, 1 };
    std::vector<Lane> lanes_;
    std::unordered_map<std::uint64_t, Submitted> inFlight_; ///< request id -> submit, for the disk lane
    std::function<QString(const Event&)> namer_;
    std::unordered_map<std::uint64_t, std::uint32_t> lockIds_; ///< (registry number, class) -> name id
    std::vector<QString> lockNames_;
    std::uint64_t origin_ = 0;
    std::uint64_t latest_ = 0;
    std::uint64_t windowNs_ = 10'000'000'000ull;
    std::size_t maxSpans_ = 100'000;
    std::uint64_t idleGapNs_ = 1'000'000;
};

/// "1.31 ms", "420 ns", "2.5 s": a duration with a readable unit.
QString formatDuration(double ns);

} // namespace pcl::ui
