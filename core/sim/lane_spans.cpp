#include "sim/lane_spans.h"

#include <algorithm>

namespace pcl {

void LaneSpans::account(std::uint64_t seq, const LaneSpan& s, double sign)
{
    Sums& b = blocks_[std::size_t(seq / kBlock - first_seq_ / kBlock)];
    const double d = sign * double(s.end_ns - s.start_ns);
    b[std::size_t(s.state)] += d;
    if (s.in_fault)
        b[kLaneStateCount] += d;
}

void LaneSpans::push_back(const LaneSpan& s)
{
    const std::uint64_t seq = first_seq_ + spans_.size();
    if (seq % kBlock == 0 || blocks_.empty())
        blocks_.push_back(Sums {});
    spans_.push_back(s);
    account(seq, s, 1);
}

void LaneSpans::set_back_end(std::uint64_t end)
{
    const std::uint64_t seq = first_seq_ + spans_.size() - 1;
    account(seq, spans_.back(), -1);
    spans_.back().end_ns = end;
    account(seq, spans_.back(), 1);
}

void LaneSpans::pop_back()
{
    const std::uint64_t seq = first_seq_ + spans_.size() - 1;
    account(seq, spans_.back(), -1);
    spans_.pop_back();
    if (seq % kBlock == 0 || spans_.empty())
        blocks_.pop_back();
}

void LaneSpans::pop_front()
{
    spans_.pop_front();
    ++first_seq_;
    // The front block keeps the sums of spans already gone until it is
    // gone itself; columns() never uses a block that is not whole.
    if (first_seq_ % kBlock == 0 || spans_.empty())
        blocks_.pop_front();
    if (spans_.empty())
        blocks_.clear();
}

void LaneSpans::clear()
{
    spans_.clear();
    blocks_.clear();
    first_seq_ = 0;
}

void LaneSpans::end_fault(std::uint64_t fault_start, std::uint64_t end, FaultKind kind)
{
    // Neither a span's state nor its length changes: the sums stand.
    for (auto it = spans_.rbegin(); it != spans_.rend(); ++it) {
        if (!it->in_fault || it->fault_start_ns != fault_start || it->fault_kind_known)
            break;
        it->fault_end_ns = end;
        it->fault_kind = kind;
        it->fault_kind_known = true;
    }
}

std::pair<std::size_t, std::size_t> LaneSpans::in(std::uint64_t t0, std::uint64_t t1) const
{
    const auto& s = spans_;
    // Spans partition the lane: both their starts and their ends are sorted.
    const auto first = std::partition_point(s.begin(), s.end(), [&](const LaneSpan& x) { return x.end_ns < t0; });
    const auto last = std::partition_point(first, s.end(), [&](const LaneSpan& x) { return x.start_ns <= t1; });
    return { std::size_t(first - s.begin()), std::size_t(last - s.begin()) };
}

std::optional<LaneSpan> LaneSpans::at(std::uint64_t t) const
{
    const auto it
        = std::partition_point(spans_.begin(), spans_.end(), [&](const LaneSpan& x) { return x.end_ns <= t; });
    if (it != spans_.end() && it->start_ns <= t)
        return *it;
    return std::nullopt;
}

void LaneSpans::columns(double t0, double t1, const std::optional<LaneSpan>& open, std::vector<SpanColumn>& out) const
{
    const std::size_t n = out.size();
    std::fill(out.begin(), out.end(), SpanColumn {});
    if (n == 0 || t1 <= t0)
        return;
    const double w = (t1 - t0) / double(n);
    std::vector<std::array<float, kLaneStateCount + 1>> acc(n, std::array<float, kLaneStateCount + 1> {});
    const double invW = 1.0 / w;
    auto add = [&](const LaneSpan& s) {
        const double a = std::max(double(s.start_ns), t0);
        const double b = std::min(double(s.end_ns), t1);
        if (b < a)
            return;
        const auto c0 = std::min(n - 1, std::size_t((a - t0) * invW));
        const auto c1 = std::min(n - 1, std::size_t((b - t0) * invW));
        const int st = int(s.state);
        const int fault = s.in_fault ? kLaneStateCount : -1;
        // A span too short to measure still counts a little, so a column of
        // nothing but instants is not empty.
        auto put = [&](std::size_t c, double d) {
            const auto f = float(std::max(d, 1e-3));
            acc[c][st] += f;
            if (fault >= 0)
                acc[c][fault] += f;
        };
        if (c0 == c1) { // zoomed out, most spans fall in one column
            put(c0, b - a);
            return;
        }
        put(c0, t0 + double(c0 + 1) * w - a);
        for (std::size_t c = c0 + 1; c < c1; ++c)
            put(c, w);
        put(c1, b - (t0 + double(c1) * w));
    };
    const auto [first, last] = in(std::uint64_t(std::max(t0, 0.0)), std::uint64_t(std::max(t1, 0.0)));
    // Zoomed out, a whole block of spans often falls into one column: its
    // sums stand for its spans, and the spans themselves are not read.
    auto columnOf = [&](double t) { return std::size_t((t - t0) * invW); };
    std::size_t i = first;
    while (i < last) {
        const std::uint64_t seq = first_seq_ + i;
        if (seq % kBlock == 0 && i + kBlock <= last) { // a whole block: its first span is still kept
            const LaneSpan& a = spans_[i];
            const LaneSpan& z = spans_[i + kBlock - 1];
            if (double(a.start_ns) >= t0 && double(z.end_ns) <= t1
                && columnOf(double(a.start_ns)) == columnOf(double(z.end_ns)) && columnOf(double(z.end_ns)) < n) {
                const Sums& b = blocks_[std::size_t(seq / kBlock - first_seq_ / kBlock)];
                auto& c = acc[columnOf(double(a.start_ns))];
                for (int st = 0; st <= kLaneStateCount; ++st)
                    c[st] += float(b[std::size_t(st)]);
                i += kBlock;
                continue;
            }
        }
        add(spans_[i]);
        ++i;
    }
    if (open)
        add(*open);
    for (std::size_t c = 0; c < n; ++c) {
        float total = 0;
        int best = -1;
        for (int st = 0; st < kLaneStateCount; ++st) {
            total += acc[c][st];
            out[c].shares[std::size_t(st)] = std::min(1.0f, acc[c][st] / float(w));
            if (acc[c][st] > 0 && (best < 0 || acc[c][st] > acc[c][best]))
                best = st;
        }
        out[c].state = static_cast<std::int8_t>(best);
        out[c].share = best >= 0 ? std::min(1.0f, acc[c][best] / float(w)) : 0.0f;
        out[c].in_fault = total > 0 && acc[c][kLaneStateCount] * 2 >= total;
    }
}

} // namespace pcl
