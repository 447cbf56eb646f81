// One metric of two runs overlaid on one chart: A in colors::series(0), B in
// colors::series(1), against each run's running time, so a compare window
// shows at a glance which run goes faster and which waits for its locks.
//
// Each run's points are a bounded DecimatedSeries, so a long run costs the
// chart O(1) amortised per sample. An interval without a value (a hit ratio
// with no lookup) draws no point. The y axis only grows during a run, so the
// lines do not jump under the reader's eye.
#pragma once

#include "charts/decimatedseries.h"
#include "charts/timechart.h"
#include "sim/metrics.h"

#include <functional>

namespace pcl::ui {

class CompareChart : public TimeChart {
    Q_OBJECT
public:
    /// The value a chart plots from a sample, in @unit (percentages 0..100).
    using Extract = std::function<double(const MetricsSample&)>;

    /// @maxPoints (per run) bounds what the chart holds however long the runs.
    CompareChart(const QString& title, const QString& axisTitle, MetricUnit unit, Extract extract,
        std::size_t maxPoints = 2000, QGraphicsItem* parent = nullptr);

    /// Appends @sample of run @side (0 = A, 1 = B).
    void addSample(int side, const MetricsSample& sample);
    /// Drops the points of run @side (a new run).
    void clear(int side);
    /// Names the two lines (the legend, when shown).
    void setSideNames(const QString& a, const QString& b);

    QLineSeries* line(int side) const { return lines_[side]; }
    /// Points drawn for run @side.
    int pointCount(int side) const;

private:
    void rescaleValues();
    void rescaleTime();

    Extract extract_;
    DecimatedSeries data_[2];
    QLineSeries* lines_[2];
    double lastTime_[2] = { 0, 0 };
    double xMax_ = 0;
};

} // namespace pcl::ui
