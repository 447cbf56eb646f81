// The event stream read as spans: what each lane (events/lanes.h: the
// simulated CPUs, the disks, kswapd) was doing over time. The one reader of
// waits, faults, sleeps and requests out of the records; the timeline draws
// its spans and the trace export its activities.
//
// Records are given in time order, as they arrive (a live run's drained
// batches) or all again from the first (a rewind, an export). Each lane
// keeps a cursor: everything before it is already in spans, and the next
// record decides what the time between the cursor and itself was (a wait
// that ends, a fault piece, running or idle). Two products, kept as asked:
//
//   spans       each lane's time partitioned into states (lane_span.h),
//               with the wait the lane is in now left open; bounded: spans
//               older than the window (simulated wall time) or beyond a
//               count per lane are dropped, oldest first
//   activities  every wait, hold, fault, sleep and request as its ending
//               record measured it (activity.h), overlapping as they did
//
// Like KernelShark's libkshark-model, a reader never walks raw records: it
// asks for the spans of a lane in [t0, t1], or for the dominant state of
// each of a number of columns.
#pragma once

#include "events/event.h"
#include "events/lanes.h"
#include "sim/activity.h"
#include "sim/lane_span.h"
#include "sim/lane_spans.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pcl {

class SpanModel {
public:
    /// A lock wait shorter than this is a spin, a longer one a block: the
    /// records do not say whether the waiter spun or slept, and 50 us is
    /// where the engine's own waits switch from spinning to sleeping
    /// (sync::hold_stretch).
    static constexpr std::uint64_t kSpinLimitNs = 50'000;

    /// What the model keeps: the lanes' spans (a timeline), the activities (an export), or both.
    struct Keep {
        bool spans = true;
        bool activities = false;
    };
    SpanModel(); ///< keeps the spans
    explicit SpanModel(Keep keep);

    /// Drops everything and lays the lanes out as @layout says. Records of
    /// lanes beyond it still make activities, never spans. Returns the old
    /// lanes' spans: a long run's are millions of small blocks, whose
    /// freeing takes a noticeable part of a second, which a caller that
    /// must answer at once can spend on another thread by destroying the
    /// returned object there (ignored, it is freed here).
    std::shared_ptr<void> reset(const LaneLayout& layout);
    const LaneLayout& layout() const noexcept { return layout_; }
    unsigned lanes() const noexcept { return unsigned(lanes_.size()); }

    /// Spans that ended longer than this before the newest record are dropped.
    void set_window_ns(std::uint64_t ns) { window_ns_ = ns; }
    std::uint64_t window_ns() const noexcept { return window_ns_; }
    /// At most this many spans per lane are kept.
    void set_max_spans_per_lane(std::size_t n) { max_spans_ = n ? n : 1; }
    std::size_t max_spans_per_lane() const noexcept { return max_spans_; }
    /// A CPU that records nothing for longer than this was idle, a shorter silence was running.
    void set_idle_gap_ns(std::uint64_t ns) { idle_gap_ns_ = ns; }
    std::uint64_t idle_gap_ns() const noexcept { return idle_gap_ns_; }

    /// Adds a time-ordered batch, then drops the spans the window and the count leave out.
    void add(const std::vector<Event>& batch);
    /// Adds one record (drops nothing).
    void add(const Event& e);
    /// Drops the spans that ended longer than the window before the newest record.
    void evict();
    /// Records after the last one given were left out (a batch cut to its
    /// newest): what each lane did from its last record to its next is not
    /// known, so the wait or fault a lane was in is not carried over the
    /// gap, and the gap is no span (shown as nothing known, as the time
    /// before a lane's first record is).
    void lose_track() noexcept;
    /// Records given since reset().
    std::uint64_t records() const noexcept { return records_; }

    /// The time of the first record of a laid-out lane since reset, 0 if none.
    std::uint64_t origin_ns() const noexcept { return origin_; }
    /// Sets the origin to @ns, the run's start on its clock, instead of the
    /// first event's time: a modelled run taken back is shown from its
    /// newest events, which are not its first.
    void set_origin(std::uint64_t ns) noexcept
    {
        origin_ = ns;
        origin_set_ = true;
    }
    /// The time of the newest record of a laid-out lane, 0 if none.
    std::uint64_t latest_ns() const noexcept { return latest_; }
    /// The start of the oldest span still kept (over all lanes), 0 if none.
    std::uint64_t earliest_ns() const;
    bool empty() const noexcept { return latest_ == 0; }

    /// The spans of @lane, oldest first.
    const LaneSpans& lane(unsigned lane) const { return lanes_[lane].spans; }
    /// The wait @lane is in (begun, not ended), closed at @until (latest_ns() if 0); nullopt if none.
    std::optional<LaneSpan> open_span(unsigned lane, std::uint64_t until = 0) const;
    /// The span of @lane that contains @t (closed spans first, then the open one), or nullopt.
    std::optional<LaneSpan> span_at(unsigned lane, std::uint64_t t) const;
    /// @lane's [t0, t1] in out.size() columns, the open wait included (LaneSpans::columns).
    void columns(unsigned lane, double t0, double t1, std::vector<SpanColumn>& out) const;

    /// The locks spans have waited for, numbered as LaneSpan::lock numbers
    /// them: the first record that named each, for a reader to name it by.
    std::size_t locks() const noexcept { return locks_.size(); }
    const Event& lock_record(std::uint32_t lock) const { return locks_[lock]; }

    /// Every activity ended since reset, in the order their ending records came (Keep::activities).
    const std::vector<Activity>& activities() const noexcept { return activities_; }

private:
    struct OpenFault {
        std::uint64_t start = 0;
        FileId file = 0;
        pgoff_t page = 0;
    };
    /// A request as its submission named it.
    struct Submitted {
        std::uint64_t id = 0;
        std::uint64_t time = 0;
        FileId file = 0;
        pgoff_t first = 0;
        std::uint32_t pages = 0;
    };
    struct Lane {
        LaneSpans spans;
        std::uint64_t cursor = 0; ///< 0: nothing recorded yet
        /// The wait the lane is in: its start, state (Spinning for any lock
        /// wait until it ends), and what it waits for; its end is not known yet.
        std::optional<LaneSpan> wait;
        std::optional<OpenFault> fault;
        std::vector<Submitted> submitted; ///< this CPU's reads in flight (few: bounded)
    };
    /// A request's number, file and first page: each disk numbers its own
    /// requests, so the number alone does not tell two disks' apart.
    using RequestKey = std::tuple<std::uint64_t, FileId, pgoff_t>;

    std::optional<Submitted> submit(const Event& e);
    std::optional<Submitted> complete(const Event& e);
    void measure(const Event& e, std::uint64_t record, const std::optional<Submitted>& request);
    void partition(const Event& e, const std::optional<Submitted>& request);
    /// Partitions @lane up to @t: the time since the cursor was running (@busy: whatever its length), or idle.
    void advance(unsigned lane, std::uint64_t t, bool busy = false);
    void append(unsigned lane, LaneSpan span);
    LaneSpan piece(const Lane& l, LaneState state, std::uint64_t start, std::uint64_t end) const;
    /// @s as a piece of the fault @l is in, if any.
    static LaneSpan within_fault(const Lane& l, LaneSpan s);
    void end_fault(unsigned lane, std::uint64_t t, FaultKind kind, std::uint64_t start);
    std::uint32_t intern_lock(const Event& e);

    Keep keep_;
    LaneLayout layout_ { 0, 1 };
    std::vector<Lane> lanes_;
    std::map<RequestKey, Submitted> in_flight_;
    /// Lock waits each lane has begun, per lock: its next acquisition of
    /// one ends a wait, even one too short to measure.
    std::map<std::pair<std::uint16_t, std::uint64_t>, unsigned> waiting_;
    std::vector<Activity> activities_;
    std::unordered_map<std::uint64_t, std::uint32_t> lock_ids_; ///< (registry number, class) -> lock
    std::vector<Event> locks_;
    std::uint64_t records_ = 0;
    std::uint64_t origin_ = 0;
    bool origin_set_ = false; ///< set_origin gave it
    std::uint64_t latest_ = 0;
    std::uint64_t window_ns_ = 10'000'000'000ull;
    std::size_t max_spans_ = 100'000;
    std::uint64_t idle_gap_ns_ = 1'000'000;
};

} // namespace pcl
