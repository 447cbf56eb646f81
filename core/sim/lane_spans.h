// The spans one lane keeps (lane_span.h), oldest first, with the time each
// state covers summed per block of spans: as KernelShark's visualization
// model bins its entries, so that a query over a range is a binary search
// and a pixel column that covers a whole block reads its sums, not its spans.
#pragma once

#include "sim/lane_span.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace pcl {

/// One of @columns equal slices of a range of a lane's time: the state that
/// covers most of it, the part of it each state covers, and whether most of
/// it was inside a fault.
struct SpanColumn {
    std::int8_t state = -1; ///< LaneState, -1 for nothing
    bool in_fault = false;
    float share = 0; ///< the part of the column's time that state covers, 0..1
    /// The part of the column's time each state covers (LaneState order), 0..1: what a column that
    /// covers many spans is drawn with, each state in proportion.
    std::array<float, kLaneStateCount> shares {};
};

class LaneSpans {
public:
    /// Spans per summary block.
    static constexpr std::size_t kBlock = 16;

    const std::deque<LaneSpan>& spans() const noexcept { return spans_; }
    bool empty() const noexcept { return spans_.empty(); }
    std::size_t size() const noexcept { return spans_.size(); }
    const LaneSpan& back() const { return spans_.back(); }

    // Every change to the spans goes through these, which keep the blocks in step.
    void push_back(const LaneSpan& s);
    void set_back_end(std::uint64_t end);
    void pop_back();
    void pop_front();
    void clear();
    /// Tells every piece of the fault begun at @fault_start (the newest spans) how it ended.
    void end_fault(std::uint64_t fault_start, std::uint64_t end, FaultKind kind);

    /// Indices [first, last) of the spans that overlap [t0, t1].
    std::pair<std::size_t, std::size_t> in(std::uint64_t t0, std::uint64_t t1) const;
    /// The span that contains @t, or nullopt.
    std::optional<LaneSpan> at(std::uint64_t t) const;

    /// Fills @out (its size is the number of columns) over [t0, t1], with @open (the wait the lane
    /// is in, if any) added. Columns nothing covers get state -1. Work is proportional to the columns
    /// plus the spans in the range, or a sixteenth of them where whole blocks of spans fall into one
    /// column (zoomed out).
    void columns(double t0, double t1, const std::optional<LaneSpan>& open, std::vector<SpanColumn>& out) const;

private:
    using Sums = std::array<double, kLaneStateCount + 1>; ///< time per state, then time in a fault
    void account(std::uint64_t seq, const LaneSpan& s, double sign);

    std::deque<LaneSpan> spans_;
    std::deque<Sums> blocks_;     ///< block b holds spans with sequence numbers [b*kBlock, (b+1)*kBlock)
    std::uint64_t first_seq_ = 0; ///< sequence number of spans_.front()
};

} // namespace pcl
