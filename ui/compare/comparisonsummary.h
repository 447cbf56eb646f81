// The difference between two runs shown side by side, as the benchmarks
// state it: B's throughput as a multiple of A's, B's lock contentions as a
// multiple of A's, and the share of CPU time each spent waiting for locks.
//
// Pure computation: a run's totals come from its samples (MetricsSample)
// and its lock classes' rows (LockRegistry::classes()), so the figures can
// be checked against hand-built inputs and a compare window can keep them
// incrementally, one sample at a time.
#pragma once

#include "sim/metrics.h"
#include "sync/lock_stats.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace pcl::ui {

/// What one run did, over the whole run so far.
struct RunTotals {
    std::uint64_t operations = 0;  ///< operations of every CPU (sum of the samples' counts)
    double seconds = 0;            ///< running time: the last sample's time_s (pauses excluded)
    double sampledSeconds = 0;     ///< sum of the samples' intervals (the weight of the lock wait mean)
    double lockWaitSeconds = 0;    ///< sum of lock_wait_fraction x interval: the mean's numerator
    std::uint64_t contentions = 0; ///< contentions summed over every lock class

    /// Adds one sample (the next in time).
    void add(const MetricsSample& sample);
    /// Sets the contentions from the run's lock class rows.
    void setContentions(const std::vector<sync::LockStatRow>& classes);

    /// Operations per second of running time; nullopt before any running time.
    std::optional<double> throughput() const;
    /// Share of the CPUs' time spent waiting for locks over the run, in
    /// [0, 1]: the interval-weighted mean of the samples' lock_wait_fraction.
    std::optional<double> lockWaitFraction() const;

    static RunTotals of(const std::vector<MetricsSample>& samples, const std::vector<sync::LockStatRow>& classes);
};

/// B against A.
struct ComparisonSummary {
    RunTotals a;
    RunTotals b;

    /// B's throughput / A's; nullopt when either is undefined or A's is 0
    /// (shown as "—", never inf or NaN).
    std::optional<double> throughputRatio() const;
    /// B's contentions / A's; nullopt when A had none.
    std::optional<double> contentionsRatio() const;

    /// "B vs A: throughput 1.76x (ops/s over the run: 5.4 M/s vs 3.1 M/s) · lock contentions 0x (0 vs 3,000,000) ·
    /// lock wait 0.0 % vs 25 % of CPU time".
    QString text() const;
    /// The same words for a label: the ratios in bold.
    QString richText() const;

    /// "1.76x", "12.5x", "0.00106x", "0x"; "—" for nullopt.
    static QString ratioText(std::optional<double> ratio);
    /// "5.4 M/s"; "—" for nullopt.
    static QString rateText(std::optional<double> perSecond);
    /// "3,000,000", "0", "950": whole, so that a ratio beside it divides.
    static QString countText(std::uint64_t n);
    /// A fraction as a percentage: "0.0 %", "4.2 %", "25 %"; "—" for nullopt.
    static QString percentText(std::optional<double> fraction);
};

} // namespace pcl::ui
