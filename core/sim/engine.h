// The engine: simulated CPUs on real threads running their workloads
// against one process's page cache, page table and disk.
//
// Each simulated CPU is a thread for the whole run (blocking on locks and on
// I/O is the point, so no task pool). The threads are the threads of one
// process: they share the page table, as the pft threads of the pagefault scalability thread (2005) do. A CPU
// runs its WorkloadGenerator's operations through the FaultHandler; its
// simulated CPU id is what the locks count bounces by, and with migration
// every K operations the thread moves to the next CPU id (the radix-tree pagecache thread's reader
// that "changes CPUs").
//
// Control, safe from any thread at any time: pause() holds every CPU before
// its next operation; step(n) lets each paused CPU do exactly n more;
// resume() lets them run; stop() ends the run. Pacing (demo speed) limits
// each CPU to a number of operations per second; 0 runs unpaced (benchmark
// speed).
//
// A run ends when every CPU has done its sequence (a background CPU, such as
// the streaming process of Morton's thrashing test, is stopped when the others are done), when
// stop() is called, or at the first error (no frame free and none
// reclaimable), which error() then describes.
//
// Dirty pages are written back by one flusher thread per disk
// (mm/writeback.h), from start() until the run ends; writes already
// submitted then still complete on their disks. kswapd (mm/kswapd.h),
// unless reclaim.kswapd is off, keeps memory free between the watermarks
// over the same time.
#pragma once

#include "base/task_thread.h"
#include "base/wait_queue.h"
#include "events/event_ring.h"
#include "index/index_factory.h"
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/frame_allocator.h"
#include "mm/kswapd.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "mm/readahead.h"
#include "mm/readahead_factory.h"
#include "mm/reclaim_config.h"
#include "mm/writeback.h"
#include "sched/machine_profile.h"
#include "sched/schedule_strategy.h"
#include "sync/lock_stats.h"
#include "workload/trace_replay.h"
#include "workload/workload.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pcl {

/// The machine a run is on (docs/machines.md): this computer's threads and
/// clock, or a modelled machine whose CPUs are tasks of one deterministic
/// scheduler in virtual time, charged what its profile says.
struct MachineSpec {
    static constexpr unsigned kMaxModelledCpus = 256;
    static constexpr double kMaxLatencyScale = 1000;
    /// A profile's name (sched/machine_profiles.h): "host" is this computer.
    std::string profile = "host";
    /// For "host": run on the model calibrated for this computer instead of
    /// on its threads. Every other profile is modelled.
    bool modelled = false;
    /// Every transfer latency of the profile multiplied by this (the
    /// sensitivity runs: 0.5 and 2).
    double latency_scale = 1.0;
    /// Which task runs next (sched/schedule_strategy.h): the machine's own
    /// order, or an exploring one (random, pct) that looks for races.
    sched::ScheduleStrategy schedule = sched::ScheduleStrategy::VirtualTime;
    /// pct's depth d (1..kMaxPctDepth).
    unsigned pct_depth = 3;
    static constexpr unsigned kMaxPctDepth = 64;
    /// pct's k: the scheduling points its change points are drawn from,
    /// about as many as the run makes.
    std::uint64_t pct_steps = 1'000'000;
    static constexpr std::uint64_t kMaxPctSteps = std::uint64_t(1) << 40;
    /// The scheduler's seed (ties, and an exploring strategy's choices);
    /// 0: the workload's seed, so that one seed gives one run.
    std::uint64_t schedule_seed = 0;
    /// A profile given in memory, modelled instead of the one @profile
    /// names: calibrate's own runs, before it stores the profile it is
    /// measuring. Never read from or written to a scenario file.
    std::shared_ptr<const sched::MachineProfile> given;
    bool is_modelled() const noexcept { return given || modelled || profile != "host"; }
    bool is_exploring() const noexcept { return schedule != sched::ScheduleStrategy::VirtualTime; }
    /// The profile a modelled run models: @given, or the one @profile names
    /// (sched::load_machine_profile(), whose errors it throws).
    sched::MachineProfile load() const;
};

struct EngineConfig {
    static constexpr std::uint64_t kMaxHoldStretchNs = 1'000'000'000;
    static constexpr std::size_t kMaxEventRingCapacity = std::size_t(1) << 24;
    static constexpr std::uint64_t kMaxEventRingBytes = std::uint64_t(1) << 30; ///< all rings together

    MachineSpec machine;   ///< the host's threads, or a modelled machine
    WorkloadSpec workload; ///< what each CPU does; workload.cpus is the number of simulated CPUs
    /// A trace to replay instead of the workload's pattern: one CPU per
    /// traced thread (workload.cpus is set to their number), one file per
    /// traced file; workload.madvise still applies.
    std::shared_ptr<const TracePlan> trace;
    IndexSpec index; ///< the page cache's index and locking scheme
    PageTable::Scheme page_table_lock = PageTable::Scheme::Split;
    bool mmap_sem = false;                ///< every fault reads mm->mmap_sem (PageTable::Config::mmap_sem)
    bool mm_struct_2005 = false;          ///< 2005's mm_struct layout (PageTable::Config::mm_struct_2005)
    std::uint64_t memory_pages = 1 << 18; ///< page frames ("physical memory")
    BlockDeviceConfig device;
    std::string readahead
        = "none"; ///< readahead policy: "none", "linux", "linux-2.6.32", "morton-2002" (readahead_factory.h)
    /// Reclaim's used-once detection (page_check_references, 2.6.34);
    /// false: every referenced page gets a second chance, as before.
    bool page_check_references = true;
    FaultConfig fault;
    WritebackConfig writeback;         ///< dirty thresholds and the flusher's timing
    ReclaimConfig reclaim;             ///< watermarks, kswapd and the per-CPU free lists
    double ops_per_second = 0;         ///< per CPU; 0 = unpaced
    std::uint64_t hold_stretch_ns = 0; ///< demo: extra time every lock is held before release; 0 = none
    std::uint64_t migrate_every = 0;   ///< operations between CPU migrations; 0 = never
    bool events = true;                ///< record the event stream (counters are exact either way)
    std::size_t event_ring_capacity = std::size_t(1) << 14; ///< records per CPU ring (rounded up to a power of two)

    /// Throws FieldError naming the bad field by its path in a scenario
    /// ("memory_pages", "pacing.ops_per_second", "workload.cpus").
    void validate() const;
    /// The event rings a run of this configuration records into: one per
    /// CPU, one per disk and one per disk's flusher, and kswapd's.
    unsigned rings() const;
    /// Disks of the run: 2 when a file is on the second one, else 1.
    unsigned disks() const;
};

/// Per-CPU counters of a run.
struct CpuCounters {
    std::uint64_t operations = 0;  ///< operations done
    std::uint64_t migrations = 0;  ///< times the thread changed CPU id
    std::uint64_t finished_ns = 0; ///< from start() to the end of its sequence (0: not ended)
    /// On a modelled machine, the virtual time its CPU ran (work and
    /// spinning, not waits): its CPU time. 0 on the host.
    std::uint64_t busy_ns = 0;
};

class Engine {
public:
    enum class State : std::uint8_t { Idle, Running, Paused, Finished, Stopped, Failed };

    explicit Engine(const EngineConfig& config, sync::LockRegistry& registry = sync::LockRegistry::global());
    /// Stops the run if it is still going and waits for the CPUs.
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// Starts the CPU threads, running or (@paused) held before their first operation.
    void start(bool paused = false);
    /// Scheduling niceness of the CPU threads (0..19; call before start).
    /// A GUI sets it above its own so that simulated CPUs spinning on a
    /// contended lock cannot crowd out the thread that draws them.
    void set_thread_nice(int nice) noexcept { thread_nice_ = nice < 0 ? 0 : nice > 19 ? 19 : nice; }
    void pause();
    void resume();
    /// Lets each CPU do @n more operations and hold again (pauses first if running).
    void step(std::uint64_t n = 1);
    /// Paused, and every CPU still in the run is waiting to be let go (the
    /// operations the last step() allowed are done): since when, on
    /// now_ns(). nullopt while a CPU still works.
    std::optional<std::uint64_t> held_since() const;
    /// When the last CPU left the run (now_ns()), nullopt while one is in
    /// it: the end of a run that finished, which its driver notices later.
    std::optional<std::uint64_t> ended_at() const;
    /// Ends the run; returns once every CPU thread has left.
    void stop();
    /// Waits until the run has ended (finished, stopped or failed).
    void wait();
    /// After the run: stops kswapd and the flushers, then waits until every
    /// disk has completed what it was given (at most ten seconds on the
    /// run's clock) and every RCU callback queued has run, so that nothing
    /// moves while its state is checked (sim/run_audit.h).
    void quiesce();

    /// Changes the speed, from any thread at any time: operations per
    /// second per CPU (0 = unpaced) and the critical-section stretch. Each
    /// CPU takes the new values before its next operation (a CPU sleeping
    /// out a slow pace wakes for it). Throws std::invalid_argument, as
    /// EngineConfig::validate, for values out of range.
    void set_pacing(double ops_per_second, std::uint64_t hold_stretch_ns);
    double ops_per_second() const noexcept { return pace_ops_.load(std::memory_order_relaxed); }
    std::uint64_t hold_stretch_ns() const noexcept { return pace_stretch_ns_.load(std::memory_order_relaxed); }

    State state() const noexcept;
    static const char* state_name(State state) noexcept;
    /// What went wrong, for State::Failed.
    std::string error() const;

    std::vector<CpuCounters> cpu_counters() const;

    /// Each CPU remembers when its last kRememberedStarts operations began
    /// (on a modelled machine only: its clock is the machine's virtual
    /// time, and a run taken back one operation goes to such a moment).
    static constexpr unsigned kRememberedStarts = 32;
    /// The latest time before @before_ns (the run's clock) at which an
    /// operation of CPU @cpu (any CPU: nullopt) began, among those
    /// remembered; nullopt for none. Read while the machine stands.
    std::optional<std::uint64_t> operation_began_before(
        std::uint64_t before_ns, std::optional<unsigned> cpu = std::nullopt) const;
    std::uint64_t operations() const;

    PageCache& page_cache() noexcept { return *cache_; }
    PageTable& page_table() noexcept { return *page_table_; }
    FaultHandler& faults() noexcept { return *faults_; }
    Writeback& writeback() noexcept { return *writeback_; }
    /// The background reclaimer, or null when reclaim.kswapd is off.
    const Kswapd* kswapd() const noexcept { return kswapd_.get(); }
    /// The run's readahead policy (its per-file windows: window_of).
    const ReadaheadPolicy& readahead() const noexcept { return *readahead_; }
    BlockDevice& device() noexcept { return *device_; }
    /// The second disk (morton's streamed file), or null.
    BlockDevice* second_device() noexcept { return device2_.get(); }
    FrameAllocator& frames() noexcept { return *frames_; }
    const EngineConfig& config() const noexcept { return config_; }
    /// The event stream, a ring for each CPU, disk, flusher and kswapd as
    /// LaneLayout (events/lanes.h) orders them. Drain from one thread.
    EventStream& events() noexcept { return *events_; }
    /// The lock registry the engine's locks count into.
    sync::LockRegistry& registry() noexcept { return registry_; }
    /// Pages of each file a run of @config creates, in order.
    static std::vector<pgoff_t> file_sizes(const EngineConfig& config);
    /// The files of the run, in workload order.
    const std::vector<FileId>& files() const noexcept { return files_; }
    /// First virtual page of file @file's mapping, and of the anonymous region.
    std::uint64_t file_base_vpn(FileId file) const noexcept { return file_base_[file]; }
    std::uint64_t anon_base_vpn() const noexcept { return anon_base_; }

private:
    struct alignas(64) Cpu {
        std::atomic<std::uint64_t> operations { 0 };
        std::atomic<std::uint64_t> migrations { 0 };
        std::atomic<std::uint64_t> finished_ns { 0 };
        std::atomic<std::uint64_t> busy_ns { 0 };
        /// When its last operations began, a ring (operation_began_before).
        std::array<std::atomic<std::uint64_t>, kRememberedStarts> began {};
        std::atomic<std::uint64_t> begun { 0 }; ///< operations begun: the ring's next slot
        std::uint64_t step_budget = 0;          ///< operations allowed while paused; under control_
        bool done = false;                      ///< under control_
        bool background = false;                ///< set before start
    };
    void run_cpu(unsigned cpu);
    /// Waits until @cpu may do its next operation; false: the run is over.
    /// @held: the CPU was held (paused) before it was let go.
    bool may_proceed(unsigned cpu, bool& held);
    bool execute(const Operation& op);
    /// The operation source of @cpu: its generator or its traced thread.
    std::unique_ptr<OperationSource> make_source(unsigned cpu) const;
    /// Stops kswapd and the flushers: the run is over.
    void stop_reclaimers();

    void fail(std::string what);
    /// @cpu left; @completed: it did its whole sequence.
    void cpu_done(unsigned cpu, bool completed);

    EngineConfig config_;
    sync::LockRegistry& registry_;
    std::unique_ptr<EventStream> events_;
    std::unique_ptr<FrameAllocator> frames_;
    std::unique_ptr<PageCache> cache_;
    std::unique_ptr<PageTable> page_table_;
    std::unique_ptr<BlockDevice> device_;
    std::unique_ptr<BlockDevice> device2_;
    std::unique_ptr<ReadaheadPolicy> readahead_;
    std::unique_ptr<FaultHandler> faults_;
    /// After the devices: destroyed first, so its flushers stop before the
    /// disks they submit to go (the disks complete what was submitted).
    std::unique_ptr<Writeback> writeback_;
    std::unique_ptr<Kswapd> kswapd_; ///< null when the run has none
    std::vector<FileId> files_;
    std::vector<std::uint64_t> file_base_; ///< per file: first virtual page of its mapping
    std::uint64_t anon_base_ = 0;

    unsigned ncpus_ = 0;
    std::unique_ptr<Cpu[]> cpus_;
    std::vector<std::unique_ptr<OperationSource>> sources_; ///< per CPU, used by its thread only
    std::vector<TaskThread> threads_;
    WaitMutex join_mutex_; ///< one caller joins the threads (held across the joins: a task parks on it)
    void join_all();
    /// Fast path for the workers: Running means go without taking control_.
    std::atomic<State> state_ { State::Idle };
    mutable WaitMutex control_; ///< protects the step budgets, done flags, error_, transitions of state_
    WaitQueue control_wq_;
    unsigned running_cpus_ = 0;        ///< under control_
    unsigned waiting_cpus_ = 0;        ///< under control_: running CPUs held in may_proceed or await_background
    std::uint64_t all_waiting_ns_ = 0; ///< under control_: now_ns() when the last of them began to wait
    std::uint64_t ended_ns_ = 0;       ///< under control_: now_ns() when the last CPU left (0: not yet)
    void note_waiting();               ///< under control_: one more CPU waits
    unsigned foreground_cpus_ = 0;     ///< under control_: running CPUs that are not background
    std::atomic<bool> background_stop_ { false }; ///< every foreground CPU is done
    unsigned background_unstarted_ = 0;           ///< under control_: background CPUs yet to take their first operation
    void background_started();
    void await_background(unsigned cpu);
    std::uint64_t start_ns_ = 0; ///< now_ns() at start(), before any CPU runs
    std::atomic<double> pace_ops_ { 0 };
    std::atomic<std::uint64_t> pace_stretch_ns_ { 0 };
    std::atomic<std::uint64_t> pacing_generation_ { 0 }; ///< bumped after each set_pacing
    std::atomic<bool> cut_stretch_ { false };            ///< pausing or ending: stretched holds end early
    int thread_nice_ = 0;                                ///< niceness of the CPU threads (set_thread_nice)
    std::string error_;                                  ///< under control_
};

} // namespace pcl
