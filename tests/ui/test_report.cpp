// The run report and its charts, read back: the XHTML page parses and holds
// every chart inline as SVG, a row per lock class and the counters; the PDF
// is a PDF of the pages its layout counts, and its text holds what the page
// holds; each chart file has its size, its colours and its caption; a
// lesson's report has its steps and its verdict table; a write that cannot
// happen says why and leaves nothing behind.
#include "charts/chartexport.h"
#include "charts/seriescatalog.h"
#include "kit/numberformat.h"
#include "lesson/experiment.h"
#include "lesson/lesson_library.h"
#include "report/reportcharts.h"
#include "report/runreport.h"
#include "run/scenariolibrary.h"
#include "sim/run_result.h"
#include "sim/run_summary.h"
#include "sim/runner.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include <QChart>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineSeries>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QXmlStreamReader>

using namespace pcl::ui;

namespace {

/// A bundled preset cut short: four CPUs on the global hash lock, a few
/// thousand operations each, done in a fraction of a second.
/// @preset's run, short, on the 8-way Pentium III of the radix-tree
/// thread: a modelled machine, so that what it shows (the global lock's
/// waits among it) is the same every time. On this computer's threads a
/// loaded machine may run the four CPUs one after another, without a wait.
pcl::RunResult shortRun(const char* preset)
{
    ScenarioEntry entry = ScenarioLibrary::load(QLatin1String(preset));
    entry.scenario.engine.workload.operations_per_cpu = 20000;
    entry.scenario.engine.machine.profile = "pentium3-xeon-8way-2002";
    entry.scenario.sample_interval_ms = 10;
    return pcl::run_scenario(entry.scenario);
}

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// What an XHTML page holds, read with a strict XML reader.
struct XhtmlPage {
    QString error; ///< the reader's, empty when the page is well-formed
    QString title;
    int svgs = 0;            ///< inline <svg> elements
    QList<QStringList> rows; ///< each table row's cells, as text
    QStringList listItems;   ///< each <li>'s text
    QStringList figureIds;   ///< each <figure>'s id
};

XhtmlPage readPage(const QString& path)
{
    XhtmlPage page;
    QXmlStreamReader xml(readBytes(path));
    QStringList* row = nullptr;
    QString cell;
    int inCell = 0, inItem = 0;
    QString item;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QStringView name = xml.name();
            if (name == u"svg")
                ++page.svgs;
            else if (name == u"figure")
                page.figureIds.append(xml.attributes().value(QStringLiteral("id")).toString());
            else if (name == u"title" && page.title.isEmpty() && page.svgs == 0)
                page.title = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            else if (name == u"tr") {
                page.rows.append(QStringList());
                row = &page.rows.back();
            } else if (name == u"td" || name == u"th") {
                ++inCell;
                cell.clear();
            } else if (name == u"li") {
                ++inItem;
                item.clear();
            }
        } else if (xml.isCharacters()) {
            if (inCell)
                cell += xml.text();
            if (inItem)
                item += xml.text();
        } else if (xml.isEndElement()) {
            const QStringView name = xml.name();
            if ((name == u"td" || name == u"th") && inCell) {
                --inCell;
                if (row)
                    row->append(cell.trimmed());
            } else if (name == u"li" && inItem) {
                --inItem;
                page.listItems.append(item.simplified());
            }
        }
    }
    if (xml.hasError())
        page.error = QStringLiteral("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString());
    return page;
}

/// The row whose first cell is @first, or an empty list.
QStringList rowOf(const XhtmlPage& page, const QString& first)
{
    for (const QStringList& r : page.rows)
        if (!r.isEmpty() && r.front() == first)
            return r;
    return {};
}

/// The page count a PDF declares in its page tree (/Type /Pages ... /Count N).
int pdfPages(const QByteArray& pdf)
{
    static const QRegularExpression tree(
        QStringLiteral(R"(/Type\s*/Pages\b[^>]*?/Count\s+(\d+))"), QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = tree.match(QString::fromLatin1(pdf));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

/// The text of @pdf as pdftotext reads it (poppler), or a null string when
/// poppler is not installed.
QString pdfText(const QString& path)
{
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty())
        return {};
    QProcess p;
    p.start(tool, { QStringLiteral("-layout"), path, QStringLiteral("-") });
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return QStringLiteral("pdftotext failed");
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    pcl::RunResult run_;
    ReportSubject subject_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        run_ = shortRun("2002-global-hash-lock");
        QCOMPARE(QString::fromStdString(run_.state), QStringLiteral("finished"));
        QVERIFY(run_.series.size() >= 2);
        subject_.run = &run_;
        subject_.stem = QStringLiteral("2002-global-hash-lock");
    }

    void htmlIsOnePageWithEveryChartAndTable()
    {
        const QString path = dir_.filePath(QStringLiteral("report.html"));
        QString error;
        QVERIFY2(writeReportHtml(subject_, path, &error), qPrintable(error));
        const XhtmlPage page = readPage(path);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QCOMPARE(page.title, QString::fromStdString(run_.scenario.title));
        // A browser reads the file as HTML, where a style's text is taken
        // as it is: an escaped character in it would break the stylesheet.
        const QByteArray html = readBytes(path);
        const qsizetype style = html.indexOf("<style>");
        QVERIFY(style > 0);
        const QByteArray css = html.mid(style, html.indexOf("</style>") - style);
        QVERIFY(css.contains("font-family"));
        QVERIFY(!css.contains('&'));

        // Every chart the run drew something in, inline, and no other.
        int drawn = 0;
        QStringList ids;
        for (const ReportChart& c : buildRunCharts(run_))
            if (c.hasData) {
                ++drawn;
                ids.append(c.fileId);
            }
        QVERIFY(drawn >= 5);
        QCOMPARE(page.svgs, drawn);
        QCOMPARE(page.figureIds, ids);
        QVERIFY(ids.contains(QStringLiteral("lock-wait")));
        QVERIFY(ids.contains(QStringLiteral("lock-wait-by-class")));

        // A row per lock class, with its acquisitions and contentions.
        QVERIFY(!run_.lock_classes.empty());
        for (const pcl::sync::LockStatRow& c : run_.lock_classes) {
            QString name = QString::fromStdString(c.name);
            if (c.instances != 1)
                name += QStringLiteral(" (%1 locks)").arg(groupedNumber(c.instances));
            const QStringList r = rowOf(page, name);
            QVERIFY2(r.size() == 11, qPrintable(name));
            QCOMPARE(r[1], groupedNumber(c.acquisitions));
            QCOMPARE(r[2], groupedNumber(c.contentions));
        }
        // The one named lock of 2.4's hash, contended by four CPUs.
        const QStringList lock = rowOf(page, QStringLiteral("pagecache_lock"));
        QCOMPARE(lock.size(), 11);
        QVERIFY(lock[2] != QStringLiteral("0"));

        // The counters, exactly as the run counted them.
        QCOMPARE(rowOf(page, QStringLiteral("Operations")).value(1), groupedNumber(run_.operations));
        QCOMPARE(run_.operations, 4u * 20000u);
        QCOMPARE(
            rowOf(page, QStringLiteral("Minor faults")).value(1), groupedNumber(run_.faults_of(pcl::FaultKind::Minor)));
        // Every counter of the page cache, by its label, in the table of its
        // part (reclaim only when it evicted, writeback when the run wrote).
        const std::span cache = pcl::page_cache_counters();
        for (const pcl::Counter<pcl::PageCacheStats>& c : cache) {
            if ((c.group == "reclaim" && !pcl::reclaim_evicted(run_.page_cache))
                || (c.group == "writeback" && !pcl::any_count(cache, c.group, run_.page_cache)))
                continue;
            QString label = QString::fromUtf8(c.label.data(), qsizetype(c.label.size()));
            label[0] = label[0].toUpper();
            QCOMPARE(rowOf(page, label).value(1), groupedNumber(run_.page_cache.*c.member));
        }
        const double hit = 100.0 * double(run_.page_cache.hits) / double(run_.page_cache.lookups);
        QVERIFY(rowOf(page, QStringLiteral("Hit ratio")).value(1).startsWith(QString::number(hit, 'f', 1)));
        // The parameters this preset sets, and the histograms.
        QCOMPARE(rowOf(page, QStringLiteral("CPUs")).value(2), QStringLiteral("4"));
        QCOMPARE(rowOf(page, QStringLiteral("read(2)")).value(1), groupedNumber(run_.histograms[4].count));
    }

    void pdfHasThePagesItsLayoutCounts()
    {
        const QString path = dir_.filePath(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(writeReportPdf(subject_, path, &error), qPrintable(error));
        const QByteArray pdf = readBytes(path);
        QVERIFY(pdf.startsWith("%PDF-"));
        const int pages = reportPageCount(subject_);
        QVERIFY2(pages >= 4, qPrintable(QString::number(pages))); // the tables, then two charts a page
        QCOMPARE(pdfPages(pdf), pages);

        const QString text = pdfText(path);
        if (text.isNull())
            QSKIP("pdftotext (poppler-utils) is not installed: the PDF's text is not read back");
        // Text after the charts too: the layout places every block.
        for (const char* heading : { "What happened", "Lock classes", "Named locks", "Latencies" })
            QVERIFY2(text.contains(QLatin1String(heading)), heading);
        for (const pcl::sync::LockStatRow& c : run_.lock_classes)
            QVERIFY2(text.contains(QString::fromStdString(c.name)), c.name.c_str());
        QVERIFY(text.contains(groupedNumber(run_.operations)));
        QVERIFY(text.contains(QStringLiteral("page %1 of %1").arg(pages)));
    }

    void chartFilesAreNamedSizedAndCaptioned()
    {
        const QString charts = dir_.filePath(QStringLiteral("charts"));
        QString error;
        const QStringList files = writeReportCharts(subject_, charts, &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
        const std::size_t count = buildRunCharts(run_).size();
        QCOMPARE(std::size_t(files.size()), 3 * count);
        QCOMPARE(count, SeriesCatalog::charts().size() + 3);
        QCOMPARE(QDir(charts).entryList(QDir::Files).size(), files.size());
        for (const QString& f : files)
            QVERIFY2(QFileInfo(f).fileName().startsWith(QStringLiteral("2002-global-hash-lock_")), qPrintable(f));

        const QString base = QDir(charts).filePath(QStringLiteral("2002-global-hash-lock_lock-wait"));
        const QImage png(base + QStringLiteral(".png"));
        QCOMPARE(png.size(), kExportSize * kPngScale);
        QVERIFY(test::distinctColours(png) > 20);
        const QByteArray svg = readBytes(base + QStringLiteral(".svg"));
        QXmlStreamReader xml(svg);
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(QSvgRenderer(svg).isValid());
        // The caption names the scenario and its parameters, under the chart.
        QVERIFY(svg.contains("hash index (global), 4 CPUs"));
        QVERIFY(readBytes(base + QStringLiteral(".pdf")).startsWith("%PDF-"));
        QVERIFY(QFile::exists(QDir(charts).filePath(QStringLiteral("2002-global-hash-lock_lock-wait-by-class.svg"))));
    }

    void exportOptionsSetTheSizeAndTheCaption()
    {
        QChart chart;
        auto* line = new QLineSeries;
        line->append({ { 0, 1 }, { 1, 3 }, { 2, 2 } });
        chart.addSeries(line);
        chart.createDefaultAxes();
        chart.setTitle(QStringLiteral("A line"));
        ChartExportOptions options;
        options.size = QSize(800, 500);
        options.pngScale = 1;
        const QString png = dir_.filePath(QStringLiteral("small.png"));
        QString error;
        QVERIFY2(exportChart(&chart, png, &error, options), qPrintable(error));
        const QImage plain(png);
        QCOMPARE(plain.size(), QSize(800, 500));

        // A caption takes the bottom of the figure: dark text where the
        // plain chart has only its background.
        options.caption = QStringLiteral("Captioned: the scenario and its parameters");
        QVERIFY2(exportChart(&chart, png, &error, options), qPrintable(error));
        const QImage captioned(png);
        QCOMPARE(captioned.size(), QSize(800, 500));
        const auto darkInBottomRows = [](const QImage& image) {
            int dark = 0;
            for (int y = image.height() - 30; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    dark += qGray(image.pixel(x, y)) < 128;
            return dark;
        };
        QCOMPARE(darkInBottomRows(plain), 0);
        QVERIFY(darkInBottomRows(captioned) > 50);
        const QString svg = dir_.filePath(QStringLiteral("small.svg"));
        QVERIFY2(exportChart(&chart, svg, &error, options), qPrintable(error));
        QVERIFY(readBytes(svg).contains("Captioned: the scenario and its parameters"));
        QVERIFY(readBytes(svg).contains("viewBox=\"0 0 800 500\""));

        options.size = QSize(10, 10);
        QVERIFY(!exportChart(&chart, png, &error, options));
        QVERIFY2(error.contains(QStringLiteral("10 x 10")), qPrintable(error));
    }

    void lessonReportHasStepsAndVerdicts()
    {
        const pcl::Lesson lesson = pcl::find_lesson("2002-one-global-hash-lock");
        QVERIFY(lesson.steps.size() >= 2);
        QVERIFY(!lesson.claims.empty());
        pcl::ExperimentResult verdicts;
        verdicts.lesson = lesson.name;
        verdicts.title = lesson.title;
        verdicts.thread = lesson.thread;
        verdicts.machine_cpus = 2;
        for (std::size_t i = 0; i < lesson.claims.size(); ++i) {
            pcl::ClaimResult c;
            c.claim = lesson.claims[i];
            c.values = { 3.0, 3.5, 4.0 };
            c.our_figure = "3.5x (measured " + std::to_string(i) + ")";
            c.verdict = i % 2 ? pcl::LessonVerdict::DidNotHold : pcl::LessonVerdict::Held;
            c.why = "the rule for claim " + std::to_string(i);
            verdicts.claims.push_back(c);
        }
        ReportSubject subject;
        subject.lesson = &lesson;
        subject.verdicts = &verdicts;
        const QString html = dir_.filePath(QStringLiteral("lesson.html"));
        QString error;
        QVERIFY2(writeReportHtml(subject, html, &error), qPrintable(error));
        const XhtmlPage page = readPage(html);
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        QCOMPARE(page.title, QString::fromStdString(lesson.title));
        QCOMPARE(page.svgs, 0);
        for (const pcl::LessonStep& step : lesson.steps) {
            const QString title = QString::fromStdString(step.title).simplified();
            QVERIFY2(std::any_of(page.listItems.begin(), page.listItems.end(),
                         [&](const QString& li) { return li.startsWith(title); }),
                qPrintable(title));
        }
        for (std::size_t i = 0; i < verdicts.claims.size(); ++i) {
            const QStringList r = rowOf(page, QString::number(i + 1));
            QCOMPARE(r.size(), 6);
            QVERIFY(r[1].contains(QString::fromStdString(lesson.claims[i].statement)));
            QVERIFY(r[3].startsWith(QString::fromStdString(verdicts.claims[i].our_figure)));
            QCOMPARE(r[4], i % 2 ? QStringLiteral("did not hold") : QStringLiteral("held"));
            QCOMPARE(r[5], QString::fromStdString(verdicts.claims[i].why));
        }

        // With the run shown in the application: the lesson first, then the run and its charts.
        subject.run = &run_;
        const QString both = dir_.filePath(QStringLiteral("lesson-and-run.html"));
        QVERIFY2(writeReportHtml(subject, both, &error), qPrintable(error));
        const XhtmlPage withRun = readPage(both);
        QVERIFY2(withRun.error.isEmpty(), qPrintable(withRun.error));
        QVERIFY(withRun.svgs >= 5);
        const QByteArray markup = readBytes(both);
        const qsizetype steps = markup.indexOf("<h2>The steps</h2>");
        const qsizetype runHeading = markup.indexOf("<h2>The run: ");
        const qsizetype firstChart = markup.indexOf("<svg");
        QVERIFY(steps > 0);
        QVERIFY(runHeading > steps);
        QVERIFY(firstChart > runHeading);
        QVERIFY(!rowOf(withRun, QStringLiteral("Operations")).isEmpty());
        subject.run = nullptr;

        const QString pdf = dir_.filePath(QStringLiteral("lesson.pdf"));
        QVERIFY2(writeReportPdf(subject, pdf, &error), qPrintable(error));
        QVERIFY(readBytes(pdf).startsWith("%PDF-"));
        QCOMPARE(pdfPages(readBytes(pdf)), reportPageCount(subject));
        const QString text = pdfText(pdf);
        if (!text.isNull())
            QVERIFY(text.contains(QString::fromStdString(lesson.steps.back().title).left(20)));
    }

    void pdfPagesDoNotCutATableRow()
    {
        // Fourteen claims of some fifteen lines each: several rows reach a
        // page's end, and each must move whole to the next page.
        const pcl::Lesson lesson = pcl::find_lesson("2002-one-global-hash-lock");
        pcl::ExperimentResult verdicts;
        verdicts.title = "Rows kept whole";
        verdicts.machine_cpus = 2;
        constexpr int kClaims = 14;
        for (int k = 0; k < kClaims; ++k) {
            pcl::ClaimResult c;
            c.claim = lesson.claims.front();
            std::string words;
            for (int w = 0; w < 45; ++w)
                words += " lock";
            const std::string number = (k < 10 ? "0" : "") + std::to_string(k);
            c.claim.statement = "BEGIN" + number + words + " FINIS" + number;
            c.our_figure = "2x";
            c.why = "why";
            verdicts.claims.push_back(c);
        }
        ReportSubject subject;
        subject.lesson = &lesson;
        subject.verdicts = &verdicts;
        const QString path = dir_.filePath(QStringLiteral("rows.pdf"));
        QString error;
        QVERIFY2(writeReportPdf(subject, path, &error), qPrintable(error));
        const int pages = pdfPages(readBytes(path));
        QVERIFY(pages >= 2);
        if (pdfText(path).isNull())
            QSKIP("pdftotext (poppler-utils) is not installed: the PDF's pages are not read back");
        QStringList pageTexts;
        for (int page = 1; page <= pages; ++page) {
            QProcess p;
            p.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")),
                { QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"), QString::number(page), path,
                    QStringLiteral("-") });
            QVERIFY(p.waitForFinished(60000));
            pageTexts.append(QString::fromUtf8(p.readAllStandardOutput()));
        }
        for (int k = 0; k < kClaims; ++k) {
            int begin = -1, end = -1;
            for (int page = 0; page < pages; ++page) {
                if (pageTexts[page].contains(QStringLiteral("BEGIN%1").arg(k, 2, 10, QLatin1Char('0'))))
                    begin = page;
                if (pageTexts[page].contains(QStringLiteral("FINIS%1").arg(k, 2, 10, QLatin1Char('0'))))
                    end = page;
            }
            QVERIFY2(begin >= 0, qPrintable(QString::number(k)));
            QVERIFY2(end == begin, qPrintable(QStringLiteral("claim %1: pages %2 and %3").arg(k).arg(begin).arg(end)));
        }
    }

    void failedWritesSayWhy()
    {
        QString error;
        const QString missing = dir_.filePath(QStringLiteral("no/such/folder/report.html"));
        QVERIFY(!writeReportHtml(subject_, missing, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!QFile::exists(missing));
        QVERIFY(!writeReportPdf(subject_, dir_.filePath(QStringLiteral("no/such/folder/report.pdf")), &error));
        QVERIFY2(error.contains(QStringLiteral("report.pdf")), qPrintable(error));
        // A folder that cannot be made: a file is in the way.
        const QString file = dir_.filePath(QStringLiteral("a-file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(writeReportCharts(subject_, file + QStringLiteral("/charts"), &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("a-file")), qPrintable(error));
        QVERIFY(!writeReportHtml(ReportSubject {}, dir_.filePath(QStringLiteral("none.html")), &error));
        QVERIFY(!error.isEmpty());
    }

    void comparisonOverlaysTwoRuns()
    {
        const pcl::RunResult radix = shortRun("2002-radix-tree-per-file");
        QString error;
        const QString out = dir_.filePath(QStringLiteral("compare"));
        const QStringList files = writeComparisonCharts(
            run_, radix, QStringLiteral("global hash"), QStringLiteral("radix tree"), out, &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
        QCOMPARE(std::size_t(files.size()), 3 * SeriesCatalog::metrics().size());
        const QString ops = QDir(out).filePath(QStringLiteral("compare_operations-per-s.png"));
        QVERIFY(files.contains(ops));
        const QImage image(ops);
        QCOMPARE(image.size(), kExportSize * kPngScale);
        QVERIFY(test::distinctColours(image) > 20);
        const QByteArray svg = readBytes(QDir(out).filePath(QStringLiteral("compare_operations-per-s.svg")));
        QVERIFY(svg.contains("global hash"));
        QVERIFY(svg.contains("radix tree"));
    }
};

PCL_UI_TEST(TestReport)
#include "test_report.moc"
