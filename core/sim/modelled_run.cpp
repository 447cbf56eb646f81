#include "sim/modelled_run.h"

#include "base/clock.h"
#include "base/sleep.h"
#include "sched/fiber.h"
#include "sched/machine_model.h"
#include "sched/machine_profile.h"
#include "sched/scheduler.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace pcl {

namespace {

constexpr std::uint64_t kNever = ~std::uint64_t(0);

} // namespace

std::unique_ptr<sched::Scheduler> make_modelled_machine(const Scenario& scenario, std::uint64_t max_points)
{
    const MachineSpec& spec = scenario.engine.machine;
    const sched::MachineProfile profile = spec.load();
    sched::SchedulerOptions options;
    options.seed = spec.schedule_seed ? spec.schedule_seed : scenario.engine.workload.seed;
    options.strategy = spec.schedule;
    options.pct_depth = spec.pct_depth;
    options.pct_steps = spec.pct_steps;
    options.max_points = max_points;
    options.spin_step_ns = std::max<std::uint64_t>(1, profile.work.spin_step.ns);
    auto machine = std::make_unique<sched::Scheduler>(options);
    machine->set_model(std::make_unique<sched::MachineModel>(profile, spec.latency_scale, options.seed));
    return machine;
}

ModelledRun::ModelledRun(const Scenario& scenario, bool checkpoints)
    : scenario_(scenario)
{
    if (!scenario.engine.machine.is_modelled())
        throw std::invalid_argument("a ModelledRun needs a modelled machine; this scenario runs on the host");
    scenario.validate();
    if (checkpoints && MachineArena::routing()) {
        try {
            arena_ = std::make_unique<MachineArena>();
        } catch (const std::system_error&) {
            // A host that will not reserve the address space (a strict
            // overcommit policy): the run is taken back by running it again.
        }
    }
    {
        ArenaScope in_arena(arena_.get());
        machine_ = make_modelled_machine(scenario);
        machine_->set_hold([this] { stand(machine_->hold_at(), Stop::Reached); });
    }
    thread_ = std::thread([this] { machine_thread(); });
    // The driver stands once the loop is built (or the thread ends, when it
    // could not be).
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return standing_; });
    if (finished_) {
        lock.unlock();
        thread_.join();
        if (failure_)
            std::rethrow_exception(outside_arena(std::exchange(failure_, nullptr)));
        throw std::logic_error("the modelled machine ended before its run began");
    }
}

ModelledRun::~ModelledRun()
{
    if (abandoned_) {
        {
            std::lock_guard lock(mutex_);
            cv_.notify_all();
        }
        thread_.join();
        (void)machine_.release(); // in the half-written arena, which goes with it
        return;
    }
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    machine_->set_hold_at(kNever);
    try {
        release({});
    } catch (...) {
        // A run that fails as it ends has nobody left to tell.
    }
    thread_.join();
    machine_.reset(); // before its arena
}

void ModelledRun::machine_thread()
{
    ArenaScope in_arena(arena_.get());
    locals_.bind();
    host_locals_ = locals_.make();
    stood_locals_ = locals_.make();
    {
        sched::Fiber host;
        host_ = &host;
        // The scheduler's loop runs on a fiber too (in the arena when there
        // is one): this thread's own stack holds nothing of the machine's.
        constexpr std::size_t kMainStack = 1 << 20;
        auto main = std::make_unique<sched::Fiber>(sched::FiberStack(kMainStack), &ModelledRun::machine_main, this);
        main_ = main.get();
        stood_ = main_;
        for (;;) {
            host.switch_to(*stood_); // the machine runs until it stands, or ends
            if (main_done_)
                break;
            std::unique_lock lock(mutex_);
            stop_ = standing_why_;
            standing_ = true;
            cv_.notify_all();
            cv_.wait(lock, [this] { return go_ || abandoned_; });
            go_ = false;
            if (abandoned_)
                break;
        }
        // A machine a failed restore left half written is never resumed nor
        // taken down: what its memory holds is no longer a machine's.
        if (abandoned_)
            (void)main.release();
        main.reset();
        host_ = nullptr;
    }
    if (!abandoned_) {
        locals_.destroy(std::exchange(stood_locals_, nullptr));
        locals_.destroy(std::exchange(host_locals_, nullptr));
    }
    std::lock_guard lock(mutex_);
    loop_ = nullptr;
    finished_ = true;
    standing_ = true;
    cv_.notify_all();
}

PCL_NO_TSAN_FRAME void ModelledRun::machine_main(void* arg) noexcept
{
    auto& self = *static_cast<ModelledRun*>(arg);
    try {
        self.machine_->run([&self] {
            RunLoop loop(self.scenario_);
            self.drive(loop);
        });
    } catch (...) {
        std::lock_guard lock(self.mutex_);
        if (!self.failure_)
            self.failure_ = std::current_exception();
    }
    self.main_done_ = true;
    self.main_->exit_to(*self.host_);
}

std::exception_ptr ModelledRun::outside_arena(std::exception_ptr e) const
{
    if (!arena_ || !e)
        return e;
    // What the machine threw was made in its arena (its message too); the
    // caller may keep it after the arena has gone, so it gets a copy made
    // in the C library's heap, of the same kind where it matters.
    ArenaScope heap(nullptr);
    try {
        std::rethrow_exception(e);
    } catch (const ScenarioError& x) {
        return std::make_exception_ptr(ScenarioError(x.field(), x.what()));
    } catch (const std::invalid_argument& x) {
        return std::make_exception_ptr(std::invalid_argument(x.what()));
    } catch (const std::system_error& x) {
        return std::make_exception_ptr(std::system_error(x.code(), x.what()));
    } catch (const std::exception& x) {
        return std::make_exception_ptr(std::runtime_error(x.what()));
    } catch (...) {
        return std::make_exception_ptr(std::runtime_error("the modelled machine failed"));
    }
}

RunLoop::EventSink ModelledRun::collector()
{
    return [this](std::vector<Event>& batch) { pending_.insert(pending_.end(), batch.begin(), batch.end()); };
}

void ModelledRun::stand(std::uint64_t vtime, Stop why)
{
    stand_vtime_ = vtime;
    running_ns_ = loop_->clock().running_ns(vtime);
    clock_now_ns_ = loop_->clock().to_run(vtime);
    standing_why_ = why;
    // Back to the host thread's own context, which waits; the task's
    // thread-locals wait in the arena, where a restore finds them.
    locals_.switch_blocks(stood_locals_, host_locals_);
    stood_ = sched::Fiber::running();
    stood_->switch_to(*host_);
    locals_.switch_blocks(host_locals_, stood_locals_);
}

void ModelledRun::drive(RunLoop& loop)
{
    const RunLoop::EventSink collect = collector();
    loop_ = &loop;
    stand(now_ns(), Stop::Held); // ready: nothing runs before play() or step()
    for (;;) {
        // The mailbox, read after being let go: what the caller wrote
        // before letting the machine go.
        // A call made again (at_turn) waits for the turn it was made at
        // first, unless the run stands still until it comes (held, ended).
        const bool still = loop.phase() != RunLoop::Phase::Running && !loop.stepping();
        std::function<void(RunLoop&)> call;
        bool quit = false;
        {
            std::lock_guard lock(mutex_);
            if (call_ && (!call_turn_ || turns_ >= *call_turn_ || still))
                call = std::exchange(call_, nullptr);
            quit = quit_;
        }
        if (quit) {
            // The run ends here, its CPUs stopped and joined on the
            // machine, before the loop goes with this task's frame.
            loop.end(RunEnd::Stopped, collect);
            pending_.clear();
            return;
        }
        if (call) {
            called_at_turn_ = turns_;
            try {
                call(loop);
            } catch (...) {
                std::lock_guard lock(mutex_);
                failure_ = std::current_exception();
            }
            // Gone before the stand: it is the caller's (the C library's
            // heap), and a checkpoint there must not hold it.
            call = nullptr;
            stand(now_ns(), Stop::Held);
            continue;
        }
        if (loop.phase() == RunLoop::Phase::Ended) {
            stand(now_ns(), Stop::Ended);
            continue;
        }
        if (loop.phase() == RunLoop::Phase::Ready || (loop.phase() == RunLoop::Phase::Paused && !loop.stepping())) {
            stand(now_ns(), Stop::Held);
            continue;
        }
        // As the command line's runner turns it (sim/runner.cpp): a turn,
        // then a sleep to the next drain, sample or end of the duration.
        loop.turn(collect);
        if (loop.phase() == RunLoop::Phase::Ended)
            continue;
        if (host_now_ns() - slice_start_host_ns_ >= budget_ns_)
            stand(now_ns(), Stop::Budget);
        sleep_until_ns(loop.next_turn_ns());
        ++turns_;
    }
}

void ModelledRun::release(const RunLoop::EventSink& sink)
{
    std::exception_ptr failure;
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return standing_; });
        if (finished_)
            return;
        standing_ = false;
        go_ = true;
        cv_.notify_all();
        cv_.wait(lock, [this] { return standing_; });
        failure = outside_arena(std::exchange(failure_, nullptr));
    }
    // What the CPUs recorded since the driver's last turn, up to where the
    // machine stands: the caller's thread drains while it stands.
    if (loop_) {
        // The rings' reader side is the machine's too: the buffers a drain
        // grows belong to its engine, and so to its arena, whichever thread
        // grows them (a checkpoint taken before would hold a pointer into
        // this thread's heap).
        ArenaScope in_arena(arena_.get());
        loop_->drain(collector());
    }
    if (sink && !pending_.empty())
        sink(pending_);
    pending_.clear();
    if (failure)
        std::rethrow_exception(failure);
}

std::uint64_t ModelledRun::call(
    const std::function<void(RunLoop&)>& fn, const RunLoop::EventSink& sink, std::optional<std::uint64_t> at_turn)
{
    {
        std::lock_guard lock(mutex_);
        call_ = fn;
        call_turn_ = at_turn;
    }
    machine_->set_hold_at(kNever);
    // No slice's host budget either: the machine stands again once the call
    // has run. With the last slice's budget spent (a loaded computer), it
    // stood at the driver's next turn with the call, made again for a later
    // turn, still in the mailbox, and the call returned before it had run:
    // a rewound run then stood held where the original had been let go.
    budget_ns_ = kNever;
    for (;;) {
        release(sink);
        std::lock_guard lock(mutex_);
        if (!call_ || finished_)
            break;
    }
    return called_at_turn_;
}

ModelledRun::Stop ModelledRun::advance(
    std::uint64_t until_running_ns, std::uint64_t host_budget_ns, const RunLoop::EventSink& sink)
{
    if (!alive())
        return Stop::Ended;
    if (until_running_ns <= running_ns_)
        return Stop::Reached;
    budget_ns_ = host_budget_ns;
    slice_start_host_ns_ = host_now_ns();
    // The running clock goes with the machine's while the run plays (a
    // step's too): the end, in the machine's time, is as far from here.
    machine_->set_hold_at(until_running_ns == kNever ? kNever : stand_vtime_ + (until_running_ns - running_ns_));
    release(sink);
    std::lock_guard lock(mutex_);
    return finished_ ? Stop::Ended : stop_;
}

RunResult ModelledRun::result()
{
    RunResult r = loop_->result_after(double(running_ns_) / 1e9);
    r.cpu_seconds = modelled_cpu_seconds(r);
    r.scheduling_points = machine_->scheduling_points();
    r.schedule_fingerprint = machine_->fingerprint();
    r.lock_order = machine_->lock_order();
    return r;
}

std::unique_ptr<ModelledRun::Checkpoint> ModelledRun::checkpoint()
{
    if (!arena_ || !alive())
        throw std::logic_error("checkpoint() of a run that cannot take one");
    // What the caller's thread holds of the machine's memory goes first.
    std::vector<Event>().swap(pending_);
    auto c = std::make_unique<Checkpoint>();
    c->memory_ = std::make_unique<ArenaCheckpoint>(*arena_);
    c->arena_ = arena_.get();
    c->stood_ = stood_;
    c->running_ns_ = running_ns_;
    c->clock_now_ns_ = clock_now_ns_;
    c->stand_vtime_ = stand_vtime_;
    c->turns_ = turns_;
    c->called_at_turn_ = called_at_turn_;
    c->stop_ = stop_;
    return c;
}

void ModelledRun::restore(const Checkpoint& c)
{
    if (c.arena_ != arena_.get() || !alive())
        throw std::logic_error("restore() of a checkpoint of another run");
    std::vector<Event>().swap(pending_);
    try {
        c.memory_->restore_into(*arena_);
    } catch (...) {
        // Part of the memory is the checkpoint's, part today's: the machine
        // must never run again, nor be taken down as a machine.
        std::lock_guard lock(mutex_);
        abandoned_ = true;
        finished_ = true;
        cv_.notify_all();
        throw;
    }
    stood_ = c.stood_;
    running_ns_ = c.running_ns_;
    clock_now_ns_ = c.clock_now_ns_;
    stand_vtime_ = c.stand_vtime_;
    turns_ = c.turns_;
    called_at_turn_ = c.called_at_turn_;
    std::lock_guard lock(mutex_);
    stop_ = c.stop_;
}

} // namespace pcl
