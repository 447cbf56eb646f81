// Chart and data export for reports: a chart as PNG or SVG, always light
// (white background, dark text) whatever the screen's theme, at a fixed
// size so every exported chart of a report matches; and a run's time series
// as CSV. Files are written atomically (QSaveFile): a failed export never
// leaves half a file where the previous one was.
#pragma once

#include "sim/metrics.h"

#include <QSize>
#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QIODevice;
class QPainter;
QT_END_NAMESPACE

namespace pcl::ui {

/// The size of an exported chart in logical pixels (the SVG's size; the PNG
/// is rendered at twice this for print).
inline constexpr QSize kExportSize { 1200, 600 };
inline constexpr int kPngScale = 2;

/// How a chart is exported. A report names the run under each chart (the
/// scenario and its key parameters), so a figure cut out of it still says
/// what it shows.
struct ChartExportOptions {
    /// Drawn under the chart, wrapped to its width, in every format; none
    /// when empty.
    QString caption;
    /// The whole figure (chart and caption) in logical pixels: the SVG's
    /// and the PDF page's size.
    QSize size = kExportSize;
    /// The PNG is rendered at size * pngScale, sharp once printed.
    int pngScale = kPngScale;
};

/// Writes @chart to @path as PNG, SVG or PDF, chosen by the extension (.png,
/// .svg, .pdf: one page the figure's size), with @options' caption under it.
/// Works on a chart shown in a QChartView and on one in no scene at all
/// (headless); the chart is restored as it was. On failure returns false
/// and says why in @error (if not null).
bool exportChart(QChart* chart, const QString& path, QString* error, const ChartExportOptions& options = {});

/// Writes @chart to @device as @format ("png", "svg" or "pdf"), as
/// exportChart writes a file: a report embeds a chart's SVG in its page.
bool writeChart(
    QChart* chart, QIODevice* device, const QString& format, QString* error, const ChartExportOptions& options = {});

/// Paints @chart and its caption into @painter as a figure @options.size
/// logical pixels from the painter's origin, light whatever the screen's
/// theme: a report's pages draw their charts as vectors this way.
void renderChart(QChart* chart, QPainter* painter, const ChartExportOptions& options = {});

/// Writes @samples as CSV: time_s, interval_s, then one column per
/// SeriesCatalog metric in its unit (an empty cell where it has no value).
bool exportSamplesCsv(const std::vector<MetricsSample>& samples, const QString& path, QString* error);

} // namespace pcl::ui
