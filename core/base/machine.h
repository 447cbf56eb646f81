// The machine the simulated CPUs run on.
//
// On the host (the default) the simulated CPUs, the disks, kswapd and the
// flushers are host threads, time is the host's clock and a waiter spins or
// sleeps in the host kernel. On a modelled machine the same code runs as
// tasks of one deterministic scheduler (core/sched) in virtual time: exactly
// one task runs at a time, the next is the one with the smallest virtual
// time, and a wait parks the task instead of blocking the host thread.
//
// Every place of core that reads the time, spins, sleeps, waits or starts a
// thread asks here. The host's path is one thread-local load and a branch,
// so host runs keep their speed; the modelled path is the virtual one.
//
// Only source files (and the scheduler) include this header: the headers of
// core reach the machine through base/machine_calls.h, which does not name
// the class (see there why).
#pragma once

#include "base/machine_calls.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace pcl {

class WaitQueue;

/// The scheduler of a modelled machine, as core sees it. Every call is made
/// from a task of the machine (the host thread that runs them).
class Machine {
public:
    virtual ~Machine() = default;

    /// The running task's virtual time, in nanoseconds. Never switches.
    virtual std::uint64_t now_ns() const noexcept = 0;
    /// The running task did @ns of work: its virtual time advances, and
    /// another task runs first when its time is now the smaller.
    virtual void charge(std::uint64_t ns) noexcept = 0;
    /// One step of a spin-wait: charges one spin step and lets every other
    /// task run up to the spinner's new time (a spinner cannot make
    /// progress until someone else does). When no other task can run within
    /// a step, the spinner's time moves in whole steps to the first at or
    /// past the next task's time or deadline at once, as many steps of
    /// spinning would.
    virtual void relax() noexcept = 0;
    /// Lets the tasks at the same virtual time run first.
    virtual void yield() noexcept = 0;
    /// A step of a lockless protocol between two atomic operations that
    /// cost nothing of their own (a page's count dropped, then its flags
    /// read): a schedule that explores (sched/schedule_strategy.h) may run
    /// another task here; the machine's own order charges nothing and runs
    /// on. Without it, what the model does not charge is never interleaved.
    virtual void preemption_point() noexcept { }
    /// The running task took the lock named @lock (note_lock_acquired,
    /// base/machine_calls.h). Nothing by default.
    virtual void note_lock_acquired(LineKey lock) noexcept { (void)lock; }
    /// The virtual time the running task has run so far: its work charged
    /// and its spinning, not its waits and sleeps (the CPU time a process's
    /// thread is charged). 0 by default.
    virtual std::uint64_t busy_ns() const noexcept { return 0; }
    /// The running task's number on this machine (its creation order): what
    /// a task without a simulated CPU is known by (base/cpu.h's slot), the
    /// same in every run, whatever else the process runs.
    virtual unsigned task_number() const noexcept { return 0; }
    /// Sleeps until virtual time @deadline_ns.
    virtual void sleep_until(std::uint64_t deadline_ns) noexcept = 0;
    /// Parks the running task on @queue until it is woken or virtual time
    /// reaches @deadline_ns (~0: no deadline). True when woken.
    virtual bool park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept = 0;
    /// Makes the first (or every) task parked on @queue runnable at the
    /// waker's virtual time, or its own if later.
    virtual void unpark_one(WaitQueue& queue) noexcept = 0;
    virtual void unpark_all(WaitQueue& queue) noexcept = 0;
    /// The running task did @count of @work: charges what the machine's
    /// model says it costs. A machine without a model charges nothing.
    virtual void work(Work work, std::uint64_t count) noexcept
    {
        (void)work;
        (void)count;
    }
    /// The running task reads or writes modelled line @line: charges the
    /// line's transfer, if any. A machine without a model charges nothing.
    virtual void touch_line(LineKey line, bool write) noexcept
    {
        (void)line;
        (void)write;
    }
    /// From now on @line is @with's line (base/machine_calls.h,
    /// share_line). A machine without a model has no lines.
    virtual void share_line(LineKey line, LineKey with) noexcept
    {
        (void)line;
        (void)with;
    }
    /// A spinner that has just read modelled line @line and found what it
    /// waits for not there: nothing it can read changes until another task
    /// writes the line, so it waits for that write (as many rounds of its
    /// spin would, each a free re-read of its own copy). Without a model,
    /// one relax().
    virtual void watch_line(LineKey line) noexcept
    {
        (void)line;
        relax();
    }
    /// A test-and-test-and-set spinlock's wait on a modelled machine
    /// (sync/raw_locks.h, RawSpinLock), after its first exchange found the
    /// word @locked taken: until an exchange takes it, waits for a write to
    /// its line @line (watch_line), re-reads the line and, when the word
    /// looks free, writes the line and tries the exchange. Returns holding
    /// the lock. A machine may run this loop for the task without switching
    /// to it, as long as every access, charge and wake-up is the loop's.
    virtual void take_spinning(LineKey line, std::atomic<bool>& locked) noexcept
    {
        do {
            do {
                watch_line(line);
                touch_line(line, false);
            } while (locked.load(std::memory_order_relaxed));
            touch_line(line, true);
        } while (locked.exchange(true, std::memory_order_acquire));
    }
    /// Starts @fn as a task of this machine, runnable at the spawner's time.
    virtual TaskRef spawn(std::string name, std::function<void()> fn) = 0;
    /// Waits (parked) until @task has returned.
    virtual void join(TaskRef task) noexcept = 0;

    // RCU on a modelled machine is the scheduler's: a grace period ends when
    // every task that was inside a read-side section when it began has left
    // it (liburcu's threads and membarriers stay for host runs).
    virtual void rcu_read_lock() noexcept = 0;
    virtual void rcu_read_unlock() noexcept = 0;
    /// Parks until a grace period that begins now has ended.
    virtual void synchronize_rcu() noexcept = 0;
    /// Runs @fn after a grace period that begins now, on a task of the
    /// machine's own.
    virtual void call_rcu(std::function<void()> fn) = 0;
    /// Parks until every callback queued by call_rcu() has run.
    virtual void rcu_barrier() noexcept = 0;
};

/// The machine of the calling task, or nullptr on the host.
inline Machine* current_machine() noexcept
{
    return static_cast<Machine*>(detail::t_machine);
}

/// Makes @machine the calling thread's machine for a scope (the scheduler,
/// while it runs its tasks).
class MachineScope {
public:
    explicit MachineScope(Machine* machine) noexcept
        : saved_(detail::t_machine)
    {
        detail::t_machine = machine;
    }
    ~MachineScope() { detail::t_machine = saved_; }
    MachineScope(const MachineScope&) = delete;
    MachineScope& operator=(const MachineScope&) = delete;

private:
    void* saved_;
};

} // namespace pcl
