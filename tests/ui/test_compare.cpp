// Compare mode: the difference summary from exact inputs, and two real runs
// side by side (the 2002 global hash lock against a radix tree per file).
#include "compare/comparechart.h"
#include "compare/comparecolumn.h"
#include "compare/comparewindow.h"
#include "compare/comparisonsummary.h"
#include "kit/colors.h"
#include "kit/colorscheme.h"
#include "run/scenariolibrary.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include <QApplication>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QSet>
#include <QStyleFactory>
#include <QTableWidget>
#include <QTest>

#include <cmath>

using pcl::MetricsSample;
using pcl::sync::LockStatRow;
using namespace pcl::ui;

using namespace pcl::ui::test;

namespace {

MetricsSample sample(double time, double interval, std::uint64_t ops, double lockWait)
{
    MetricsSample s;
    s.time_s = time;
    s.interval_s = interval;
    s.operations = ops;
    s.operations_per_s = double(ops) / interval;
    s.lock_wait_fraction = lockWait;
    return s;
}

LockStatRow row(const char* name, std::uint64_t acquisitions, std::uint64_t contentions)
{
    return { .name = name, .lock_class = name, .acquisitions = acquisitions, .contentions = contentions };
}

constexpr std::uint64_t kOpsPerCpu = 50000;

/// A preset made short enough for a test. Every lock is held a little
/// longer (the same for both runs), so that two CPUs that meet on a lock
/// do wait even on a loaded two-core machine where the four CPU threads of
/// a run seldom run at the same moment.
ScenarioEntry shortPreset(const QString& name)
{
    ScenarioEntry e = ScenarioLibrary::load(name);
    e.scenario.engine.workload.operations_per_cpu = kOpsPerCpu;
    e.scenario.engine.hold_stretch_ns = 300;
    e.scenario.sample_interval_ms = 20;
    return e;
}

std::uint64_t classContentions(const Simulation& sim, const char* lockClass)
{
    for (const LockStatRow& r : sim.registry()->classes())
        if (r.name == lockClass)
            return r.contentions;
    return 0;
}

std::uint64_t treeLockContentions(const Simulation& sim)
{
    std::uint64_t n = 0;
    for (const LockStatRow& r : sim.registry()->classes())
        if (r.name.find("tree_lock") != std::string::npos)
            n += r.contentions;
    return n;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); }

    void summaryFromExactSamplesAndLocks()
    {
        // A: 6.2 M operations in 2 s of running time (the last sample's
        // time), waiting for locks 10 % of a first interval of 0.5 s and 30 %
        // of the next 1.5 s: 25 % over the run, the mean weighted by interval.
        const std::vector<MetricsSample> a { sample(0.5, 0.5, 1'550'000, 0.10), sample(2.0, 1.5, 4'650'000, 0.30) };
        const std::vector<MetricsSample> b { sample(1.0, 1.0, 5'400'000, 0.0), sample(2.0, 1.0, 5'400'000, 0.0) };
        const std::vector<LockStatRow> classesA { row("pagecache_lock", 9'000'000, 2'000'000),
            row("page_lock", 100, 1'000'000) };
        const std::vector<LockStatRow> classesB { row("mapping.tree_lock", 9'000'000, 0) };

        const RunTotals ta = RunTotals::of(a, classesA);
        QCOMPARE(ta.operations, std::uint64_t(6'200'000));
        QCOMPARE(ta.seconds, 2.0);
        QCOMPARE(ta.contentions, std::uint64_t(3'000'000));
        QCOMPARE(*ta.throughput(), 3'100'000.0);
        QCOMPARE(*ta.lockWaitFraction(), 0.25); // (0.1 x 0.5 + 0.3 x 1.5) / 2

        ComparisonSummary s { ta, RunTotals::of(b, classesB) };
        QCOMPARE(*s.b.throughput(), 5'400'000.0);
        QCOMPARE(*s.throughputRatio(), 5.4 / 3.1);
        QCOMPARE(*s.contentionsRatio(), 0.0);
        QCOMPARE(s.text(),
            QStringLiteral("B vs A: throughput 1.74x (ops/s over the run: 5.4 M/s vs 3.1 M/s) · lock contentions "
                           "0x (0 vs 3,000,000) · lock wait 0.0 % vs 25 % of CPU time"));

        // Incremental totals are the same as totals of the whole series.
        RunTotals inc;
        for (const MetricsSample& m : a)
            inc.add(m);
        inc.setContentions(classesA);
        QCOMPARE(inc.operations, ta.operations);
        QCOMPARE(*inc.throughput(), *ta.throughput());
        QCOMPARE(*inc.lockWaitFraction(), *ta.lockWaitFraction());
    }

    void zeroDenominatorsShowADash()
    {
        // Nothing run yet on either side.
        ComparisonSummary none;
        QVERIFY(!none.throughputRatio());
        QVERIFY(!none.contentionsRatio());
        QVERIFY(!none.a.lockWaitFraction());
        QCOMPARE(none.text(),
            QStringLiteral("B vs A: throughput — (ops/s over the run: — vs —) · lock contentions — (0 vs 0) · lock "
                           "wait — vs — of CPU time"));

        // A did nothing in its running time, B did: no ratio of that.
        ComparisonSummary zeroA { RunTotals::of({ sample(1.0, 1.0, 0, 0.0) }, {}),
            RunTotals::of({ sample(1.0, 1.0, 500, 0.5) }, { row("x", 10, 4) }) };
        QCOMPARE(*zeroA.a.throughput(), 0.0);
        QVERIFY(!zeroA.throughputRatio());
        QVERIFY(!zeroA.contentionsRatio());
        QCOMPARE(ComparisonSummary::ratioText(zeroA.throughputRatio()), QStringLiteral("—"));
        QVERIFY(!zeroA.text().contains(QLatin1String("inf")));
        QVERIFY(!zeroA.text().contains(QLatin1String("nan"), Qt::CaseInsensitive));

        // B did nothing: a ratio of 0, which is a number.
        ComparisonSummary zeroB { zeroA.b, zeroA.a };
        QCOMPARE(*zeroB.throughputRatio(), 0.0);
        QCOMPARE(*zeroB.contentionsRatio(), 0.0);
        QCOMPARE(ComparisonSummary::ratioText(zeroB.throughputRatio()), QStringLiteral("0x"));
        // Far below 1: significant digits, not "0.00x" (491 against 464,000).
        QCOMPARE(ComparisonSummary::ratioText(491.0 / 464'000), QStringLiteral("0.00106x"));
        QCOMPARE(ComparisonSummary::ratioText(12.345), QStringLiteral("12.3x"));
        QCOMPARE(ComparisonSummary::ratioText(250.4), QStringLiteral("250x"));
        QCOMPARE(ComparisonSummary::ratioText(std::nan("")), QStringLiteral("—"));
        QCOMPARE(ComparisonSummary::percentText(0.042), QStringLiteral("4.2 %"));
    }

    void topLocksByContentions()
    {
        const std::vector<LockStatRow> rows { row("idle", 0, 0), row("b", 50, 5), row("a", 70, 5), row("c", 900, 0),
            row("hot", 10, 9), row("d", 10, 0), row("e", 5, 0) };
        const auto top = CompareColumn::topLocks(rows);
        QCOMPARE(int(top.size()), 5);
        const char* expected[] = { "hot", "a", "b", "c", "d" };
        for (int i = 0; i < 5; ++i)
            QCOMPARE(QString::fromStdString(top[std::size_t(i)].name), QString::fromLatin1(expected[i]));
        QVERIFY(CompareColumn::topLocks({ row("idle", 0, 0) }).empty());
    }

    void defaultsAreTheTwo2002Presets()
    {
        CompareWindow w;
        QCOMPARE(w.scenarioA().id, QStringLiteral("2002-global-hash-lock"));
        QCOMPARE(w.scenarioB().id, QStringLiteral("2002-radix-tree-per-file"));
        QCOMPARE(w.picker(0)->currentText(), QStringLiteral("2002-global-hash-lock"));
        QCOMPARE(w.picker(1)->currentText(), QStringLiteral("2002-radix-tree-per-file"));
        QCOMPARE(w.picker(0)->itemText(w.picker(0)->count() - 1), QStringLiteral("Open file…"));
        QCOMPARE(w.windowTitle(),
            QStringLiteral("Compare — 2002-global-hash-lock vs 2002-radix-tree-per-file — Page Cache Lab"));
        QCOMPARE(w.size(), QSize(1280, 720));
        QCOMPARE(w.left().state(), Simulation::State::Ready);
        QCOMPARE(w.right().state(), Simulation::State::Ready);
        QCOMPARE(w.chartCount(), 4);
        QVERIFY(w.summaryText().contains(QStringLiteral("throughput —")));
    }

    void switchingTheColourSchemeRecoloursTheWindow()
    {
        using pcl::ui::ColorScheme;
        struct StandardAfter {
            ~StandardAfter() { pcl::ui::setColorScheme(ColorScheme::Standard); }
        } restore;
        pcl::ui::setColorScheme(ColorScheme::Standard);
        CompareWindow w;
        w.setAttribute(Qt::WA_DeleteOnClose, false);
        w.setScenarios(shortPreset(QStringLiteral("2002-global-hash-lock")),
            shortPreset(QStringLiteral("2002-radix-tree-per-file")));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QColor standard[2] = { pcl::ui::colors::series(0), pcl::ui::colors::series(1) };
        // Switched while the window is open (View > Colours in the main
        // window): the lines and the columns' swatches take the new colours.
        pcl::ui::setColorScheme(ColorScheme::ColorBlindSafe);
        for (int side = 0; side < 2; ++side) {
            const QColor safe = pcl::ui::colors::series(side);
            QVERIFY(safe != standard[side]);
            for (int i = 0; i < w.chartCount(); ++i)
                QCOMPARE(w.chart(i)->line(side)->pen().color(), safe);
            QCOMPARE(w.column(side)->colour(), safe);
            auto* header = w.column(side)->findChild<QLabel*>(QStringLiteral("compareHeader"));
            QVERIFY(header);
            QVERIFY2(header->text().contains(safe.name()), qPrintable(header->text()));
            // Drawn so: the swatch's colour is on screen, the old one gone.
            const QImage image = header->grab().toImage();
            int now = 0, before = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    now += image.pixelColor(x, y) == safe;
                    before += image.pixelColor(x, y) == standard[side];
                }
            QVERIFY2(now >= 20 && before == 0, qPrintable(QStringLiteral("%1 %2").arg(now).arg(before)));
        }
        pcl::ui::setColorScheme(ColorScheme::Standard);
        QCOMPARE(w.chart(0)->line(1)->pen().color(), standard[1]);
        QCOMPARE(w.column(1)->colour(), standard[1]);
    }

    void realComparisonSideBySide()
    {
        CompareWindow w;
        w.setAttribute(Qt::WA_DeleteOnClose, false);
        w.setScenarios(shortPreset(QStringLiteral("2002-global-hash-lock")),
            shortPreset(QStringLiteral("2002-radix-tree-per-file")));
        QCOMPARE(w.left().scenario().engine.workload.operations_per_cpu, kOpsPerCpu);
        w.show();
        w.startBoth();
        QCOMPARE(w.left().state(), Simulation::State::Running);
        QCOMPARE(w.right().state(), Simulation::State::Running);
        QTRY_VERIFY_WITH_TIMEOUT(w.bothEnded(), 30000);
        QCOMPARE(w.left().state(), Simulation::State::Finished);
        QCOMPARE(w.right().state(), Simulation::State::Finished);
        QCOMPARE(w.left().engine()->operations(), 4 * kOpsPerCpu);
        QCOMPARE(w.right().engine()->operations(), 4 * kOpsPerCpu);

        // The summary is the Simulations' own figures: all operations over
        // the running time (the last sample is taken when a run ends).
        const double timeA = w.left().samples().back().time_s;
        const double timeB = w.right().samples().back().time_s;
        QVERIFY(std::abs(timeA - w.left().elapsedSeconds()) < 0.01);
        const double expected
            = (double(w.right().engine()->operations()) / timeB) / (double(w.left().engine()->operations()) / timeA);
        QVERIFY(w.summary().throughputRatio().has_value());
        QVERIFY(qFuzzyCompare(*w.summary().throughputRatio(), expected));
        QVERIFY(w.summaryText().contains(ComparisonSummary::ratioText(expected)));

        // The summary's contentions are every lock class's, summed.
        qInfo().noquote() << w.summaryText();
        for (int side = 0; side < 2; ++side) {
            const Simulation& sim = side == 0 ? w.left() : w.right();
            std::uint64_t sum = 0;
            for (const LockStatRow& r : sim.registry()->classes())
                sum += r.contentions;
            QCOMPARE(side == 0 ? w.summary().a.contentions : w.summary().b.contentions, sum);
        }
        // One global lock for four files contends; a tree per file, each
        // read by one CPU, never does (Torvalds' argument in the 2002 thread): its lock is only
        // ever taken by that one CPU. (Both runs also allocate pages under
        // the zone lock while the cache fills, which may contend in either.)
        QCOMPARE(treeLockContentions(w.right()), std::uint64_t(0));
        QVERIFY2(
            classContentions(w.left(), "pagecache_lock") > treeLockContentions(w.right()), qPrintable(w.summaryText()));
        QVERIFY(w.summaryText().startsWith(QStringLiteral("B vs A: throughput ")));

        // Every sample is a point, in both colours, on every chart (the hit
        // ratio skips intervals without a lookup).
        for (int i = 0; i < w.chartCount(); ++i) {
            for (int side = 0; side < 2; ++side) {
                const Simulation& sim = side == 0 ? w.left() : w.right();
                int expectedPoints = int(sim.samples().size());
                if (i == 3) {
                    expectedPoints = 0;
                    for (const MetricsSample& s : sim.samples())
                        expectedPoints += std::isfinite(s.hit_ratio) ? 1 : 0;
                }
                QCOMPARE(w.chart(i)->pointCount(side), expectedPoints);
                QCOMPARE(w.chart(i)->line(side)->pen().color(), pcl::ui::colors::series(side));
            }
        }
        QCOMPARE(
            w.column(0)->lockTable()->rowCount(), int(CompareColumn::topLocks(w.left().registry()->locks()).size()));
        QVERIFY(w.column(0)->lockTable()->rowCount() >= 1);

        // Light and dark, as a lecture would show them.
        const QString dir = screenshotDir();
        QImage light = w.grab().toImage();
        QVERIFY(light.save(dir + QStringLiteral("/compare-light.png")));
        QVERIFY2(distinctColours(light) > 50, "the light screenshot is blank");
        w.setPalette(darkPalette());
        QCoreApplication::processEvents();
        QImage dark = w.grab().toImage();
        QVERIFY(dark.save(dir + QStringLiteral("/compare-dark.png")));
        QVERIFY2(distinctColours(dark) > 50, "the dark screenshot is blank");
        QVERIFY(dark.pixelColor(dark.width() / 2, dark.height() - 40).lightness() < 128);

        // Start both again: both built afresh and running together.
        w.startBoth();
        QCOMPARE(w.left().state(), Simulation::State::Running);
        QCOMPARE(w.right().state(), Simulation::State::Running);
        w.pauseBoth();
        QCOMPARE(w.left().state(), Simulation::State::Paused);
        QCOMPARE(w.right().state(), Simulation::State::Paused);
        w.resetBoth();
        QCOMPARE(w.left().state(), Simulation::State::Ready);
        QCOMPARE(w.chart(0)->pointCount(0), 0);
        QCOMPARE(w.chart(0)->pointCount(1), 0);
    }
};

PCL_UI_TEST(TestCompare)
#include "test_compare.moc"
