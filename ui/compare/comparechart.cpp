#include "compare/comparechart.h"

#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

CompareChart::CompareChart(const QString& title, const QString& axisTitle, MetricUnit unit, Extract extract,
    std::size_t maxPoints, QGraphicsItem* parent)
    : TimeChart(title, axisTitle, unit, 4, parent)
    , extract_(std::move(extract))
    , data_ { DecimatedSeries(maxPoints), DecimatedSeries(maxPoints) }
{
    // The columns above are headed in the same two colours: a legend per
    // chart would only take the room the lines need.
    legend()->setVisible(false);

    // Two logical pixels: readable on a projector, and B drawn over A stays
    // distinguishable where they coincide.
    for (int side = 0; side < 2; ++side)
        lines_[side] = addLine(side);
    setSideNames(QStringLiteral("A"), QStringLiteral("B"));
    rescaleTime();
    rescaleValues();
}

void CompareChart::setSideNames(const QString& a, const QString& b)
{
    lines_[0]->setName(a);
    lines_[1]->setName(b);
}

void CompareChart::addSample(int side, const MetricsSample& sample)
{
    DecimatedSeries& d = data_[side];
    const double y = extract_(sample);
    lastTime_[side] = sample.time_s;
    switch (d.add(sample.time_s, y)) {
    case DecimatedSeries::Change::None:
        break;
    case DecimatedSeries::Change::Appended:
        if (std::isfinite(d.points().back().y()))
            lines_[side]->append(d.points().back());
        break;
    case DecimatedSeries::Change::Rebuilt: {
        QList<QPointF> finite;
        finite.reserve(qsizetype(d.points().size()));
        for (const QPointF& p : d.points())
            if (std::isfinite(p.y()))
                finite.append(p);
        lines_[side]->replace(finite);
        break;
    }
    }
    rescaleTime();
    rescaleValues();
}

void CompareChart::clear(int side)
{
    data_[side].clear();
    lines_[side]->clear();
    lastTime_[side] = 0;
    // A fresh run starts from fresh axes, as long as the other run allows.
    xMax_ = 0;
    resetValues();
    rescaleTime();
    rescaleValues();
}

int CompareChart::pointCount(int side) const
{
    return int(lines_[side]->count());
}

void CompareChart::rescaleTime()
{
    const double t = std::max(lastTime_[0], lastTime_[1]);
    if (xMax_ > 0 && t <= xMax_)
        return;
    const AxisScale scale = niceScale(t, 0.05, false);
    xMax_ = scale.max;
    // Range and interval change together (see TimeSeriesChart::setTimeRange):
    // fixed ticks in between, so the new range is never laid out at the old
    // interval.
    timeAxis()->setTickType(QValueAxis::TicksFixed);
    timeAxis()->setRange(0, scale.max);
    timeAxis()->setTickCount(scale.ticks());
}

void CompareChart::rescaleValues()
{
    growValues(std::max(data_[0].maxY(), data_[1].maxY()), false);
}

} // namespace pcl::ui
