#include "report/runreport.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/seriescatalog.h"
#include "compare/comparechart.h"
#include "kit/savefile.h"
#include "report/reportcharts.h"
#include "report/reportmarkup.h"
#include "report/reportpages.h"
#include "sim/run_figures.h"
#include "sim/run_result.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QLegend>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::RunReport", text);
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

/// A report needs a run, or a lesson to tell instead.
bool checkSubject(const ReportSubject& subject, QString* error)
{
    if (!subject.run && !subject.lesson && !subject.verdicts)
        return fail(error, tr("There is no run to report: run the scenario first."));
    return true;
}

/// Copies the SVG document @svg into @xml as an element of the page: its
/// tokens one by one, so that the page stays well-formed, without the
/// SVG's own XML declaration, and as wide as the text (the viewBox keeps
/// its proportions).
bool copySvg(QXmlStreamWriter& xml, const QByteArray& svg, QString* error)
{
    QXmlStreamReader reader(svg);
    int depth = 0;
    while (!reader.atEnd()) {
        reader.readNext();
        switch (reader.tokenType()) {
        case QXmlStreamReader::StartDocument:
        case QXmlStreamReader::EndDocument:
        case QXmlStreamReader::DTD:
        case QXmlStreamReader::Comment:
        case QXmlStreamReader::ProcessingInstruction:
            break;
        case QXmlStreamReader::StartElement:
            if (depth++ == 0) {
                xml.writeStartElement(reader.name().toString());
                for (const QXmlStreamNamespaceDeclaration& ns : reader.namespaceDeclarations()) {
                    if (ns.prefix().isEmpty())
                        xml.writeDefaultNamespace(ns.namespaceUri().toString());
                    else
                        xml.writeNamespace(ns.namespaceUri().toString(), ns.prefix().toString());
                }
                for (const QXmlStreamAttribute& a : reader.attributes()) {
                    const QString name = a.qualifiedName().toString();
                    if (name != QStringLiteral("width") && name != QStringLiteral("height"))
                        xml.writeAttribute(a);
                }
                xml.writeAttribute(QStringLiteral("width"), QStringLiteral("100%"));
            } else {
                xml.writeCurrentToken(reader);
            }
            break;
        case QXmlStreamReader::EndElement:
            --depth;
            xml.writeCurrentToken(reader);
            break;
        default:
            if (depth > 0)
                xml.writeCurrentToken(reader);
            break;
        }
    }
    if (reader.hasError())
        return fail(error, tr("the chart's SVG does not parse: %1").arg(reader.errorString()));
    return true;
}

bool writeFile(const QString& path, const QByteArray& bytes, QString* error)
{
    QString why;
    if (!writeFileAtomically(path, bytes, &why))
        return fail(error, tr("Cannot write %1: %2").arg(path, why));
    return true;
}

std::vector<ReportChart> chartsOf(const ReportSubject& subject)
{
    return subject.run ? buildRunCharts(*subject.run) : std::vector<ReportChart> {};
}

QString stemOf(const ReportSubject& subject)
{
    return subject.stem.isEmpty() ? QStringLiteral("run") : subject.stem;
}

/// Writes @chart as STEM_ID.png, .svg and .pdf in @dir; appends each file to @written.
bool writeChartFiles(QChart* chart, const QString& dir, const QString& base, const ChartExportOptions& options,
    QStringList* written, QString* error)
{
    for (const char* ext : { "png", "svg", "pdf" }) {
        const QString path = QDir(dir).filePath(base + QLatin1Char('.') + QLatin1String(ext));
        if (!exportChart(chart, path, error, options))
            return false;
        written->append(path);
    }
    return true;
}

bool makeDir(const QString& dir, QString* error)
{
    if (!QDir().mkpath(dir))
        return fail(error, tr("Cannot create the folder %1.").arg(dir));
    return true;
}

} // namespace

bool writeReportHtml(const ReportSubject& subject, const QString& path, QString* error)
{
    if (!checkSubject(subject, error))
        return false;
    const std::vector<ReportChart> charts = chartsOf(subject);
    ChartExportOptions options;
    options.caption = subject.run ? runCaption(*subject.run) : QString();
    const FigureWriter figure = [&](QXmlStreamWriter& xml, const ReportChart& chart, int, QString* why) {
        QBuffer svg;
        svg.open(QIODevice::WriteOnly);
        if (!writeChart(chart.chart.get(), &svg, QStringLiteral("svg"), why, options))
            return false;
        xml.writeStartElement(QStringLiteral("figure"));
        xml.writeAttribute(QStringLiteral("id"), chart.fileId);
        const bool ok = copySvg(xml, svg.data(), why);
        xml.writeEndElement();
        return ok;
    };
    QString why;
    const QString markup = reportMarkup(subject, charts, ReportMedium::Html, figure, &why);
    if (markup.isEmpty())
        return fail(error, tr("Cannot write %1: %2").arg(path, why));
    return writeFile(path, markup.toUtf8(), error);
}

bool writeReportPdf(const ReportSubject& subject, const QString& path, QString* error)
{
    if (!checkSubject(subject, error))
        return false;
    // Printed in memory, then written whole or not at all (writeFile).
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString why;
    if (printReport(subject, &buffer, &why) <= 0)
        return fail(error, tr("Cannot write %1: %2").arg(path, why));
    buffer.close();
    return writeFile(path, buffer.data(), error);
}

int reportPageCount(const ReportSubject& subject)
{
    if (!checkSubject(subject, nullptr))
        return 0;
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    return std::max(0, printReport(subject, &buffer, nullptr));
}

QStringList writeReportCharts(const ReportSubject& subject, const QString& dir, QString* error)
{
    if (!subject.run) {
        fail(error, tr("There is no run to draw: run the scenario first."));
        return {};
    }
    if (!makeDir(dir, error))
        return {};
    ChartExportOptions options;
    options.caption = runCaption(*subject.run);
    QStringList written;
    for (const ReportChart& c : buildRunCharts(*subject.run))
        if (!writeChartFiles(
                c.chart.get(), dir, stemOf(subject) + QLatin1Char('_') + c.fileId, options, &written, error))
            return {};
    return written;
}

QStringList writeComparisonCharts(const pcl::RunResult& a, const pcl::RunResult& b, const QString& nameA,
    const QString& nameB, const QString& dir, QString* error)
{
    if (!makeDir(dir, error))
        return {};
    ChartExportOptions options;
    options.caption = tr("A, %1: %2 B, %3: %4").arg(nameA, runCaption(a), nameB, runCaption(b));
    QStringList written;
    // One chart per metric, so that each chart has one line per run: the
    // faults by kind become four charts, each of one kind.
    for (const ChartSpec& spec : SeriesCatalog::charts()) {
        const auto metrics = SeriesCatalog::metricsOf(spec.id);
        for (const Metric* m : metrics) {
            const QString title = metrics.size() == 1 ? spec.title : m->title;
            CompareChart chart(title, spec.axisLabel, spec.unit, m->extract);
            chart.setSideNames(tr("A: %1").arg(nameA), tr("B: %1").arg(nameB));
            // On paper the reader cannot hover a line to learn which run it is.
            chart.legend()->setVisible(true);
            chart.legend()->setAlignment(Qt::AlignBottom);
            for (const MetricsSample& s : a.series)
                chart.addSample(0, s);
            for (const MetricsSample& s : b.series)
                chart.addSample(1, s);
            styleChart(&chart, reportPalette());
            QString id = m->id;
            id.replace(QLatin1Char('_'), QLatin1Char('-'));
            if (!writeChartFiles(&chart, dir, QStringLiteral("compare_") + id, options, &written, error))
                return {};
        }
    }
    return written;
}

} // namespace pcl::ui
