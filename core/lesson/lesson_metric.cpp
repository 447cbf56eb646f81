#include "lesson/lesson_metric.h"

#include <limits>
#include <stdexcept>

namespace pcl {

namespace {

const sync::LockStatRow* lock_class_row(const RunResult& r, const std::string& lock)
{
    for (const sync::LockStatRow& row : r.lock_classes)
        if (row.name == lock)
            return &row;
    return nullptr;
}

double per_1000(std::uint64_t count, std::uint64_t operations)
{
    return operations ? 1000.0 * double(count) / double(operations) : 0.0;
}

double per_second(double count, double seconds)
{
    return seconds > 0 ? count / seconds : 0.0;
}

} // namespace

const std::vector<LessonMetricInfo>& lesson_metrics()
{
    static const std::vector<LessonMetricInfo> metrics = {
        { LessonMetric::ContentionsPer1000Ops, "contentions_per_1000_ops", "contentions / 1000 ops", true },
        { LessonMetric::BouncesPer1000Ops, "bounces_per_1000_ops", "bounces / 1000 ops", true },
        { LessonMetric::BouncesPerMigration, "bounces_per_migration", "bounces / migration", true },
        { LessonMetric::OpsPerSecond, "ops_per_second", "ops/s", false },
        { LessonMetric::FaultsPerSecond, "faults_per_second", "faults/s", false },
        { LessonMetric::FaultsPerCpuSecond, "faults_per_cpu_second", "faults / CPU-s", false },
        { LessonMetric::RunSeconds, "run_seconds", "s", false },
        { LessonMetric::Cpu0Seconds, "cpu0_seconds", "s", false },
        { LessonMetric::WastedReadahead, "wasted_readahead", "pages", false },
        { LessonMetric::DeviceRequests, "device_requests", "requests", false },
    };
    return metrics;
}

const LessonMetricInfo& lesson_metric_info(LessonMetric metric)
{
    return lesson_metrics().at(std::size_t(metric));
}

std::optional<LessonMetric> parse_lesson_metric(std::string_view name)
{
    for (const LessonMetricInfo& info : lesson_metrics())
        if (info.name == name)
            return info.metric;
    return std::nullopt;
}

double measure(LessonMetric metric, const RunResult& r, const std::string& lock)
{
    const sync::LockStatRow* row = lesson_metric_info(metric).needs_lock ? lock_class_row(r, lock) : nullptr;
    switch (metric) {
    case LessonMetric::ContentionsPer1000Ops:
        return row ? per_1000(row->contentions, r.operations) : 0.0;
    case LessonMetric::BouncesPer1000Ops:
        return row ? per_1000(row->acq_bounces, r.operations) : 0.0;
    case LessonMetric::BouncesPerMigration: {
        std::uint64_t migrations = 0;
        for (const CpuCounters& c : r.cpus)
            migrations += c.migrations;
        return row && migrations ? double(row->acq_bounces) / double(migrations) : 0.0;
    }
    case LessonMetric::OpsPerSecond:
        return r.operations_per_s();
    case LessonMetric::FaultsPerSecond:
    case LessonMetric::FaultsPerCpuSecond: {
        std::uint64_t faults = 0;
        for (std::uint64_t n : r.faults)
            faults += n;
        return per_second(double(faults), metric == LessonMetric::FaultsPerSecond ? r.wall_seconds : r.cpu_seconds);
    }
    case LessonMetric::RunSeconds:
        return r.wall_seconds;
    case LessonMetric::Cpu0Seconds:
        return r.cpus.empty() ? 0.0 : double(r.cpus[0].finished_ns) / 1e9;
    case LessonMetric::WastedReadahead: {
        std::uint64_t wasted = 0;
        for (const FileMemorySummary& f : r.file_memory)
            wasted += f.wasted_readahead;
        return double(wasted);
    }
    case LessonMetric::DeviceRequests:
        return double(r.device_requests);
    }
    throw std::logic_error("measure: unknown metric");
}

double mean_contended_wait_ns(const RunResult& r, const std::string& lock)
{
    const sync::LockStatRow* row = lock_class_row(r, lock);
    return row && row->contentions ? row->wait_avg_ns() : std::numeric_limits<double>::quiet_NaN();
}

} // namespace pcl
