#include "charts/axisscale.h"

#include <QCategoryAxis>

#include <cmath>

namespace pcl::ui {

int AxisScale::ticks() const
{
    return int(std::lround(max / step)) + 1;
}

AxisScale niceScale(double dataMax, double headroom, bool integral)
{
    if (!std::isfinite(dataMax) || dataMax <= 0)
        return { integral ? 4.0 : 1.0, integral ? 1.0 : 0.25 };
    const double target = dataMax * (1 + headroom);
    // Aim for about five intervals; round the raw step up to 1, 2, 2.5 or 5
    // times a power of ten.
    const double raw = target / 5;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * p;
    for (double m : { 1.0, 2.0, 2.5, 5.0 }) {
        if (m * p >= raw * 0.999) {
            step = m * p;
            break;
        }
    }
    if (integral && step < 1)
        step = 1;
    if (integral && step == 2.5)
        step = 2;
    const double max = std::ceil(target / step - 1e-9) * step;
    return { max, step };
}

namespace {

QString trimmed(double v)
{
    // Three significant digits at most, no trailing zeros: "1.2", "250", "12.5".
    return QString::number(v, 'g', std::fabs(v) >= 10 ? 3 : 2);
}

} // namespace

QString axisCountLabel(double value)
{
    const double a = std::fabs(value);
    if (a >= 1e9)
        return trimmed(value / 1e9) + QStringLiteral(" G");
    if (a >= 1e6)
        return trimmed(value / 1e6) + QStringLiteral(" M");
    if (a >= 1e3)
        return trimmed(value / 1e3) + QStringLiteral(" k");
    if (a == 0)
        return QStringLiteral("0");
    return trimmed(value);
}

QString axisValueLabel(double value, MetricUnit unit)
{
    switch (unit) {
    case MetricUnit::PerSecond:
        return axisCountLabel(value) + QStringLiteral("/s");
    case MetricUnit::Percent:
        return trimmed(value) + QStringLiteral(" %");
    case MetricUnit::Requests:
    case MetricUnit::Pages:
    case MetricUnit::Nodes:
    case MetricUnit::Levels:
        return axisCountLabel(value);
    }
    return QString::number(value);
}

QString axisDurationLabel(double ns)
{
    const double a = std::fabs(ns);
    if (a >= 1e9)
        return trimmed(ns / 1e9) + QStringLiteral(" s");
    if (a >= 1e6)
        return trimmed(ns / 1e6) + QStringLiteral(" ms");
    if (a >= 1e3)
        return trimmed(ns / 1e3) + QStringLiteral(" µs");
    return trimmed(ns) + QStringLiteral(" ns");
}

void applyValueScale(QCategoryAxis& axis, const AxisScale& scale, MetricUnit unit)
{
    const QStringList old = axis.categoriesLabels();
    for (const QString& label : old)
        axis.remove(label);
    axis.setStartValue(0);
    for (int t = 0; t < scale.ticks(); ++t) {
        const double v = t * scale.step;
        axis.append(axisValueLabel(v, unit), v);
    }
    axis.setRange(0, scale.max);
}

} // namespace pcl::ui
