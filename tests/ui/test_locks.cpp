// The Locks view: the lock table model (exact cells for given rows, live
// updates without resets), sorting and filtering through the view's proxy,
// selection signals, CSV export, and a real run's table and screenshot.
#include "kit/colors.h"
#include "locks/locktablemodel.h"
#include "locks/lockview.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include "sim/scenario.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLocale>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using pcl::sync::LockStatRow;
using pcl::ui::LockTableModel;
using pcl::ui::LockView;
using pcl::ui::Simulation;

using namespace pcl::ui::test;

namespace {

LockStatRow row(const char* name, const char* cls, std::uint64_t acq, std::uint64_t con)
{
    LockStatRow r;
    r.name = name;
    r.lock_class = cls;
    r.acquisitions = acq;
    r.contentions = con;
    r.wait_total_ns = con * 1500;
    r.wait_max_ns = con ? 9000 : 0;
    r.hold_total_ns = acq * 2000;
    r.hold_max_ns = acq ? 12'345'678 : 0;
    r.acq_bounces = acq / 2;
    r.con_bounces = con / 2;
    return r;
}

QString cell(const QAbstractItemModel& m, int r, int c, int role = Qt::DisplayRole)
{
    return m.data(m.index(r, c), role).toString();
}

QStringList namesInViewOrder(const QAbstractItemModel& m)
{
    QStringList names;
    for (int r = 0; r < m.rowCount(); ++r)
        names << m.data(m.index(r, LockTableModel::Name), LockTableModel::SortRole).toString();
    return names;
}

/// The radix-tree pagecache thread's 2002 scenario, made short: four CPUs on one global hash lock.
pcl::Scenario globalHashLock()
{
    pcl::Scenario s = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
    s.engine.workload.operations_per_cpu = 20000;
    return s;
}

} // namespace

class TestLocks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); }

    void formatsDurationsWithReadableUnits()
    {
        QCOMPARE(LockTableModel::formatDuration(0), QStringLiteral("0 ns"));
        QCOMPARE(LockTableModel::formatDuration(850), QStringLiteral("850 ns"));
        QCOMPARE(LockTableModel::formatDuration(1500), QStringLiteral("1.50 µs"));
        QCOMPARE(LockTableModel::formatDuration(999.7), QStringLiteral("1.00 µs"));
        QCOMPARE(LockTableModel::formatDuration(25'300), QStringLiteral("25.3 µs"));
        QCOMPARE(LockTableModel::formatDuration(12'345'678), QStringLiteral("12.3 ms"));
        QCOMPARE(LockTableModel::formatDuration(2.5e9), QStringLiteral("2.50 s"));
        QCOMPARE(LockTableModel::formatPercent(26.04), QStringLiteral("26.0 %"));
        QCOMPARE(LockTableModel::formatPercent(0.04), QStringLiteral("0.04 %"));
        QCOMPARE(LockTableModel::formatPercent(0.004), QStringLiteral("<0.01 %"));
        QCOMPARE(LockTableModel::formatPercent(0), QStringLiteral("0 %"));
        QCOMPARE(LockTableModel::formatCountShort(950), QStringLiteral("950"));
        QCOMPARE(LockTableModel::formatCountShort(3'140'000), QStringLiteral("3.1 M"));
    }

    void showsExactValuesForGivenRows()
    {
        LockTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setRows({ row("pagecache_lock", "pagecache_lock", 1000, 250), row("hash_lock[1]", "hash_lock", 400, 0) });
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), int(LockTableModel::ColumnCount));

        QCOMPARE(cell(m, 0, LockTableModel::Name), QStringLiteral("pagecache_lock"));
        QCOMPARE(cell(m, 0, LockTableModel::Class), QStringLiteral("pagecache_lock"));
        QCOMPARE(cell(m, 0, LockTableModel::Acquisitions), QLocale().toString(1000));
        QCOMPARE(cell(m, 0, LockTableModel::Contentions), QStringLiteral("250"));
        QCOMPARE(cell(m, 0, LockTableModel::ContentionPercent), QStringLiteral("25.0 %"));
        QCOMPARE(m.data(m.index(0, LockTableModel::ContentionPercent), LockTableModel::SortRole).toDouble(), 25.0);
        QCOMPARE(cell(m, 0, LockTableModel::WaitTotal), QStringLiteral("375 µs"));
        QCOMPARE(m.data(m.index(0, LockTableModel::WaitTotal), LockTableModel::SortRole).toULongLong(), 375000ull);
        QCOMPARE(cell(m, 0, LockTableModel::WaitAvg), QStringLiteral("1.50 µs"));
        QCOMPARE(m.data(m.index(0, LockTableModel::WaitAvg), LockTableModel::SortRole).toDouble(), 1500.0);
        QCOMPARE(cell(m, 0, LockTableModel::WaitMax), QStringLiteral("9.00 µs"));
        QCOMPARE(cell(m, 0, LockTableModel::HoldAvg), QStringLiteral("2.00 µs"));
        QCOMPARE(cell(m, 0, LockTableModel::HoldMax), QStringLiteral("12.3 ms"));
        QCOMPARE(cell(m, 0, LockTableModel::AcqBounces), QStringLiteral("500"));
        QCOMPARE(cell(m, 0, LockTableModel::ConBounces), QStringLiteral("125"));

        // Never contended: no wait to speak of, and no heat.
        QCOMPARE(cell(m, 1, LockTableModel::WaitAvg), QStringLiteral("–"));
        QCOMPARE(cell(m, 1, LockTableModel::ContentionPercent), QStringLiteral("0 %"));
        QCOMPARE(m.data(m.index(1, 0), LockTableModel::HeatRole).toDouble(), 0.0);
        QVERIFY(!m.data(m.index(1, 0), Qt::BackgroundRole).isValid());
        // The hottest row is fully hot, and its text readable on it.
        QCOMPARE(m.data(m.index(0, 0), LockTableModel::HeatRole).toDouble(), 1.0);
        const QColor bg = m.data(m.index(0, 0), Qt::BackgroundRole).value<QColor>();
        const QColor fg = m.data(m.index(0, 0), Qt::ForegroundRole).value<QColor>();
        QVERIFY(bg.isValid() && fg.isValid());
        QVERIFY(std::abs(bg.lightness() - fg.lightness()) > 90);

        // Every column explains itself.
        for (int c = 0; c < LockTableModel::ColumnCount; ++c)
            QVERIFY(!m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        QVERIFY(m.headerData(LockTableModel::Contentions, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("had to wait")));
    }

    void updatesInPlaceAndInsertsAndRemovesByName()
    {
        LockTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);

        // Rows appear; a never-acquired one stays hidden.
        m.setRows({ row("a", "x", 10, 1), row("b", "x", 20, 2), row("idle", "x", 0, 0) });
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(inserted.count(), 1);

        // The same names with new numbers: updated in place, no reset.
        m.setRows({ row("b", "x", 40, 4), row("a", "x", 10, 1), row("idle", "x", 0, 0) });
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m.rowOf(QStringLiteral("b")), 1);
        QCOMPARE(cell(m, 1, LockTableModel::Acquisitions), QStringLiteral("40"));

        // Nothing changed: nothing signalled.
        m.setRows({ row("b", "x", 40, 4), row("a", "x", 10, 1) });
        QCOMPARE(changed.count(), 1);

        // One disappears, one appears, the idle one is taken at last.
        m.setRows({ row("b", "x", 50, 5), row("c", "y", 7, 0), row("idle", "x", 3, 0) });
        QCOMPARE(removed.count(), 1);
        QCOMPARE(inserted.count(), 2);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.rowOf(QStringLiteral("a")), -1);
        QCOMPARE(cell(m, m.rowOf(QStringLiteral("b")), LockTableModel::Contentions), QStringLiteral("5"));
        QCOMPARE(cell(m, m.rowOf(QStringLiteral("c")), LockTableModel::Class), QStringLiteral("y"));

        // Idle rows on demand.
        m.setRows({ row("b", "x", 50, 5), row("never", "x", 0, 0) });
        QCOMPARE(m.rowCount(), 1);
        m.setHideIdle(false);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(cell(m, m.rowOf(QStringLiteral("never")), LockTableModel::HoldAvg), QStringLiteral("–"));

        // A new mode starts empty, headers follow it.
        m.setMode(LockTableModel::Mode::PerClass);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.headerData(LockTableModel::Name, Qt::Horizontal).toString(), QStringLiteral("Class"));
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void sortsByContentionsAndFilters()
    {
        Simulation sim;
        LockView view(sim);
        view.model()->setRows({ row("mapping[0].tree_lock", "mapping.tree_lock", 100, 10),
            row("pagecache_lock", "pagecache_lock", 1000, 300),
            row("mapping[1].tree_lock", "mapping.tree_lock", 90, 40),
            row("page_table_lock", "mm.page_table_lock", 50, 0) });
        const QAbstractItemModel& shown = *view.proxy();
        // Default: most contended first.
        QCOMPARE(namesInViewOrder(shown),
            QStringList({ "pagecache_lock", "mapping[1].tree_lock", "mapping[0].tree_lock", "page_table_lock" }));
        // Numbers sort as numbers, not as their text ("90" after "100").
        view.table()->sortByColumn(LockTableModel::Acquisitions, Qt::AscendingOrder);
        QCOMPARE(namesInViewOrder(shown),
            QStringList({ "page_table_lock", "mapping[1].tree_lock", "mapping[0].tree_lock", "pagecache_lock" }));
        view.table()->sortByColumn(LockTableModel::Contentions, Qt::DescendingOrder);
        // A live update re-sorts.
        view.model()->setRows({ row("mapping[0].tree_lock", "mapping.tree_lock", 100, 500),
            row("pagecache_lock", "pagecache_lock", 1000, 300),
            row("mapping[1].tree_lock", "mapping.tree_lock", 90, 40),
            row("page_table_lock", "mm.page_table_lock", 50, 0) });
        QCOMPARE(namesInViewOrder(shown).first(), QStringLiteral("mapping[0].tree_lock"));

        // Filter on name and class, any case.
        view.setFilterText(QStringLiteral("TREE"));
        QCOMPARE(namesInViewOrder(shown), QStringList({ "mapping[0].tree_lock", "mapping[1].tree_lock" }));
        view.setFilterText(QStringLiteral("mm."));
        QCOMPARE(namesInViewOrder(shown), QStringList({ "page_table_lock" }));
        QVERIFY(view.summaryText().contains(QStringLiteral("1 of 4 shown")));
        view.setFilterText(QString());
        QCOMPARE(shown.rowCount(), 4);
        QVERIFY(view.summaryText().isEmpty() || view.summaryText().contains(QStringLiteral("4 locks")));
    }

    void selectionIsSignalledAndCanBeSet()
    {
        Simulation sim;
        LockView view(sim);
        view.model()->setRows(
            { row("a_lock", "x", 100, 10), row("b_lock", "x", 100, 50), row("c_lock", "y", 100, 30) });
        QSignalSpy selected(&view, &LockView::lockSelected);

        view.table()->selectRow(0); // the most contended: b_lock
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.last().first().toString(), QStringLiteral("b_lock"));

        // Selection survives a live update that re-sorts the rows.
        view.model()->setRows(
            { row("a_lock", "x", 100, 90), row("b_lock", "x", 100, 50), row("c_lock", "y", 100, 30) });
        QCOMPARE(view.selectedLock(), QStringLiteral("b_lock"));
        QCOMPARE(selected.count(), 1);

        // Another view names a lock: selected, not echoed back.
        view.selectLock(QStringLiteral("c_lock"));
        QCOMPARE(view.selectedLock(), QStringLiteral("c_lock"));
        QCOMPARE(selected.count(), 1);
        view.selectLock(QStringLiteral("no_such_lock"));
        QCOMPARE(view.selectedLock(), QString());

        view.table()->selectRow(1);
        QCOMPARE(selected.count(), 2);
        view.table()->clearSelection();
        QCOMPARE(selected.count(), 3);
        QCOMPARE(selected.last().first().toString(), QString());

        // The selected lock disappears: a deselect.
        view.table()->selectRow(
            view.proxy()->mapFromSource(view.model()->index(view.model()->rowOf("c_lock"), 0)).row());
        QCOMPARE(selected.last().first().toString(), QStringLiteral("c_lock"));
        view.model()->setRows({ row("a_lock", "x", 100, 90), row("b_lock", "x", 100, 50) });
        QCOMPARE(selected.last().first().toString(), QString());
    }

    void theHottestLockIsTheOneCpusWaitedForLongest()
    {
        // What a class should see first is the lock CPUs lost the most time
        // queueing for: not a lock taken 16 times of which 12 waited (75 %),
        // nor one contended more often for a microsecond each time.
        Simulation sim;
        LockView view(sim);
        LockStatRow zone = row("zone.lock", "zone.lock", 16, 12);
        zone.wait_total_ns = 12 * 900;
        LockStatRow lru = row("zone.lru_lock", "zone.lru_lock", 4000, 80);
        lru.wait_total_ns = 80 * 1000;
        LockStatRow global = row("pagecache_lock", "pagecache_lock", 4200, 54);
        global.wait_total_ns = 1'800'000'000;
        view.model()->setRows({ zone, lru, global, row("hash_lock", "hash_lock", 900, 0) });
        const LockTableModel& m = *view.model();
        auto heat = [&](const char* name) {
            return m.data(m.index(m.rowOf(QLatin1String(name)), 0), LockTableModel::HeatRole).toDouble();
        };
        QCOMPARE(heat("pagecache_lock"), 1.0);
        QVERIFY(heat("zone.lock") < heat("zone.lru_lock"));
        QVERIFY(heat("zone.lru_lock") < 0.01);
        QCOMPARE(heat("hash_lock"), 0.0);
        view.setFilterText(QString()); // the summary is written as the view updates it
        QVERIFY2(view.summaryText().contains(QStringLiteral("hottest: pagecache_lock (CPUs waited 1.80 s for it, "
                                                            "over 54 contentions)")),
            qPrintable(view.summaryText()));
        // The reddest row first.
        QCOMPARE(namesInViewOrder(*view.proxy()),
            QStringList({ "pagecache_lock", "zone.lru_lock", "zone.lock", "hash_lock" }));

        // Damped by what the waits cost the run: 1.8 s of waiting in 4 CPUs
        // x 0.7 s is fully hot; the same in 4 CPUs x 100 s (0.45 %) is not red.
        view.model()->setCpuTimeNs(4 * 0.7e9);
        QCOMPARE(heat("pagecache_lock"), 1.0);
        view.model()->setCpuTimeNs(4 * 100e9);
        QVERIFY(std::abs(heat("pagecache_lock") - (0.3 + 0.7 * (1.8 / 400) / 0.05)) < 1e-9);
    }

    void aLockNamedByALessonIsShownContendedNotSelected()
    {
        Simulation sim;
        LockView view(sim);
        view.resize(1100, 300);
        view.show(); // before the rows: showing reads the (empty) registry
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.model()->setRows({ row("zone.lock", "zone.lock", 16, 12), row("pagecache_lock", "pagecache_lock", 400, 60),
            row("hash_lock", "hash_lock", 900, 0) });
        QTableView& table = *view.table();
        const LockTableModel& m = *view.model();
        // The style draws the selection in the active or the inactive
        // group's highlight, as the window has the focus or not.
        auto isSelection = [&](QRgb c) {
            return c == table.palette().color(QPalette::Active, QPalette::Highlight).rgb()
                || c == table.palette().color(QPalette::Inactive, QPalette::Highlight).rgb();
        };
        // Inside a row, left of a number (numbers are right-aligned), past the frame.
        auto pixelOf = [&](const QString& name) {
            const QModelIndex at = view.proxy()->mapFromSource(m.index(m.rowOf(name), LockTableModel::Acquisitions));
            const QRect r = table.visualRect(at);
            return QColor(table.viewport()->grab().toImage().pixel(r.left() + 4, r.center().y())).rgb();
        };

        // A step names pagecache_lock: selected (the other views follow
        // it), drawn in its contention shade, bold.
        view.selectLock(QStringLiteral("pagecache_lock"));
        QCOMPARE(view.selectedLock(), QStringLiteral("pagecache_lock"));
        const QModelIndex named = m.index(m.rowOf(QStringLiteral("pagecache_lock")), 0);
        QVERIFY(m.data(named, LockTableModel::HighlightRole).toBool());
        QVERIFY(m.data(named, Qt::FontRole).value<QFont>().bold());
        const QColor shade = m.data(named, Qt::BackgroundRole).value<QColor>();
        QCOMPARE(shade, pcl::ui::colors::heat(1.0, view.palette()));
        QCOMPARE(pixelOf(QStringLiteral("pagecache_lock")), shade.rgb());
        QVERIFY(!isSelection(shade.rgb()));
        // Its shade is the contended end of the scale: redder than it is green or blue.
        QVERIFY(shade.red() > shade.green() + 40 && shade.red() > shade.blue() + 40);
        // Framed in the text colour at the row's top.
        {
            const QModelIndex at = view.proxy()->mapFromSource(
                m.index(m.rowOf(QStringLiteral("pagecache_lock")), LockTableModel::Contentions));
            const QRect r = table.visualRect(at);
            QCOMPARE(table.viewport()->grab().toImage().pixel(r.left() + 4, r.top()),
                table.palette().color(QPalette::Text).rgb());
        }
        // Rows nobody pointed at are not marked.
        QVERIFY(!m.data(m.index(m.rowOf(QStringLiteral("zone.lock")), 0), LockTableModel::HighlightRole).toBool());

        // The user picks another row: the usual selection colour, and the
        // mark goes.
        table.selectRow(view.proxy()->mapFromSource(m.index(m.rowOf(QStringLiteral("hash_lock")), 0)).row());
        QCOMPARE(view.selectedLock(), QStringLiteral("hash_lock"));
        QVERIFY(!m.data(named, LockTableModel::HighlightRole).toBool());
        QVERIFY(isSelection(pixelOf(QStringLiteral("hash_lock"))));
        QCOMPARE(pixelOf(QStringLiteral("pagecache_lock")), shade.rgb());
        QVERIFY(view.grab().toImage().save(screenshotDir() + QStringLiteral("/locks-user-selected.png")));

        // Named again, then cleared.
        view.selectLock(QStringLiteral("pagecache_lock"));
        QCOMPARE(pixelOf(QStringLiteral("pagecache_lock")), shade.rgb());
        QVERIFY(view.grab().toImage().save(screenshotDir() + QStringLiteral("/locks-lesson-named.png")));
        view.selectLock(QString());
        QVERIFY(!m.data(named, LockTableModel::HighlightRole).toBool());
        QCOMPARE(view.selectedLock(), QString());
    }

    void exportsTheRowsShownAsCsv()
    {
        Simulation sim;
        LockView view(sim);
        view.model()->setRows({ row("a_lock", "x", 100, 10), row("b,lock", "x", 200, 50) });
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("locks.csv"));
        QString error;
        QVERIFY2(view.exportCsv(path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QChar('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
            QStringLiteral("name,class,acquisitions,contentions,contention_percent,wait_total_ns,wait_avg_ns,"
                           "wait_max_ns,hold_avg_ns,hold_max_ns,acq_bounces,con_bounces"));
        QCOMPARE(lines[1], QStringLiteral("\"b,lock\",x,200,50,25.000,75000,1500.0,9000,2000.0,12345678,100,25"));
        QVERIFY(!view.exportCsv(dir.filePath(QStringLiteral("no/such/dir/x.csv"))));
    }

    void showsARealRunsLocks()
    {
        Simulation sim;
        LockView view(sim);
        view.resize(1100, 420);
        sim.setScenario(globalHashLock());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        view.refresh();

        std::uint64_t expected = 0;
        bool found = false;
        for (const auto& r : sim.registry()->locks())
            if (r.name == "pagecache_lock") {
                expected = r.contentions;
                found = true;
            }
        QVERIFY(found);
        const int at = view.model()->rowOf(QStringLiteral("pagecache_lock"));
        QVERIFY(at >= 0);
        QCOMPARE(view.model()->rowAt(at).contentions, expected);
        QCOMPARE(view.model()
                     ->data(view.model()->index(at, LockTableModel::Contentions), LockTableModel::SortRole)
                     .toULongLong(),
            qulonglong(expected));
        QVERIFY(view.summaryText().contains(QStringLiteral("lock")));

        // Per class, the class row holds at least that lock's counts.
        view.setMode(LockTableModel::Mode::PerClass);
        const int cls = view.model()->rowOf(QStringLiteral("pagecache_lock"));
        QVERIFY(cls >= 0);
        QVERIFY(view.model()->rowAt(cls).contentions >= expected);
        view.setMode(LockTableModel::Mode::PerLock);

        // A new run empties the table.
        sim.reset();
        QCOMPARE(view.model()->rowCount(), 0);
    }

    void updatesLiveAtMostFiveTimesASecond()
    {
        Simulation sim;
        LockView view(sim);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        pcl::Scenario s = globalHashLock();
        s.engine.workload.operations_per_cpu = 1'000'000;
        s.engine.ops_per_second = 3000; // paced: the run outlasts the test
        sim.setScenario(s);
        QSignalSpy changed(view.model(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(view.model(), &QAbstractItemModel::rowsInserted);
        QElapsedTimer since_play;
        since_play.start();
        sim.play();
        // Live: the table changes while the run goes on.
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 3, 10000);
        QVERIFY(view.model()->rowOf(QStringLiteral("pagecache_lock")) >= 0);
        // Throttled: however long that took on this machine, no more
        // refreshes than the rate allows in that time (the first may come
        // at once).
        const double seconds = double(since_play.elapsed()) / 1000.0;
        QVERIFY(double(changed.count() + inserted.count()) <= LockView::kRefreshPerSecond * seconds + 2);
        QCOMPARE(view.model()->rowCount() > 0, view.table()->isVisible());

        // Paused: the table shows the counts at the pause, exactly, once
        // every CPU has finished the operation it was in.
        sim.pause();
        QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->held_since().has_value(), 10000);
        view.refresh();
        for (const auto& r : sim.registry()->locks())
            if (r.name == "pagecache_lock")
                QCOMPARE(view.model()->rowAt(view.model()->rowOf(QStringLiteral("pagecache_lock"))).acquisitions,
                    r.acquisitions);
    }

    void emptyStateSaysWhatToDo()
    {
        Simulation sim;
        LockView view(sim);
        view.resize(900, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.table()->isVisible());
        QVERIFY(view.summaryText().isEmpty());
        sim.setScenario(globalHashLock());
        QVERIFY(!view.table()->isVisible()); // ready, nothing taken yet
        const QImage image = view.grab().toImage();
        QVERIFY(distinctColours(image) > 4);
        const QString dir = screenshotDir();
        QVERIFY(image.save(dir + QStringLiteral("/locks-empty.png")));
        sim.step(50);
        QTRY_VERIFY_WITH_TIMEOUT(view.table()->isVisible(), 5000);
    }

    void screenshotIsNotBlank_data() { addThemeRows(); }

    void screenshotIsNotBlank()
    {
        QFETCH(bool, dark);
        Simulation sim;
        LockView view(sim);
        if (dark)
            view.setPalette(darkPalette());
        view.resize(1240, 420);
        // 2.4's hash table with its lock split into sixteen (the "scalable
        // page cache" patches): rows of every heat.
        pcl::Scenario s = globalHashLock();
        s.engine.index.scheme = "hashed";
        s.engine.index.hash_locks = 16;
        s.engine.workload.operations_per_cpu = 20000;
        s.engine.hold_stretch_ns = 1000; // the demo setting: contention a class can see
        sim.setScenario(s);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        view.show();
        view.refresh();
        view.setMode(LockTableModel::Mode::PerClass);
        view.setMode(LockTableModel::Mode::PerLock);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.table()->selectRow(2);
        const QImage image = view.grab().toImage();
        QVERIFY(distinctColours(image) > 40);
        const QString dir = screenshotDir();
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        QVERIFY(image.save(dir + QStringLiteral("/locks-%1.png").arg(theme)));

        // Per class, in a narrow dock.
        view.setMode(LockTableModel::Mode::PerClass);
        view.resize(640, 300);
        QCoreApplication::processEvents();
        const QImage classes = view.grab().toImage();
        QVERIFY(distinctColours(classes) > 40);
        QVERIFY(classes.save(dir + QStringLiteral("/locks-classes-%1.png").arg(theme)));
    }
};

PCL_UI_TEST(TestLocks)
#include "test_locks.moc"
