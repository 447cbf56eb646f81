// One live time-series chart of the Charts view: the metrics of one
// ChartSpec against running time, each a bounded DecimatedSeries.
//
// Qt Charts joins the points on either side of a NaN, so a gap (an interval
// with no value, like the hit ratio of one without lookups) ends the line
// and the next value starts a new QLineSeries segment with the same pen.
// The first segment of each metric is kept for the whole run and is the
// only one with a legend marker, so the legend stays in series order.
#pragma once

#include "charts/decimatedseries.h"
#include "charts/seriescatalog.h"
#include "charts/timechart.h"

#include <vector>

namespace pcl::ui {

class TimeSeriesChart : public TimeChart {
    Q_OBJECT
public:
    TimeSeriesChart(const ChartSpec& spec, std::size_t maxPoints, QGraphicsItem* parent = nullptr);

    const ChartSpec& spec() const { return spec_; }
    /// Appends @sample's value of every metric: O(1) amortised.
    void addSample(const MetricsSample& sample);
    /// Appends many samples at once (a view opened mid-run): the points are
    /// handed to Qt Charts once at the end, not redrawn per sample.
    void addSamples(const std::vector<MetricsSample>& samples);
    /// Drops every point (a new run).
    void clear();
    /// The shared x axis: 0 to @maxSeconds, ticks every @stepSeconds.
    void setTimeRange(double maxSeconds, double stepSeconds);

    int metricCount() const { return int(lines_.size()); }
    const Metric& metric(int i) const { return *lines_[std::size_t(i)].metric; }
    const DecimatedSeries& data(int i) const { return lines_[std::size_t(i)].data; }
    /// Points drawn for metric @i, all segments together.
    int drawnPoints(int i) const;
    /// QLineSeries segments of metric @i (1 + the gaps drawn).
    int segmentCount(int i) const { return int(lines_[std::size_t(i)].segments.size()); }

private:
    struct Line {
        const Metric* metric = nullptr;
        DecimatedSeries data;
        std::vector<QLineSeries*> segments; ///< segments[0] always exists and owns the legend marker
        bool gap = false;                   ///< the last point was NaN: the next value starts a segment
    };

    QLineSeries* newSegment(int index);
    void appendPoint(int index, const QPointF& p);
    void rebuild(int index);
    void rescale(double dataMax);

    ChartSpec spec_;
    std::vector<Line> lines_;
};

} // namespace pcl::ui
