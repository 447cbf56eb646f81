// Export from the application: File > Export's files read back (the same
// forms as `pagecache-lab-cli run --out`), charts and view pictures, the
// names they are offered under, and the rules every save keeps: nothing is
// replaced without a yes, and a failed write says why and leaves the old
// file as it was.
#include "charts/chartexport.h"
#include "charts/chartsview.h"
#include "kit/savefile.h"
#include "kit/structureview.h"
#include "lessons/lessonpanel.h"
#include "lib/json.h"
#include "run/scenariolibrary.h"
#include "run/simulation.h"
#include "shell/mainwindow.h"
#include "shell/runpage.h"
#include "sim/scenario.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QXmlStreamReader>

#include <csignal>
#include <set>
#include <sys/resource.h>

using pcl::ui::MainWindow;
using pcl::ui::RunPage;
using pcl::ui::SaveResult;
using pcl::ui::Simulation;
using Export = pcl::ui::RunPage::Export;

namespace {

constexpr unsigned kExportCpus = 4;
constexpr std::uint64_t kExportOpsPerCpu = 300;

/// The global hash lock, paced so that every event is recorded (a trace
/// has a lane per CPU), cut short so that it ends soon.
pcl::ui::ScenarioEntry pacedRun()
{
    pcl::ui::ScenarioEntry entry = pcl::ui::ScenarioLibrary::load(QStringLiteral("2002-global-hash-lock"));
    entry.scenario.engine.workload.operations_per_cpu = kExportOpsPerCpu;
    entry.scenario.engine.ops_per_second = 3000;
    return entry;
}

/// Opens pacedRun() in @window and plays it until it stops (it is cut
/// short: it finishes within the minute). False, with @error set, when it
/// does not open or does not stop.
bool playedToItsEnd(MainWindow& window, QString* error)
{
    if (!window.openScenario(pacedRun(), error))
        return false;
    Simulation& sim = window.simulation();
    sim.play();
    if (QTest::qWaitFor([&sim] { return sim.state() != Simulation::State::Running; }, 60000))
        return true;
    *error = QStringLiteral("the run is still going after a minute");
    return false;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(text), text.size());
}

pcl::json::Value parseFile(const QString& path)
{
    return pcl::json::parse(readAll(path).toStdString());
}

/// The lines of a CSV file, the header first.
QList<QByteArray> csvLines(const QString& path)
{
    QList<QByteArray> lines = readAll(path).split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    return lines;
}

/// Whether @path is a whole SVG document that Qt can draw.
bool isSvg(const QString& path)
{
    QXmlStreamReader xml(readAll(path));
    QString root;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && root.isEmpty())
            root = xml.name().toString();
    return !xml.hasError() && root == QLatin1String("svg") && QSvgRenderer(path).isValid();
}

/// Replaces the question asked before a file is replaced with @answer,
/// recording the paths asked about; the message box comes back at the end.
struct ReplaceAnswer {
    QStringList asked;
    explicit ReplaceAnswer(bool answer)
    {
        pcl::ui::setReplaceQuestion([this, answer](QWidget*, const QString& path) {
            asked.append(path);
            return answer;
        });
    }
    ~ReplaceAnswer() { pcl::ui::setReplaceQuestion({}); }
};

/// A file size limit for this process: writes past it fail as on a full
/// disk (EFBIG; the signal it would send is ignored), lifted at the end.
struct FileSizeLimit {
    rlimit before {};
    explicit FileSizeLimit(rlim_t bytes)
    {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &before);
        rlimit limit = before;
        limit.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limit);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &before); }
};

} // namespace

class TestExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pagecache-lab-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_export"));
        QSettings().clear();
    }

    void fileNameStems()
    {
        QCOMPARE(
            pcl::ui::fileNameStem(QStringLiteral("2002-global-hash-lock")), QStringLiteral("2002-global-hash-lock"));
        QCOMPARE(pcl::ui::fileNameStem(QStringLiteral("2002: four CPUs, one lock!")),
            QStringLiteral("2002-four-cpus-one-lock"));
        QCOMPARE(pcl::ui::fileNameStem(QStringLiteral("  ")), QStringLiteral("run"));
    }

    void nothingToExportWithoutARun()
    {
        MainWindow window;
        QVERIFY(!window.runPage()->savePictureAction()->isEnabled());
        for (Export kind : RunPage::kExports) {
            QVERIFY(!window.runPage()->exportAction(kind)->isEnabled());
            QVERIFY(window.runPage()->exportAction(kind)->toolTip().contains(
                QStringLiteral("Open an experiment or a lesson")));
        }
        QTemporaryDir dir;
        QString error;
        QCOMPARE(window.runPage()->exportTo(Export::Result, dir.filePath(QStringLiteral("r.json")), &error),
            SaveResult::Failed);
        QVERIFY(error.contains(QStringLiteral("Open an experiment")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.json"))));

        // Open, not yet played: the scenario can be saved, the run has nothing.
        QString openError;
        QVERIFY2(window.openScenario(pacedRun(), &openError), qPrintable(openError));
        QVERIFY(window.runPage()->exportAction(Export::Scenario)->isEnabled());
        QVERIFY(window.runPage()->savePictureAction()->isEnabled());
        for (Export kind : { Export::Result, Export::TimeSeries, Export::Locks, Export::Trace }) {
            QVERIFY(!window.runPage()->exportAction(kind)->isEnabled());
            QVERIFY(
                window.runPage()->exportAction(kind)->toolTip().contains(QStringLiteral("Play or step the run first")));
        }
        window.simulation().step(1);
        QVERIFY(window.runPage()->exportAction(Export::Result)->isEnabled());
        QVERIFY(!window.runPage()->exportAction(Export::Result)->toolTip().isEmpty());
    }

    void fileNamesSayWhatTheFileIs()
    {
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        const QString stem = QStringLiteral("2002-global-hash-lock");
        QCOMPARE(window.runPage()->exportFileName(Export::Result), stem + QStringLiteral("_result.json"));
        QCOMPARE(window.runPage()->exportFileName(Export::TimeSeries), stem + QStringLiteral("_timeseries.csv"));
        QCOMPARE(window.runPage()->exportFileName(Export::Locks), stem + QStringLiteral("_locks.csv"));
        QCOMPARE(window.runPage()->exportFileName(Export::Trace), stem + QStringLiteral("_trace.json"));
        QCOMPARE(window.runPage()->exportFileName(Export::Scenario), stem + QStringLiteral(".json"));
        QVERIFY(window.runPage()->showView(QStringLiteral("hash")));
        QCOMPARE(window.runPage()->viewPictureFileName(), stem + QStringLiteral("_hash-table.png"));
        auto* charts = window.findChild<pcl::ui::ChartsView*>();
        QVERIFY(charts);
        // The lock-wait histogram by class and the lock-wait time series
        // are two charts with two names, as run --out names them.
        QCOMPARE(charts->chartFileName(pcl::ui::ChartsView::kLockWaitId, QStringLiteral("svg")),
            stem + QStringLiteral("_lock-wait-by-class.svg"));
        QCOMPARE(charts->chartFileName(QStringLiteral("lock_wait"), QStringLiteral("svg")),
            stem + QStringLiteral("_lock-wait.svg"));

        // A lesson's files are named after the lesson.
        QVERIFY(window.openLesson(QStringLiteral("2002-one-global-hash-lock")));
        QCOMPARE(
            window.runPage()->exportFileName(Export::Result), QStringLiteral("2002-one-global-hash-lock_result.json"));
    }

    void runFilesReadBack()
    {
        MainWindow window;
        QString error;
        QVERIFY2(playedToItsEnd(window, &error), qPrintable(error));
        Simulation& sim = window.simulation();
        QCOMPARE(sim.state(), Simulation::State::Finished);

        QTemporaryDir dir;
        for (Export kind : RunPage::kExports) {
            const QString path = dir.filePath(window.runPage()->exportFileName(kind));
            QCOMPARE(window.runPage()->exportTo(kind, path, &error), SaveResult::Saved);
        }

        // The result, as `run --json` writes it: its version, scenario and
        // exact totals.
        const pcl::json::Value result = parseFile(dir.filePath(window.runPage()->exportFileName(Export::Result)));
        QCOMPARE(result.find("version")->as_uint(), std::uint64_t(1));
        QCOMPARE(QString::fromStdString(result.find("scenario")->find("title")->as_string()),
            QString::fromStdString(sim.scenario().title));
        QCOMPARE(result.find("totals")->find("operations")->as_uint(), kExportCpus * kExportOpsPerCpu);
        QCOMPARE(QString::fromStdString(result.find("ended_by")->as_string()), QStringLiteral("finished"));
        const std::size_t samples = result.find("series")->as_array().size();
        QVERIFY(samples > 0);
        QCOMPARE(samples, sim.samples().size());

        // The time series: a header, then one row per sample, its
        // operations adding up to the total.
        const QList<QByteArray> series = csvLines(dir.filePath(window.runPage()->exportFileName(Export::TimeSeries)));
        QCOMPARE(std::size_t(series.size()), samples + 1);
        const QList<QByteArray> header = series.front().split(',');
        const auto column = header.indexOf("operations");
        QVERIFY(column >= 0);
        std::uint64_t operations = 0;
        for (qsizetype i = 1; i < series.size(); ++i) {
            QCOMPARE(series[i].split(',').size(), header.size());
            operations += series[i].split(',')[column].toULongLong();
        }
        QCOMPARE(operations, kExportCpus * kExportOpsPerCpu);

        // The lock table: a row per named lock and per class, the global
        // pagecache_lock among them.
        const QList<QByteArray> locks = csvLines(dir.filePath(window.runPage()->exportFileName(Export::Locks)));
        QVERIFY(locks.front().startsWith("kind,name,"));
        QCOMPARE(std::size_t(locks.size()),
            1 + result.find("locks")->as_array().size() + result.find("lock_classes")->as_array().size());
        QVERIFY(
            std::any_of(locks.begin(), locks.end(), [](const QByteArray& l) { return l.contains("pagecache_lock"); }));

        // The trace: one thread per CPU, every event it was given kept.
        const pcl::json::Value trace = parseFile(dir.filePath(window.runPage()->exportFileName(Export::Trace)));
        std::set<std::string> threads;
        for (const pcl::json::Value& e : trace.find("traceEvents")->as_array())
            if (e.find("ph")->as_string() == "M" && e.find("name")->as_string() == "thread_name")
                threads.insert(e.find("args")->find("name")->as_string());
        for (unsigned cpu = 0; cpu < kExportCpus; ++cpu)
            QVERIFY2(threads.count("CPU " + std::to_string(cpu)), qPrintable(QString::number(cpu)));
        QCOMPARE(trace.find("otherData")->find("events_left_out_at_size_limit")->as_uint(), std::uint64_t(0));
        QVERIFY(sim.trace().events_kept() > 0);
        // The next dialog opens where these went.
        QCOMPARE(pcl::ui::saveDirectory(), dir.path());

        // The scenario reads back as the one that ran.
        const pcl::Scenario scenario
            = pcl::scenario_from_json(parseFile(dir.filePath(window.runPage()->exportFileName(Export::Scenario))));
        QCOMPARE(scenario.title, sim.scenario().title);
        QCOMPARE(scenario.engine.workload.operations_per_cpu, kExportOpsPerCpu);
        QCOMPARE(scenario.engine.workload.cpus, kExportCpus);

        // A new run starts a new trace; a folder that is gone is not offered.
        sim.reset();
        QCOMPARE(sim.trace().events_kept(), std::size_t(0));
        dir.remove();
        QCOMPARE(pcl::ui::saveDirectory(), QDir::homePath());
    }

    void reports()
    {
        MainWindow window;
        QString error;
        QVERIFY2(playedToItsEnd(window, &error), qPrintable(error));
        Simulation& sim = window.simulation();
        QTemporaryDir dir;
        const QString html = dir.filePath(window.runPage()->exportFileName(Export::ReportHtml));
        const QString pdf = dir.filePath(window.runPage()->exportFileName(Export::ReportPdf));
        QCOMPARE(html, dir.filePath(QStringLiteral("2002-global-hash-lock_report.html")));
        QCOMPARE(window.runPage()->exportTo(Export::ReportHtml, html, &error), SaveResult::Saved);
        QCOMPARE(window.runPage()->exportTo(Export::ReportPdf, pdf, &error), SaveResult::Saved);
        // One well-formed page naming the run, its charts inline.
        const QByteArray page = readAll(html);
        QXmlStreamReader xml(page);
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(page.contains(QString::fromStdString(sim.scenario().title).toHtmlEscaped().toUtf8()));
        QVERIFY(page.contains("<svg"));
        QVERIFY(page.contains("pagecache_lock"));
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
        // For a person to look at: the report as the window saves it.
        for (const QString& file : { html, pdf }) {
            const QString shown = QDir(pcl::ui::test::screenshotDir())
                                      .filePath(QStringLiteral("export-report.") + QFileInfo(file).suffix());
            QFile::remove(shown);
            QVERIFY(QFile::copy(file, shown));
        }

        // A lesson's report tells its steps.
        QVERIFY(window.openLesson(QStringLiteral("2002-one-global-hash-lock")));
        QVERIFY(!window.runPage()->exportAction(Export::ReportHtml)->isEnabled());
        sim.step(20);
        QVERIFY(window.runPage()->exportAction(Export::ReportHtml)->isEnabled());
        const QString lessonHtml = dir.filePath(window.runPage()->exportFileName(Export::ReportHtml));
        QCOMPARE(window.runPage()->exportTo(Export::ReportHtml, lessonHtml, &error), SaveResult::Saved);
        const QByteArray lessonPage = readAll(lessonHtml);
        for (const pcl::LessonStep& step : window.lessonPanel()->lesson().steps)
            QVERIFY2(
                lessonPage.contains(QString::fromStdString(step.title).toHtmlEscaped().toUtf8()), step.title.c_str());
    }

    void lessonReportWithVerdicts()
    {
        // Measured, a lesson's report holds its verdict table: every claim
        // with its verdict.
        MainWindow window;
        QVERIFY(window.openLesson(QStringLiteral("2002-the-reader-that-changes-cpus")));
        pcl::ui::LessonPanel& panel = *window.lessonPanel();
        QVERIFY(!window.runPage()->exportAction(Export::ReportHtml)->isEnabled());
        panel.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.measuring(), 120000);
        QVERIFY(panel.verdicts().has_value());
        // The verdicts alone make a report: the run has not been played.
        QVERIFY(!window.simulation().hasResult());
        QVERIFY(window.runPage()->exportAction(Export::ReportHtml)->isEnabled());
        QTemporaryDir dir;
        const QString html = dir.filePath(window.runPage()->exportFileName(Export::ReportHtml));
        QString error;
        QCOMPARE(window.runPage()->exportTo(Export::ReportHtml, html, &error), SaveResult::Saved);
        const QString page = QString::fromUtf8(readAll(html));
        for (const pcl::ClaimResult& c : panel.verdicts()->claims) {
            QVERIFY2(page.contains(QString::fromStdString(c.claim.by).toHtmlEscaped()), c.claim.by.c_str());
            QVERIFY(page.contains(QString::fromLatin1(pcl::lesson_verdict_name(c.verdict))));
        }
        QCOMPARE(window.runPage()->exportTo(Export::ReportPdf, dir.filePath(QStringLiteral("lesson.pdf")), &error),
            SaveResult::Saved);
        QVERIFY(readAll(dir.filePath(QStringLiteral("lesson.pdf"))).startsWith("%PDF-"));
    }

    void exportingAPlayingRunPausesIt()
    {
        MainWindow window;
        pcl::ui::ScenarioEntry entry = pacedRun();
        entry.scenario.engine.workload.operations_per_cpu = 1'000'000;
        entry.scenario.engine.ops_per_second = 200;
        QVERIFY(window.openScenario(entry));
        Simulation& sim = window.simulation();
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(!sim.samples().empty(), 30000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("playing.json"));
        QCOMPARE(window.runPage()->exportTo(Export::Result, path), SaveResult::Saved);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        const pcl::json::Value result = parseFile(path);
        QCOMPARE(QString::fromStdString(result.find("state")->as_string()), QStringLiteral("paused"));
        QVERIFY(result.find("totals")->find("operations")->as_uint() > 0);
        // The series closes at the pause: its last sample is the run's time.
        QCOMPARE(result.find("series")->as_array().size(), sim.samples().size());
        QCOMPARE(result.find("series")->as_array().back().find("time_s")->as_double(), sim.samples().back().time_s);
    }

    void aFileIsReplacedOnlyAfterAYes()
    {
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.json"));
        writeText(path, "keep me\n");
        {
            ReplaceAnswer no(false);
            QCOMPARE(window.runPage()->exportTo(Export::Scenario, path), SaveResult::Declined);
            QCOMPARE(no.asked, QStringList { path });
            QCOMPARE(readAll(path), QByteArray("keep me\n"));
        }
        {
            ReplaceAnswer yes(true);
            QCOMPARE(window.runPage()->exportTo(Export::Scenario, path), SaveResult::Saved);
            QCOMPARE(yes.asked, QStringList { path });
            QCOMPARE(pcl::scenario_from_json(parseFile(path)).title, window.simulation().scenario().title);
        }
        {
            // A new file needs no question.
            ReplaceAnswer no(false);
            QCOMPARE(window.runPage()->exportTo(Export::Scenario, dir.filePath(QStringLiteral("new.json"))),
                SaveResult::Saved);
            QVERIFY(no.asked.isEmpty());
        }
    }

    void aFailedWriteSaysWhyAndKeepsTheOldFile()
    {
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        window.simulation().step(5);
        QTemporaryDir dir;
        QString error;
        // No such folder.
        const QString nowhere = dir.filePath(QStringLiteral("no-such-folder/result.json"));
        QCOMPARE(window.runPage()->exportTo(Export::Result, nowhere, &error), SaveResult::Failed);
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(nowhere));

        // The disk fills in the middle of the file: the old one stays whole.
        const QString path = dir.filePath(QStringLiteral("result.json"));
        writeText(path, "old result\n");
        ReplaceAnswer yes(true);
        error.clear();
        {
            FileSizeLimit limit(256);
            QCOMPARE(window.runPage()->exportTo(Export::Result, path, &error), SaveResult::Failed);
        }
        QVERIFY2(!error.isEmpty(), "the failure says why");
        QCOMPARE(readAll(path), QByteArray("old result\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("result.json") });
        // The run is still there to save elsewhere.
        QCOMPARE(window.runPage()->exportTo(Export::Result, path, &error), SaveResult::Saved);
        QCOMPARE(parseFile(path).find("version")->as_uint(), std::uint64_t(1));
    }

    void viewPictures()
    {
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Simulation& sim = window.simulation();
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.state() != Simulation::State::Running, 60000);
        QTemporaryDir dir;
        for (const QString& name : { QStringLiteral("cpus"), QStringLiteral("hash"), QStringLiteral("pagetable") }) {
            QVERIFY(window.runPage()->showView(name));
            QWidget* view = window.runPage()->currentView();
            const QString png = dir.filePath(name + QStringLiteral(".png"));
            const QString svg = dir.filePath(name + QStringLiteral(".svg"));
            QString error;
            QCOMPARE(window.runPage()->saveViewPicture(png, &error), SaveResult::Saved);
            QCOMPARE(window.runPage()->saveViewPicture(svg, &error), SaveResult::Saved);
            const QImage image(png);
            QCOMPARE(image.size(), view->size() * view->devicePixelRatio());
            QVERIFY2(pcl::ui::test::distinctColours(image) > 20, qPrintable(name));
            // The view's Fit button is on screen, not in the picture, and
            // still on screen after it.
            auto* structure = qobject_cast<pcl::ui::StructureView*>(view);
            QVERIFY(structure);
            QVERIFY(structure->fitButton()->isVisible());
            const QRect fit = structure->fitButton()->geometry();
            QVERIFY2(image.copy(fit) != view->grab().toImage().copy(fit), qPrintable(name));
            QVERIFY2(isSvg(svg), qPrintable(name));
            QCOMPARE(QSvgRenderer(svg).viewBox(), view->rect());
            // For a person to look at: the SVG as a slide program draws it.
            QImage drawn(view->size(), QImage::Format_ARGB32);
            drawn.fill(Qt::white);
            QPainter painter(&drawn);
            QSvgRenderer(svg).render(&painter);
            painter.end();
            QVERIFY(drawn.save(
                QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-view-%1-svg.png").arg(name))));
            QFile::remove(
                QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-view-%1.png").arg(name)));
            QVERIFY(QFile::copy(
                png, QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-view-%1.png").arg(name))));
        }
        QString error;
        QCOMPARE(
            window.runPage()->saveViewPicture(dir.filePath(QStringLiteral("view.bmp")), &error), SaveResult::Failed);
        QVERIFY(error.contains(QStringLiteral(".png or .svg")));
    }

    void chartsWithCaptions()
    {
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        window.show();
        Simulation& sim = window.simulation();
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.state() != Simulation::State::Running, 60000);
        auto* charts = window.findChild<pcl::ui::ChartsView*>();
        QVERIFY(charts);
        const QString caption = charts->chartCaption();
        QVERIFY(caption.startsWith(QString::fromStdString(sim.scenario().title)));
        QVERIFY(caption.contains(QStringLiteral("4 CPUs")));

        QTemporaryDir dir;
        const QString id = charts->chartIds().front();
        QString error;
        for (int scale : pcl::ui::ChartsView::kPngScales) {
            const QString png = dir.filePath(QStringLiteral("chart%1.png").arg(scale));
            QCOMPARE(charts->saveChart(id, png, scale, &error), SaveResult::Saved);
            QCOMPARE(QImage(png).size(), pcl::ui::kExportSize * scale);
        }
        // For a person to look at: the chart as a report gets it.
        const QString shown = QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-chart.png"));
        QFile::remove(shown);
        QVERIFY(QFile::copy(dir.filePath(QStringLiteral("chart1.png")), shown));
        const QString svg = dir.filePath(charts->chartFileName(id, QStringLiteral("svg")));
        QCOMPARE(charts->saveChart(id, svg, 1, &error), SaveResult::Saved);
        QVERIFY(isSvg(svg));
        // The caption is in the picture, as text.
        QVERIFY(readAll(svg).contains(QString::fromStdString(sim.scenario().title).left(20).toHtmlEscaped().toUtf8()));
        const QString pdf
            = dir.filePath(charts->chartFileName(pcl::ui::ChartsView::kLockWaitId, QStringLiteral("pdf")));
        QCOMPARE(charts->saveChart(pcl::ui::ChartsView::kLockWaitId, pdf, 1, &error), SaveResult::Saved);
        QVERIFY(readAll(pdf).startsWith("%PDF-"));

        // The data beside them, one row per sample; and no replacing without a yes.
        const QString csv = dir.filePath(QStringLiteral("metrics.csv"));
        QCOMPARE(charts->saveData(csv, &error), SaveResult::Saved);
        QCOMPARE(std::size_t(csvLines(csv).size()), sim.samples().size() + 1);
        ReplaceAnswer no(false);
        QCOMPARE(charts->saveChart(id, svg, 1, &error), SaveResult::Declined);
        QCOMPARE(charts->saveData(csv, &error), SaveResult::Declined);
        QCOMPARE(no.asked, (QStringList { svg, csv }));
    }

    void theQuestionAndTheFailureAsShown()
    {
        // The message boxes a person sees: "Keep it" keeps the file,
        // "Replace" replaces it; each saved for a person to look at.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("2002-global-hash-lock_result.json"));
        writeText(path, "{}\n");
        QWidget parent;
        parent.resize(800, 500);
        parent.show();
        const auto answer = [](const QString& button, const QString& shot) {
            QTimer::singleShot(0, [button, shot] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                QVERIFY(box);
                QVERIFY(box->grab().save(QDir(pcl::ui::test::screenshotDir()).filePath(shot)));
                for (QAbstractButton* b : box->buttons())
                    if (b->text() == button)
                        b->click();
            });
        };
        answer(QStringLiteral("Keep it"), QStringLiteral("export-replace-question.png"));
        QVERIFY(!pcl::ui::mayReplace(&parent, path));
        answer(QStringLiteral("Replace"), QStringLiteral("export-replace-question.png"));
        QVERIFY(pcl::ui::mayReplace(&parent, path));
        answer(QStringLiteral("OK"), QStringLiteral("export-failure.png"));
        pcl::ui::showSaveFailure(&parent, QStringLiteral("Export the run's result"), QStringLiteral("the run's result"),
            path, QStringLiteral("File too large"));
        QCOMPARE(readAll(path), QByteArray("{}\n"));
    }

    void chartMenu()
    {
        // Right-click on a chart: PNG at each resolution, SVG, PDF.
        MainWindow window;
        QVERIFY(window.openScenario(pacedRun()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* charts = window.findChild<pcl::ui::ChartsView*>();
        QWidget* view = charts->findChild<QWidget*>(QStringLiteral("chart_") + charts->shownCharts().front());
        QVERIFY(view && view->isVisible());
        QStringList items, resolutions;
        QTimer::singleShot(0, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            QVERIFY(menu);
            for (QAction* a : menu->actions()) {
                items.append(a->text());
                if (a->menu()) {
                    for (QAction* r : a->menu()->actions())
                        resolutions.append(r->text());
                    // Drawn where a desktop puts them: the offscreen screen
                    // is too narrow for the submenu beside the menu.
                    QImage shot = window.grab().toImage();
                    const QPoint at = view->mapTo(&window, view->rect().center()) - QPoint(320, 0);
                    a->menu()->adjustSize();
                    QPainter painter(&shot);
                    painter.drawPixmap(at, menu->grab());
                    painter.drawPixmap(at + menu->actionGeometry(a).topRight(), a->menu()->grab());
                    painter.end();
                    QVERIFY(shot.save(
                        QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-chart-menu.png"))));
                }
            }
            menu->close();
        });
        Q_EMIT view->customContextMenuRequested(view->rect().center());
        QVERIFY(items.contains(QStringLiteral("Save chart as SVG…")));
        QVERIFY(items.contains(QStringLiteral("Save chart as PDF…")));
        QCOMPARE(resolutions,
            (QStringList { QStringLiteral("1200 × 600 pixels, for a screen…"),
                QStringLiteral("2400 × 1200 pixels, for print…"),
                QStringLiteral("4800 × 2400 pixels, for a poster…") }));
    }

    void exportMenuScreenshot()
    {
        // The File menu with Export open, over the window, for a person to look at.
        MainWindow window;
        window.setRememberGeometry(false);
        QVERIFY(window.openScenario(pacedRun()));
        window.simulation().step(10);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* file = window.findChild<QMenu*>(QStringLiteral("fileMenu"));
        auto* exports = window.findChild<QMenu*>(QStringLiteral("exportMenu"));
        QVERIFY(file && exports);
        QVERIFY(file->actions().contains(exports->menuAction()));
        file->popup(window.mapToGlobal(QPoint(0, 24)));
        QVERIFY(QTest::qWaitForWindowExposed(file));
        const QRect item = file->actionGeometry(exports->menuAction());
        exports->popup(file->mapToGlobal(item.topRight()));
        QVERIFY(QTest::qWaitForWindowExposed(exports));
        QImage shot = window.grab().toImage();
        QPainter painter(&shot);
        painter.drawPixmap(window.mapFromGlobal(file->pos()), file->grab());
        painter.drawPixmap(window.mapFromGlobal(exports->pos()), exports->grab());
        painter.end();
        QVERIFY(shot.save(QDir(pcl::ui::test::screenshotDir()).filePath(QStringLiteral("export-menu.png"))));
        for (Export kind : RunPage::kExports) {
            QVERIFY(exports->actions().contains(window.runPage()->exportAction(kind)));
            QVERIFY(window.runPage()->exportAction(kind)->isEnabled());
        }
        exports->close();
        file->close();
    }
};

PCL_UI_TEST(TestExport)
#include "test_export.moc"
