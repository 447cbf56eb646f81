// Lessons in the application: the gallery's lesson cards grouped by thread,
// a lesson walked step by step (each step's view brought forward, its lock
// outlined in the lock table, its pause condition pausing the run), and the
// measurement's verdict table, with screenshots of a step and the verdict.
#include "lessons/lessonpanel.h"
#include "locks/lockview.h"
#include "run/simulation.h"
#include "shell/mainwindow.h"
#include "shell/welcomecard.h"
#include "shell/welcomepage.h"
#include "ui_test_support.h"
#include "view_test_support.h"

#include "lesson/lesson_library.h"

#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

#include <algorithm>

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
        QCOMPARE(window.currentView()->objectName(), QStringLiteral("radix"));
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
        window.simulation().reset();
    }

    void cleanupTestCase() { QSettings().clear(); }
};

QTEST_MAIN(TestLessons)
#include "test_lessons.moc"
