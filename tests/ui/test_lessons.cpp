// Lessons in the application: the gallery's lesson cards grouped by thread,
// a lesson walked step by step (each step's view brought forward, its lock
// outlined in the lock table, its pause condition pausing the run), and the
// measurement's verdict table, with screenshots of a step and the verdict.
#include "lessons/lessonpanel.h"
#include "lessons/lessontablechart.h"
#include "lessons/proberesultsview.h"
#include "locks/lockview.h"
#include "run/simulation.h"
#include "shell/mainwindow.h"
#include "shell/welcomecard.h"
#include "shell/welcomepage.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/hash/hashview.h"
#include "views/radix/radixtreeview.h"
#include "views/timeline/timelineview.h"
#include "views/tornpte/tornpteview.h"

#include "lesson/lesson_library.h"
#include "lesson/lesson_probe.h"
#include "lib/json.h"

#include <QChart>
#include <QChartView>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

using namespace pcl;
using namespace pcl::ui;

class TestLessons : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pagecache-lab-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_lessons"));
        QSettings().clear();
    }

    void theGalleryListsEveryLessonByThread()
    {
        MainWindow window;
        const std::vector<Lesson> lessons = bundled_lessons();
        const QList<WelcomeCard*> cards = window.welcomePage()->lessonCards();
        QCOMPARE(cards.size(), qsizetype(lessons.size()));
        // Every lesson has its card, and the cards of one thread stand together.
        std::vector<std::string> threads;
        for (const WelcomeCard* card : cards) {
            const auto l = std::find_if(lessons.begin(), lessons.end(),
                [&](const Lesson& x) { return QString::fromStdString(x.name) == card->objectName(); });
            QVERIFY2(l != lessons.end(), qPrintable(card->objectName()));
            QCOMPARE(card->title(), QString::fromStdString(l->title));
            QVERIFY(!card->text().contains(QStringLiteral(".json")));
            if (threads.empty() || threads.back() != l->thread) {
                QVERIFY2(std::find(threads.begin(), threads.end(), l->thread) == threads.end(), l->thread.c_str());
                threads.push_back(l->thread);
            }
        }
        QCOMPARE(cards[0]->objectName(), QStringLiteral("2002-one-global-hash-lock"));
        // Start on a card opens its lesson beside the views.
        auto* start = cards[0]->findChild<QPushButton*>(QStringLiteral("start"));
        QVERIFY(start);
        start->click();
        QVERIFY(window.showingRun());
        QVERIFY(window.lessonPanel()->hasLesson());
        QCOMPARE(window.lessonPanel()->lesson().name, std::string("2002-one-global-hash-lock"));
        window.simulation().reset();
    }

    void aLessonIsWalkedStepByStep()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openLesson(QStringLiteral("2002-one-global-hash-lock"), &error), qPrintable(error));
        LessonPanel& panel = *window.lessonPanel();
        QCOMPARE(panel.stepIndex(), 0);
        QVERIFY(panel.stepText().startsWith(QStringLiteral("Step 1 of 4: Four CPUs, four files, one lock")));
        auto* lessonDock = window.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
        QVERIFY(lessonDock && lessonDock->isVisible());

        // Step 1: the global hash table's run at demonstration speed, its
        // lock outlined in the lock table, paused once it was contended 50 times.
        const Scenario& s = window.simulation().scenario();
        QCOMPARE(s.engine.index.kind, IndexKind::Hash);
        QCOMPARE(s.engine.ops_per_second, 40.0);
        QCOMPARE(s.engine.hold_stretch_ns, std::uint64_t(5000000));
        window.simulation().play();
        auto* locks = window.findChild<LockView*>();
        QVERIFY(locks);
        QTRY_COMPARE_WITH_TIMEOUT(locks->selectedLock(), QStringLiteral("pagecache_lock"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(panel.pausedByStep(), 30000);
        QCOMPARE(window.simulation().state(), Simulation::State::Paused);
        std::uint64_t contentions = 0;
        for (const auto& row : window.simulation().registry()->classes())
            if (row.name == "pagecache_lock")
                contentions = row.contentions;
        QVERIFY(contentions >= 50);
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-global-lock-step1.png")));

        // Step 2: a radix tree per file, in the radix view.
        panel.next();
        QCOMPARE(panel.stepIndex(), 1);
        QCOMPARE(window.runPage()->currentView()->objectName(), QStringLiteral("radix"));
        QCOMPARE(window.simulation().scenario().engine.index.kind, IndexKind::Radix);
        QVERIFY(!panel.pausedByStep());
        window.simulation().play();
        QTRY_VERIFY_WITH_TIMEOUT(panel.pausedByStep(), 30000);

        // Back returns to step 1, its run set up again from the start.
        panel.back();
        QCOMPARE(panel.stepIndex(), 0);
        QCOMPARE(window.simulation().state(), Simulation::State::Ready);
        QCOMPARE(window.simulation().scenario().engine.index.kind, IndexKind::Hash);

        // The last step is unpaced, and says so.
        panel.goToStep(3);
        QCOMPARE(window.simulation().scenario().engine.ops_per_second, 0.0);
        window.simulation().reset();
    }

    void theMeasurementFillsTheVerdictTable()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("2002-the-reader-that-changes-cpus")));
        LessonPanel& panel = *window.lessonPanel();
        panel.goToStep(int(panel.lesson().steps.size()) - 1);
        panel.measure();
        QVERIFY(panel.measuring());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.measuring(), 120000);
        QVERIFY(panel.verdicts().has_value());
        const ExperimentResult& r = *panel.verdicts();
        QCOMPARE(r.claims.size(), panel.lesson().claims.size());
        QCOMPARE(panel.verdictTable()->rowCount(), int(r.claims.size()));
        QTRY_VERIFY(panel.verdictTable()->isVisible());
        // Miller's one lock moved over per migration is an exact count: held.
        QCOMPARE(r.claims[0].verdict, LessonVerdict::Held);
        QVERIFY(panel.verdictTable()->item(0, 3)->text().startsWith(QStringLiteral("held: ")));
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-verdict.png")));

        // The verdicts save as the command line writes them: JSON with one
        // verdict per claim, or CSV with a header and a row per claim.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString jsonPath = dir.filePath(QStringLiteral("verdicts.json"));
        QString error;
        QVERIFY2(panel.saveVerdicts(jsonPath, &error), qPrintable(error));
        QFile jsonFile(jsonPath);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const json::Value doc = json::parse(jsonFile.readAll().toStdString());
        QCOMPARE(doc.find("experiment")->as_string(), std::string("2002-the-reader-that-changes-cpus"));
        QCOMPARE(doc.find("verdicts")->as_array().size(), r.claims.size());
        QCOMPARE(doc.find("verdicts")->as_array()[0].find("result")->as_string(), std::string("held"));
        const QString csvPath = dir.filePath(QStringLiteral("verdicts.csv"));
        QVERIFY2(panel.saveVerdicts(csvPath, &error), qPrintable(error));
        QFile csvFile(csvPath);
        QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), int(r.claims.size()) + 1);
        QVERIFY(lines[0].startsWith(
            QStringLiteral("claim,source,machine,latency_scale,thread_figure,our_figure,median,spread,result,why")));
        // A directory that does not exist: refused, with the reason.
        QVERIFY(!panel.saveVerdicts(dir.filePath(QStringLiteral("no/such/dir/v.csv")), &error));
        QVERIFY(!error.isEmpty());
        window.simulation().reset();
    }

    void theGlobalLockVerdict()
    {
        // The first lesson's verdict as a class sees it at the end: each claim,
        // the thread's figure, ours and the verdict, in one table.
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("2002-one-global-hash-lock")));
        LessonPanel& panel = *window.lessonPanel();
        panel.goToStep(int(panel.lesson().steps.size()) - 1);
        panel.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.measuring(), 240000);
        QVERIFY(panel.verdicts().has_value());
        // A row a claim on this machine, and below each its verdict on the
        // thread's 8-way Pentium III, modelled, with its sensitivity.
        QCOMPARE(panel.verdictTable()->rowCount(), 2 * int(panel.lesson().claims.size()));
        for (int row = 0; row < panel.verdictTable()->rowCount(); ++row)
            QVERIFY(!panel.verdictTable()->item(row, 3)->text().isEmpty());
        for (int row = 1; row < panel.verdictTable()->rowCount(); row += 2) {
            QVERIFY(panel.verdictTable()->item(row, 0)->text().startsWith(
                QStringLiteral("The same claim, on a modelled ")));
            QVERIFY(panel.verdictTable()->item(row, 3)->text().contains(
                QStringLiteral("at half and at twice the transfer latencies: ")));
        }
        QTRY_VERIFY(panel.verdictTable()->isVisible());
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-global-lock-verdict.png")));
        window.simulation().reset();
    }

    void aThreadTableIsDrawnBesideOurs()
    {
        // Lameter's figures dashed, ours solid in the same colour, a curve
        // for the series the thread did not tabulate; in thousands.
        TableResult r;
        r.table.title = "pft: faults per second";
        r.table.by = "Christoph Lameter";
        r.table.source = "pft on the Altix";
        r.table.cpus = { 1, 2, 4 };
        r.table.series = { { "split", "", { 76894, 150731, 263253 } }, { "single", "", {} } };
        r.labels = { "split locks", "one lock" };
        r.unit = "faults/s";
        r.machine_title = "SGI Altix";
        r.ours = { { 91095, 175736, 345343 }, { 91095, 175736, std::nan("") } };
        LessonTableChart chart;
        chart.setTables({ r });
        QCOMPARE(chart.charts().size(), std::size_t(1));
        QVERIFY(!chart.isHidden());
        const QList<QAbstractSeries*> series = chart.charts()[0]->chart()->series();
        QCOMPARE(series.size(), 3);
        const auto* thread = static_cast<QLineSeries*>(series[0]);
        const auto* ours = static_cast<QLineSeries*>(series[1]);
        const auto* single = static_cast<QLineSeries*>(series[2]);
        QCOMPARE(thread->name(), QStringLiteral("split locks, in the thread"));
        QCOMPARE(ours->name(), QStringLiteral("split locks, ours"));
        QCOMPARE(thread->pen().style(), Qt::DashLine);
        QCOMPARE(ours->pen().style(), Qt::SolidLine);
        QCOMPARE(thread->pen().color(), ours->pen().color());
        QVERIFY(single->pen().color() != ours->pen().color());
        QCOMPARE(thread->points(), (QList<QPointF> { { 1, 76.894 }, { 2, 150.731 }, { 4, 263.253 } }));
        // The point not measured is left out, not drawn at zero.
        QCOMPARE(single->count(), 2);
        const auto* y = qobject_cast<QValueAxis*>(chart.charts()[0]->chart()->axes(Qt::Vertical).front());
        QCOMPARE(y->titleText(), QStringLiteral("thousand faults/s"));
        QVERIFY(y->max() >= 345.343);
        const QLabel* note = chart.findChild<QLabel*>(QStringLiteral("lessonTableNote_0"));
        QVERIFY(note);
        QVERIFY2(note->text().contains(QStringLiteral("Split locks: the thread rises all the way to 4 CPUs")),
            qPrintable(note->text()));
        // A lesson without tables hides it again.
        chart.setTables({});
        QVERIFY(chart.isHidden());
        QVERIFY(chart.charts().empty());
    }

    void aProbeStepShowsItsFigures()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("2002-what-the-index-costs-in-memory")));
        LessonPanel& panel = *window.lessonPanel();
        const Lesson& lesson = panel.lesson();
        const auto step = std::find_if(lesson.steps.begin(), lesson.steps.end(),
            [&](const LessonStep& s) { return lesson.find_run(s.run)->is_probe(); });
        QVERIFY(step != lesson.steps.end());
        QSignalSpy probed(&panel, &LessonPanel::probed);
        panel.goToStep(int(step - lesson.steps.begin()));
        // The step brings the measurements forward, its run's column outlined.
        QTRY_VERIFY(panel.probeResults()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(probed.size(), 1, 60000);
        QCOMPARE(probed.at(0).at(0).toString(), QString());
        // One row per figure the probe reports; the step's column has a value
        // in each, the columns of runs not measured yet none.
        const LessonProbe* probe = find_lesson_probe(lesson.find_run(step->run)->probe);
        QVERIFY(probe);
        const QTableWidget* table = panel.probeResults()->table();
        QCOMPARE(table->rowCount(), int(probe->figures.size()));
        const int column = panel.probeResults()->columnOf(step->run);
        QVERIFY(column >= 0);
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(table->item(row, 0)->text(), QString::fromStdString(probe->figures[row].meaning));
            QVERIFY(!table->item(row, column)->text().isEmpty());
            for (int c = 1; c < table->columnCount(); ++c)
                if (c != column)
                    QVERIFY(table->item(row, c)->text().isEmpty());
        }
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-probe-step.png")));
    }

    void theTornPteLessonWalksItsInterleavings()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("2005-the-torn-pte-read")));
        LessonPanel& panel = *window.lessonPanel();
        const Lesson& lesson = panel.lesson();
        // Each step on the probe's view brings the torn PTE view forward
        // with the step's reader and interleaving, at its first operation.
        int walked = 0;
        for (int i = 0; i < int(lesson.steps.size()); ++i) {
            const LessonStep& s = lesson.steps[std::size_t(i)];
            if (s.view != "tornpte")
                continue;
            panel.goToStep(i);
            QVERIFY(window.runPage()->viewEnabled(QStringLiteral("tornpte")));
            QCOMPARE(window.runPage()->currentView()->objectName(), QStringLiteral("tornpte"));
            auto* view = qobject_cast<TornPteView*>(window.runPage()->currentView());
            QVERIFY(view);
            const ProbeArgs args = probe_args(*find_lesson_probe("torn_pte"), lesson.find_run(s.run)->set, "test");
            if (args.text("mode") == "explore") {
                // The explorer's schedule, once it is found: the one the
                // probe counts, replayed from its first operation.
                QTRY_VERIFY_WITH_TIMEOUT(!view->exploring(), 30000);
                QCOMPARE(std::string(pte_read_method_name(view->method())), args.text("method"));
                QCOMPARE(view->interleaving(), std::string("explored"));
                QCOMPARE(view->step(), 0);
                QVERIFY(view->exploration());
                QCOMPARE(bool(view->exploration()->found), !pte_read_method_holds(view->method()));
                QVERIFY(!view->note().isEmpty());
                if (view->method() == PteReadMethod::Naive) {
                    view->setStep(view->stepCount() - 1);
                    QVERIFY(view->script().torn);
                    QVERIFY(
                        test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-torn-pte-explored.png")));
                }
                continue;
            }
            QCOMPARE(std::string(pte_read_method_name(view->method())), args.text("method"));
            QCOMPARE(view->interleaving(), args.text("interleaving"));
            QCOMPARE(view->step(), 0);
            if (walked == 0) {
                // The plain read on AB -> CD: walked to its end, it is torn.
                view->setStep(view->stepCount() - 1);
                QVERIFY(view->script().torn);
                QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-torn-pte-step.png")));
            }
            ++walked;
        }
        QVERIFY(walked >= 2);
        // Its verdict: the scripted reads are exact, and every fix reads
        // nothing torn on real threads, so those claims hold whatever the
        // machine; only whether the plain read tears on real threads
        // depends on how the threads met.
        panel.goToStep(0);
        panel.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.measuring(), 240000);
        QVERIFY(panel.verdicts().has_value());
        for (const ClaimResult& c : panel.verdicts()->claims)
            if (c.claim.run != "naive-threads")
                QVERIFY2(c.verdict == LessonVerdict::Held, c.claim.statement.c_str());
        QTRY_VERIFY(panel.verdictTable()->isVisible());
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-torn-pte-verdict.png")));
        // A scenario opened afterwards has no torn PTE tab.
        QVERIFY(window.openLesson(QStringLiteral("2002-one-global-hash-lock")));
        QVERIFY(!window.runPage()->viewNames().isEmpty());
        QVERIFY(window.runPage()->tabToolTip(QStringLiteral("tornpte")).isEmpty());
    }

    void aStepOutlinesALeafABucketOrACpuUntilTheNextStep()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* radix = window.findChild<RadixTreeView*>();
        auto* hash = window.findChild<HashView*>();
        auto* timeline = window.findChild<TimelineView*>();
        QVERIFY(radix && hash && timeline);

        // A radix tree per file: the leaf holding page 2209, the first page
        // CPU 0 reads, is outlined in file 0's tree once the tree is two
        // levels tall.
        QVERIFY(window.openLesson(QStringLiteral("2002-one-global-hash-lock")));
        LessonPanel& panel = *window.lessonPanel();
        panel.goToStep(1);
        QCOMPARE(panel.lesson().steps[1].highlight.kind, LessonHighlight::Kind::Node);
        QCOMPARE(window.runPage()->currentView(), static_cast<QWidget*>(radix));
        QCOMPARE(radix->highlightedNode(), std::optional<pgoff_t>(2209));
        window.simulation().play();
        QTRY_VERIFY_WITH_TIMEOUT(panel.pausedByStep(), 30000);
        QCOMPARE(radix->selectedFile(), FileId(0));
        QTRY_VERIFY_WITH_TIMEOUT(radix->layout().highlightedLeaf() >= 0, 5000);
        const auto& leaf = radix->layout().snapshot().nodes[std::size_t(radix->layout().highlightedLeaf())];
        QCOMPARE(leaf.first_index, pgoff_t(2176));
        QCOMPARE(radix->layout().snapshot().height, 2);
        QTest::qWait(int(RadixTreeLayout::kAnimationMs) + 50);
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-leaf-outlined.png")));
        // The next step outlines a lock: the leaf is no longer outlined.
        panel.next();
        QVERIFY(!radix->highlightedNode());

        // The reader that changes CPUs: CPU 1's lane, where the readers take turns.
        QVERIFY(window.openLesson(QStringLiteral("2002-the-reader-that-changes-cpus")));
        const Lesson& readers = panel.lesson();
        const auto onCpu = std::find_if(readers.steps.begin(), readers.steps.end(),
            [](const LessonStep& s) { return s.highlight.kind == LessonHighlight::Kind::Cpu; });
        QVERIFY(onCpu != readers.steps.end());
        const int cpuStep = int(onCpu - readers.steps.begin());
        panel.goToStep(cpuStep);
        QCOMPARE(window.runPage()->currentView(), static_cast<QWidget*>(timeline));
        QCOMPARE(timeline->highlightedCpu(), std::optional<unsigned>(1));
        window.simulation().play();
        // Past the first swap: each reader has been on both CPUs.
        QTRY_VERIFY_WITH_TIMEOUT(window.simulation().engine()->cpu_counters()[1].migrations >= 2, 10000);
        window.simulation().pause();
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-cpu-outlined.png")));
        QVERIFY(cpuStep + 1 < int(readers.steps.size()));
        QCOMPARE(readers.steps[std::size_t(cpuStep + 1)].highlight.kind, LessonHighlight::Kind::Lock);
        panel.next();
        QVERIFY(!timeline->highlightedCpu());

        // Sizing the hash: bucket 6223, where four files' pages pile up,
        // expanded to its chain when the run has read every page.
        QVERIFY(window.openLesson(QStringLiteral("2002-sizing-the-hash-and-the-hash-function")));
        const Lesson& sizing = panel.lesson();
        const auto onBucket = std::find_if(sizing.steps.begin(), sizing.steps.end(),
            [](const LessonStep& s) { return s.highlight.kind == LessonHighlight::Kind::Bucket; });
        QVERIFY(onBucket != sizing.steps.end());
        const int bucketStep = int(onBucket - sizing.steps.begin());
        panel.goToStep(bucketStep);
        QCOMPARE(window.runPage()->currentView(), static_cast<QWidget*>(hash));
        QCOMPARE(hash->selectedBucket(), std::optional<std::uint64_t>(6223));
        window.simulation().play();
        // Once each file has read its page of the bucket, well before the
        // run ends.
        auto chainLength = [&] {
            hash->refresh();
            return hash->scene().chainBoxes.size();
        };
        QTRY_COMPARE_WITH_TIMEOUT(chainLength(), std::size_t(4), 60000);
        window.simulation().pause();
        QCOMPARE(hash->selectedBucket(), std::optional<std::uint64_t>(6223));
        std::vector<std::pair<FileId, pgoff_t>> chain;
        for (const auto& box : hash->scene().chainBoxes)
            chain.emplace_back(box.entry.file, box.entry.index);
        std::sort(chain.begin(), chain.end());
        QCOMPARE(chain,
            (std::vector<std::pair<FileId, pgoff_t>> {
                { FileId(0), 45 }, { FileId(1), 30 }, { FileId(2), 15 }, { FileId(3), 0 } }));
        QVERIFY(test::saveScreenshot(window.grab().toImage(), QStringLiteral("lesson-bucket-outlined.png")));
        // The next step outlines nothing: no bucket stays expanded.
        QCOMPARE(sizing.steps[std::size_t(bucketStep + 1)].highlight.kind, LessonHighlight::Kind::None);
        panel.next();
        QVERIFY(!hash->selectedBucket());
        window.simulation().reset();
    }

    void cleanupTestCase() { QSettings().clear(); }
};

PCL_UI_TEST(TestLessons)
#include "test_lessons.moc"
