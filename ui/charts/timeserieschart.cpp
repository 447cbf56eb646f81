#include "charts/timeserieschart.h"

#include "charts/axisscale.h"
#include "kit/colors.h"

#include <QCategoryAxis>
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
    : QChart(parent)
    , spec_(spec)
    , xAxis_(new QValueAxis(this))
    , yAxis_(new QCategoryAxis(this))
{
    setTitle(spec.title);
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(6, 6, 6, 6));
    legend()->setAlignment(Qt::AlignBottom);

    xAxis_->setTitleText(tr("running time (s)"));
    xAxis_->setTickType(QValueAxis::TicksDynamic);
    xAxis_->setTickAnchor(0);
    xAxis_->setLabelFormat(QStringLiteral("%g"));
    addAxis(xAxis_, Qt::AlignBottom);
    yAxis_->setTitleText(spec.axisLabel);
    yAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    addAxis(yAxis_, Qt::AlignLeft);

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
    auto* s = new QLineSeries(this);
    s->setName(line.metric->legend);
    // Two logical pixels: also two in an export rendered at twice the size.
    QPen pen(colors::series(index), 2);
    s->setPen(pen);
    s->setColor(colors::series(index));
    s->setMarkerSize(5);
    addSeries(s);
    s->attachAxis(xAxis_);
    s->attachAxis(yAxis_);
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
    yMax_ = 0;
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
    xAxis_->setTickType(QValueAxis::TicksFixed);
    xAxis_->setRange(0, maxSeconds);
    xAxis_->setTickInterval(stepSeconds);
    xAxis_->setTickType(QValueAxis::TicksDynamic);
}

void TimeSeriesChart::rescale(double dataMax)
{
    // The axis only grows during a run: a rescale per sample would make the
    // lines jump under the reader's eye.
    AxisScale scale;
    if (spec_.fixedMax > 0) {
        if (yMax_ == spec_.fixedMax)
            return;
        scale = { spec_.fixedMax, spec_.fixedMax / 5 };
    } else {
        if (yMax_ > 0 && dataMax <= yMax_)
            return;
        scale = niceScale(dataMax, 0.15, integral(spec_.unit));
        if (spec_.unit == MetricUnit::Percent && scale.max > 100)
            scale = { 100, 20 };
    }
    yMax_ = scale.max;
    applyValueScale(*yAxis_, scale, spec_.unit);
}

} // namespace pcl::ui
