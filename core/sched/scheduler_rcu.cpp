// RCU on a modelled machine: the scheduler knows which task is inside a
// read-side section, so a grace period is exact. It ends when every task
// that was inside one when it began has left it (Documentation/RCU/
// whatisRCU.rst: "any RCU read-side critical sections that began before
// synchronize_rcu() was called have completed"), not when some later state
// of the readers is reached: a reader that leaves and enters again is a new
// section, which the grace period does not wait for.
#include "sched/scheduler.h"

#include "sched/task.h"

#include <stdexcept>
#include <utility>

namespace pcl::sched {

void Scheduler::rcu_read_lock() noexcept
{
    Task& task = *current_;
    if (task.rcu_nesting++ == 0) {
        task.reader_slot = readers_.size();
        readers_.push_back(&task);
    }
}

void Scheduler::rcu_read_unlock() noexcept
{
    Task& task = *current_;
    if (task.rcu_nesting > 0 && --task.rcu_nesting == 0)
        end_read_side(task);
}

void Scheduler::end_read_side(Task& task) noexcept
{
    // Out of the readers, the last one put in its place.
    Task* last = readers_.back();
    readers_[task.reader_slot] = last;
    last->reader_slot = task.reader_slot;
    readers_.pop_back();
    for (GracePeriod* gp : task.grace_periods)
        if (--gp->readers == 0)
            unpark_all(gp->done);
    task.grace_periods.clear();
}

void Scheduler::synchronize_rcu() noexcept
{
    // The caller is counted too if it is a reader: a grace period inside a
    // read-side section never ends, as in the kernel (the deadlock report
    // then names it).
    // The tasks inside a section now, not every task there was: a run
    // whose callbacks' task comes and goes makes thousands of tasks.
    GracePeriod gp;
    for (Task* t : readers_) {
        t->grace_periods.push_back(&gp);
        ++gp.readers;
    }
    while (gp.readers > 0)
        park_as(gp.done, WaitQueue::kForever, WaitKind::GracePeriod);
}

void Scheduler::call_rcu(std::function<void()> fn)
{
    if (!current_)
        throw std::logic_error("scheduler: call_rcu() outside a task of the machine");
    rcu_callbacks_.push_back(std::move(fn));
    ++rcu_queued_;
    // The callbacks' task lives while callbacks are pending, so a machine
    // with none left is not kept from ending.
    if (!rcu_worker_alive_) {
        rcu_worker_alive_ = true;
        spawn("rcu callbacks", [this] { rcu_worker(); });
    }
}

void Scheduler::rcu_worker()
{
    // Each batch waits for a grace period that began after its last
    // callback was queued, then runs in the order they were queued.
    while (!rcu_callbacks_.empty()) {
        std::vector<std::function<void()>> batch;
        batch.swap(rcu_callbacks_);
        synchronize_rcu();
        for (auto& fn : batch) {
            std::exchange(fn, nullptr)();
            ++rcu_done_;
        }
        unpark_all(rcu_done_queue_);
    }
    rcu_worker_alive_ = false;
}

void Scheduler::rcu_barrier() noexcept
{
    const std::uint64_t queued = rcu_queued_;
    while (rcu_done_ < queued)
        park_as(rcu_done_queue_, WaitQueue::kForever, WaitKind::Callbacks);
}

} // namespace pcl::sched
