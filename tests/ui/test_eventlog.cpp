// The Log view: events in words, lock waits paired across CPUs, a bounded
// model, its filters, and a real run told as sentences.
#include "event_support.h"
#include "log/eventlogmodel.h"
#include "log/eventlogview.h"
#include "log/eventtext.h"
#include "mm/fault.h"
#include "run/simulation.h"
#include "sim/scenario.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

// Names from pcl one by one: a using-directive here would reach the files
// compiled after this one in its batch (tests/ui/CMakeLists.txt).
using pcl::Event;
using pcl::EventKind;
using pcl::FaultKind;
using pcl::kAnonymousFile;
using pcl::load_scenario;
using pcl::Scenario;
using namespace pcl::ui;

using namespace pcl::ui::test;

namespace {

/// Lock records name their lock by registry number (index); the tests'
/// registry is this table.
QString testLockName(const Event& e)
{
    switch (e.index) {
    case 1:
        return QStringLiteral("mapping[0].tree_lock");
    case 2:
        return QStringLiteral("pagecache_lock");
    default:
        return {};
    }
}

constexpr std::uint64_t kLockA = 0x1000; // the tree_lock's address
constexpr std::uint64_t kLockB = 0x2000; // pagecache_lock's

Event lockEv(EventKind kind, std::uint16_t cpu, std::uint64_t t, std::uint64_t lock, std::int64_t arg0 = 0)
{
    return eventAt(kind, cpu, t, lock, 0, lock == kLockA ? 1 : 2, arg0, 0);
}

QStringList texts(const EventLogModel& m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, EventLogModel::TextColumn).data().toString();
    return out;
}

/// The 2002 global-hash-lock scenario at demo size: four CPUs, a few
/// hundred operations, paced so every lock acquisition is recorded and
/// stretched so they contend.
Scenario smallGlobalHash()
{
    Scenario s = load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
    s.engine.workload.operations_per_cpu = 150;
    s.engine.workload.file_pages = 512;
    s.engine.memory_pages = 8192;
    s.engine.ops_per_second = 800;
    s.engine.hold_stretch_ns = 200'000;
    s.engine.device = { 20'000, 2'000, 1.0 };
    s.sample_interval_ms = 50;
    return s;
}

} // namespace

class TestEventLog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void durationsHaveReadableUnits()
    {
        QCOMPARE(formatDuration(850), QStringLiteral("850 ns"));
        QCOMPARE(formatDuration(12'340), QStringLiteral("12.3 µs"));
        QCOMPARE(formatDuration(210'000), QStringLiteral("210 µs"));
        QCOMPARE(formatDuration(999'900), QStringLiteral("1.00 ms"));
        QCOMPARE(formatDuration(1'310'000), QStringLiteral("1.31 ms"));
        QCOMPARE(formatDuration(2'000'000'000), QStringLiteral("2.00 s"));
        QCOMPARE(formatDuration(125'000'000'000), QStringLiteral("125 s"));
        QCOMPARE(formatRunTime(12'345'678'123), QStringLiteral("12.345 678 s"));
        QCOMPARE(formatRunTime(0), QStringLiteral("0.000 000 s"));
        QCOMPARE(formatRunTime(1'000'050'000), QStringLiteral("1.000 050 s"));
        QCOMPARE(formatRunTime(-12'000), QStringLiteral("-0.000 012 s"));
    }

    void everyKindInWords()
    {
        const EventText t(testLockName, pcl::IndexKind::Radix);
        QCOMPARE(t.sentence(lockEv(EventKind::LockAcquired, 2, 0, kLockA, 1'310'000), 0),
            QStringLiteral("CPU 2 waited 1.31 ms for mapping[0].tree_lock, held by CPU 0"));
        QCOMPARE(t.sentence(lockEv(EventKind::LockAcquired, 2, 0, kLockA, 1'310'000)),
            QStringLiteral("CPU 2 waited 1.31 ms for mapping[0].tree_lock"));
        QCOMPARE(
            t.sentence(lockEv(EventKind::LockAcquired, 3, 0, kLockB, 0)), QStringLiteral("CPU 3 took pagecache_lock"));
        QCOMPARE(t.sentence(lockEv(EventKind::LockWaitBegin, 1, 0, kLockB, 3)),
            QStringLiteral("CPU 1 started waiting for pagecache_lock, held by CPU 3"));
        QCOMPARE(t.sentence(lockEv(EventKind::LockReleased, 3, 0, kLockB, 45'600)),
            QStringLiteral("CPU 3 released pagecache_lock after holding it 45.6 µs"));
        QCOMPARE(t.sentence(eventAt(EventKind::LockAcquired, 0, 0, 0x3000, 0, 9, 0, 4)),
            QStringLiteral("CPU 0 took lock #9")); // a name the registry does not know

        QCOMPARE(t.sentence(eventAt(EventKind::PageLockWoken, 1, 0, 0xabc, 0, 1234, 2'000'000)),
            QStringLiteral("CPU 1 slept 2.00 ms on page 1234 of file 0 (locked: under I/O)"));
        QCOMPARE(t.sentence(eventAt(EventKind::PageLockWait, 1, 0, 0xabc, 0, 1234)),
            QStringLiteral("CPU 1 went to sleep on page 1234 of file 0 (locked: under I/O)"));

        QCOMPARE(t.sentence(eventAt(EventKind::FaultEnd, 3, 0, 5077, 0, 77, 210'000, int(FaultKind::Major))),
            QStringLiteral("CPU 3: major fault on file 0 page 77 (210 µs)"));
        QCOMPARE(t.sentence(eventAt(EventKind::FaultEnd, 0, 0, 5077, 1, 77, 1'500'000, int(FaultKind::WaitIo))),
            QStringLiteral("CPU 0: wait_io fault on file 1 page 77 (1.50 ms)"));
        QCOMPARE(t.sentence(eventAt(EventKind::FaultEnd, 2, 0, 90001, kAnonymousFile, 0, 15'000, int(FaultKind::Anon))),
            QStringLiteral("CPU 2: anon fault on anonymous page at virtual page 90001 (15.0 µs)"));
        QCOMPARE(t.sentence(eventAt(EventKind::FaultBegin, 2, 0, 5077, 0, 77)),
            QStringLiteral("CPU 2: fault began on file 0 page 77"));

        QCOMPARE(t.sentence(eventAt(EventKind::IoSubmit, 2, 0, 17, 0, 64, 8)),
            QStringLiteral("disk: read of 8 pages from file 0 page 64 submitted by CPU 2"));
        QCOMPARE(t.sentence(eventAt(EventKind::IoSubmit, 2, 0, 18, 0, 5, 1)),
            QStringLiteral("disk: read of 1 page from file 0 page 5 submitted by CPU 2"));
        QCOMPARE(t.sentence(eventAt(EventKind::IoComplete, 4, 0, 17, 0, 64, 8)),
            QStringLiteral("disk: request 17 done (8 pages)"));
        QCOMPARE(t.actor(eventAt(EventKind::IoComplete, 4, 0)), QStringLiteral("disk"));
        QCOMPARE(t.actor(eventAt(EventKind::IoSubmit, 2, 0)), QStringLiteral("CPU 2"));
        // With the run's lanes known: 4 CPUs, one disk (lane 4, where its
        // flusher records too), kswapd after it.
        const EventText lanes({}, pcl::IndexKind::Radix, 4, 1);
        QCOMPARE(lanes.actor(eventAt(EventKind::IoSubmit, 2, 0)), QStringLiteral("CPU 2"));
        QCOMPARE(lanes.actor(eventAt(EventKind::IoComplete, 4, 0)), QStringLiteral("disk"));
        QCOMPARE(lanes.actor(eventAt(EventKind::IoSubmit, 4, 0)), QStringLiteral("flusher"));
        QCOMPARE(lanes.actor(eventAt(EventKind::PageEvicted, 5, 0)), QStringLiteral("kswapd"));
        QCOMPARE(EventText({}, pcl::IndexKind::Radix, 4, 2).actor(eventAt(EventKind::IoSubmit, 5, 0)),
            QStringLiteral("flusher of disk 1"));

        // The indexes' structural changes and the readahead windows, one
        // sentence each.
        const std::pair<Event, const char*> kStructureSentences[] = {
            { eventAt(EventKind::IndexHeightGrow, 0, 0, 0xfe, 0, 4096, 3, 2), "file 0: radix tree grew to height 3" },
            { eventAt(EventKind::IndexHeightShrink, 0, 0, 0xfe, 2, 0, 1, 0), "file 2: radix tree shrank to height 1" },
            { eventAt(EventKind::IndexNodeAlloc, 0, 0, 0xfe, 0, 77, 0, 1),
                "file 0: node allocated at level 1 (page 77)" },
            { eventAt(EventKind::IndexNodeFree, 0, 0, 0xfe, 0, 77, 0, 0), "file 0: node freed at level 0 (page 77)" },
            { eventAt(EventKind::IndexTagSet, 0, 0, 0xfe, 0, 77, 0, 1), "file 0: dirty tag set at level 1 (page 77)" },
            { eventAt(EventKind::IndexTagClear, 0, 0, 0xfe, 0, 77, 1, 0),
                "file 0: writeback tag cleared at level 0 (page 77)" },
            { eventAt(EventKind::IndexChainLength, 0, 0, 811, 3, 77, 4),
                "hash bucket 811: chain now 4 entries long (file 3 page 77)" },
            { eventAt(EventKind::ReadaheadWindow, 0, 0, 0, 0, 128, 32, 8),
                "file 0: readahead window [128, +32) async 8 (synchronous)" },
            { eventAt(EventKind::ReadaheadWindow, 0, 0, 1, 0, 160, 64, 64),
                "file 0: readahead window [160, +64) async 64 (asynchronous: marker hit)" },
        };
        for (const auto& [event, sentence] : kStructureSentences)
            QCOMPARE(t.sentence(event), QString::fromUtf8(sentence));

        const EventText skip({}, pcl::IndexKind::SkipList);
        QCOMPARE(skip.sentence(eventAt(EventKind::IndexNodeAlloc, 0, 0, 0xfe, 0, 77, 0, 3)),
            QStringLiteral("file 0: skip-list node with a tower of 3 linked (page 77)"));
    }

    void lockWaitsPairAcrossInterleavedCpus()
    {
        EventLogModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEventText(EventText(testLockName));
        // CPU 0 holds the tree_lock; CPUs 2 and 1 queue for it, CPU 3 waits
        // for another lock held by CPU 1 meanwhile. The second wait ends in
        // the next batch.
        m.append({
            lockEv(EventKind::LockAcquired, 0, 1'000, kLockA, 0),
            lockEv(EventKind::LockWaitBegin, 2, 2'000, kLockA, 0),
            lockEv(EventKind::LockWaitBegin, 1, 3'000, kLockA, 0),
            lockEv(EventKind::LockWaitBegin, 3, 3'500, kLockB, 1),
            lockEv(EventKind::LockReleased, 0, 1'312'000, kLockA, 1'311'000),
            lockEv(EventKind::LockAcquired, 2, 1'312'500, kLockA, 1'310'500),
            lockEv(EventKind::LockAcquired, 3, 1'400'000, kLockB, 1'396'500),
        });
        m.append({
            lockEv(EventKind::LockReleased, 2, 2'000'000, kLockA, 687'500),
            lockEv(EventKind::LockAcquired, 1, 2'001'000, kLockA, 1'998'000),
            // CPU 0 starts a wait whose end the ring lost...
            lockEv(EventKind::LockWaitBegin, 0, 2'100'000, kLockB, 3),
            // ...and later takes locks without waiting: not notable, and
            // not the end of that wait.
            lockEv(EventKind::LockAcquired, 0, 2'500'000, kLockA, 0),
            lockEv(EventKind::LockAcquired, 0, 2'600'000, kLockB, 0),
        });
        QCOMPARE(texts(m),
            QStringList({ QStringLiteral("CPU 2 waited 1.31 ms for mapping[0].tree_lock, held by CPU 0"),
                QStringLiteral("CPU 3 waited 1.40 ms for pagecache_lock, held by CPU 1"),
                QStringLiteral("CPU 1 waited 2.00 ms for mapping[0].tree_lock, held by CPU 0") }));
        QCOMPARE(m.index(0, EventLogModel::TimeColumn).data().toString(), QStringLiteral("0.001 312 s"));
        QCOMPARE(m.index(0, EventLogModel::CpuColumn).data().toString(), QStringLiteral("CPU 2"));
        QCOMPARE(m.index(0, EventLogModel::KindColumn).data().toString(), QStringLiteral("lock wait"));
        QCOMPARE(m.index(2, EventLogModel::TimeColumn).data(EventLogModel::TimeNsRole).toLongLong(), 2'000'000);

        // A new run forgets the pending waits and restarts the clock.
        m.append({ lockEv(EventKind::LockWaitBegin, 1, 3'000'000, kLockA, 2) });
        m.clear();
        QCOMPARE(m.rowCount(), 0);
        m.append({ lockEv(EventKind::LockAcquired, 1, 9'000'000, kLockA, 50'000) });
        QCOMPARE(texts(m), QStringList({ QStringLiteral("CPU 1 waited 50.0 µs for mapping[0].tree_lock") }));
        QCOMPARE(m.index(0, EventLogModel::TimeColumn).data().toString(), QStringLiteral("0.000 000 s"));
    }

    void theLogIsBounded()
    {
        EventLogModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setMaxLines(100);
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        std::uint64_t t = 0;
        auto batch = [&](int n) {
            std::vector<Event> b;
            for (int i = 0; i < n; ++i, ++t) {
                b.push_back(eventAt(EventKind::IoSubmit, 0, t * 1000, t, 0, t, 1));
                b.push_back(eventAt(EventKind::LockReleased, 0, t * 1000 + 1, kLockA, 0, 0, 5)); // not shown
            }
            return b;
        };
        m.append(batch(70));
        m.append(batch(70));
        QCOMPARE(m.rowCount(), 100);
        QCOMPARE(inserted.count(), 2); // one insertion per batch
        QCOMPARE(removed.count(), 1);
        QCOMPARE(m.index(0, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("disk: read of 1 page from file 0 page 40 submitted by CPU 0"));
        QCOMPARE(m.index(99, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("disk: read of 1 page from file 0 page 139 submitted by CPU 0"));
        // A batch larger than the log: only its newest are formatted.
        m.append(batch(250));
        QCOMPARE(m.rowCount(), 100);
        QCOMPARE(m.skipped(), std::uint64_t(150));
        QCOMPARE(m.index(0, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("disk: read of 1 page from file 0 page 290 submitted by CPU 0"));
        m.setMaxLines(10);
        QCOMPARE(m.rowCount(), 10);
        QCOMPARE(m.index(0, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("disk: read of 1 page from file 0 page 380 submitted by CPU 0"));
    }

    void aFullTickStaysCheap()
    {
        // The most a tick brings (Simulation::kMaxEventsPerTick), all of a
        // shown kind, arriving on a full log.
        EventLogModel m;
        m.setEventText(EventText(testLockName));
        std::vector<Event> b;
        for (std::uint64_t i = 0; i < Simulation::kMaxEventsPerTick / 2; ++i) {
            b.push_back(lockEv(EventKind::LockWaitBegin, std::uint16_t(i % 4), i * 100, kLockA, std::int64_t(i % 3)));
            b.push_back(lockEv(EventKind::LockAcquired, std::uint16_t(i % 4), i * 100 + 50, kLockA, 50'000));
        }
        m.append(b);
        QElapsedTimer timer;
        timer.start();
        m.append(b);
        const qint64 ms = timer.elapsed();
        qInfo("a tick of %zu events took %lld ms", b.size(), ms);
        QCOMPARE(m.rowCount(), 2 * EventLogModel::kMaxLinesPerBatch);
        QCOMPARE(m.skipped(), std::uint64_t(2 * (b.size() / 2 - EventLogModel::kMaxLinesPerBatch)));
        QCOMPARE(m.index(m.rowCount() - 1, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("CPU 3 waited 50.0 µs for mapping[0].tree_lock, held by CPU 0"));
        QVERIFY2(ms < 100, "a tick must stay short");
    }

    void filtersByKindAndText()
    {
        EventLogModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setEventText(EventText(testLockName));
        const std::vector<Event> events = {
            lockEv(EventKind::LockWaitBegin, 2, 100, kLockA, 0),
            lockEv(EventKind::LockAcquired, 2, 200, kLockA, 100),
            lockEv(EventKind::LockAcquired, 1, 300, kLockB, 0),
            eventAt(EventKind::FaultEnd, 1, 400, 7, 0, 7, 20'000, int(FaultKind::Minor)),
            eventAt(EventKind::FaultEnd, 2, 500, 8, 0, 8, 300'000, int(FaultKind::Major)),
            eventAt(EventKind::IndexNodeAlloc, 2, 600, 0xfe, 0, 8, 0, 0),
            eventAt(EventKind::IndexHeightGrow, 2, 700, 0xfe, 0, 8, 2, 1),
        };
        m.append(events);
        QCOMPARE(texts(m),
            QStringList({ QStringLiteral("CPU 2 waited 100 ns for mapping[0].tree_lock, held by CPU 0"),
                QStringLiteral("CPU 2: major fault on file 0 page 8 (300 µs)"),
                QStringLiteral("file 0: radix tree grew to height 2") }));

        m.clear();
        m.setKinds(kAllLineKinds);
        m.append(events);
        QCOMPARE(m.rowCount(), 7);
        QCOMPARE(m.index(0, EventLogModel::TextColumn).data().toString(),
            QStringLiteral("CPU 2 started waiting for mapping[0].tree_lock, held by CPU 0"));

        m.setTextFilter(QStringLiteral("TREE_LOCK"));
        QCOMPARE(m.rowCount(), 2);
        m.setTextFilter(QStringLiteral("CPU 1"));
        QCOMPARE(texts(m),
            QStringList({ QStringLiteral("CPU 1 took pagecache_lock"),
                QStringLiteral("CPU 1: minor fault on file 0 page 7 (20.0 µs)") }));
        m.setTextFilter(QString());
        QCOMPARE(m.rowCount(), 7); // the text filter hides, it does not forget

        // A kind switched off goes at once; the text filter still applies.
        m.setKinds(kAllLineKinds & ~lineKindBit(LineKind::LockWaitBegin) & ~lineKindBit(LineKind::LockAcquire));
        QCOMPARE(m.rowCount(), 5);
        m.setTextFilter(QStringLiteral("file 0"));
        QCOMPARE(m.rowCount(), 4);
        // New lines go through both filters.
        m.append(
            { eventAt(EventKind::IoSubmit, 3, 800, 1, 0, 9, 2), eventAt(EventKind::IoSubmit, 3, 900, 2, 1, 9, 2) });
        QCOMPARE(m.rowCount(), 5);
        QCOMPARE(m.keptLines(), 7);
    }

    void exportsAsTextAndCsv()
    {
        EventLogModel m;
        m.setEventText(EventText(testLockName));
        m.append({ eventAt(EventKind::IoSubmit, 2, 1'000, 17, 0, 64, 8),
            eventAt(EventKind::ReadaheadWindow, 2, 1'501'000, 0, 0, 128, 32, 8) });
        QCOMPARE(m.rowsAsText(m.allRows()),
            QStringLiteral(
                "0.000 000 s\tCPU 2\tI/O submit\tdisk: read of 8 pages from file 0 page 64 submitted by CPU 2\n"
                "0.001 500 s\tCPU 2\treadahead\tfile 0: readahead window [128, +32) async 8 (synchronous)\n"));
        QCOMPARE(m.rowsAsCsv({ 1 }),
            QStringLiteral(
                "time_s,cpu,kind,text\n"
                "0.001500000,CPU 2,readahead,\"file 0: readahead window [128, +32) async 8 (synchronous)\"\n"));
    }

    void aRealRunMentionsPagecacheLock()
    {
        Simulation sim;
        EventLogView view(sim);
        QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        sim.setScenario(smallGlobalHash());
        QVERIFY(view.counterText().startsWith(QStringLiteral("shown 0 · recorded 0 · dropped 0")));
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.state() == Simulation::State::Finished, 20000);
        QCOMPARE(sim.eventsDropped(), std::uint64_t(0));
        QVERIFY(view.model()->rowCount() > 0);
        int waits = 0;
        for (const QString& s : texts(*view.model()))
            if (s.contains(QStringLiteral("for pagecache_lock, held by CPU ")))
                ++waits;
        QVERIFY2(waits > 0, "no pagecache_lock wait in the log");
        QVERIFY(view.counterText().contains(QStringLiteral("dropped 0")));

        // Export, atomically, and read it back.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("log.csv"));
        QVERIFY(view.exportTo(path, EventLogView::ExportFormat::Csv));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(f.readAll());
        QVERIFY(csv.startsWith(QStringLiteral("time_s,cpu,kind,text\n")));
        QCOMPARE(csv.count(QLatin1Char('\n')), view.model()->rowCount() + 1);
        QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("no/such/dir/log.txt")), EventLogView::ExportFormat::Text));

        // A new run clears the log.
        sim.reset();
        QCOMPARE(view.model()->rowCount(), 0);
    }

    void followStopsWhenScrolledUp()
    {
        Simulation sim;
        EventLogView view(sim);
        view.resize(900, 300);
        view.show();
        view.model()->setKinds(kAllLineKinds);
        std::vector<Event> b;
        for (std::uint64_t i = 0; i < 500; ++i)
            b.push_back(eventAt(EventKind::IoSubmit, 0, i * 1000, i, 0, i, 1));
        Q_EMIT sim.eventsArrived(b);
        QVERIFY(view.follows());
        QScrollBar* bar = view.view()->verticalScrollBar();
        QTRY_COMPARE(bar->value(), bar->maximum());
        bar->setValue(10); // the user scrolls up
        QVERIFY(!view.follows());
        Q_EMIT sim.eventsArrived(b);
        QCOMPARE(bar->value(), 10);
        bar->setValue(bar->maximum()); // and back to the bottom
        QVERIFY(view.follows());
    }

    void screenshotsAreNotBlank()
    {
        const QPalette light = QApplication::palette();
        for (const bool dark : { false, true }) {
            QApplication::setPalette(dark ? darkPalette() : light);
            Simulation sim;
            EventLogView view(sim);
            sim.setScenario(smallGlobalHash());
            view.model()->setKinds(kNotableLineKinds | lineKindBit(LineKind::FaultOther));
            view.resize(1100, 420);
            view.show();
            if (!dark) {
                QApplication::processEvents();
                view.grab().save(screenshotDir() + QStringLiteral("/eventlog-empty.png"));
            }
            sim.play();
            QTRY_VERIFY_WITH_TIMEOUT(sim.state() == Simulation::State::Finished, 20000);
            view.view()->selectionModel()->select(view.model()->index(view.model()->rowCount() - 4, 0),
                QItemSelectionModel::Select | QItemSelectionModel::Rows);
            QApplication::processEvents();
            const QImage img = view.grab().toImage();
            const QString path = screenshotDir()
                + QStringLiteral("/eventlog-%1.png").arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
            img.save(path);
            QVERIFY2(distinctColours(img) > 20, qPrintable(QStringLiteral("%1 colours").arg(distinctColours(img))));
        }
        QApplication::setPalette(light);
    }
};

PCL_UI_TEST(TestEventLog)
#include "test_eventlog.moc"
