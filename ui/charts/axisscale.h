// Nice axis ranges and value labels for the charts: an axis ends on a round
// number a little above the data, is cut in 4 to 6 round steps, and labels
// values the way an engineer writes them ("1.2 M/s", "40 %", "2 µs").
#pragma once

#include "charts/seriescatalog.h"

#include <QString>

#include <cstdint>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
QT_END_NAMESPACE

namespace pcl::ui {

struct AxisScale {
    double max = 1;    ///< upper end of the axis (the lower end is 0)
    double step = 1;   ///< distance between ticks
    int ticks() const; ///< tick count, both ends included
};

/// The axis from 0 for data up to @dataMax, with @headroom (0.1 = 10 %)
/// above it; steps of 1, 2, 2.5 or 5 times a power of ten, at least 1 when
/// @integral (counts, levels).
AxisScale niceScale(double dataMax, double headroom, bool integral);

/// @value with an SI prefix and the unit's suffix: "1.2 M/s", "40 %", "350".
QString axisValueLabel(double value, MetricUnit unit);
/// A plain count with an SI prefix: "1.2 k", "3", "4.5 M".
QString axisCountLabel(double value);
/// A duration: "850 ns", "1 µs", "4.1 µs", "12 ms", "1.5 s".
QString axisDurationLabel(double ns);

/// Makes @axis run from 0 to @scale.max with a label in @unit at each tick.
/// A category axis, because a value axis labels its ticks with one printf
/// format and cannot write "1.2 M/s" beside "800 k/s".
void applyValueScale(QCategoryAxis& axis, const AxisScale& scale, MetricUnit unit);

} // namespace pcl::ui
