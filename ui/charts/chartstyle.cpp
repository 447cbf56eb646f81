#include "charts/chartstyle.h"

#include "kit/colors.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QVariant>
#include <QXYSeries>

namespace pcl::ui {

namespace {
constexpr const char* kPaletteProperty = "pclChartPalette";
constexpr const char* kSeriesColourProperty = "pclSeriesColour";
} // namespace

void setSeriesColour(QXYSeries* series, int index)
{
    series->setProperty(kSeriesColourProperty, index);
    // Its pattern stays: a dashed curve (a thread's figures) keeps its dashes.
    QPen pen = series->pen();
    pen.setColor(colors::series(index));
    pen.setWidthF(2);
    series->setPen(pen);
    series->setColor(colors::series(index));
}

void styleChart(QChart* chart, const QPalette& palette, double fontScale)
{
    const QFont appFont;
    auto scaled = [&](double k, bool bold) {
        QFont f = appFont;
        f.setPointSizeF(appFont.pointSizeF() * k * fontScale);
        f.setBold(bold);
        return f;
    };
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.14f);
    QColor minorGrid = text;
    minorGrid.setAlphaF(0.06f);
    QColor line = text;
    line.setAlphaF(0.45f);

    chart->setBackgroundBrush(base);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    // From the application font each time: styling twice must not grow it.
    chart->setTitleFont(scaled(1.15, true));

    chart->legend()->setLabelColor(text);
    chart->legend()->setFont(scaled(1.0, false));
    chart->legend()->setBrush(Qt::NoBrush);
    chart->legend()->setPen(Qt::NoPen);

    const auto axes = chart->axes();
    for (QAbstractAxis* axis : axes) {
        axis->setLabelsBrush(text);
        axis->setLabelsFont(scaled(1.0, false));
        axis->setTitleFont(scaled(1.0, false));
        axis->setTitleBrush(text);
        axis->setLinePen(QPen(line, 1));
        axis->setGridLinePen(QPen(grid, 1));
        axis->setMinorGridLinePen(QPen(minorGrid, 1));
        axis->setShadesVisible(false);
    }
    // Value labels of bar charts sit on the background, not on the bars.
    const auto series = chart->series();
    for (QAbstractSeries* s : series) {
        if (auto* xy = qobject_cast<QXYSeries*>(s); xy && xy->property(kSeriesColourProperty).isValid())
            setSeriesColour(xy, xy->property(kSeriesColourProperty).toInt());
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(s)) {
            const auto sets = bars->barSets();
            for (QBarSet* set : sets) {
                set->setLabelColor(text);
                set->setLabelFont(scaled(0.9, false));
            }
        }
    }
    chart->setProperty(kPaletteProperty, QVariant::fromValue(palette));
}

bool stylePalette(const QChart* chart, QPalette* palette)
{
    const QVariant v = chart->property(kPaletteProperty);
    if (!v.isValid())
        return false;
    *palette = v.value<QPalette>();
    return true;
}

QPalette reportPalette()
{
    QPalette p;
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Window, Qt::white);
    p.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    p.setColor(QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    return p;
}

} // namespace pcl::ui
