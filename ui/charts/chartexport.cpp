#include "charts/chartexport.h"

#include "charts/chartstyle.h"
#include "charts/seriescatalog.h"
#include "kit/savefile.h"

#include <QBuffer>
#include <QChart>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>
#include <QTextStream>

#include <cmath>
#include <memory>

namespace pcl::ui {

namespace {

/// Fonts of an exported chart: the application's at 1200 x 600 would read
/// like footnotes once the chart is scaled to a page's width.
constexpr double kExportFontScale = 1.35;

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

/// Space around the caption, in logical pixels.
constexpr double kCaptionMargin = 24;
constexpr double kCaptionPadding = 10;

/// The caption's font: the application's at the size of the exported
/// chart's axis labels, in pixels so that PNG, SVG and PDF lay it out alike
/// whatever their resolution.
QFont captionFont()
{
    QFont f;
    f.setPixelSize(qRound(f.pointSizeF() * kExportFontScale * 96.0 / 72.0));
    return f;
}

/// The height the caption takes under the chart in a figure @size wide.
double captionHeight(const QString& caption, const QSize& size)
{
    if (caption.isEmpty())
        return 0;
    const QFontMetricsF metrics(captionFont());
    const QRectF box(0, 0, size.width() - 2 * kCaptionMargin, size.height());
    const QRectF text = metrics.boundingRect(box, Qt::AlignHCenter | Qt::TextWordWrap, caption);
    return std::ceil(text.height() + 2 * kCaptionPadding);
}

} // namespace

void renderChart(QChart* chart, QPainter* painter, const ChartExportOptions& options)
{
    const QSizeF figure(options.size);
    const double captionH = captionHeight(options.caption, options.size);
    const QSizeF chartSize(figure.width(), figure.height() - captionH);

    QPalette screen;
    const bool styled = stylePalette(chart, &screen);
    if (styled)
        styleChart(chart, reportPalette(), kExportFontScale);
    const QRectF oldGeometry = chart->geometry();

    std::unique_ptr<QGraphicsScene> own;
    QGraphicsScene* scene = chart->scene();
    if (!scene) {
        own = std::make_unique<QGraphicsScene>();
        own->addItem(chart);
        scene = own.get();
    }
    chart->setGeometry(QRectF(oldGeometry.topLeft(), chartSize));
    // Lay out now (the layout would otherwise wait for the event loop).
    if (chart->layout())
        chart->layout()->activate();

    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), figure), Qt::white);
    scene->render(painter, QRectF(QPointF(0, 0), chartSize), chart->mapRectToScene(chart->rect()));

    if (captionH > 0) {
        painter->setFont(captionFont());
        painter->setPen(reportPalette().color(QPalette::Text));
        const QRectF box(kCaptionMargin, chartSize.height() + kCaptionPadding, figure.width() - 2 * kCaptionMargin,
            captionH - 2 * kCaptionPadding);
        painter->drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, options.caption);
    }

    chart->setGeometry(oldGeometry);
    if (chart->layout())
        chart->layout()->activate();
    if (own)
        own->removeItem(chart); // the scene must not delete the caller's chart
    if (styled)
        styleChart(chart, screen);
}

bool writeChart(
    QChart* chart, QIODevice* device, const QString& format, QString* error, const ChartExportOptions& options)
{
    if (!chart)
        return fail(error, QObject::tr("No chart to export."));
    if (format != QStringLiteral("png") && format != QStringLiteral("svg") && format != QStringLiteral("pdf"))
        return fail(error, QObject::tr("Cannot export a chart as \"%1\": use .png, .svg or .pdf.").arg(format));
    if (options.size.width() < 200 || options.size.height() < 150 || options.pngScale < 1 || options.pngScale > 8)
        return fail(error,
            QObject::tr("Cannot export a chart at %1 x %2 pixels, scale %3: a chart needs at least 200 x 150 pixels "
                        "and a scale from 1 to 8.")
                .arg(options.size.width())
                .arg(options.size.height())
                .arg(options.pngScale));

    if (format == QStringLiteral("pdf")) {
        // One page the figure's size, its pixels at 96 dpi: vector text and lines.
        QPdfWriter pdf(device);
        constexpr int kDpi = 96;
        pdf.setResolution(kDpi);
        pdf.setPageSize(QPageSize(QSizeF(options.size) * 72.0 / kDpi, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(chart->title());
        pdf.setCreator(QObject::tr("Page Cache Lab"));
        QPainter painter;
        if (!painter.begin(&pdf))
            return fail(error, QObject::tr("the PDF writer failed"));
        renderChart(chart, &painter, options);
        painter.end();
    } else if (format == QStringLiteral("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(device);
        svg.setSize(options.size);
        svg.setViewBox(QRect(QPoint(0, 0), options.size));
        // The chart is laid out at the screen's font resolution; the
        // generator's default of 72 dpi would shrink every text against it.
        const QScreen* screen = QGuiApplication::primaryScreen();
        svg.setResolution(screen ? qRound(screen->logicalDotsPerInch()) : 96);
        svg.setTitle(chart->title());
        svg.setDescription(options.caption.isEmpty() ? QObject::tr("Exported by Page Cache Lab") : options.caption);
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(error, QObject::tr("the SVG generator failed"));
        renderChart(chart, &painter, options);
        painter.end();
    } else {
        QImage image(options.size * options.pngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(options.pngScale);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderChart(chart, &painter, options);
        painter.end();
        if (!image.save(device, "PNG"))
            return fail(error, QObject::tr("PNG encoding failed"));
    }
    return true;
}

bool exportChart(QChart* chart, const QString& path, QString* error, const ChartExportOptions& options)
{
    if (!chart)
        return fail(error, QObject::tr("No chart to export."));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") && suffix != QStringLiteral("pdf"))
        return fail(error, QObject::tr("Cannot export a chart as \"%1\": use .png, .svg or .pdf.").arg(suffix));

    // Drawn in memory, then written whole (every byte checked) or not at
    // all: a full disk never leaves half a chart in place of the old one.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString why;
    if (!writeChart(chart, &buffer, suffix, &why, options))
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, why));
    if (!writeFileAtomically(path, buffer.data(), &why))
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, why));
    return true;
}

bool exportSamplesCsv(const std::vector<MetricsSample>& samples, const QString& path, QString* error)
{
    QByteArray bytes;
    QTextStream out(&bytes, QIODevice::WriteOnly);
    const auto& metrics = SeriesCatalog::metrics();
    out << "time_s,interval_s";
    for (const Metric& m : metrics)
        out << ',' << m.id;
    out << '\n';
    for (const MetricsSample& s : samples) {
        out << QString::number(s.time_s, 'g', 10) << ',' << QString::number(s.interval_s, 'g', 10);
        for (const Metric& m : metrics) {
            out << ',';
            const double v = m.extract(s);
            if (std::isfinite(v))
                out << QString::number(v, 'g', 10);
        }
        out << '\n';
    }
    out.flush();
    QString why;
    if (!writeFileAtomically(path, bytes, &why))
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, why));
    return true;
}

} // namespace pcl::ui
