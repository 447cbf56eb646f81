// The result of one run: everything a report needs, gathered once the CPUs
// have stopped, and its JSON form (the file `pagecache-lab-cli run --json`
// writes and the GUI's export reads back).
//
// Totals are exact: they are read after every CPU thread has left. Times are
// in nanoseconds unless a field says otherwise; JSON field names carry their
// unit (`wait_ns`, `time_s`).
#pragma once

#include "lib/json.h"
#include "lib/provenance.h"
#include "mm/fault.h"
#include "mm/page_cache.h"
#include "mm/page_lock.h"
#include "sim/engine.h"
#include "sim/metrics.h"
#include "sim/run_end.h"
#include "sim/scenario.h"
#include "sync/lock_stats.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pcl {

/// A latency histogram as numbers: its non-empty buckets and summary.
struct HistogramSummary {
    struct Bucket {
        std::uint64_t lower_ns = 0; ///< inclusive
        std::uint64_t upper_ns = 0; ///< exclusive; 0 for the last bucket, which has no upper bound
        std::uint64_t count = 0;
    };
    std::string name; ///< "fault.minor", "read", "device"...
    std::uint64_t count = 0;
    std::uint64_t total_ns = 0;
    double mean_ns = 0;
    // Quantiles are the lower bound of the bucket holding them (a power of
    // two), the resolution the histogram keeps.
    std::uint64_t p50_ns = 0;
    std::uint64_t p90_ns = 0;
    std::uint64_t p99_ns = 0;
    std::uint64_t max_ns = 0; ///< exact
    std::vector<Bucket> buckets;

    static HistogramSummary of(std::string name, const LatencyHistogram& histogram);
};

/// One disk's totals (the second is morton's streaming disk).
struct DeviceSummary {
    std::string model;
    std::uint64_t submitted = 0;       ///< reads and writes submitted (before merging)
    std::uint64_t requests = 0;        ///< requests served (after merging), reads and writes
    std::uint64_t merged = 0;          ///< submissions merged into a queued request
    std::uint64_t pages = 0;           ///< pages read
    std::uint64_t seeks = 0;           ///< requests that paid a seek (HDD)
    std::uint64_t busy_ns = 0;         ///< the model's service time, unscaled
    std::uint64_t write_requests = 0;  ///< of the requests, writes
    std::uint64_t pages_written = 0;   ///< pages written
    std::uint64_t pages_dirty = 0;     ///< at the end: pages of its files dirty, not yet being written
    std::uint64_t pages_writeback = 0; ///< at the end: pages of its files being written
};

/// Memory pressure on one file: what reclaim did to it, and its dirty pages.
struct FileMemorySummary {
    FileId file = 0;
    std::uint64_t pages_cached = 0;     ///< at the end
    std::uint64_t evictions = 0;        ///< its pages reclaimed
    std::uint64_t refaults = 0;         ///< its pages read again soon after their eviction
    std::uint64_t wasted_readahead = 0; ///< its readahead pages evicted unused (readahead thrashing)
    std::uint64_t pages_dirty = 0;      ///< at the end: pages dirty, not yet being written
    std::uint64_t pages_writeback = 0;  ///< at the end: pages being written
};

struct RunResult {
    static constexpr int kVersion = 1; ///< version of the JSON form

    Scenario scenario;              ///< as given to the run
    std::string state;              ///< Engine::state_name of the final state: finished, stopped, failed
    RunEnd ended_by = RunEnd::None; ///< Finished, Duration, Cancelled, Stopped or Failed; written by its name
    std::string error;              ///< the engine's error, for failed runs
    double wall_seconds = 0;        ///< from start to the last CPU leaving (virtual time on a modelled machine)
    /// The host's own time for the run (on the host, wall_seconds and the
    /// pauses); set by the runner, 0 where nobody measured it.
    double host_wall_seconds = 0;
    /// On a modelled machine, set by the runner and not in the JSON: the
    /// points where its scheduler chose the next task, and the hash of the
    /// order its tasks ran in (sched::Scheduler::fingerprint), which an
    /// exploration counts distinct schedules by.
    std::uint64_t scheduling_points = 0;
    std::uint64_t schedule_fingerprint = 0;
    /// And the hash of the order its tasks took their locks in
    /// (sched::Scheduler::lock_order), an exploration's coverage.
    std::uint64_t lock_order = 0;
    /// CPU time the whole process spent from start to end, every thread's
    /// (run_scenario only; 0 otherwise): what pft's "faults per CPU second"
    /// divides by, which spinning on a contended lock costs even when the
    /// wall clock does not show it. On a modelled machine, the time its
    /// simulated CPUs ran (CpuCounters::busy_ns), virtual.
    double cpu_seconds = 0;
    /// The host's process CPU time for the run, whatever the machine (on
    /// the host, cpu_seconds): what the simulation cost. In the JSON's
    /// `host` section.
    double host_cpu_seconds = 0;
    /// The build, command, time and computer that made the result
    /// (collect_result); written in the JSON's `host` section.
    Provenance provenance;

    // Totals.
    std::uint64_t operations = 0;
    std::vector<CpuCounters> cpus;                    ///< per simulated CPU (operations, migrations)
    std::array<std::uint64_t, kFaultKinds> faults {}; ///< by FaultKind
    std::uint64_t fault_around_mapped = 0;
    PageCacheStats page_cache;          ///< lookups, hits, adds, insert races...
    std::uint64_t pages_cached = 0;     ///< pages in the cache at the end
    std::uint64_t pte_backouts = 0;     ///< installs that found the PTE already set
    std::uint64_t ptes_mapped = 0;      ///< PTEs set at the end
    std::uint64_t page_table_pages = 0; ///< PGD + PMD + PTE pages
    PageLockStats page_locks;           ///< sleeps on PG_locked
    std::uint64_t device_requests = 0;  ///< the first disk's requests (devices[0].requests)
    std::uint64_t device_pages = 0;     ///< and pages read
    std::vector<DeviceSummary> devices; ///< each disk
    /// Files reclaim touched (an eviction, refault or wasted page), most
    /// wasted readahead first.
    std::vector<FileMemorySummary> file_memory;
    WritebackStats writeback;                  ///< the flushers, throttling, fsyncs (dirty counts: page_cache)
    std::uint64_t dirty_background_thresh = 0; ///< pages
    std::uint64_t dirty_thresh = 0;            ///< pages
    std::uint64_t frames_used = 0;
    std::uint64_t frames_total = 0;
    std::uint64_t frame_failures = 0;   ///< allocations refused
    std::uint64_t frame_stalls = 0;     ///< times an allocation waited for reclaim to make progress
    std::uint64_t frames_zone_free = 0; ///< free on the zone's list at the end
    std::uint64_t frames_pcp_free = 0;  ///< free on the CPUs' lists at the end
    Watermarks watermarks;              ///< the zone's, in pages
    PcpSizing pcp;                      ///< the per-CPU lists' batch and high mark (0: none)
    std::uint64_t pcp_refills = 0;      ///< batches a CPU's list took from the zone
    std::uint64_t pcp_spills = 0;       ///< batches a CPU's list gave back to it
    std::uint64_t pcp_drains = 0;       ///< times every list was emptied into the zone for a starved allocation
    bool kswapd_on = false;             ///< the run had a kswapd
    KswapdStats kswapd;
    std::uint64_t events_pushed = 0;
    std::uint64_t events_dropped = 0; ///< overwritten before they were drained
    std::uint64_t events_drained = 0; ///< read by whoever ran the engine (the runner)

    std::vector<sync::LockStatRow> locks;        ///< named locks
    std::vector<sync::LockStatRow> lock_classes; ///< every class (all locks of a kind, named or not)
    /// The names the events' lock numbers stand for: lock_names[lock_id - 1]
    /// and class_names[class_id - 1] (ev::LockAcquired). Not in the JSON.
    std::vector<std::string> lock_names;
    std::vector<std::string> class_names;

    /// Fault latency per kind (minor, major, wait_io, anon), read(2), device.
    std::vector<HistogramSummary> histograms;
    std::vector<MetricsSample> series;

    std::uint64_t faults_of(FaultKind kind) const noexcept { return faults[unsigned(kind)]; }
    double operations_per_s() const noexcept { return wall_seconds > 0 ? double(operations) / wall_seconds : 0; }
};

/// Reads a run's results from @engine, whose CPUs must have stopped (after
/// wait() or stop()), with @sampler's series. ended_by and events_drained
/// are left for the caller, which knows them.
RunResult collect_result(Engine& engine, const Scenario& scenario, const MetricsSampler& sampler, double wall_seconds);

/// The JSON form: {"version": 1, "scenario": ..., "totals": ..., "locks": ...,
/// "lock_classes": ..., "histograms": ..., "series": ...}.
/// A modelled run's cpu_seconds: the time its simulated CPUs were busy
/// (CpuCounters::busy_ns, work charged and spinning), in virtual seconds.
double modelled_cpu_seconds(const RunResult& result);

json::Value to_json(const RunResult& result);
json::Value to_json(const sync::LockStatRow& row);
json::Value to_json(const HistogramSummary& histogram);
json::Value to_json(const MetricsSample& sample);

} // namespace pcl
