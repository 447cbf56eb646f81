#include "compare/comparechart.h"

#include "charts/axisscale.h"
#include "kit/colors.h"

#include <QCategoryAxis>
#include <QLegend>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

CompareChart::CompareChart(const QString& title, const QString& axisTitle, MetricUnit unit, Extract extract,
    std::size_t maxPoints, QGraphicsItem* parent)
    : QChart(parent)
    , unit_(unit)
    , extract_(std::move(extract))
    , data_ { DecimatedSeries(maxPoints), DecimatedSeries(maxPoints) }
    , xAxis_(new QValueAxis(this))
    , yAxis_(new QCategoryAxis(this))
{
    setTitle(title);
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(4, 4, 4, 4));
    // The columns above are headed in the same two colours: a legend per
    // chart would only take the room the lines need.
    legend()->setVisible(false);

    xAxis_->setTitleText(tr("running time (s)"));
    xAxis_->setLabelFormat(QStringLiteral("%g"));
    addAxis(xAxis_, Qt::AlignBottom);
    yAxis_->setTitleText(axisTitle);
    yAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    addAxis(yAxis_, Qt::AlignLeft);

    for (int side = 0; side < 2; ++side) {
        auto* s = new QLineSeries(this);
        // Two logical pixels: readable on a projector, and B drawn over A
        // stays distinguishable where they coincide.
        s->setPen(QPen(colors::series(side), 2));
        s->setColor(colors::series(side));
        addSeries(s);
        s->attachAxis(xAxis_);
        s->attachAxis(yAxis_);
        lines_[side] = s;
    }
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
    yMax_ = 0;
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
    xAxis_->setTickType(QValueAxis::TicksFixed);
    xAxis_->setRange(0, scale.max);
    xAxis_->setTickCount(scale.ticks());
}

void CompareChart::rescaleValues()
{
    const double dataMax = std::max(data_[0].maxY(), data_[1].maxY());
    if (yMax_ > 0 && dataMax <= yMax_)
        return;
    AxisScale scale = niceScale(dataMax, 0.15, false);
    if (unit_ == MetricUnit::Percent && scale.max > 100)
        scale = { 100, 20 };
    yMax_ = scale.max;
    applyValueScale(*yAxis_, scale, unit_);
}

} // namespace pcl::ui
