// A chart of values against a run's running time: the x axis in seconds from
// 0, the y axis from 0 labelled in the metric's unit ("1.2 M/s", "40 %"). The
// Charts view's live charts and the compare window's overlays are both one.
//
// The value axis only grows during a run: a rescale per sample would make the
// lines jump under the reader's eye.
#pragma once

#include "charts/axisscale.h"
#include "charts/seriescatalog.h"

#include <QChart>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace pcl::ui {

class TimeChart : public QChart {
    Q_OBJECT
public:
    QValueAxis* timeAxis() const { return timeAxis_; }
    QCategoryAxis* valueAxis() const { return valueAxis_; }
    /// The upper end of the y axis.
    double valueMax() const { return valueMax_; }

protected:
    /// @valueTitle heads the y axis; @margin (px) is left around the plot.
    TimeChart(const QString& title, const QString& valueTitle, MetricUnit unit, int margin, QGraphicsItem* parent);

    MetricUnit unit() const { return unit_; }
    /// A new line in series colour @colour, two logical pixels wide (also
    /// two in an export rendered at twice the size), on both axes.
    QLineSeries* addLine(int colour);
    /// Lets the value axis grow to hold @dataMax (15 % headroom, round
    /// steps, whole ones when @integral; a percentage stops at 100). Does
    /// nothing when the axis already holds it.
    void growValues(double dataMax, bool integral);
    /// Sets the value axis to @scale.
    void setValueScale(const AxisScale& scale);
    /// Forgets the value axis's extent: the next growValues() starts afresh.
    void resetValues() { valueMax_ = 0; }

private:
    MetricUnit unit_;
    QValueAxis* timeAxis_;
    QCategoryAxis* valueAxis_;
    double valueMax_ = 0;
};

} // namespace pcl::ui
