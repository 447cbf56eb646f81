// A lesson step played, paused for several seconds as a teacher pauses to
// explain, and played again: the run goes on at the step's speed from the
// first operation after Play (the paused time is not owed as a burst), and
// every clock the window shows leaves the pause out.
#include "lessons/lessonpanel.h"
#include "run/simulation.h"
#include "shell/mainwindow.h"
#include "ui_test_registry.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace pcl;
using namespace pcl::ui;

class TestLessonPacing : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pagecache-lab-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_lesson_pacing"));
        QSettings().clear();
    }

    void operationsAfterPlayFollowTheStepsSpeed()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openLesson(QStringLiteral("2002-one-global-hash-lock"), &error), qPrintable(error));
        // Step 2: four readers of four files, each under its own tree lock,
        // at 40 operations a second each: nothing holds them back but the pace.
        LessonPanel& panel = *window.lessonPanel();
        panel.goToStep(1);
        Simulation& sim = window.simulation();
        const double pace = sim.scenario().engine.ops_per_second;
        const unsigned cpus = sim.scenario().engine.workload.cpus;
        QCOMPARE(pace, 40.0);
        QCOMPARE(cpus, 4u);

        sim.play();
        QTest::qWait(1500);
        sim.pause();
        QCOMPARE(sim.state(), Simulation::State::Paused);
        const double runningAtPause = sim.elapsedSeconds();
        const std::uint64_t clockAtPause = sim.clockNowNs();
        QTest::qWait(5000); // the teacher explains
        QCOMPARE(sim.elapsedSeconds(), runningAtPause);
        QVERIFY(sim.clockNowNs() - clockAtPause < 1'000'000); // the run's clock stood still
        QVERIFY(!panel.pausedByStep());

        const std::uint64_t before = sim.engine()->operations();
        QElapsedTimer played;
        played.start();
        sim.play();
        QTest::qWait(1000);
        const std::uint64_t after = sim.engine()->operations() - before;
        const double seconds = double(played.elapsed()) / 1000.0;
        sim.pause();
        // The set speed: 4 CPUs x 40 a second. A pace that banked the five
        // paused seconds would do their 800 operations at once.
        const double expected = cpus * pace * seconds;
        QVERIFY2(double(after) <= 1.4 * expected + 4,
            qPrintable(QStringLiteral("%1 operations in %2 s after Play; the pace allows %3")
                           .arg(after)
                           .arg(seconds)
                           .arg(expected)));
        QVERIFY2(double(after) >= 0.5 * expected,
            qPrintable(QStringLiteral("%1 operations in %2 s after Play, expected about %3")
                           .arg(after)
                           .arg(seconds)
                           .arg(expected)));
        // One clock: the running time is the time played, not the pause.
        QVERIFY(sim.elapsedSeconds() < runningAtPause + seconds + 0.5);
        QVERIFY(sim.elapsedSeconds() > runningAtPause + 0.8);
        sim.reset();
    }
};

PCL_UI_TEST(TestLessonPacing)
#include "test_lesson_pacing.moc"
