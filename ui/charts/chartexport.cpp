#include "charts/chartexport.h"

#include "charts/chartstyle.h"
#include "charts/seriescatalog.h"

#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
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

/// Renders @chart at kExportSize into @painter: in its own scene if it has
/// one, else in a scene made for the occasion. The chart's geometry and
/// style are put back afterwards.
void render(QChart* chart, QPainter* painter)
{
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
    chart->setGeometry(QRectF(oldGeometry.topLeft(), QSizeF(kExportSize)));
    // Lay out now (the layout would otherwise wait for the event loop).
    if (chart->layout())
        chart->layout()->activate();

    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), QSizeF(kExportSize)), Qt::white);
    scene->render(painter, QRectF(QPointF(0, 0), QSizeF(kExportSize)), chart->mapRectToScene(chart->rect()));

    chart->setGeometry(oldGeometry);
    if (chart->layout())
        chart->layout()->activate();
    if (own)
        own->removeItem(chart); // the scene must not delete the caller's chart
    if (styled)
        styleChart(chart, screen);
}

} // namespace

bool exportChart(QChart* chart, const QString& path, QString* error)
{
    if (!chart)
        return fail(error, QObject::tr("No chart to export."));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QStringLiteral("png") && suffix != QStringLiteral("svg") && suffix != QStringLiteral("pdf"))
        return fail(error, QObject::tr("Cannot export a chart as \"%1\": use .png, .svg or .pdf.").arg(suffix));

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));

    if (suffix == QStringLiteral("pdf")) {
        // One page the chart's size, its pixels at 96 dpi: vector text and lines.
        QPdfWriter pdf(&file);
        constexpr int kDpi = 96;
        pdf.setResolution(kDpi);
        pdf.setPageSize(QPageSize(QSizeF(kExportSize) * 72.0 / kDpi, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(chart->title());
        pdf.setCreator(QObject::tr("Page Cache Lab"));
        QPainter painter;
        if (!painter.begin(&pdf))
            return fail(error, QObject::tr("Cannot write %1: the PDF writer failed.").arg(path));
        render(chart, &painter);
        painter.end();
    } else if (suffix == QStringLiteral("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(kExportSize);
        svg.setViewBox(QRect(QPoint(0, 0), kExportSize));
        // The chart is laid out at the screen's font resolution; the
        // generator's default of 72 dpi would shrink every text against it.
        const QScreen* screen = QGuiApplication::primaryScreen();
        svg.setResolution(screen ? qRound(screen->logicalDotsPerInch()) : 96);
        svg.setTitle(chart->title());
        svg.setDescription(QObject::tr("Exported by Page Cache Lab"));
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(error, QObject::tr("Cannot write %1: the SVG generator failed.").arg(path));
        render(chart, &painter);
        painter.end();
    } else {
        QImage image(kExportSize * kPngScale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(kPngScale);
        image.fill(Qt::white);
        QPainter painter(&image);
        render(chart, &painter);
        painter.end();
        if (!image.save(&file, "PNG"))
            return fail(error, QObject::tr("Cannot write %1: PNG encoding failed.").arg(path));
    }
    if (!file.commit())
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

bool exportSamplesCsv(const std::vector<MetricsSample>& samples, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    QTextStream out(&file);
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
    if (out.status() != QTextStream::Ok || !file.commit())
        return fail(error, QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

} // namespace pcl::ui
