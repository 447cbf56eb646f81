#include "charts/timeserieschart.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

bool integral(MetricUnit unit)
{
    return unit == MetricUnit::Requests || unit == MetricUnit::Pages || unit == MetricUnit::Nodes
        || unit == MetricUnit::Levels;
}

} // namespace

TimeSeriesChart::TimeSeriesChart(const ChartSpec& spec, std::size_t maxPoints, QGraphicsItem* parent)
    : TimeChart(spec.title, spec.axisLabel, spec.unit, 6, parent)
    , spec_(spec)
{
    legend()->setAlignment(Qt::AlignBottom);
    timeAxis()->setTickType(QValueAxis::TicksDynamic);
    timeAxis()->setTickAnchor(0);

    const auto metrics = SeriesCatalog::metricsOf(spec.id);
    lines_.reserve(metrics.size());
    for (const Metric* m : metrics) {
        Line line;
        line.metric = m;
        line.data = DecimatedSeries(maxPoints);
        lines_.push_back(std::move(line));
    }
    for (int i = 0; i < metricCount(); ++i)
        newSegment(i);
    // A chart of one metric needs no legend: the title says what it is.
    legend()->setVisible(lines_.size() > 1);
    setTimeRange(1, 0.2);
    rescale(0);
}

QLineSeries* TimeSeriesChart::newSegment(int index)
{
    Line& line = lines_[std::size_t(index)];
    QLineSeries* s = addLine(index);
    s->setName(line.metric->legend);
    s->setMarkerSize(5);
    if (!line.segments.empty()) {
        const auto markers = legend()->markers(s);
        for (QLegendMarker* marker : markers)
            marker->setVisible(false);
    }
    line.segments.push_back(s);
    return s;
}

void TimeSeriesChart::appendPoint(int index, const QPointF& p)
{
    Line& line = lines_[std::size_t(index)];
    if (!std::isfinite(p.y())) {
        line.gap = true;
        return;
    }
    QLineSeries* s = line.segments.back();
    if (line.gap && s->count() > 0)
        s = newSegment(index);
    line.gap = false;
    s->append(p);
    // A segment of one point has no line to draw: show it as a dot until a
    // second point arrives.
    s->setPointsVisible(s->count() == 1);
}

void TimeSeriesChart::rebuild(int index)
{
    Line& line = lines_[std::size_t(index)];
    while (line.segments.size() > 1) {
        QLineSeries* s = line.segments.back();
        line.segments.pop_back();
        removeSeries(s);
        delete s;
    }
    line.segments.front()->clear();
    line.gap = false;
    // Build each segment's points first and hand them over in one replace():
    // one redraw per segment, not one per point.
    QList<QPointF> run;
    auto flush = [&] {
        if (run.isEmpty())
            return;
        QLineSeries* s = line.segments.back();
        if (s->count() > 0)
            s = newSegment(index);
        s->replace(run);
        s->setPointsVisible(run.size() == 1);
        run.clear();
    };
    for (const QPointF& p : line.data.points()) {
        if (std::isfinite(p.y()))
            run.append(p);
        else
            flush();
    }
    flush();
    line.gap = !line.data.points().empty() && !std::isfinite(line.data.points().back().y());
}

void TimeSeriesChart::addSample(const MetricsSample& sample)
{
    double dataMax = 0;
    for (int i = 0; i < metricCount(); ++i) {
        Line& line = lines_[std::size_t(i)];
        const double y = line.metric->extract(sample);
        switch (line.data.add(sample.time_s, y)) {
        case DecimatedSeries::Change::None:
            break;
        case DecimatedSeries::Change::Appended:
            appendPoint(i, line.data.points().back());
            break;
        case DecimatedSeries::Change::Rebuilt:
            rebuild(i);
            break;
        }
        dataMax = std::max(dataMax, line.data.maxY());
    }
    rescale(dataMax);
}

void TimeSeriesChart::addSamples(const std::vector<MetricsSample>& samples)
{
    double dataMax = 0;
    for (int i = 0; i < metricCount(); ++i) {
        Line& line = lines_[std::size_t(i)];
        for (const MetricsSample& sample : samples)
            line.data.add(sample.time_s, line.metric->extract(sample));
        rebuild(i);
        dataMax = std::max(dataMax, line.data.maxY());
    }
    rescale(dataMax);
}

void TimeSeriesChart::clear()
{
    for (int i = 0; i < metricCount(); ++i) {
        lines_[std::size_t(i)].data.clear();
        rebuild(i);
    }
    resetValues();
    rescale(0);
}

int TimeSeriesChart::drawnPoints(int i) const
{
    int n = 0;
    for (const QLineSeries* s : lines_[std::size_t(i)].segments)
        n += s->count();
    return n;
}

void TimeSeriesChart::setTimeRange(double maxSeconds, double stepSeconds)
{
    // Range and interval change together: set one after the other with
    // dynamic ticks, the axis would lay out the new range at the old
    // interval first (a range of 100 s at a step of 2 us is fifty million
    // ticks). Fixed ticks in between cost five.
    timeAxis()->setTickType(QValueAxis::TicksFixed);
    timeAxis()->setRange(0, maxSeconds);
    timeAxis()->setTickInterval(stepSeconds);
    timeAxis()->setTickType(QValueAxis::TicksDynamic);
}

void TimeSeriesChart::rescale(double dataMax)
{
    if (spec_.fixedMax <= 0)
        growValues(dataMax, integral(spec_.unit));
    else if (valueMax() != spec_.fixedMax)
        setValueScale({ spec_.fixedMax, spec_.fixedMax / 5 });
}

} // namespace pcl::ui
