// The spinners whose loop the scheduler runs: a test-and-test-and-set
// spinlock's waiters (take_spinning, base/machine.h).
//
// Under a contended lock every release writes the lock's line, which wakes
// every waiter watching it (watch_line); each reads the line again, one
// transfer after another, and each that finds the word free writes the
// line and tries the exchange, which all but one lose (Boyd-Wickizer et al.,
// "Non-scalable locks are dangerous", 2012: the handoff's cost grows with
// the waiters). Switching to each waiter for each of those steps made a
// release cost dozens of task switches at 64 CPUs. The scheduler makes the
// same steps itself, at the same turns: when the waiter is taken from the
// run queue it makes the access the waiter would make next, charges it as
// charge() would (going back into the queue with a new key only when
// another task is now first), looks at the word where the waiter would,
// and parks it again on the line when the waiter would. The waiter is
// switched to only once its exchange took the lock. Every access, charge,
// key and wake-up is the loop's own, in the same order, so a run is the
// same as with the loop run by the waiter itself.
#include "sched/scheduler.h"

#include "base/cpu.h"

#include "sched/task.h"

namespace pcl::sched {

void Scheduler::take_spinning(LineKey line, std::atomic<bool>& locked) noexcept
{
    if (!model_) {
        Machine::take_spinning(line, locked); // watch_line() is a relax()
        return;
    }
    Task& task = *current_;
    task.spin_word = &locked;
    task.spin_line = line_of(line);
    task.spin_cpu = current_cpu();
    park_spinner(task);
    switch_away();
    // Switched to again only holding the lock (run_spinner).
}

void Scheduler::park_spinner(Task& task) noexcept
{
    // watch_line(): parked on the line until its next write, no deadline,
    // and under pct below every other task (explore_yield).
    explore_yield(task);
    task.spin = SpinStep::Reread;
    task.state = TaskState::Parked;
    task.wait = WaitKind::Line;
    task.join_target = ~0u;
    task.woken = false;
    task.deadline = WaitQueue::kForever;
    ++task.wait_seq;
    link(watchers_[task.spin_line], task);
}

void Scheduler::wake_watchers(LineKey line, std::uint64_t waker_vtime) noexcept
{
    if (watchers_.empty())
        return;
    if (const auto it = watchers_.find(line); it != watchers_.end())
        wake_all(it->second, waker_vtime);
}

bool Scheduler::spinner_charge(Task& task, std::uint64_t ns) noexcept
{
    // charge(): the step goes on at once unless another task is now first.
    task.busy_ns += ns;
    task.vtime += ns;
    if (task.vtime < next_event())
        return true;
    ++points_;
    enqueue(task, draw_key());
    return false;
}

bool Scheduler::run_spinner(Task& task) noexcept
{
    for (;;) {
        switch (task.spin) {
        case SpinStep::None:
            return true;
        case SpinStep::Reread: {
            // touch_line(line, false) after watch_line() returned.
            task.spin = SpinStep::Check;
            const std::uint64_t ns = model_->access(task.spin_line, task.spin_cpu, task.vtime, false);
            if (ns && !spinner_charge(task, ns))
                return false;
            break;
        }
        case SpinStep::Check: {
            if (task.spin_word->load(std::memory_order_relaxed)) {
                park_spinner(task); // still held: watch the line again
                return false;
            }
            // touch_line(line, true) before the exchange.
            task.spin = SpinStep::Exchange;
            const std::uint64_t ns = model_->access(task.spin_line, task.spin_cpu, task.vtime, true);
            if (ns && !spinner_charge(task, ns))
                return false;
            break;
        }
        case SpinStep::Exchange:
            // The write has landed (touch_line's wake-up), then the exchange.
            wake_watchers(task.spin_line, task.vtime);
            if (task.spin_word->exchange(true, std::memory_order_acquire)) {
                park_spinner(task); // lost it: back to the inner loop's watch
                return false;
            }
            task.spin = SpinStep::None;
            task.spin_word = nullptr;
            return true;
        }
    }
}

} // namespace pcl::sched
