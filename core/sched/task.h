// A task of a modelled machine, as its scheduler keeps it.
#pragma once

#include "base/machine_calls.h"
#include "base/wait_queue.h"
#include "sched/fiber.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pcl::sched {

class Scheduler;

enum class TaskState : std::uint8_t {
    Runnable, ///< in the run queue
    Running,  ///< the one task that runs
    Parked,   ///< waiting to be woken, or for its deadline
    Done,     ///< returned (or failed)
};

/// What a parked task waits for, for the deadlock report.
enum class WaitKind : std::uint8_t {
    Queue,       ///< a WaitQueue (a WaitMutex's too)
    Join,        ///< another task's end
    GracePeriod, ///< synchronize_rcu()
    Callbacks,   ///< rcu_barrier()
    Line,        ///< a write to a modelled line (watch_line)
};

/// Where a spinner whose loop the scheduler runs (take_spinning) is: what
/// it does when it is next taken from the run queue.
enum class SpinStep : std::uint8_t {
    None,     ///< not such a spinner: it runs
    Reread,   ///< woken by a write: reads the line again
    Check,    ///< its read has arrived: looks at the word
    Exchange, ///< its write has arrived: wakes the line's watchers, tries the exchange
};

/// A grace period that synchronize_rcu() waits out: the readers it waits for.
struct GracePeriod {
    unsigned readers = 0;
    WaitQueue done;
};

struct Task {
    Scheduler* scheduler = nullptr;
    unsigned id = 0;
    std::string name;
    std::function<void()> fn;
    TaskState state = TaskState::Runnable;
    std::uint64_t vtime = 0;   ///< virtual time, ns
    std::uint64_t busy_ns = 0; ///< of it, the time it ran: work charged and spinning, not waits or sleeps
    std::int64_t priority = 0; ///< pct's (schedule_strategy.h): the highest runs

    // Parked: on which queue (an intrusive FIFO through the queue's
    // parked_first/parked_last), until when, and whether a wake-up ended it.
    WaitKind wait = WaitKind::Queue;
    WaitQueue* queue = nullptr;
    Task* queue_prev = nullptr;
    Task* queue_next = nullptr;
    std::uint64_t deadline = WaitQueue::kForever;
    std::uint64_t wait_seq = 0; ///< which park a timer entry belongs to
    bool woken = false;
    unsigned join_target = ~0u;

    // RCU: the read-side nesting, and the grace periods waiting for the
    // outermost section the task is in to end.
    unsigned rcu_nesting = 0;
    std::size_t reader_slot = 0; ///< its place in the scheduler's readers while rcu_nesting > 0
    std::vector<GracePeriod*> grace_periods;

    // A spinner in take_spinning: its next step, the lock word, its line,
    // and the CPU it spins on (its current_cpu(), fixed while it waits).
    SpinStep spin = SpinStep::None;
    std::atomic<bool>* spin_word = nullptr;
    LineKey spin_line = 0;
    int spin_cpu = 0;

    WaitQueue exited; ///< its joiners
    std::unique_ptr<Fiber> fiber;
    std::byte* locals = nullptr; ///< its copies of the task-locals (TaskLocalSet)
};

} // namespace pcl::sched
