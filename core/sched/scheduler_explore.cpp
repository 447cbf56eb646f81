// The exploring strategies of the scheduler (sched/schedule_strategy.h):
// random and pct.
#include "sched/scheduler.h"

#include "sched/task.h"

#include <algorithm>

namespace pcl::sched {

namespace {
// pct's priorities: every initial one is above every change point's (d - 1
// down to 1), which are above every spinner's or yielder's (0 and below).
// An initial one is (d + 1) * 2^40 plus 40 random bits.
constexpr int kRandomBits = 40;
// The strategy's stream is its own, so that the keys of ties (keys_) are
// drawn as they are without it.
constexpr std::uint64_t kExploreStream = 0x6578706c6f726521ull; // "explore!"
} // namespace

std::uint64_t Scheduler::order_of(const Task& task) const noexcept
{
    switch (options_.strategy) {
    case ScheduleStrategy::Random:
        return 0; // the keys alone, drawn again at every point
    case ScheduleStrategy::Pct:
        // The highest priority first: the run queue takes the smallest.
        return (std::uint64_t(1) << 63) - std::uint64_t(task.priority);
    case ScheduleStrategy::VirtualTime:
        break;
    }
    return task.vtime;
}

void Scheduler::explore_start()
{
    explore_rng_ = SplitMix64(options_.seed ^ kExploreStream);
    lowest_ = 0;
    next_change_ = 0;
    change_points_.clear();
    if (options_.strategy != ScheduleStrategy::Pct)
        return;
    const std::uint64_t k = std::max<std::uint64_t>(options_.pct_steps, 1);
    for (unsigned i = 1; i < std::max(options_.pct_depth, 1u); ++i)
        change_points_.push_back(1 + explore_rng_.below(k));
    std::sort(change_points_.begin(), change_points_.end());
}

void Scheduler::explore_create(Task& task) noexcept
{
    if (options_.strategy != ScheduleStrategy::Pct)
        return;
    const std::int64_t band = std::int64_t(std::max(options_.pct_depth, 1u)) + 1;
    task.priority = (band << kRandomBits) + std::int64_t(explore_rng_.next() >> (64 - kRandomBits));
}

void Scheduler::scheduling_point() noexcept
{
    if (++points_ > options_.max_points && options_.max_points && current_)
        stop_running(Stop::TooLong);
    if (!exploring())
        return;
    if (options_.strategy == ScheduleStrategy::Random) {
        if (!ready_.empty())
            ready_.rekey([this] { return draw_key(); });
        return;
    }
    // pct: the change points that this point reached lower the running
    // task to d - i, the i-th (several at one point: the last one's).
    while (next_change_ < change_points_.size() && change_points_[next_change_] <= points_) {
        ++next_change_;
        if (current_)
            current_->priority = std::int64_t(options_.pct_depth) - std::int64_t(next_change_);
    }
}

void Scheduler::preemption_point() noexcept
{
    // The time stays; another runnable task may go first, as at a charge.
    if (exploring() && !ready_.empty())
        requeue_and_switch(draw_key());
}

void Scheduler::note_lock_acquired(LineKey lock) noexcept
{
    const unsigned task = current_ ? current_->id + 1 : 0;
    lock_order_ = SplitMix64::mix(lock_order_ ^ SplitMix64::mix(lock) ^ task);
}

void Scheduler::explore_yield(Task& task) noexcept
{
    if (options_.strategy == ScheduleStrategy::Pct)
        task.priority = lowest_--;
}

std::uint64_t Scheduler::timers_until() const noexcept
{
    // The run queue is in the strategy's order, not by time: a scan (an
    // exploring run has few tasks, and is not a measurement).
    std::uint64_t until = current_ && current_->state == TaskState::Running ? current_->vtime : WaitQueue::kForever;
    ready_.for_each([&](const Ready& r) { until = std::min(until, tasks_[r.id]->vtime); });
    return until;
}

} // namespace pcl::sched
