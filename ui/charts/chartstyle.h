// How every chart of the application looks: its fills, text and grid taken
// from a palette (the application's, light or dark, on screen; a fixed
// light one for exports that go into a report), with the series colours of
// colors.h, in the colour scheme in use, so one metric keeps one colour
// everywhere.
#pragma once

#include <QPalette>

QT_BEGIN_NAMESPACE
class QChart;
class QXYSeries;
QT_END_NAMESPACE

namespace pcl::ui {

/// Draws @series in colors::series(@index), and keeps @index so that
/// styleChart draws it in that colour of the scheme in use then.
void setSeriesColour(QXYSeries* series, int index);

/// Applies @palette to @chart's background, title, legend and axes, and the
/// colour scheme in use to the series given one by setSeriesColour, with
/// fonts @fontScale times the application's (an export at a fixed size
/// wants them larger than a chart on screen), and remembers the palette
/// (stylePalette) so an export can restore the chart afterwards.
void styleChart(QChart* chart, const QPalette& palette, double fontScale = 1.0);
/// The palette styleChart last applied to @chart; false if none was.
bool stylePalette(const QChart* chart, QPalette* palette);
/// Black on white, whatever the desktop theme: what a printed report wants.
QPalette reportPalette();

} // namespace pcl::ui
