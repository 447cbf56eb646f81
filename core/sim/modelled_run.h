// A run on a modelled machine that someone watches: the GUI plays it in
// slices of virtual time, and between two slices the whole machine stands.
//
// On a modelled machine every CPU, disk and background actor is a task of
// one scheduler on one host thread (sched/scheduler.h), in virtual time. A
// ModelledRun gives that thread its own host thread, and the run's driver
// task turns the run loop (sim/run_loop.h) exactly as the command line's
// runner does (sim/runner.cpp): the same turns at the same virtual instants,
// so the run is the command line's run, event for event, however it is
// watched. A slice ends at a hold (Scheduler::set_hold): before the
// machine's time passes the slice's end, the scheduler blocks its host
// thread until the next slice, without drawing a key or switching a task,
// so where the slices fall changes nothing of the run. Every call here
// returns with the machine standing, so between calls the caller may read
// anything of the run (its Debugfs, its lock registry, the loop's samples,
// the events in the rings) as a frozen machine: no reader meets a lock
// that a task holds or a node that an RCU grace period frees, since the
// caller's thread is the only one running.
//
// What changes the run (play, a step, the speed, its end) runs on the
// machine, as its driver, at the driver's next turn: call(). A run changed
// that way is a branch of the command line's run, not the same one.
//
// A run built with checkpoints keeps all of its machine's memory in one
// arena (base/machine_arena.h) and can be taken back to a checkpoint
// (base/arena_checkpoint.h) in the time it takes to compare and copy that
// memory, instead of running it again from its start. For that the machine
// never stands on a stack of its own: its scheduler runs on a fiber in the
// arena, and a stand switches back to the host thread's own context, which
// waits there; the thread-locals of the task that stood are kept in the
// arena meanwhile. A checkpoint is then the arena's bytes and the few
// figures of this object's that go with them (where it stood, the driver's
// turns).
#pragma once

#include "base/arena_checkpoint.h"
#include "base/machine_arena.h"
#include "events/event.h"
#include "sched/task_locals.h"
#include "sim/run_loop.h"
#include "sim/run_result.h"
#include "sim/scenario.h"

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace pcl {

namespace sched {
class Fiber;
class Scheduler;
} // namespace sched

/// The scheduler of a modelled run of @scenario: its profile (and latency
/// scale), seed and strategy, as run_scenario() builds it; a run making
/// more than @max_points scheduling points (0: no limit) stops.
std::unique_ptr<sched::Scheduler> make_modelled_machine(const Scenario& scenario, std::uint64_t max_points = 0);

class ModelledRun {
public:
    /// Why the machine stands.
    enum class Stop : std::uint8_t {
        Reached, ///< its time reached the slice's end
        Budget,  ///< the host time allowed for the slice ran out first
        Held,    ///< the CPUs hold (not started, paused, a step done) or a call() ran
        Ended,   ///< the run ended
    };

    /// Builds the run of @scenario on its modelled machine (the scenario
    /// names one: throws std::invalid_argument otherwise), standing before
    /// its start. Throws ScenarioError, or what the engine throws for a
    /// configuration it cannot build, as RunLoop does. With @checkpoints,
    /// its memory is kept so that checkpoint() can be taken (where this
    /// build and host allow: checkpointable()).
    explicit ModelledRun(const Scenario& scenario, bool checkpoints = false);
    /// Ends a run still going (RunEnd::Stopped), takes the machine down and
    /// joins its thread.
    ~ModelledRun();
    ModelledRun(const ModelledRun&) = delete;
    ModelledRun& operator=(const ModelledRun&) = delete;

    /// The run's loop, to read between calls (its phase, samples, engine,
    /// registry); what changes it or reads a clock goes through call().
    /// Only while alive().
    RunLoop& loop() noexcept { return *loop_; }
    const RunLoop& loop() const noexcept { return *loop_; }

    /// Runs @fn on the machine, as its driver, at its next turn (at once
    /// when the run is held, ready or ended), and returns when it has,
    /// with the number of the turn it ran at; rethrows what @fn threw. The
    /// events drained until then reach @sink. Given @at_turn (a number an
    /// earlier call of the same run returned), @fn waits for that turn:
    /// the same change made again at the same point of the run, wherever
    /// the machine stood when it was asked.
    std::uint64_t call(const std::function<void(RunLoop&)>& fn, const RunLoop::EventSink& sink = {},
        std::optional<std::uint64_t> at_turn = std::nullopt);

    /// Lets the machine run until its running time reaches
    /// @until_running_ns (UINT64_MAX: no end), the CPUs hold, the run ends,
    /// or @host_budget_ns of this computer's time has gone (checked at the
    /// driver's turns, at least every modelled millisecond). The events
    /// recorded until then reach @sink, on the calling thread.
    Stop advance(std::uint64_t until_running_ns, std::uint64_t host_budget_ns, const RunLoop::EventSink& sink);

    /// Where the machine stands: the loop's running time and the run's
    /// clock (RunLoop::clock_now_ns) there, in virtual nanoseconds.
    std::uint64_t running_ns() const noexcept { return running_ns_; }
    std::uint64_t clock_now_ns() const noexcept { return clock_now_ns_; }

    /// Whether the machine still runs: false once its thread has ended (a
    /// task threw: the call that saw it rethrew it); loop() is then gone.
    bool alive() const
    {
        std::lock_guard lock(mutex_);
        return !finished_;
    }

    /// The run's result where it stands, as run_scenario() gives a
    /// modelled one: cpu_seconds is its CPUs' busy time, the schedule's
    /// figures filled in.
    RunResult result();

    /// The machine as it stood at one moment, to come back to.
    class Checkpoint {
    public:
        /// Where the run stood, in running time (virtual ns).
        std::uint64_t running_ns() const noexcept { return running_ns_; }
        /// The machine's memory in use then.
        std::size_t bytes() const noexcept { return memory_->bytes(); }
        /// The process that holds the machine's memory as it was.
        pid_t process() const noexcept { return memory_->process(); }
        /// What the last restore() of it wrote back (pages that differed)
        /// and gave back (pages it never had).
        std::size_t pages_copied() const noexcept { return memory_->pages_copied(); }
        std::size_t pages_forgotten() const noexcept { return memory_->pages_forgotten(); }

    private:
        friend class ModelledRun;
        std::unique_ptr<ArenaCheckpoint> memory_;
        const MachineArena* arena_ = nullptr;
        sched::Fiber* stood_ = nullptr;
        std::uint64_t running_ns_ = 0;
        std::uint64_t clock_now_ns_ = 0;
        std::uint64_t stand_vtime_ = 0;
        std::uint64_t turns_ = 0;
        std::uint64_t called_at_turn_ = 0;
        Stop stop_ = Stop::Held;
    };
    /// Whether checkpoint() can be taken: built with checkpoints, in a build
    /// that keeps a machine's memory in an arena (not under a sanitizer),
    /// on a host that gave it the address space.
    bool checkpointable() const noexcept { return arena_ != nullptr; }
    /// The machine as it stands now (alive() and checkpointable()). Throws
    /// std::system_error when the host refuses the process that holds it.
    std::unique_ptr<Checkpoint> checkpoint();
    /// Takes the machine back to @c, one of this run's: it then stands as
    /// it stood there, and goes on from there as it went on from there.
    /// Throws std::system_error when the host forbids reading the
    /// checkpoint (or the checkpoint's process is gone); the run is then
    /// broken: alive() is false, and it must be built again.
    void restore(const Checkpoint& c);

private:
    void machine_thread();
    /// The machine's first fiber: its scheduler's run().
    static void machine_main(void* self) noexcept;
    void drive(RunLoop& loop);
    /// The machine's host thread waits here, the machine standing at
    /// @vtime, until it is let go (a slice, a call, the end).
    void stand(std::uint64_t vtime, Stop why);
    /// Lets the machine go and waits until it stands again; hands the
    /// events it recorded to @sink and rethrows what it threw.
    void release(const RunLoop::EventSink& sink);
    RunLoop::EventSink collector();

    Scenario scenario_;
    /// Before machine_, which lives in it.
    std::unique_ptr<MachineArena> arena_;
    std::unique_ptr<sched::Scheduler> machine_;
    RunLoop* loop_ = nullptr;
    std::thread thread_;
    // The machine's host thread: its own context, where it waits while the
    // machine stands, the fiber that stood, and the thread-locals of the
    // task that stood (in the arena, so that a restore brings them back).
    sched::Fiber* host_ = nullptr;
    sched::Fiber* main_ = nullptr;
    sched::Fiber* stood_ = nullptr;
    bool main_done_ = false;
    bool abandoned_ = false; ///< a restore failed half way: never run again
    /// @e, made again outside the arena when it came from the machine.
    std::exception_ptr outside_arena(std::exception_ptr e) const;
    sched::TaskLocalSet locals_;
    std::byte* host_locals_ = nullptr;
    std::byte* stood_locals_ = nullptr;
    Stop standing_why_ = Stop::Held;

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    bool standing_ = false; ///< the machine's thread waits in stand() (or has ended)
    bool go_ = false;       ///< let go from stand()
    bool finished_ = false; ///< the machine's thread is done
    /// The driver's mailbox: a call to run, or the end.
    std::function<void(RunLoop&)> call_;
    std::optional<std::uint64_t> call_turn_;
    /// The driver's turns so far (its sleeps between them): where in the
    /// run a call ran, the same in every run of the scenario.
    std::uint64_t turns_ = 0;
    std::uint64_t called_at_turn_ = 0;
    bool quit_ = false;
    std::exception_ptr failure_;
    Stop stop_ = Stop::Held;
    std::uint64_t slice_start_host_ns_ = 0;
    std::uint64_t budget_ns_ = ~std::uint64_t(0);

    std::vector<Event> pending_;    ///< drained by the driver, handed out when it stands
    std::uint64_t stand_vtime_ = 0; ///< the machine's time where it stands
    std::uint64_t running_ns_ = 0;
    std::uint64_t clock_now_ns_ = 0;
};

} // namespace pcl
