// The run queue, the deadlines of parked tasks, and parking and waking.
#include "sched/scheduler.h"

#include "sched/task.h"

#include <algorithm>

namespace pcl::sched {

void Scheduler::enqueue(Task& task, std::uint64_t key) noexcept
{
    task.state = TaskState::Runnable;
    ready_.push({ order_of(task), key, task.id });
}

bool Scheduler::timer_is_live(const Timer& timer) const noexcept
{
    const Task& task = *tasks_[timer.id];
    return task.state == TaskState::Parked && task.wait_seq == timer.wait_seq;
}

std::uint64_t Scheduler::first_deadline() noexcept
{
    // Deadlines of tasks woken before them are dropped as they come up.
    while (!timers_.empty() && !timer_is_live(timers_.top())) {
        timers_.pop();
        --stale_timers_;
    }
    return timers_.empty() ? WaitQueue::kForever : timers_.top().deadline;
}

std::uint64_t Scheduler::next_event() noexcept
{
    const std::uint64_t deadline = first_deadline();
    if (exploring()) // any other runnable task may go next, now
        return ready_.empty() ? deadline : 0;
    return std::min(ready_.empty() ? WaitQueue::kForever : ready_.top().vtime, deadline);
}

void Scheduler::fire_timers(std::uint64_t until) noexcept
{
    // A deadline at or before the first runnable task's time ends its wait
    // first; at the same time the keys order them, as any other tie.
    while (!timers_.empty()) {
        const Timer top = timers_.top();
        if (!timer_is_live(top)) {
            timers_.pop();
            --stale_timers_;
            continue;
        }
        Task& task = *tasks_[top.id];
        if (top.deadline > until)
            break;
        timers_.pop();
        unlink(task);
        task.woken = false;
        task.vtime = std::max(task.vtime, top.deadline);
        enqueue(task, draw_key());
        until = top.deadline;
    }
}

Task* Scheduler::pick_next() noexcept
{
    // A spinner whose loop the scheduler runs takes its step here, at its
    // turn, and is only switched to once it holds its lock.
    for (;;) {
        fire_timers(ready_.empty() ? WaitQueue::kForever : exploring() ? timers_until() : ready_.top().vtime);
        if (ready_.empty())
            return nullptr;
        Task* next = tasks_[ready_.top().id].get();
        ready_.pop();
        if (next->spin == SpinStep::None || run_spinner(*next))
            return next;
    }
}

void Scheduler::link(WaitQueue& queue, Task& task) noexcept
{
    task.queue = &queue;
    task.queue_next = nullptr;
    task.queue_prev = static_cast<Task*>(queue.parked_last);
    if (task.queue_prev)
        task.queue_prev->queue_next = &task;
    else
        queue.parked_first = &task;
    queue.parked_last = &task;
}

void Scheduler::unlink(Task& task) noexcept
{
    WaitQueue& queue = *task.queue;
    if (task.queue_prev)
        task.queue_prev->queue_next = task.queue_next;
    else
        queue.parked_first = task.queue_next;
    if (task.queue_next)
        task.queue_next->queue_prev = task.queue_prev;
    else
        queue.parked_last = task.queue_prev;
    task.queue = nullptr;
    task.queue_prev = task.queue_next = nullptr;
}

bool Scheduler::park_as(WaitQueue& queue, std::uint64_t deadline_ns, WaitKind kind, unsigned join_target) noexcept
{
    Task& task = *current_;
    if (deadline_ns != WaitQueue::kForever && deadline_ns <= task.vtime)
        return false; // already past: no time passes, nothing runs
    task.state = TaskState::Parked;
    task.wait = kind;
    task.join_target = join_target;
    task.woken = false;
    task.deadline = deadline_ns;
    ++task.wait_seq;
    link(queue, task);
    if (deadline_ns != WaitQueue::kForever)
        timers_.push({ deadline_ns, task.id, task.wait_seq });
    switch_away();
    return task.woken;
}

bool Scheduler::park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept
{
    return park_as(queue, deadline_ns, WaitKind::Queue);
}

void Scheduler::wake(Task& task, std::uint64_t waker_vtime) noexcept
{
    unlink(task);
    task.woken = true;
    if (task.deadline != WaitQueue::kForever) {
        // Its deadline stays queued until it comes up; waits that keep
        // ending early (a long timeout, woken at once) must not pile them up.
        task.state = TaskState::Runnable;
        if (++stale_timers_ > 64 && stale_timers_ * 2 > timers_.size()) {
            timers_.drop_if([this](const Timer& t) { return !timer_is_live(t); });
            stale_timers_ = 0;
        }
    }
    task.vtime = std::max(task.vtime, waker_vtime);
    enqueue(task, draw_key());
}

void Scheduler::wake_all(WaitQueue& queue, std::uint64_t waker_vtime) noexcept
{
    // In queue order, so their keys are drawn in the order they parked.
    while (queue.parked_first)
        wake(*static_cast<Task*>(queue.parked_first), waker_vtime);
}

void Scheduler::unpark_one(WaitQueue& queue) noexcept
{
    if (queue.parked_first)
        wake(*static_cast<Task*>(queue.parked_first), current_ ? current_->vtime : 0);
}

void Scheduler::unpark_all(WaitQueue& queue) noexcept
{
    wake_all(queue, current_ ? current_->vtime : 0);
}

} // namespace pcl::sched
