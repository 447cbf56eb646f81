#include "charts/timechart.h"

#include "charts/chartstyle.h"

#include <QCategoryAxis>
#include <QLineSeries>
#include <QValueAxis>

namespace pcl::ui {

TimeChart::TimeChart(
    const QString& title, const QString& valueTitle, MetricUnit unit, int margin, QGraphicsItem* parent)
    : QChart(parent)
    , unit_(unit)
    , timeAxis_(new QValueAxis(this))
    , valueAxis_(new QCategoryAxis(this))
{
    setTitle(title);
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(margin, margin, margin, margin));

    timeAxis_->setTitleText(tr("running time (s)"));
    timeAxis_->setLabelFormat(QStringLiteral("%g"));
    addAxis(timeAxis_, Qt::AlignBottom);
    valueAxis_->setTitleText(valueTitle);
    valueAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    addAxis(valueAxis_, Qt::AlignLeft);
}

QLineSeries* TimeChart::addLine(int colour)
{
    auto* s = new QLineSeries(this);
    setSeriesColour(s, colour);
    addSeries(s);
    s->attachAxis(timeAxis_);
    s->attachAxis(valueAxis_);
    return s;
}

void TimeChart::growValues(double dataMax, bool integral)
{
    if (valueMax_ > 0 && dataMax <= valueMax_)
        return;
    AxisScale scale = niceScale(dataMax, 0.15, integral);
    if (unit_ == MetricUnit::Percent && scale.max > 100)
        scale = { 100, 20 };
    setValueScale(scale);
}

void TimeChart::setValueScale(const AxisScale& scale)
{
    valueMax_ = scale.max;
    applyValueScale(*valueAxis_, scale, unit_);
}

} // namespace pcl::ui
