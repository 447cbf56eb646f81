// The deterministic scheduler of a modelled machine.
//
// Core's code (the indexes, the locks, the fault handler, reclaim,
// writeback) runs as tasks of one scheduler on one host thread, in virtual
// time: exactly one task runs at a time, and the next to run is the runnable
// task with the smallest virtual time. Ties are broken by a key drawn, at
// every (re)enqueue, from a splitmix64 stream seeded by the scheduler's
// seed: the order is (virtual time, key, task id). Nothing depends on
// pointers, host thread ids or host time, so one seed gives one run, and
// another seed another interleaving of the tasks that are at the same time.
//
// A task's virtual time moves only when it says so: charge() (it did work),
// relax() (a step of a spin-wait), sleep_until(), or a wait. A waiter parks
// (a WaitQueue, a join, a grace period) and becomes runnable at its waker's
// time, or at its deadline if that comes first. Nothing preempts a task: it
// runs until it charges past another task, yields or parks, as a kernel
// without preemption runs until it schedules.
//
// Tasks switch by user-space context switches (sched/fiber.h), with their
// own copies of the registered thread-locals (base/task_local.h).
//
// That order is the machine's; SchedulerOptions::strategy can replace it
// with an exploring one, which may switch at every charge, spin, yield or
// wait (sched/schedule_strategy.h).
#pragma once

#include "base/machine.h"
#include "base/splitmix64.h"
#include "base/wait_queue.h"
#include "sched/fiber.h"
#include "sched/machine_model.h"
#include "sched/run_queue.h"
#include "sched/schedule_strategy.h"
#include "sched/task_locals.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace pcl::sched {

struct Task;
enum class WaitKind : std::uint8_t;

struct SchedulerOptions {
    /// Seeds the keys that order tasks at the same virtual time.
    std::uint64_t seed = 0;
    /// The virtual time one relax() (one step of a spin-wait) costs.
    std::uint64_t spin_step_ns = 50;
    /// Each task's stack (a guard page below it is extra). Faults, read(2)
    /// and write(2) with direct reclaim and dirty throttling in a tiny
    /// memory reach about 8 KiB below a task's first frame (their 4 KiB
    /// copy buffers are thread_local, not on the stack); pages are only
    /// committed as they are touched, so this is generous. Core's large
    /// objects (a FaultHandler is about 60 KiB) belong on the heap, not
    /// among a task's locals.
    std::size_t stack_bytes = 256 * 1024;
    /// Which task runs next (schedule_strategy.h).
    ScheduleStrategy strategy = ScheduleStrategy::VirtualTime;
    /// pct: the depth d, the ordering constraints a bug needs (d - 1
    /// priority change points), at least 1.
    unsigned pct_depth = 3;
    /// pct: the scheduling points the change points are drawn from (k),
    /// about the number a run makes (scheduling_points() of a first run).
    std::uint64_t pct_steps = 1'000'000;
    /// A run that makes more scheduling points than this (0: no limit) is
    /// stopped as run() stops a deadlock, saying so: an exploring schedule
    /// may starve the task another waits for, for good.
    std::uint64_t max_points = 0;
};

class Scheduler final : public Machine {
public:
    explicit Scheduler(SchedulerOptions options = SchedulerOptions());
    ~Scheduler() override;
    Scheduler(const Scheduler&) = delete;
    Scheduler& operator=(const Scheduler&) = delete;

    /// Runs @main as the first task, at virtual time 0, on the calling
    /// thread (the machine of every task it starts), and returns when every
    /// task has returned. Throws what a task threw (the first, and the
    /// machine stops there), or std::runtime_error naming every stuck task
    /// when none can run and none has a deadline, or one has relaxed
    /// alone for kLoneRelaxes rounds (a deadlock). On either,
    /// the tasks left are abandoned: their stacks are freed without being
    /// unwound. Each run starts afresh: same seed, same run.
    void run(std::function<void()> main);
    /// The seed of the next run(): one scheduler runs schedule after
    /// schedule of an exploration, its tasks' stacks kept from run to run.
    void set_seed(std::uint64_t seed) noexcept { options_.seed = seed; }

    /// Charges what @model says: each operation's work and each line's
    /// transfers (without one, work() and touch_line() charge nothing). Set
    /// before run(). A model serves one run: its lines keep their owners
    /// and its draws go on, so a second run() on it would not be the run
    /// its seed names; run() refuses it (std::logic_error) until a fresh
    /// model is set.
    void set_model(std::unique_ptr<MachineModel> model) noexcept
    {
        model_ = std::move(model);
        model_spent_ = false;
    }
    const MachineModel* model() const noexcept { return model_.get(); }

    /// Holds the machine before its virtual time passes @vtime: before a
    /// task whose clock is later runs, or the running one goes on past it
    /// alone, @hold is called on the machine's host thread, and nothing
    /// runs until it returns (it may move the hold with set_hold_at(); it is
    /// called again while the machine would still pass it). Nothing in the
    /// run changes: no scheduling point, no key drawn, no switch. It is how
    /// someone watching a run (sim/modelled_run.h) stops it at any moment
    /// without becoming part of it. UINT64_MAX (the default): never.
    void set_hold(std::function<void()> hold) { hold_ = std::move(hold); }
    void set_hold_at(std::uint64_t vtime) noexcept { hold_at_ = vtime; }
    std::uint64_t hold_at() const noexcept { return hold_at_; }

    /// The running task (invalid outside a run).
    TaskRef current_task() const noexcept;
    /// The name @task was spawned with.
    const std::string& task_name(TaskRef task) const;
    /// Context switches so far in this run (task to task, and to or from
    /// the scheduler's own loop).
    std::uint64_t switches() const noexcept { return switches_; }
    /// Points in this run where another task could have been chosen: every
    /// charge, spin, yield and wait under an exploring strategy; under
    /// virtual_time, the points where the order was looked at.
    std::uint64_t scheduling_points() const noexcept { return points_; }
    /// A hash of the order in which tasks ran in this run (each switch's
    /// task): two runs with different fingerprints interleaved differently.
    std::uint64_t fingerprint() const noexcept { return fingerprint_; }
    /// A hash of the order in which the tasks took their locks in this run
    /// (each acquisition's task and lock, note_lock_acquired): the coverage
    /// an exploration reports, as CHESS counts interleavings of its
    /// synchronisation operations. Two runs that switched at different
    /// points but took every lock in the same order have the same one.
    std::uint64_t lock_order() const noexcept { return lock_order_; }
    /// Deadlines held, including those of waits that ended early and are
    /// not dropped yet (never more than about twice the live ones).
    std::size_t deadlines_held() const noexcept { return timers_.size(); }

    // Machine.
    std::uint64_t now_ns() const noexcept override;
    void charge(std::uint64_t ns) noexcept override;
    void relax() noexcept override;
    void yield() noexcept override;
    void preemption_point() noexcept override;
    void note_lock_acquired(LineKey lock) noexcept override;
    std::uint64_t busy_ns() const noexcept override;
    unsigned task_number() const noexcept override;
    void sleep_until(std::uint64_t deadline_ns) noexcept override;
    bool park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept override;
    void unpark_one(WaitQueue& queue) noexcept override;
    void unpark_all(WaitQueue& queue) noexcept override;
    void work(Work work, std::uint64_t count) noexcept override;
    void touch_line(LineKey line, bool write) noexcept override;
    void share_line(LineKey line, LineKey with) noexcept override;
    void watch_line(LineKey line) noexcept override;
    void take_spinning(LineKey line, std::atomic<bool>& locked) noexcept override;
    TaskRef spawn(std::string name, std::function<void()> fn) override;
    void join(TaskRef task) noexcept override;
    void rcu_read_lock() noexcept override;
    void rcu_read_unlock() noexcept override;
    void synchronize_rcu() noexcept override;
    void call_rcu(std::function<void()> fn) override;
    void rcu_barrier() noexcept override;

private:
    /// A parked task's deadline; stale once the task is woken (wait_seq).
    struct Timer {
        std::uint64_t deadline;
        unsigned id;
        std::uint64_t wait_seq;
        friend bool operator>(const Timer& a, const Timer& b) noexcept
        {
            return a.deadline != b.deadline ? a.deadline > b.deadline : a.id > b.id;
        }
    };
    /// The deadlines, earliest first; those of waits that ended early are
    /// dropped when they come up, or all at once when they are most of it.
    struct TimerQueue : std::priority_queue<Timer, std::vector<Timer>, std::greater<>> {
        template <class Stale> void drop_if(Stale stale)
        {
            std::erase_if(c, stale);
            std::make_heap(c.begin(), c.end(), comp);
        }
    };
    enum class Stop : std::uint8_t { None, Deadlock, Spinning, TooLong };

    // scheduler.cpp: tasks and switching.
    Task& create(std::string name, std::function<void()> fn, std::uint64_t vtime);
    static void task_entry(void* task) noexcept;
    [[noreturn]] void exit_running() noexcept;
    void finish(Task& task) noexcept;
    void abandon_all() noexcept;
    /// Runs the next task; @counted: the caller made this choice's
    /// scheduling point already.
    void switch_away(bool counted = false) noexcept;
    void requeue_and_switch(std::uint64_t key) noexcept;
    void switch_to(Task& next) noexcept;
    [[noreturn]] void stop_running(Stop why) noexcept;
    void advance_to(std::uint64_t vtime) noexcept;
    std::string deadlock_report() const;

    // scheduler_wait.cpp: the run queue, timers, parking.
    std::uint64_t draw_key() noexcept { return keys_.next() >> 1; }
    /// After every task at its time, and after earlier yielders (FIFO).
    std::uint64_t yield_key() noexcept { return (std::uint64_t(1) << 63) | yield_seq_++; }
    void enqueue(Task& task, std::uint64_t key) noexcept;
    std::uint64_t next_event() noexcept;
    std::uint64_t first_deadline() noexcept;
    Task* pick_next() noexcept;
    void fire_timers(std::uint64_t until) noexcept;
    bool timer_is_live(const Timer& timer) const noexcept;
    bool park_as(WaitQueue& queue, std::uint64_t deadline_ns, WaitKind kind, unsigned join_target = ~0u) noexcept;
    void link(WaitQueue& queue, Task& task) noexcept;
    void unlink(Task& task) noexcept;
    void wake(Task& task, std::uint64_t waker_vtime) noexcept;
    void wake_all(WaitQueue& queue, std::uint64_t waker_vtime) noexcept;

    // scheduler_explore.cpp: the exploring strategies.
    bool exploring() const noexcept { return options_.strategy != ScheduleStrategy::VirtualTime; }
    /// The first member of @task's run-queue entry: its virtual time, or
    /// under an exploring strategy its rank (0 for random, from its
    /// priority for pct).
    std::uint64_t order_of(const Task& task) const noexcept;
    void explore_start();
    void explore_create(Task& task) noexcept;
    /// A point where the next task is chosen: counted, and pct's change
    /// points applied to the running task. Random draws every runnable
    /// task's key again, so that the first is uniform among them.
    void scheduling_point() noexcept;
    /// The running task spins or yields: under pct, below every other.
    void explore_yield(Task& task) noexcept;
    /// Under an exploring strategy, the deadlines that have come up: those
    /// every task that can run has passed (the earliest clock among them),
    /// or every one when nothing else can run.
    std::uint64_t timers_until() const noexcept;

    // scheduler_spin.cpp: the spinners whose loop the scheduler runs.
    void wake_watchers(LineKey line, std::uint64_t waker_vtime) noexcept;
    bool run_spinner(Task& task) noexcept;
    bool spinner_charge(Task& task, std::uint64_t ns) noexcept;
    void park_spinner(Task& task) noexcept;

    // scheduler_rcu.cpp.
    void end_read_side(Task& task) noexcept;
    void rcu_worker();

    SchedulerOptions options_;
    TaskLocalSet locals_;
    SplitMix64 keys_;
    std::uint64_t yield_seq_ = 0;
    std::vector<std::unique_ptr<Task>> tasks_;
    RunQueue ready_;
    TimerQueue timers_;
    std::size_t stale_timers_ = 0; ///< entries of timers_ whose wait ended early
    std::vector<FiberStack> spare_stacks_;
    Task* current_ = nullptr;
    Fiber* host_ = nullptr;            ///< the loop of run(), on the caller's stack
    std::byte* host_locals_ = nullptr; ///< the host's values while tasks run
    Task* exited_ = nullptr;           ///< the task that just ended, for run()'s loop
    Stop stop_ = Stop::None;
    Task* spinner_ = nullptr;
    /// relax() rounds in a row with no other task able to run, and the
    /// running task's time at the first (scheduler.cpp, relax()).
    static constexpr unsigned kLoneRelaxes = 100'000;
    unsigned lone_relaxes_ = 0;
    std::uint64_t lone_since_ = 0;
    std::uint64_t stopped_at_ = 0;
    std::exception_ptr failure_;
    std::uint64_t switches_ = 0;
    std::uint64_t points_ = 0;
    std::uint64_t fingerprint_ = 0;
    void note_switch(unsigned id) noexcept { fingerprint_ = SplitMix64::mix(fingerprint_ ^ (id + 1)); }
    std::uint64_t lock_order_ = 0;
    // Exploring: the strategy's own stream (keys_ orders ties as before),
    // pct's change points (ascending) and
    // the next of them, and the priority the next spinner or yielder drops
    // to (below every other).
    SplitMix64 explore_rng_ { 0 };
    std::vector<std::uint64_t> change_points_;
    std::size_t next_change_ = 0;
    std::int64_t lowest_ = 0;
    WaitQueue sleepers_; ///< exploring: the tasks in sleep_until(), woken by their deadlines
    std::unique_ptr<MachineModel> model_;
    bool model_spent_ = false; ///< model_ has served a run (set_model)
    std::function<void()> hold_;
    std::uint64_t hold_at_ = ~std::uint64_t(0);
    /// Calls hold_ while the machine's time would pass hold_at_ at @vtime.
    void hold_before(std::uint64_t vtime)
    {
        while (vtime > hold_at_ && hold_)
            hold_();
    }
    /// The line a key names: itself, or the line it shares (share_line).
    LineKey line_of(LineKey key) const noexcept
    {
        for (const auto& [alias, line] : shared_lines_) // a structure's few neighbours
            if (alias == key)
                return line;
        return key;
    }
    /// Keys that name another's line (share_line), with that line's key.
    std::vector<std::pair<LineKey, LineKey>> shared_lines_;
    /// Spinners waiting for a write to a line (watch_line), by line. A
    /// node-based map: each WaitQueue stays where it was put.
    std::unordered_map<LineKey, WaitQueue> watchers_;

    std::vector<Task*> readers_; ///< the tasks inside a read-side section (Task::reader_slot)
    std::vector<std::function<void()>> rcu_callbacks_;
    std::uint64_t rcu_queued_ = 0;
    std::uint64_t rcu_done_ = 0;
    bool rcu_worker_alive_ = false;
    WaitQueue rcu_done_queue_;
};

} // namespace pcl::sched
