#include "sim/engine.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "base/machine_calls.h"
#include "base/sleep.h"
#include "base/splitmix64.h"
#include "events/lanes.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "lib/report.h"
#include "sched/machine_profiles.h"
#include "sync/hold_stretch.h"
#include "sync/rcu.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace pcl {

namespace {
// Pacing sleeps in slices no longer than this, so pause and stop take effect
// promptly even at one operation a second.
constexpr std::uint64_t kPacingSliceNs = 20'000'000;
// A thread that sleeps to a deadline wakes anywhere in its timer slack
// after it: nanosleep arms a range hrtimer of [deadline, deadline +
// current->timer_slack_ns], 50 us by default for a normal task
// (init_task.timer_slack_ns; prctl(PR_SET_TIMERSLACK)).
constexpr std::uint64_t kTimerSlackNs = 50'000;

/// Virtual pages a mapping of @pages takes, rounded up to whole PTE pages.
std::uint64_t span_of(pgoff_t pages)
{
    return (pages + PageTable::kEntries - 1) / PageTable::kEntries * PageTable::kEntries;
}
} // namespace

std::vector<pgoff_t> Engine::file_sizes(const EngineConfig& config)
{
    if (config.trace)
        return config.trace->file_pages();
    std::vector<pgoff_t> sizes;
    for (unsigned f = 0; f < config.workload.files_needed(); ++f)
        sizes.push_back(config.workload.file_size(FileId(f)));
    return sizes;
}

std::unique_ptr<OperationSource> Engine::make_source(unsigned cpu) const
{
    if (config_.trace)
        return std::make_unique<TraceReplay>(config_.trace, cpu);
    return std::make_unique<WorkloadGenerator>(config_.workload, cpu);
}

sched::MachineProfile MachineSpec::load() const
{
    return given ? *given : sched::load_machine_profile(profile);
}

void EngineConfig::validate() const
{
    validate_within("workload", [&] { workload.validate(); });
    if (!(machine.latency_scale >= 0) || machine.latency_scale > MachineSpec::kMaxLatencyScale)
        throw FieldError("machine.latency_scale",
            "must be between 0 and " + std::to_string(int(MachineSpec::kMaxLatencyScale)) + ", got "
                + shown_number(machine.latency_scale));
    // A modelled machine's own settings, refused on this computer's threads
    // rather than recorded as if they had been used.
    if (machine.latency_scale != 1.0 && !machine.is_modelled())
        throw FieldError("machine.latency_scale",
            "scales a modelled machine's transfers, and this computer's threads have their own: set "
            "machine.profile to a modelled machine, or machine.modelled to true, or leave it at 1");
    if (machine.schedule_seed != 0 && !machine.is_modelled())
        throw FieldError("machine.schedule_seed",
            "orders a modelled machine's tasks, and this computer's threads are ordered by its own scheduler: set "
            "machine.profile to a modelled machine, or machine.modelled to true, or leave it at 0");
    if (machine.is_exploring() && !machine.is_modelled())
        throw FieldError("machine.schedule",
            "exploring schedules ('" + std::string(sched::strategy_name(machine.schedule))
                + "') needs a modelled machine: set machine.profile to one, or machine.modelled to true");
    if (machine.pct_depth < 1 || machine.pct_depth > MachineSpec::kMaxPctDepth)
        throw FieldError("machine.pct_depth",
            "must be between 1 and " + std::to_string(MachineSpec::kMaxPctDepth) + ", got "
                + std::to_string(machine.pct_depth));
    if (machine.pct_steps < 1 || machine.pct_steps > MachineSpec::kMaxPctSteps)
        throw FieldError("machine.pct_steps", "must be between 1 and 2^40, got " + std::to_string(machine.pct_steps));
    if (machine.is_modelled()) {
        sched::MachineProfile profile;
        try {
            profile = machine.load();
        } catch (const FieldError& e) {
            throw FieldError("machine.profile", e.what());
        } catch (const std::invalid_argument& e) {
            throw FieldError("machine.profile", e.what());
        } catch (const std::runtime_error& e) {
            throw FieldError("machine.profile", e.what()); // a user's profile that cannot be read
        }
        const unsigned most = std::min<unsigned>(profile.max_cpus, MachineSpec::kMaxModelledCpus);
        if (workload.cpus > most)
            throw FieldError("workload.cpus",
                "the modelled " + machine.profile + " has at most " + std::to_string(most) + " CPUs, got "
                    + std::to_string(workload.cpus));
    }
    validate_within("index", [&] { index_schemes(index.kind); });
    if (memory_pages == 0 || memory_pages > (std::uint64_t(1) << 32))
        throw FieldError("memory_pages", "must be between 1 and 2^32, got " + std::to_string(memory_pages));
    validate_within("device", [&] { device.validate(); });
    validate_within("fault", [&] { fault.validate(); });
    validate_within("writeback", [&] { writeback.validate(); });
    validate_within("reclaim", [&] { reclaim.validate(memory_pages); });
    if (canonical_readahead_policy(readahead).empty()) {
        const std::string reason = "'" + readahead
            + "' is unknown; allowed: none, linux, linux-2.6.32, morton-2002 (ondemand and readaround load as "
              "linux-2.6.32, morton as morton-2002)";
        throw FieldError("readahead", reason, "readahead policy " + reason);
    }
    // The fields of the pacing and events objects are named by their path
    // in a scenario, and worded by their member here.
    if (!(ops_per_second >= 0) || !std::isfinite(ops_per_second) || ops_per_second > 1e9) {
        const std::string reason = "must be between 0 (unpaced) and 1e9, got " + shown_number(ops_per_second);
        throw FieldError("pacing.ops_per_second", reason, "ops_per_second " + reason);
    }
    if (hold_stretch_ns > kMaxHoldStretchNs) {
        const std::string reason = "must be in [0, " + std::to_string(kMaxHoldStretchNs) + "] (0 = none), got "
            + std::to_string(hold_stretch_ns);
        throw FieldError("pacing.hold_stretch_ns", reason, "hold_stretch_ns " + reason);
    }
    // A migrating thread moves to the next simulated CPU id (Engine's CPU
    // loop): a machine of one CPU has none to move to.
    if (migrate_every && workload.cpus < 2) {
        const std::string reason
            = "needs 2 CPUs or more to move between; workload.cpus is " + std::to_string(workload.cpus);
        throw FieldError("pacing.migrate_every", reason, "migrate_every " + reason);
    }
    if (event_ring_capacity < 2 || event_ring_capacity > kMaxEventRingCapacity) {
        const std::string reason = "must be in [2, " + std::to_string(kMaxEventRingCapacity) + "], got "
            + std::to_string(event_ring_capacity);
        throw FieldError("events.ring_capacity", reason, "event_ring_capacity " + reason);
    }
    // Each slot a cache line.
    const std::uint64_t ring_bytes = std::uint64_t(rings()) * std::bit_ceil(std::uint64_t(event_ring_capacity)) * 64;
    if (events && ring_bytes > kMaxEventRingBytes) {
        const std::string rest = " x " + std::to_string(rings())
            + " rings (one per CPU, disk, flusher and kswapd) would take " + std::to_string(ring_bytes >> 20)
            + " MiB; at most " + std::to_string(kMaxEventRingBytes >> 20) + " MiB (64 bytes a record)";
        throw FieldError("events.ring_capacity", std::to_string(event_ring_capacity) + " records" + rest,
            "event_ring_capacity" + rest);
    }
    if (trace && trace->threads() != workload.cpus)
        throw FieldError("workload.cpus",
            "must equal the replayed trace's threads (" + std::to_string(trace->threads()) + "), got "
                + std::to_string(workload.cpus));
    // Every file and the anonymous region must fit in the page table's
    // 2^27 virtual pages, each starting on its own PTE page.
    std::uint64_t vpns = span_of(workload.anon_pages());
    for (pgoff_t pages : Engine::file_sizes(*this)) {
        vpns += span_of(pages);
        if (vpns > PageTable::kMaxVpns)
            break;
    }
    if (vpns > PageTable::kMaxVpns)
        throw FieldError("workload.file_pages",
            "the files of this size need more than the 2^27 virtual pages of one process",
            "workload.file_pages x files needs more than the 2^27 virtual pages of one process");
}

unsigned EngineConfig::disks() const
{
    if (!trace)
        for (unsigned f = 0; f < workload.files_needed(); ++f)
            if (workload.disk_of(FileId(f)) == 1)
                return 2;
    return 1;
}

unsigned EngineConfig::rings() const
{
    return LaneLayout(trace ? trace->threads() : workload.cpus, disks()).rings();
}

Engine::Engine(const EngineConfig& config, sync::LockRegistry& registry)
    : config_(config)
    , registry_(registry)
{
    if (config_.trace)
        config_.workload.cpus = config_.trace->threads();
    config_.validate();
    // A modelled machine's CPUs are tasks of its scheduler, which the
    // runner starts (sim/runner.h); an engine built on a host thread would
    // run them as host threads and only look modelled.
    if (config_.machine.is_modelled() && !on_modelled_machine())
        throw FieldError("machine.profile",
            "the modelled " + config_.machine.profile
                + " runs its engine on its own machine (sim/runner.h, sim/modelled_run.h), not on a host thread");
    tick_calibration(); // the one-time clock calibration, before any CPU needs the clock
    pace_ops_.store(config_.ops_per_second, std::memory_order_relaxed);
    pace_stretch_ns_.store(config_.hold_stretch_ns, std::memory_order_relaxed);
    ncpus_ = config_.workload.cpus;
    const WorkloadSpec& w = config_.workload;
    const std::vector<pgoff_t> sizes = file_sizes(config_);
    const LaneLayout lanes(ncpus_, config_.disks());
    const bool second_disk = lanes.disks() == 2;
    // With the stream off nothing is pushed: rings of the least capacity
    // keep a 64-CPU run from touching a megabyte of slots per CPU for none.
    events_ = std::make_unique<EventStream>(config_.rings(), config_.events ? config_.event_ring_capacity : 2);
    frames_ = std::make_unique<FrameAllocator>(config_.memory_pages, registry);
    const Watermarks marks = config_.reclaim.watermarks(config_.memory_pages);
    frames_->configure(marks, config_.reclaim.pcp_sizing(config_.memory_pages, ncpus_, marks.low), ncpus_);
    cache_ = std::make_unique<PageCache>(config_.index, *frames_, registry);
    cache_->set_page_check_references(config_.page_check_references);
    if (config_.reclaim.kswapd) {
        kswapd_ = std::make_unique<Kswapd>(*frames_, [cache = cache_.get()] { return cache->kswapd_shrink(); });
        if (config_.events)
            kswapd_->set_trace(&events_->ring(lanes.kswapd_ring()), static_cast<int>(lanes.kswapd_lane()));
        frames_->set_kswapd(kswapd_.get());
    }
    page_table_ = std::make_unique<PageTable>(
        PageTable::Config { config_.page_table_lock, 0, config_.mmap_sem, config_.mm_struct_2005 }, registry);
    device_ = std::make_unique<BlockDevice>(config_.device, cache_->page_locks(),
        config_.events ? &events_->ring(lanes.device_ring(0)) : nullptr, static_cast<int>(lanes.disk_lane(0)));
    if (second_disk)
        device2_ = std::make_unique<BlockDevice>(config_.device, cache_->page_locks(),
            config_.events ? &events_->ring(lanes.device_ring(1)) : nullptr, static_cast<int>(lanes.disk_lane(1)));
    readahead_ = make_readahead_policy(config_.readahead, config_.device.ra_pages);
    faults_ = std::make_unique<FaultHandler>(*cache_, *page_table_, *device_, *readahead_, config_.fault);
    writeback_ = std::make_unique<Writeback>(*cache_, *device_, config_.writeback);
    if (config_.events) {
        writeback_->set_trace(*device_, &events_->ring(lanes.flusher_ring(0)), static_cast<int>(lanes.disk_lane(0)));
        if (device2_)
            writeback_->set_trace(
                *device2_, &events_->ring(lanes.flusher_ring(1)), static_cast<int>(lanes.disk_lane(1)));
    }
    faults_->set_writeback(writeback_.get());
    // Each file mapped on its own PTE pages, the anonymous region after them.
    std::uint64_t base = 0;
    for (std::size_t f = 0; f < sizes.size(); ++f) {
        const FileId id = cache_->add_file(sizes[f]);
        files_.push_back(id);
        file_base_.push_back(base);
        base += span_of(sizes[f]);
        if (device2_ && w.disk_of(FileId(f)) == 1) {
            faults_->set_device(id, *device2_);
            writeback_->set_device(id, *device2_);
        }
        faults_->set_hint(id, w.madvise);
    }
    anon_base_ = base;
    // Reclaim's reverse map: each file is mapped once, linearly, so page
    // @index of file @f can only be at file_base_vpn(f) + index.
    cache_->set_try_to_unmap([this](Page& page) {
        if (page.mapping >= file_base_.size())
            return false;
        const std::uint64_t vpn = file_base_vpn(page.mapping) + page.index;
        Page* mapped = page_table_->unmap(vpn);
        if (!mapped)
            return false;
        if (mapped != &page) {
            page_table_->install(vpn, mapped);
            return false;
        }
        cache_->put_page(mapped); // the mapping's reference
        return true;
    });
    // Readahead pages evicted unused: Morton's policy shrinks that file's window.
    cache_->set_on_thrash([this](FileId file) { readahead_->note_thrash(file); });
    cpus_ = std::make_unique<Cpu[]>(ncpus_);
    for (unsigned cpu = 0; cpu < ncpus_; ++cpu) {
        sources_.push_back(make_source(cpu));
        cpus_[cpu].background = sources_.back()->background();
    }
}

Engine::~Engine()
{
    stop();
}

const char* Engine::state_name(State state) noexcept
{
    switch (state) {
    case State::Idle:
        return "idle";
    case State::Running:
        return "running";
    case State::Paused:
        return "paused";
    case State::Finished:
        return "finished";
    case State::Stopped:
        return "stopped";
    case State::Failed:
        return "failed";
    }
    return "?";
}

Engine::State Engine::state() const noexcept
{
    return state_.load(std::memory_order_acquire);
}

std::string Engine::error() const
{
    std::lock_guard g(control_);
    return error_;
}

void Engine::start(bool paused)
{
    std::lock_guard g(control_);
    if (state_.load() != State::Idle)
        throw std::logic_error("Engine::start: the run was already started");
    state_.store(paused ? State::Paused : State::Running, std::memory_order_release);
    start_ns_ = now_ns();
    writeback_->start();
    if (kswapd_)
        kswapd_->start();
    threads_.reserve(ncpus_);
    // Counted per thread actually started, so a failed start cannot leave
    // wait() waiting for CPUs that never ran.
    for (unsigned cpu = 0; cpu < ncpus_; ++cpu) {
        threads_.emplace_back("cpu" + std::to_string(cpu), [this, cpu] { run_cpu(cpu); });
        ++running_cpus_;
        foreground_cpus_ += !cpus_[cpu].background;
        background_unstarted_ += cpus_[cpu].background;
    }
}

void Engine::pause()
{
    std::lock_guard g(control_);
    if (state_.load() == State::Running) {
        cut_stretch_.store(true, std::memory_order_relaxed);
        state_.store(State::Paused, std::memory_order_release);
    }
}

void Engine::resume()
{
    {
        std::lock_guard g(control_);
        if (state_.load() != State::Paused)
            return;
        for (unsigned cpu = 0; cpu < ncpus_; ++cpu)
            cpus_[cpu].step_budget = 0;
        cut_stretch_.store(false, std::memory_order_relaxed);
        state_.store(State::Running, std::memory_order_release);
    }
    control_wq_.wake_all();
}

void Engine::step(std::uint64_t n)
{
    {
        std::lock_guard g(control_);
        const State s = state_.load();
        if (s != State::Running && s != State::Paused)
            return;
        state_.store(State::Paused, std::memory_order_release);
        // A step is run in full, stretched holds included.
        cut_stretch_.store(false, std::memory_order_relaxed);
        for (unsigned cpu = 0; cpu < ncpus_; ++cpu)
            if (!cpus_[cpu].done)
                cpus_[cpu].step_budget += n;
    }
    control_wq_.wake_all();
}

void Engine::stop()
{
    {
        std::lock_guard g(control_);
        const State s = state_.load();
        if (s == State::Idle || s == State::Running || s == State::Paused)
            state_.store(State::Stopped, std::memory_order_release);
        cut_stretch_.store(true, std::memory_order_relaxed);
    }
    control_wq_.wake_all();
    // Throttled writers wake and the CPUs leave; the flushers stop after
    // them, so that a CPU waiting in reclaim for writeback still gets it.
    writeback_->release_writers();
    join_all();
    stop_reclaimers();
}

void Engine::quiesce()
{
    stop();
    const auto busy = [&] { return device_->outstanding() > 0 || (device2_ && device2_->outstanding() > 0); };
    for (int i = 0; i < 100'000 && busy(); ++i)
        sleep_for_ns(100'000);
    rcu::barrier(); // frames freed after a grace period are free
}

void Engine::stop_reclaimers()
{
    // kswapd first: a pass of it may be waiting for the flusher's writes.
    if (kswapd_)
        kswapd_->stop();
    writeback_->stop();
}

void Engine::wait()
{
    {
        std::unique_lock l(control_);
        control_wq_.wait(l, [&] {
            const State s = state_.load();
            return running_cpus_ == 0 && s != State::Idle && s != State::Running && s != State::Paused;
        });
    }
    join_all();
}

void Engine::join_all()
{
    std::lock_guard g(join_mutex_);
    for (auto& t : threads_)
        if (t.joinable())
            t.join();
}

void Engine::fail(std::string what)
{
    {
        std::lock_guard g(control_);
        if (error_.empty())
            error_ = std::move(what);
        // A run that was already stopped stays stopped.
        const State s = state_.load();
        if (s == State::Running || s == State::Paused)
            state_.store(State::Failed, std::memory_order_release);
        cut_stretch_.store(true, std::memory_order_relaxed);
    }
    control_wq_.wake_all();
}

void Engine::cpu_done(unsigned cpu, bool completed)
{
    if (completed)
        cpus_[cpu].finished_ns.store(now_ns() - start_ns_, std::memory_order_relaxed);
    cpus_[cpu].busy_ns.store(modelled_busy_ns(), std::memory_order_relaxed); // called on the CPU's own task
    bool last = false;
    {
        std::lock_guard g(control_);
        cpus_[cpu].done = true;
        cpus_[cpu].step_budget = 0;
        // The last foreground CPU done ends the background ones too.
        if (!cpus_[cpu].background && --foreground_cpus_ == 0)
            background_stop_.store(true, std::memory_order_release);
        // The others may all be waiting already: the last one working has left.
        if (running_cpus_ > 1 && waiting_cpus_ == running_cpus_ - 1)
            all_waiting_ns_ = now_ns();
        if (--running_cpus_ == 0) {
            last = true;
            ended_ns_ = now_ns();
            const State s = state_.load();
            if (s == State::Running || s == State::Paused)
                state_.store(State::Finished, std::memory_order_release);
        }
    }
    // The run is over: no flusher writes after it (a result read now stays
    // as it is but for the writes still completing).
    if (last)
        stop_reclaimers();
    control_wq_.wake_all();
}

void Engine::background_started()
{
    {
        std::lock_guard g(control_);
        if (--background_unstarted_ != 0)
            return;
    }
    control_wq_.wake_all();
}

void Engine::await_background(unsigned cpu)
{
    // Morton's test times process A while process B's stream is already
    // running (B started in the background first), so a foreground CPU
    // begins once every background CPU has taken its first operation; a
    // background CPU that ends or fails first releases it as well.
    if (cpus_[cpu].background)
        return;
    std::unique_lock l(control_);
    note_waiting();
    control_wq_.wait(l, [&] {
        const State s = state_.load();
        return background_unstarted_ == 0 || (s != State::Running && s != State::Paused);
    });
    --waiting_cpus_;
}

bool Engine::may_proceed(unsigned cpu, bool& held)
{
    held = false;
    if (state_.load(std::memory_order_acquire) == State::Running)
        return true;
    held = true;
    std::unique_lock l(control_);
    for (;;) {
        const State s = state_.load();
        if (s == State::Running)
            return true;
        if (s != State::Paused)
            return false; // stopped or failed
        if (cpus_[cpu].step_budget > 0) {
            --cpus_[cpu].step_budget;
            return true;
        }
        note_waiting();
        // Until the loop's look above would go another way: the run goes
        // on, ends, or this CPU is given a step.
        control_wq_.wait(l, [&] { return state_.load() != State::Paused || cpus_[cpu].step_budget > 0; });
        --waiting_cpus_;
    }
}

void Engine::note_waiting()
{
    if (++waiting_cpus_ == running_cpus_)
        all_waiting_ns_ = now_ns();
}

std::optional<std::uint64_t> Engine::held_since() const
{
    std::lock_guard g(control_);
    if (state_.load() != State::Paused || waiting_cpus_ != running_cpus_)
        return std::nullopt;
    // Just after a step() every CPU may still be waiting, not yet woken for
    // the operations it was given: not held until they are done.
    for (unsigned cpu = 0; cpu < ncpus_; ++cpu)
        if (cpus_[cpu].step_budget > 0)
            return std::nullopt;
    return all_waiting_ns_;
}

std::optional<std::uint64_t> Engine::ended_at() const
{
    std::lock_guard g(control_);
    if (running_cpus_ > 0 || ended_ns_ == 0)
        return std::nullopt;
    return ended_ns_;
}

bool Engine::execute(const Operation& op)
{
    auto out_of_memory = [&](const char* what) {
        fail(std::string(what) + " of page " + std::to_string(op.index) + ": out of memory (memory_pages = "
            + std::to_string(config_.memory_pages) + "): " + frames_->last_failure().describe());
        return false;
    };
    switch (op.kind) {
    case OperationKind::Read:
        if (!faults_->read(files_.at(op.file), op.index, op.count).ok)
            return out_of_memory("read(2)");
        return true;
    case OperationKind::FileFault: {
        const FileId file = files_.at(op.file);
        const std::uint64_t vpn = file_base_vpn(file) + op.index;
        // A store dirties the page inside the fault, under its lock.
        if (faults_->file_fault(file, op.index, vpn, op.write) == FaultKind::NoMemory)
            return out_of_memory("file fault");
        return true;
    }
    case OperationKind::Write:
        if (!faults_->write(files_.at(op.file), op.index, op.count, op.partial).ok)
            return out_of_memory("write(2)");
        return true;
    case OperationKind::AnonFault:
        if (faults_->anon_fault(anon_base_ + op.index) == FaultKind::NoMemory)
            return out_of_memory("anonymous fault");
        return true;
    case OperationKind::Fsync:
        writeback_->fsync(files_.at(op.file));
        return true;
    case OperationKind::Sync:
        writeback_->sync();
        return true;
    }
    return true;
}

void Engine::set_pacing(double ops_per_second, std::uint64_t hold_stretch_ns)
{
    EngineConfig check = config_;
    check.ops_per_second = ops_per_second;
    check.hold_stretch_ns = hold_stretch_ns;
    check.validate();
    pace_ops_.store(ops_per_second, std::memory_order_relaxed);
    pace_stretch_ns_.store(hold_stretch_ns, std::memory_order_relaxed);
    pacing_generation_.fetch_add(1, std::memory_order_release);
}

void Engine::run_cpu(unsigned cpu)
{
    // Linux: a thread's niceness is its own (setpriority on its thread id).
    // A task of a modelled machine has no host thread of its own: the
    // scheduler's thread runs every task.
    if (thread_nice_ > 0 && !on_modelled_machine())
        ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), thread_nice_);
    CpuScope scope(static_cast<int>(cpu));
    trace::ThreadTrace trace(config_.events ? &events_->ring(cpu) : nullptr);
    OperationSource& source = *sources_[cpu];
    bool completed = false; ///< the whole sequence was done
    bool announced = false; ///< a background CPU has taken its first operation
    const bool background = cpus_[cpu].background;
    std::uint64_t pacing_seen = ~std::uint64_t(0);
    std::uint64_t interval = 0;
    std::uint64_t next_slot = now_ns();
    unsigned cpu_id = cpu;
    Operation op;
    bool was_held = false;
    // Only a modelled machine's CPUs note when each operation began: a run
    // on this computer's threads cannot be taken back, so its CPUs do not
    // read the clock for it.
    const bool modelled = on_modelled_machine();
    // Where in its timer slack a paced CPU of a modelled machine wakes. On
    // the model's clock every paced CPU would otherwise wake at the same
    // instant, slot after slot, and want the same lock together: eight
    // readers of one file on the 8-way, at 2,000 operations a second, found
    // the tree lock taken on 652 of each 1,000 acquisitions, 78 waking in
    // their slack (213 unpaced).
    // Seeded by the workload and the CPU, so a run is the same every time.
    SplitMix64 slack(SplitMix64::mix(config_.workload.seed ^ (0x9e3779b97f4a7c15ull * (cpu + 1))));
    await_background(cpu);
    while (may_proceed(cpu, was_held)) {
        // Time spent held is not owed operations: after a pause (or between
        // steps) the pace starts again from now, instead of running the
        // missed slots back to back.
        if (was_held)
            next_slot = now_ns();
        // The speed may change while running (set_pacing): picked up
        // before each operation.
        if (const std::uint64_t g = pacing_generation_.load(std::memory_order_acquire); g != pacing_seen) {
            pacing_seen = g;
            const double rate = pace_ops_.load(std::memory_order_relaxed);
            interval = rate > 0 ? std::uint64_t(1e9 / rate) : 0;
            next_slot = now_ns();
            // At demo speed every lock acquisition and fault is an event;
            // unpaced, what is notable (events/tracepoint.h).
            trace::set_all(rate > 0);
            sync::set_hold_stretch_ns(pace_stretch_ns_.load(std::memory_order_relaxed), &cut_stretch_);
        }
        if (background && background_stop_.load(std::memory_order_acquire))
            break;
        if (!source.next(op)) {
            completed = true;
            break;
        }
        if (background && !announced) {
            announced = true;
            background_started();
        }
        if (modelled) {
            Cpu& c = cpus_[cpu];
            const std::uint64_t n = c.begun.load(std::memory_order_relaxed);
            c.began[n % kRememberedStarts].store(now_ns(), std::memory_order_relaxed);
            c.begun.store(n + 1, std::memory_order_release);
        }
        charge_work(Work::Operation);
        if (!execute(op))
            break;
        const std::uint64_t done = cpus_[cpu].operations.fetch_add(1, std::memory_order_relaxed) + 1;
        if (config_.migrate_every && done % config_.migrate_every == 0) {
            cpu_id = (cpu_id + 1) % ncpus_;
            set_current_cpu(static_cast<int>(cpu_id));
            cpus_[cpu].migrations.fetch_add(1, std::memory_order_relaxed);
        }
        if (interval) {
            // Demo speed: one operation per interval, in short sleeps so
            // that pause, stop and a change of speed are not held up.
            next_slot += interval;
            // This computer's threads wake late by themselves; the model's
            // CPUs by a draw from the slack (no more than a slot, so that
            // the pace holds at any speed).
            const std::uint64_t wake = next_slot + (modelled ? slack.below(std::min(kTimerSlackNs, interval) + 1) : 0);
            for (std::uint64_t now = now_ns(); now < wake && state() == State::Running
                 && pacing_generation_.load(std::memory_order_relaxed) == pacing_seen;
                 now = now_ns())
                sleep_for_ns(std::min(wake - now, kPacingSliceNs));
        }
    }
    sync::set_hold_stretch_ns(0);
    if (background && !announced)
        background_started();
    cpu_done(cpu, completed);
}

std::optional<std::uint64_t> Engine::operation_began_before(std::uint64_t before_ns, std::optional<unsigned> cpu) const
{
    std::optional<std::uint64_t> latest;
    for (unsigned c = 0; c < ncpus_; ++c) {
        if (cpu && *cpu != c)
            continue;
        const std::uint64_t n = cpus_[c].begun.load(std::memory_order_acquire);
        for (std::uint64_t i = n > kRememberedStarts ? n - kRememberedStarts : 0; i < n; ++i) {
            const std::uint64_t t = cpus_[c].began[i % kRememberedStarts].load(std::memory_order_relaxed);
            if (t < before_ns && (!latest || t > *latest))
                latest = t;
        }
    }
    return latest;
}

std::vector<CpuCounters> Engine::cpu_counters() const
{
    std::vector<CpuCounters> out(ncpus_);
    for (unsigned cpu = 0; cpu < ncpus_; ++cpu) {
        out[cpu].operations = cpus_[cpu].operations.load(std::memory_order_relaxed);
        out[cpu].migrations = cpus_[cpu].migrations.load(std::memory_order_relaxed);
        out[cpu].finished_ns = cpus_[cpu].finished_ns.load(std::memory_order_relaxed);
        out[cpu].busy_ns = cpus_[cpu].busy_ns.load(std::memory_order_relaxed);
    }
    return out;
}

std::uint64_t Engine::operations() const
{
    std::uint64_t n = 0;
    for (const auto& c : cpu_counters())
        n += c.operations;
    return n;
}

} // namespace pcl
