// What a lesson's claim measures in a run: a count or a rate read from the
// run's result, never an absolute time set beside 2002's. A claim divides
// one run's figure by another's, so what is compared is always two runs on
// the same machine, side by side.
#pragma once

#include "sim/run_result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

enum class LessonMetric : std::uint8_t {
    ContentionsPer1000Ops, ///< a lock class's contentions per 1000 operations
    BouncesPer1000Ops,     ///< its acquisitions on another CPU than the last, per 1000 operations
    BouncesPerMigration,   ///< its acquisition bounces per CPU migration of the threads
    OpsPerSecond,          ///< operations per wall-clock second
    FaultsPerSecond,       ///< page faults per wall-clock second
    FaultsPerCpuSecond,    ///< page faults per second of CPU time, every thread's (pft's second table)
    RunSeconds,            ///< the run's wall-clock time (only ever divided by another run's)
    Cpu0Seconds,           ///< CPU 0's time to finish its sequence: process A of Morton's test
    WastedReadahead,       ///< readahead pages evicted before anyone used them
    DeviceRequests,        ///< requests the first disk served
};

struct LessonMetricInfo {
    LessonMetric metric;
    std::string_view name; ///< in a lesson file: "contentions_per_1000_ops"
    std::string_view unit; ///< how a figure of it reads: "contentions / 1000 ops"
    bool needs_lock;       ///< reads one lock class (the claim's "lock")
};

/// Every metric, in the order of the enumeration.
const std::vector<LessonMetricInfo>& lesson_metrics();
const LessonMetricInfo& lesson_metric_info(LessonMetric metric);
std::optional<LessonMetric> parse_lesson_metric(std::string_view name);

/// @metric of @result; @lock names the class a lock metric reads. A lock
/// class the run never created reads 0 (a radix-tree run has no
/// pagecache_lock: it was never contended).
double measure(LessonMetric metric, const RunResult& result, const std::string& lock = "");

/// The mean wait of a contended acquisition of lock class @lock in
/// @result, in ns; NaN when it was never contended. About a scheduler time
/// slice (milliseconds), the waiters waited for a holder the kernel had
/// preempted; a few microseconds, for a holder running on another CPU.
double mean_contended_wait_ns(const RunResult& result, const std::string& lock);

} // namespace pcl
