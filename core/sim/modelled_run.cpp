#include "sim/modelled_run.h"

#include "base/clock.h"
#include "base/sleep.h"
#include "sched/machine_model.h"
#include "sched/machine_profile.h"
#include "sched/scheduler.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
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
    machine->set_model(std::make_unique<sched::MachineModel>(profile, spec.latency_scale));
    return machine;
}

ModelledRun::ModelledRun(const Scenario& scenario)
{
    if (!scenario.engine.machine.is_modelled())
        throw std::invalid_argument("a ModelledRun needs a modelled machine; this scenario runs on the host");
    scenario.validate();
    machine_ = make_modelled_machine(scenario);
    machine_->set_hold([this] { stand(machine_->hold_at(), Stop::Reached); });
    thread_ = std::thread([this, scenario] { machine_thread(scenario); });
    // The driver stands once the loop is built (or the thread ends, when it
    // could not be).
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return standing_; });
    if (finished_) {
        lock.unlock();
        thread_.join();
        if (failure_)
            std::rethrow_exception(failure_);
        throw std::logic_error("the modelled machine ended before its run began");
    }
}

ModelledRun::~ModelledRun()
{
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
}

void ModelledRun::machine_thread(Scenario scenario)
{
    try {
        machine_->run([&] {
            RunLoop loop(scenario);
            drive(loop);
        });
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (!failure_)
            failure_ = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    loop_ = nullptr;
    finished_ = true;
    standing_ = true;
    cv_.notify_all();
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
    std::unique_lock lock(mutex_);
    stop_ = why;
    standing_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return go_; });
    go_ = false;
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
        failure = std::exchange(failure_, nullptr);
    }
    // What the CPUs recorded since the driver's last turn, up to where the
    // machine stands: the caller's thread drains while it stands.
    if (loop_)
        loop_->drain(collector());
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

} // namespace pcl
