#include "sim/run_clock.h"

#include <algorithm>
#include <limits>

namespace pcl {

namespace {
constexpr std::uint64_t kOpen = std::numeric_limits<std::uint64_t>::max();
}

void RunClock::start(std::uint64_t wall_ns)
{
    started_ = true;
    holding_ = false;
    start_ns_ = wall_ns;
    pauses_.clear();
}

void RunClock::stop(std::uint64_t wall_ns)
{
    if (!started_ || holding_)
        return;
    const std::uint64_t before
        = pauses_.empty() ? 0 : pauses_.back().before_ns + (pauses_.back().to_ns - pauses_.back().from_ns);
    // A clock read a little behind the last pause's end cannot open a pause
    // before it: pauses stay in order and do not overlap.
    const std::uint64_t from = std::max(wall_ns, pauses_.empty() ? start_ns_ : pauses_.back().to_ns);
    pauses_.push_back({ from, kOpen, before });
    holding_ = true;
}

void RunClock::go(std::uint64_t wall_ns)
{
    if (!holding_)
        return;
    pauses_.back().to_ns = std::max(wall_ns, pauses_.back().from_ns);
    holding_ = false;
}

std::uint64_t RunClock::to_run(std::uint64_t wall_ns) const noexcept
{
    if (!started_ || wall_ns <= start_ns_)
        return wall_ns;
    // The last pause that began at or before the stamp.
    const auto after = std::upper_bound(
        pauses_.begin(), pauses_.end(), wall_ns, [](std::uint64_t t, const Pause& p) { return t < p.from_ns; });
    if (after == pauses_.begin())
        return wall_ns;
    const Pause& p = *(after - 1);
    // Inside the pause: where the run stood when it began.
    const std::uint64_t into = std::min(wall_ns, p.to_ns) - p.from_ns;
    return wall_ns - p.before_ns - into;
}

std::uint64_t RunClock::running_ns(std::uint64_t wall_ns) const noexcept
{
    if (!started_ || wall_ns <= start_ns_)
        return 0;
    return to_run(wall_ns) - start_ns_;
}

} // namespace pcl
