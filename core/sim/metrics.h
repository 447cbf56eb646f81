// The metrics time series of a run: what the live charts plot and what a
// run's result keeps, one sample per interval.
//
// A MetricsSampler reads the engine's counters - never a snapshot of a big
// structure - and turns the change since its previous sample into rates and
// fractions. Every counter it reads is an atomic or a sharded counter that
// the CPUs update while it reads, so it may sample a running engine from
// another thread (the GUI's timer, the runner) ten times a second. Counts
// read while CPUs run are a moment's approximation; the sample taken after
// the run has ended is exact, so the per-interval counts of a whole series
// add up to the run's totals.
#pragma once

#include "mm/page_cache_stats.h"

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pcl {

class Engine;

/// One interval of a run. Counts are those of the interval (since the
/// previous sample); rates are per second of the interval; gauges are their
/// value at the end of it.
struct MetricsSample {
    double time_s = 0; ///< end of the interval: seconds since the sampler was created, or the time sample() was given
    double interval_s = 0; ///< length of the interval
    /// When it was taken on the events' clock (now_ns(), or the run's clock
    /// that the events were moved onto: sim/run_clock.h), so that a trace
    /// can place the sample among the run's events.
    std::uint64_t clock_ns = 0;

    // Counts in the interval.
    std::uint64_t operations = 0;       ///< operations done by all CPUs
    std::uint64_t minor_faults = 0;     ///< page cached and up to date
    std::uint64_t major_faults = 0;     ///< read from the device by the faulting CPU
    std::uint64_t wait_io_faults = 0;   ///< waited for another CPU's read of the page
    std::uint64_t anon_faults = 0;      ///< anonymous pages mapped
    std::uint64_t lookups = 0;          ///< page-cache lookups (find_get_page)
    std::uint64_t lookup_hits = 0;      ///< page-cache lookups that found the page
    std::uint64_t evictions = 0;        ///< pages reclaim evicted
    std::uint64_t refaults = 0;         ///< evicted pages read again while their shadow lasted
    std::uint64_t wasted_readahead = 0; ///< readahead pages evicted before they were used
    std::uint64_t pages_dirtied = 0;    ///< pages that went from clean to dirty
    std::uint64_t pages_written = 0;    ///< pages whose writeback completed
    std::uint64_t kswapd_reclaimed = 0; ///< of the evictions, kswapd's (pgsteal_kswapd)
    std::uint64_t direct_reclaims = 0;  ///< times an allocating CPU reclaimed for itself (allocstall)
    /// lookups - lookup_hits, at least 0. A lookup is counted when it starts
    /// and its hit when it ends, so one under way at a sample may count as a
    /// lookup in one interval and a hit in the next: per interval, misses are
    /// approximate while CPUs run; the sums of lookups and of hits are exact.
    std::uint64_t lookup_misses = 0;

    // Rates and fractions over the interval.
    double operations_per_s = 0;
    double minor_faults_per_s = 0;
    double major_faults_per_s = 0;
    double wait_io_faults_per_s = 0;
    double anon_faults_per_s = 0;
    double evictions_per_s = 0;
    double refaults_per_s = 0;
    double wasted_readahead_per_s = 0;
    double pages_dirtied_per_s = 0;
    double pages_written_per_s = 0;
    double kswapd_reclaimed_per_s = 0;
    double direct_reclaimed_per_s = 0; ///< evictions by the allocating CPUs (pgsteal_direct)
    double direct_reclaims_per_s = 0;
    /// lookup_hits / lookups, at most 1; NaN when the interval had no
    /// lookup (a ratio of nothing; written as null in JSON).
    double hit_ratio = 0;
    /// Share of the CPUs' time spent waiting for locks: the wait time of
    /// every lock class in the interval / (cpus x interval). Spinning and
    /// sleeping both count, as lockstat's waittime does.
    double lock_wait_fraction = 0;
    /// Share of the CPUs' time spent asleep on pages under I/O (page-lock
    /// wait time in the interval / (cpus x interval)).
    double page_wait_fraction = 0;

    // Gauges at the end of the interval.
    std::uint64_t io_in_flight = 0; ///< requests the disks are serving (every disk)
    std::uint64_t io_queued = 0;    ///< requests waiting for a disk (submitted, not yet dispatched)
    std::uint64_t nr_active = 0;    ///< pages on the active LRU list
    std::uint64_t nr_inactive = 0;  ///< pages on the inactive LRU list
    std::uint64_t pages_cached = 0; ///< pages in the page cache, all files
    std::uint64_t frames_used = 0;  ///< page frames allocated (cached and anonymous pages)
    std::uint64_t frames_free = 0;  ///< page frames free on the zone's list, which the watermarks are about
    std::uint64_t frames_pcp = 0;   ///< page frames free on the CPUs' own lists
    std::uint64_t wmark_min = 0;    ///< the zone's watermarks (fixed for a run; plotted beside frames_free)
    std::uint64_t wmark_low = 0;
    std::uint64_t wmark_high = 0;
    std::uint64_t nr_dirty = 0;     ///< pages dirty, not yet being written
    std::uint64_t nr_writeback = 0; ///< pages being written back
    std::uint64_t index_nodes = 0;  ///< nodes of every file's index (IndexShape; 0 for the hash)
    int index_height = 0;           ///< tallest index of any file (IndexShape)
};

/// How a column of the series is taken, and how two intervals' values
/// combine into one (MetricsSampler::merge).
enum class SampleKind : std::uint8_t {
    Time,  ///< time_s (the later's), interval_s (the sum)
    Count, ///< the interval's share of a total of the engine's (now - before); summed
    Rate,  ///< per second of the interval, or a ratio of counts: recomputed from the counts
    Share, ///< a share of the CPUs' time: averaged, weighted by each interval's length
    Gauge, ///< a value at the end of the interval: the later's
};

/// One column of the series, declared once: its name (in the JSON's
/// "series" and the CSV's header), its kind and its member.
struct SampleColumn {
    std::string_view name {};
    SampleKind kind = SampleKind::Count;
    std::uint64_t MetricsSample::*count = nullptr; ///< Count, Gauge (but index_height)
    double MetricsSample::*real = nullptr;         ///< Time, Rate, Share
    int MetricsSample::*integer = nullptr;         ///< index_height
    double MetricsSample::*per_s = nullptr;        ///< Count: its rate column, if it has one
    /// Count: the page-cache counter it is the interval's share of, if it is one.
    std::uint64_t PageCacheStats::*cache_total = nullptr;
};

/// Every column of MetricsSample, in the order of its JSON form (and CSV).
/// To add one: the member in MetricsSample, a row here (metrics.cpp), and
/// for a count not read from the page cache, a line in read_totals.
std::span<const SampleColumn> sample_columns() noexcept;

class MetricsSampler {
public:
    /// Samples @engine, which must outlive the sampler. The first interval
    /// starts now, from the engine's counters as they are now (zero before
    /// the run starts). At most @max_series samples are kept (series()).
    explicit MetricsSampler(Engine& engine, std::size_t max_series = kMaxSeries);

    /// The interval since the previous call (or since construction), which
    /// is also appended to series(). One thread calls it.
    MetricsSample sample();
    /// The same, at @time_s on a clock of the caller's that starts at 0 with
    /// the sampler and only goes forward: a run's running time, which stands
    /// still while the run is paused, so that no interval spans a pause;
    /// @clock_ns is the sample's place among the events (0: now_ns()).
    MetricsSample sample(double time_s, std::uint64_t clock_ns = 0);
    /// The samples taken, oldest first. At most max_series are kept: when
    /// full, neighbouring pairs are merged (counts summed, rates and shares
    /// recomputed over the joined interval), so a long run keeps its whole
    /// span at a coarser resolution and every count's sum is unchanged.
    const std::vector<MetricsSample>& series() const noexcept { return series_; }
    static constexpr std::size_t kMaxSeries = 20000;
    std::size_t max_series() const noexcept { return max_series_; }

    /// One sample covering @a and the interval after it, @b.
    static MetricsSample merge(const MetricsSample& a, const MetricsSample& b);

private:
    /// The cumulative counters a sample is the difference of: the
    /// columns of kind Count, holding the engine's totals, and the waits.
    struct Totals {
        MetricsSample counts;
        std::uint64_t lock_wait_ns = 0;
        std::uint64_t page_wait_ns = 0;
    };
    Totals read_totals() const;

    Engine& engine_;
    std::uint64_t start_ns_; ///< now_ns() when the sampler was made
    double last_time_s_ = 0; ///< time_s of the previous sample
    Totals last_;
    std::vector<MetricsSample> series_;
    std::size_t max_series_;
};

} // namespace pcl
