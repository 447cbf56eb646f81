#include "cli_render.h"

#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "report/runreport.h"
#include "shell/runtimedir.h"

#include <QApplication>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QDir>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace pcl::cli {

namespace {

/// Qt Charts draws with widgets' graphics items, which need a QApplication;
/// made on first use, on the offscreen platform unless one was asked for,
/// and left for the process's end (Qt must outlive every chart).
void ensure_application()
{
    if (QCoreApplication::instance())
        return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ui::prepareRuntimeDirectory();
    static int argc = 1;
    static char name[] = "pagecache-lab-cli";
    static char* argv[] = { name, nullptr };
    new QApplication(argc, argv);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

bool can_render()
{
    return true;
}

std::string cannot_render_reason()
{
    return {};
}

std::vector<std::string> write_line_chart(const LineChart& chart, const std::string& base)
{
    ensure_application();
    QChart c;
    c.setTitle(q(chart.title));
    double xmin = 0, xmax = 0, ymax = 0;
    bool first = true;
    auto* y = new QValueAxis;
    y->setTitleText(q(chart.y_label));
    c.addAxis(y, Qt::AlignLeft);
    QAbstractAxis* x = nullptr;
    if (chart.x_names.empty()) {
        auto* vx = new QValueAxis;
        x = vx;
    } else {
        auto* cx = new QCategoryAxis;
        cx->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        for (std::size_t i = 0; i < chart.x_names.size(); ++i)
            cx->append(q(chart.x_names[i]), double(i));
        x = cx;
    }
    x->setTitleText(q(chart.x_label));
    c.addAxis(x, Qt::AlignBottom);
    for (const LineChart::Line& line : chart.lines) {
        auto* s = new QLineSeries;
        s->setName(q(line.name));
        s->setPointsVisible(true);
        auto* low = new QLineSeries;
        auto* high = new QLineSeries;
        bool spread = false;
        for (const LineChart::Point& p : line.points) {
            s->append(p.x, p.y);
            low->append(p.x, std::min(p.low, p.y));
            high->append(p.x, std::max(p.high, p.y));
            spread = spread || p.low < p.high;
            xmin = first ? p.x : std::min(xmin, p.x);
            xmax = first ? p.x : std::max(xmax, p.x);
            ymax = std::max({ ymax, p.y, p.high });
            first = false;
        }
        c.addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        if (!spread) {
            delete low;
            delete high;
            continue;
        }
        // The range of the repeats, shaded in the line's colour behind it:
        // a median alone hides how far the runs behind it disagreed.
        auto* band = new QAreaSeries(high, low);
        QColor fill = s->color();
        fill.setAlpha(50);
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
        c.addSeries(band);
        band->attachAxis(x);
        band->attachAxis(y);
        for (QLegendMarker* m : c.legend()->markers(band))
            m->setVisible(false);
    }
    y->setRange(0, ymax > 0 ? ymax * 1.1 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(y->max() >= 100 ? "%.0f" : "%.3g");
    if (auto* vx = qobject_cast<QValueAxis*>(x)) {
        // A tick at each value when they are evenly spaced (1, 2, 4 CPUs
        // are not: then nice numbers).
        std::vector<double> xs;
        for (const LineChart::Line& line : chart.lines)
            for (const LineChart::Point& point : line.points)
                xs.push_back(point.x);
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        bool even = xs.size() >= 2 && xs.size() <= 11;
        for (std::size_t i = 2; even && i < xs.size(); ++i)
            even = std::abs((xs[i] - xs[i - 1]) - (xs[1] - xs[0])) < 1e-9 * std::max(1.0, std::abs(xs[1]));
        if (even) {
            vx->setRange(xmin, xmax);
            vx->setTickCount(int(xs.size()));
        } else {
            vx->setRange(xmin, xmax > xmin ? xmax : xmin + 1);
            vx->applyNiceNumbers();
        }
        vx->setLabelFormat("%g");
    } else {
        x->setRange(-0.5, double(chart.x_names.size()) - 0.5);
    }
    c.legend()->setVisible(chart.lines.size() > 1);
    c.legend()->setAlignment(Qt::AlignBottom);
    ui::styleChart(&c, ui::reportPalette());

    ui::ChartExportOptions options;
    options.caption = q(chart.caption);
    std::vector<std::string> written;
    for (const char* ext : { ".png", ".svg", ".pdf" }) {
        const std::string path = base + ext;
        QString error;
        if (!ui::exportChart(&c, q(path), &error, options))
            throw std::runtime_error(error.toStdString());
        written.push_back(path);
    }
    return written;
}

namespace {

/// The report of @subject as @dir/report.html and report.pdf, appended to @written.
void write_report_pages(const ui::ReportSubject& subject, const std::string& dir, std::vector<std::string>& written)
{
    const QString html = QDir(q(dir)).filePath(QStringLiteral("report.html"));
    const QString pdf = QDir(q(dir)).filePath(QStringLiteral("report.pdf"));
    QString error;
    if (!ui::writeReportHtml(subject, html, &error))
        throw std::runtime_error(error.toStdString());
    written.push_back(html.toStdString());
    if (!ui::writeReportPdf(subject, pdf, &error))
        throw std::runtime_error(error.toStdString());
    written.push_back(pdf.toStdString());
}

} // namespace

std::vector<std::string> write_run_report(const RunResult& run, const std::string& stem, const std::string& dir)
{
    ensure_application();
    ui::ReportSubject subject;
    subject.run = &run;
    subject.stem = q(stem);
    std::vector<std::string> written;
    write_report_pages(subject, dir, written);
    QString error;
    const QStringList charts = ui::writeReportCharts(subject, QDir(q(dir)).filePath(QStringLiteral("charts")), &error);
    if (charts.isEmpty())
        throw std::runtime_error(error.toStdString());
    for (const QString& c : charts)
        written.push_back(c.toStdString());
    return written;
}

std::vector<std::string> write_comparison_charts(const RunResult& a, const RunResult& b, const std::string& name_a,
    const std::string& name_b, const std::string& dir)
{
    ensure_application();
    QString error;
    const QStringList charts = ui::writeComparisonCharts(a, b, q(name_a), q(name_b), q(dir), &error);
    if (charts.isEmpty())
        throw std::runtime_error(error.toStdString());
    std::vector<std::string> written;
    for (const QString& c : charts)
        written.push_back(c.toStdString());
    return written;
}

std::vector<std::string> write_lesson_report(
    const Lesson& lesson, const ExperimentResult& verdicts, const std::string& dir)
{
    ensure_application();
    ui::ReportSubject subject;
    subject.lesson = &lesson;
    subject.verdicts = &verdicts;
    std::vector<std::string> written;
    write_report_pages(subject, dir, written);
    return written;
}

} // namespace pcl::cli
