// The metrics the charts can plot, read from a run's MetricsSample series:
// what each is called, its unit, how to read it from a sample, and which
// chart shows it. One table, so that the charts, their legends, the axis
// labels and the CSV export all use the same names and units.
#pragma once

#include "sim/metrics.h"

#include <QString>

#include <vector>

namespace pcl::ui {

/// The family a metric belongs to; the chart picker lists charts by group.
enum class MetricGroup { Throughput, Faults, Cache, Locks, Io, Memory, Index };
QString metricGroupName(MetricGroup group);

/// How a value is shown on an axis ("1.2 M/s", "40 %", "12 k").
enum class MetricUnit {
    PerSecond, ///< a rate per second of running time
    Percent,   ///< 0..100
    Requests,  ///< a count of device requests
    Pages,     ///< a count of pages
    Nodes,     ///< a count of index nodes
    Levels,    ///< a tree height
};

/// One plottable metric.
struct Metric {
    QString id;     ///< stable identifier, also the CSV column ("major_faults_per_s")
    QString title;  ///< full name ("major faults/s")
    QString legend; ///< name in the legend of its chart ("major")
    MetricUnit unit;
    MetricGroup group;
    QString chart; ///< the id of the chart that plots it
    /// The value of the metric in @sample, in its unit; NaN where the sample
    /// has none (the hit ratio of an interval without lookups).
    double (*extract)(const MetricsSample& sample);
};

/// One time-series chart: one or more metrics sharing a y axis.
struct ChartSpec {
    QString id;        ///< stable identifier ("faults")
    QString title;     ///< chart title
    QString axisLabel; ///< y-axis title, with the unit
    MetricUnit unit;
    MetricGroup group;
    bool shownByDefault;
    /// A fixed upper end of the y axis (100 for a ratio in %), or 0 to
    /// scale to the data.
    double fixedMax;
};

class SeriesCatalog {
public:
    /// Every metric, in CSV column order.
    static const std::vector<Metric>& metrics();
    /// Every chart, in the order the view stacks them.
    static const std::vector<ChartSpec>& charts();
    /// The metrics @chartId plots, in series order (colours::series(i)).
    static std::vector<const Metric*> metricsOf(const QString& chartId);
    static const Metric* metric(const QString& id);
    static const ChartSpec* chart(const QString& id);
};

} // namespace pcl::ui
