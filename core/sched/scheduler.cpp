#include "sched/scheduler.h"

#include "base/cpu.h"

#include "sched/task.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace pcl::sched {

namespace {
// Stacks of ended tasks kept for the next spawns (mapping one is a system
// call and a page fault per touched page).
constexpr std::size_t kSpareStacks = 64;
} // namespace

Scheduler::Scheduler(SchedulerOptions options)
    : options_(options)
    , keys_(options.seed)
{
    if (options_.spin_step_ns == 0)
        throw std::invalid_argument("scheduler: spin_step_ns must be at least 1");
}

Scheduler::~Scheduler() = default;

TaskRef Scheduler::current_task() const noexcept
{
    return current_ ? TaskRef { current_->id } : TaskRef {};
}

const std::string& Scheduler::task_name(TaskRef task) const
{
    if (task.id >= tasks_.size())
        throw std::out_of_range("scheduler: no task " + std::to_string(task.id));
    return tasks_[task.id]->name;
}

std::uint64_t Scheduler::now_ns() const noexcept
{
    return current_ ? current_->vtime : stopped_at_;
}

void Scheduler::run(std::function<void()> main)
{
    if (host_)
        throw std::logic_error("scheduler: run() while it runs");
    if (model_ && model_spent_)
        throw std::logic_error("scheduler: its machine model served the last run; set a fresh one (set_model)");
    model_spent_ = model_ != nullptr;
    tasks_.clear();
    ready_.clear();
    timers_ = {};
    stale_timers_ = 0;
    keys_ = SplitMix64(options_.seed);
    yield_seq_ = 0;
    exited_ = nullptr;
    stop_ = Stop::None;
    spinner_ = nullptr;
    stopped_at_ = 0;
    lone_relaxes_ = 0;
    failure_ = nullptr;
    switches_ = 0;
    points_ = 0;
    fingerprint_ = 0;
    lock_order_ = 0;
    explore_start();
    rcu_callbacks_.clear();
    shared_lines_.clear();
    rcu_queued_ = rcu_done_ = 0;
    rcu_worker_alive_ = false;

    MachineScope scope(this);
    locals_.bind();
    host_locals_ = locals_.make();
    Fiber host;
    host_ = &host;
    try {
        create("main", std::move(main), 0);
    } catch (...) {
        locals_.destroy(std::exchange(host_locals_, nullptr));
        host_ = nullptr;
        throw;
    }
    // The loop runs a task whenever none is running: at the start, and after
    // a task ended (its stack cannot be freed while it runs on it). Tasks
    // switch to one another directly.
    while (stop_ == Stop::None && !failure_) {
        Task* next = pick_next();
        if (!next)
            break;
        current_ = next;
        next->state = TaskState::Running;
        lone_relaxes_ = 0; // another task runs: whoever relaxes next is not alone
        note_switch(next->id);
        locals_.switch_blocks(host_locals_, next->locals);
        ++switches_;
        host.switch_to(*next->fiber);
        // Back on the host, its thread-locals restored by the task that left.
        if (current_)
            stopped_at_ = current_->vtime;
        current_ = nullptr;
        if (Task* done = std::exchange(exited_, nullptr))
            finish(*done);
    }
    const bool stuck = std::any_of(tasks_.begin(), tasks_.end(), [](auto& t) { return t->state != TaskState::Done; });
    std::string report;
    if (stuck && !failure_) {
        try {
            report = deadlock_report();
        } catch (...) {
            report = "deadlock on the modelled machine";
        }
    }
    abandon_all();
    watchers_.clear();
    readers_.clear();
    locals_.destroy(std::exchange(host_locals_, nullptr));
    host_ = nullptr;
    if (failure_)
        std::rethrow_exception(std::exchange(failure_, nullptr));
    if (stuck)
        throw std::runtime_error(report);
}

Task& Scheduler::create(std::string name, std::function<void()> fn, std::uint64_t vtime)
{
    auto task = std::make_unique<Task>();
    task->scheduler = this;
    task->id = static_cast<unsigned>(tasks_.size());
    task->name = std::move(name);
    task->fn = std::move(fn);
    task->vtime = vtime;
    FiberStack stack;
    if (!spare_stacks_.empty()) {
        stack = std::move(spare_stacks_.back());
        spare_stacks_.pop_back();
    } else {
        stack = FiberStack(options_.stack_bytes);
    }
    task->fiber = std::make_unique<Fiber>(std::move(stack), &Scheduler::task_entry, task.get());
    task->fiber->set_name(task->name.c_str());
    task->locals = locals_.make();
    tasks_.push_back(std::move(task));
    Task& t = *tasks_.back();
    explore_create(t);
    enqueue(t, draw_key());
    return t;
}

TaskRef Scheduler::spawn(std::string name, std::function<void()> fn)
{
    if (!current_)
        throw std::logic_error("scheduler: spawn() outside a task of the machine");
    return { create(std::move(name), std::move(fn), current_->vtime).id };
}

void Scheduler::join(TaskRef ref) noexcept
{
    if (ref.id >= tasks_.size())
        return;
    Task& task = *tasks_[ref.id];
    while (task.state != TaskState::Done)
        park_as(task.exited, WaitQueue::kForever, WaitKind::Join, task.id);
}

// No TSan frames (fiber.h): the task's fiber exits from inside these two.
PCL_NO_TSAN_FRAME void Scheduler::task_entry(void* arg) noexcept
{
    Task& task = *static_cast<Task*>(arg);
    Scheduler& s = *task.scheduler;
    // An exception must not leave the fiber (nothing is above this frame):
    // the machine stops and run() throws it in its caller.
    try {
        task.fn();
    } catch (...) {
        if (!s.failure_)
            s.failure_ = std::current_exception();
    }
    s.exit_running();
}

PCL_NO_TSAN_FRAME void Scheduler::exit_running() noexcept
{
    Task& task = *current_;
    task.state = TaskState::Done;
    task.fn = nullptr;
    if (task.rcu_nesting) { // returned inside a read-side section: it ends here
        task.rcu_nesting = 0;
        end_read_side(task);
    }
    unpark_all(task.exited);
    exited_ = &task;
    locals_.switch_blocks(task.locals, host_locals_);
    ++switches_;
    task.fiber->exit_to(*host_);
}

void Scheduler::finish(Task& task) noexcept
{
    locals_.destroy(std::exchange(task.locals, nullptr));
    FiberStack stack = task.fiber->take_stack();
    task.fiber.reset();
    if (spare_stacks_.size() < kSpareStacks) {
        stack.clean();
        spare_stacks_.push_back(std::move(stack));
    }
}

void Scheduler::abandon_all() noexcept
{
    // First out of every wait queue (one may be on a stack about to go).
    for (auto& t : tasks_)
        if (t->state == TaskState::Parked && t->queue)
            unlink(*t);
    for (auto& t : tasks_) {
        if (t->state == TaskState::Done)
            continue;
        t->state = TaskState::Done;
        t->fn = nullptr;
        t->grace_periods.clear();
        locals_.destroy(std::exchange(t->locals, nullptr));
        t->fiber.reset(); // its stack, unwound or not
    }
    ready_.clear();
    timers_ = {};
    stale_timers_ = 0;
    rcu_callbacks_.clear();
    current_ = nullptr;
}

void Scheduler::switch_away(bool counted) noexcept
{
    if (!counted)
        scheduling_point();
    Task* from = current_;
    Task* next = pick_next();
    if (next == from) {
        from->state = TaskState::Running;
        hold_before(from->vtime);
        return;
    }
    if (!next)
        stop_running(Stop::Deadlock);
    switch_to(*next);
}

void Scheduler::requeue_and_switch(std::uint64_t key) noexcept
{
    // enqueue() and switch_away(), when no deadline comes up before the
    // first runnable task (pick_next() would fire none): the run queue's
    // push_pop, which hands back the task itself when it is still first.
    scheduling_point();
    Task& task = *current_;
    const Ready entry { order_of(task), key, task.id };
    const std::uint64_t first = exploring() ? timers_until()
        : ready_.empty()                    ? entry.vtime
                                            : std::min(entry.vtime, ready_.top().vtime);
    if (first_deadline() <= first) {
        enqueue(task, key);
        switch_away(true);
        return;
    }
    const Ready next = ready_.push_pop(entry);
    if (next.id == task.id) {
        task.state = TaskState::Running;
        hold_before(task.vtime);
        return;
    }
    task.state = TaskState::Runnable;
    Task& other = *tasks_[next.id];
    if (other.spin != SpinStep::None && !run_spinner(other)) {
        switch_away(true); // it took its step and is back in a queue: the next, as pick_next() finds it
        return;
    }
    switch_to(other);
}

void Scheduler::switch_to(Task& next) noexcept
{
    hold_before(next.vtime);
    Task& from = *current_;
    current_ = &next;
    next.state = TaskState::Running;
    lone_relaxes_ = 0; // another task runs: whoever relaxes next is not alone
    note_switch(next.id);
    locals_.switch_blocks(from.locals, next.locals);
    ++switches_;
    from.fiber->switch_to(*next.fiber);
}

void Scheduler::stop_running(Stop why) noexcept
{
    // Nothing can run: back to run()'s loop, which reports and abandons
    // every task, this one too (it is never resumed).
    Task& task = *current_;
    stop_ = why;
    if (why == Stop::Spinning || why == Stop::TooLong)
        spinner_ = &task;
    locals_.switch_blocks(task.locals, host_locals_);
    ++switches_;
    task.fiber->switch_to(*host_);
    std::abort();
}

void Scheduler::advance_to(std::uint64_t vtime) noexcept
{
    Task& task = *current_;
    task.vtime = vtime;
    // Another task goes first when it is (or a deadline falls) earlier, or
    // at the same time with a smaller key: the running task takes a new key
    // as any task put back in the queue does. Exploring, another may go
    // first whenever one can run.
    if (vtime < next_event()) {
        hold_before(vtime);
        return;
    }
    requeue_and_switch(draw_key());
}

void Scheduler::charge(std::uint64_t ns) noexcept
{
    current_->busy_ns += ns;
    advance_to(current_->vtime + ns);
}

unsigned Scheduler::task_number() const noexcept
{
    return current_ ? current_->id : 0;
}

std::uint64_t Scheduler::busy_ns() const noexcept
{
    return current_ ? current_->busy_ns : 0;
}

void Scheduler::work(Work work, std::uint64_t count) noexcept
{
    if (model_)
        charge(model_->cost(work, count));
}

void Scheduler::touch_line(LineKey line, bool write) noexcept
{
    if (!model_)
        return;
    line = line_of(line);
    if (const std::uint64_t ns = model_->access(line, current_cpu(), current_->vtime, write))
        charge(ns);
    // The write has landed: it invalidated every spinner's copy, and they
    // wake now, each to read the line again, one transfer after another.
    // Nothing runs before the writer's next charge or wait, so the store
    // that follows this touch (a release) is seen by all of them.
    if (write)
        wake_watchers(line, current_->vtime);
}

void Scheduler::share_line(LineKey line, LineKey with) noexcept
{
    with = line_of(with);
    if (line != with)
        shared_lines_.emplace_back(line, with);
}

void Scheduler::watch_line(LineKey line) noexcept
{
    if (!model_) {
        relax();
        return;
    }
    line = line_of(line);
    // A spin-wait: under pct its priority drops below every other's, as a
    // relax() does, or spinners that wake each other with their own
    // writes to the line would run for ever ahead of the holder.
    explore_yield(*current_);
    park_as(watchers_[line], WaitQueue::kForever, WaitKind::Line);
}

void Scheduler::sleep_until(std::uint64_t deadline_ns) noexcept
{
    if (deadline_ns <= current_->vtime)
        return;
    if (!exploring()) {
        advance_to(deadline_ns);
        return;
    }
    // Exploring, a sleeper waits until no task that can run is before its
    // deadline, as on the machine (it does not race ahead of the others by
    // being chosen again and again), and under pct does not keep the CPU
    // by its priority meanwhile.
    explore_yield(*current_);
    park_as(sleepers_, deadline_ns, WaitKind::Queue);
}

void Scheduler::yield() noexcept
{
    Task& task = *current_;
    const std::uint64_t next = next_event();
    if (task.vtime < next || next == WaitQueue::kForever)
        return; // nobody else at this time
    explore_yield(task);
    requeue_and_switch(yield_key());
}

void Scheduler::relax() noexcept
{
    Task& task = *current_;
    const std::uint64_t next = next_event();
    if (next == WaitQueue::kForever) {
        // No other task can run. A spin on what only another task could
        // change never ends; a retry (a lookup or a validation that failed
        // on what a lockless search read before another CPU changed it)
        // may succeed by itself next round. It goes on alone for up to
        // kLoneRelaxes rounds and is then taken for the former, reported
        // as spinning since its first round alone. The count is of rounds
        // since another task last ran (switch_to and run()'s loop reset
        // it); a task's own work between two of them does not.
        if (lone_relaxes_ == 0)
            lone_since_ = task.vtime;
        if (++lone_relaxes_ > kLoneRelaxes) {
            task.vtime = lone_since_;
            stop_running(Stop::Spinning);
        }
        task.busy_ns += options_.spin_step_ns;
        task.vtime += options_.spin_step_ns;
        return;
    }
    // A spinner cannot get what it waits for before another task runs, so
    // when the next one is further than a step away its time moves there in
    // whole steps at once: the same time it would reach by spinning step
    // after step, without spinning on the host.
    const std::uint64_t step = options_.spin_step_ns;
    std::uint64_t steps = 1;
    if (next > task.vtime + step)
        steps = (next - task.vtime + step - 1) / step;
    task.busy_ns += steps * step;
    task.vtime += steps * step;
    explore_yield(task);
    requeue_and_switch(yield_key());
}

std::string Scheduler::deadlock_report() const
{
    std::string text = "deadlock on the modelled machine at " + std::to_string(stopped_at_) + " ns: ";
    if (stop_ == Stop::TooLong)
        text = "the run did not end within " + std::to_string(options_.max_points)
            + " scheduling points (a livelock, or a schedule that keeps a task from running that another waits for), "
              "at "
            + std::to_string(stopped_at_) + " ns: \"" + spinner_->name + "\" (task " + std::to_string(spinner_->id)
            + ") ran last";
    else if (spinner_)
        text += "\"" + spinner_->name + "\" (task " + std::to_string(spinner_->id)
            + ") spins on a lock or flag that no other task can ever change";
    else
        text += "every task left waits with no deadline";
    bool first = true;
    for (const auto& t : tasks_) {
        if (t->state == TaskState::Done || t.get() == spinner_)
            continue;
        text += first ? ": " : "; ";
        first = false;
        text += "\"" + t->name + "\" (task " + std::to_string(t->id) + ") ";
        if (t->state == TaskState::Runnable) {
            text += "could run";
            continue;
        }
        switch (t->wait) {
        case WaitKind::Queue:
            text += "waits on a wait queue";
            break;
        case WaitKind::Join:
            text += "waits for the join of task \"" + tasks_[t->join_target]->name + "\" (task "
                + std::to_string(t->join_target) + ")";
            break;
        case WaitKind::GracePeriod:
            text += "waits for an RCU grace period";
            break;
        case WaitKind::Callbacks:
            text += "waits for the RCU callbacks queued before it (rcu_barrier)";
            break;
        case WaitKind::Line:
            text += "spins on a lock that no other task can ever release";
            break;
        }
    }
    return text;
}

} // namespace pcl::sched
