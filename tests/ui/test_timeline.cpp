// The CPUs timeline: spans built from synthetic event sequences (exact
// values), the view's markers and tooltips, and a real paced run.
#include "event_support.h"
#include "kit/colors.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "views/timeline/timelinelayout.h"
#include "views/timeline/timelinemodel.h"
#include "views/timeline/timelineview.h"

#include "sim/scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSet>
#include <QStyleFactory>
#include <QTest>

using pcl::Event;
using pcl::EventKind;
using pcl::FaultKind;
using pcl::ui::CpuState;
using pcl::ui::Simulation;
using pcl::ui::TimelineModel;
using pcl::ui::TimelineSpan;
using pcl::ui::TimelineView;

using pcl::ui::test::distinctColours;
using pcl::ui::test::eventAt;
using pcl::ui::test::screenshotDir;

namespace {

/// CPU 0 takes a lock uncontended, spins 10 us on lock #3 held by CPU 1,
/// releases it, then waits 100 us for it.
std::vector<Event> lockWaits()
{
    return {
        eventAt(EventKind::LockAcquired, 0, 1000, 0xa0, 0, 3, 0, 1),
        eventAt(EventKind::LockWaitBegin, 0, 2000, 0xa0, 0, 3, 1, 1),
        eventAt(EventKind::LockAcquired, 0, 12000, 0xa0, 0, 3, 10000, 1),
        eventAt(EventKind::LockReleased, 0, 13000, 0xa0, 0, 3, 1000, 1),
        eventAt(EventKind::LockWaitBegin, 0, 20000, 0xa0, 0, 3, 1, 1),
        eventAt(EventKind::LockAcquired, 0, 120000, 0xa0, 0, 3, 100000, 1),
    };
}

void checkSpan(const TimelineSpan& s, std::uint64_t start, std::uint64_t end, CpuState state)
{
    QCOMPARE(s.start_ns, start);
    QCOMPARE(s.end_ns, end);
    QCOMPARE(int(s.state), int(state));
}

/// The radix-tree pagecache thread's 2002 scenario, short and paced (demo speed: every lock is
/// recorded), with a critical-section stretch so the CPUs contend visibly.
pcl::Scenario pacedGlobalHashLock()
{
    pcl::Scenario s = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
    s.engine.workload.operations_per_cpu = 200;
    s.engine.ops_per_second = 2000;
    s.engine.hold_stretch_ns = 40000;
    return s;
}

/// The same machine faulting on one shared mapping with a slow disk: every
/// state shows (faults, own reads in flight, waits on another CPU's read).
pcl::Scenario pacedSharedMapping()
{
    pcl::Scenario s = pacedGlobalHashLock();
    s.engine.workload.access = pcl::WorkloadAccess::MmapRead;
    s.engine.workload.files = pcl::FileSharing::Shared;
    s.engine.workload.file_pages = 512;
    s.engine.device = { 30000, 3000, 1.0 };
    return s;
}

/// A y inside @lane of @view, -1 if none.
int laneY(const TimelineView& view, int x, int lane)
{
    for (int y = 0; y < view.height(); ++y)
        if (view.laneAt(QPoint(x, y)) == lane)
            return y + 3;
    return -1;
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion"))); }

    void lockWaitsAreSpinningThenBlocked()
    {
        TimelineModel m;
        m.reset(2);
        m.setLockNamer([](const Event& e) { return e.index == 3 ? QStringLiteral("pagecache_lock") : QString(); });
        m.addEvents(lockWaits());
        QCOMPARE(m.laneCount(), 3);
        const auto& s = m.spans(0);
        QCOMPARE(s.size(), std::size_t(4));
        checkSpan(s[0], 1000, 2000, CpuState::Running);
        checkSpan(s[1], 2000, 12000, CpuState::Spinning);
        QCOMPARE(m.lockName(s[1].lock), QStringLiteral("pagecache_lock"));
        QCOMPARE(s[1].holder, std::int16_t(1));
        checkSpan(s[2], 12000, 20000, CpuState::Running);
        checkSpan(s[3], 20000, 120000, CpuState::Blocked);
        QCOMPARE(m.lockName(s[3].lock), QStringLiteral("pagecache_lock"));
        QVERIFY(m.spans(1).empty());
        QCOMPARE(m.originNs(), std::uint64_t(1000));
        QCOMPARE(m.latestNs(), std::uint64_t(120000));
        QVERIFY(!m.openSpan(0));
    }

    void anOpenWaitGrowsToTheNewestEvent()
    {
        TimelineModel m;
        m.reset(2);
        m.addEvents({ eventAt(EventKind::LockWaitBegin, 0, 1000, 0xa0, 0, 3, 1, 1),
            eventAt(EventKind::LockAcquired, 1, 91000, 0xb0, 0, 4, 0, 1) });
        const auto open = m.openSpan(0);
        QVERIFY(open);
        checkSpan(*open, 1000, 91000, CpuState::Blocked);
        QCOMPARE(m.lockName(open->lock), QStringLiteral("lock #3"));
    }

    void aPageWaitInsideAFault()
    {
        TimelineModel m;
        m.reset(2);
        m.addEvents({
            eventAt(EventKind::FaultBegin, 1, 1000, 0x700, 0, 7),
            eventAt(EventKind::PageLockWait, 1, 2000, 0xbeef, 0, 7),
            eventAt(EventKind::PageLockWoken, 1, 5000, 0xbeef, 0, 7, 3000),
            eventAt(EventKind::FaultEnd, 1, 6000, 0x700, 0, 7, 5000, int(FaultKind::WaitIo)),
        });
        const auto& s = m.spans(1);
        QCOMPARE(s.size(), std::size_t(3));
        checkSpan(s[0], 1000, 2000, CpuState::Running);
        checkSpan(s[1], 2000, 5000, CpuState::PageWait);
        checkSpan(s[2], 5000, 6000, CpuState::Running);
        QCOMPARE(s[1].page, std::uint64_t(7));
        for (const TimelineSpan& x : s) {
            QVERIFY(x.in_fault);
            QVERIFY(x.fault_kind_known);
            QCOMPARE(int(x.fault_kind), int(FaultKind::WaitIo));
            QCOMPARE(x.fault_start_ns, std::uint64_t(1000));
            QCOMPARE(x.fault_end_ns, std::uint64_t(6000));
        }
    }

    void aMajorFaultIsInIoAndTheDiskServesIt()
    {
        TimelineModel m;
        m.reset(1); // lane 1 is the disk
        m.addEvents({
            eventAt(EventKind::FaultBegin, 0, 1000, 0x900, 2, 100),
            eventAt(EventKind::IoSubmit, 0, 2000, 42, 2, 100, 4),
            eventAt(EventKind::LockAcquired, 0, 2500, 0xa0, 0, 3, 0, 1),
            eventAt(EventKind::LockReleased, 0, 2600, 0xa0, 0, 3, 100, 1),
            eventAt(EventKind::PageLockWait, 0, 3000, 0xbeef, 2, 100),
            eventAt(EventKind::IoComplete, 1, 9000, 42, 2, 100, 4),
            eventAt(EventKind::PageLockWoken, 0, 9500, 0xbeef, 2, 100, 6500),
            eventAt(EventKind::FaultEnd, 0, 10000, 0x900, 2, 100, 9000, int(FaultKind::Major)),
        });
        QVERIFY(m.isDiskLane(1));
        const auto& cpu = m.spans(0);
        QCOMPARE(cpu.size(), std::size_t(3));
        checkSpan(cpu[0], 1000, 2000, CpuState::Running);
        checkSpan(cpu[1], 2000, 9500, CpuState::InIo); // from its submit until it wakes
        checkSpan(cpu[2], 9500, 10000, CpuState::Running);
        QCOMPARE(cpu[1].request, std::uint64_t(42));
        QCOMPARE(cpu[1].pages, 4u);
        for (const TimelineSpan& x : cpu)
            QCOMPARE(int(x.fault_kind), int(FaultKind::Major));
        const auto& disk = m.spans(1);
        QCOMPARE(disk.size(), std::size_t(1));
        checkSpan(disk[0], 2000, 9000, CpuState::InIo);
        QCOMPARE(disk[0].file, pcl::FileId(2));
        QCOMPARE(disk[0].page, std::uint64_t(100));
        QCOMPARE(disk[0].pages, 4u);
    }

    void theDiskServesOneRequestAtATime()
    {
        TimelineModel m;
        m.reset(2);
        m.addEvents({
            eventAt(EventKind::IoSubmit, 0, 1000, 1, 0, 0, 1),
            eventAt(EventKind::IoSubmit, 1, 1500, 2, 0, 50, 1),
            eventAt(EventKind::IoComplete, 2, 4000, 1, 0, 0, 1),
            eventAt(EventKind::IoComplete, 2, 7000, 2, 0, 50, 1),
            eventAt(EventKind::IoSubmit, 0, 20000, 3, 0, 9, 1),
            eventAt(EventKind::IoComplete, 2, 23000, 3, 0, 9, 1),
        });
        const auto& disk = m.spans(2);
        QCOMPARE(disk.size(), std::size_t(4));
        checkSpan(disk[0], 1000, 4000, CpuState::InIo);
        checkSpan(disk[1], 4000, 7000, CpuState::InIo);        // queued behind the first until 4000
        QCOMPARE(disk[1].fault_start_ns, std::uint64_t(1500)); // its submission
        checkSpan(disk[2], 7000, 20000, CpuState::Idle);
        checkSpan(disk[3], 20000, 23000, CpuState::InIo);
    }

    void aFaultEndWithoutBeginSpansItsDuration()
    {
        TimelineModel m;
        m.reset(1);
        m.addEvents({
            eventAt(EventKind::LockAcquired, 0, 1000, 0xa0, 0, 3, 0, 1),
            eventAt(EventKind::FaultEnd, 0, 50000, 0x500, 1, 5, 20000, int(FaultKind::Minor)),
            eventAt(EventKind::FaultEnd, 0, 5'000'000, 0x600, 1, 6, 1'000'000, int(FaultKind::Major)),
        });
        const auto& s = m.spans(0);
        QCOMPARE(s.size(), std::size_t(4));
        checkSpan(s[0], 1000, 30000, CpuState::Running);
        QVERIFY(!s[0].in_fault);
        checkSpan(s[1], 30000, 50000, CpuState::Running);
        QVERIFY(s[1].in_fault);
        QCOMPARE(int(s[1].fault_kind), int(FaultKind::Minor));
        QCOMPARE(s[1].page, std::uint64_t(5));
        QCOMPARE(s[1].fault_end_ns, std::uint64_t(50000));
        // Nearly 4 ms with nothing recorded: idle (the idle gap is 1 ms).
        checkSpan(s[2], 50000, 4'000'000, CpuState::Idle);
        checkSpan(s[3], 4'000'000, 5'000'000, CpuState::Running);
        QCOMPARE(int(s[3].fault_kind), int(FaultKind::Major));
    }

    void oldSpansAreDropped()
    {
        TimelineModel m;
        m.reset(1);
        m.setWindowNs(1'000'000);
        std::vector<Event> events;
        // A 10 us wait every 100 us for 10 ms.
        for (std::uint64_t t = 1000; t < 10'000'000; t += 100'000) {
            events.push_back(eventAt(EventKind::LockWaitBegin, 0, t, 0xa0, 0, 3, 1, 1));
            events.push_back(eventAt(EventKind::LockAcquired, 0, t + 10'000, 0xa0, 0, 3, 10'000, 1));
        }
        m.addEvents(events);
        const auto& s = m.spans(0);
        QVERIFY(!s.empty());
        QVERIFY(s.front().end_ns >= m.latestNs() - 1'000'000);
        QVERIFY(s.size() <= 21);
        QCOMPARE(s.back().end_ns, m.latestNs());

        TimelineModel capped;
        capped.reset(1);
        capped.setMaxSpansPerLane(10);
        capped.addEvents(events);
        QCOMPARE(capped.spans(0).size(), std::size_t(10));
        QCOMPARE(capped.spans(0).back().end_ns, capped.latestNs());
    }

    void queriesFindTheSpansInARange()
    {
        TimelineModel m;
        m.reset(2);
        m.addEvents(lockWaits());
        using Range = std::pair<std::size_t, std::size_t>;
        QCOMPARE(m.spansIn(0, 12500, 15000), Range(2, 3));
        QCOMPARE(m.spansIn(0, 1500, 20000), Range(0, 4));
        QCOMPARE(m.spansIn(0, 0, 500).first, m.spansIn(0, 0, 500).second);
        QCOMPARE(m.spansIn(0, 200000, 300000).first, m.spansIn(0, 200000, 300000).second);
        QCOMPARE(int(m.spanAt(0, 5000)->state), int(CpuState::Spinning));
        QCOMPARE(int(m.spanAt(0, 12000)->state), int(CpuState::Running));
        QVERIFY(!m.spanAt(0, 500));

        // Per pixel column, the state that covers most of it.
        std::vector<TimelineModel::Column> cols(12);
        m.columns(0, 0, 120000, cols);
        QCOMPARE(int(cols[0].state), int(CpuState::Spinning)); // 8 us spinning, 1 us running
        QCOMPARE(int(cols[1].state), int(CpuState::Running));  // 2 us spinning, 8 us running
        for (std::size_t c = 2; c < cols.size(); ++c)
            QCOMPARE(int(cols[c].state), int(CpuState::Blocked));
        std::vector<TimelineModel::Column> before(4);
        m.columns(0, 0, 800, before);
        QCOMPARE(int(before[0].state), -1);
    }

    void columnsAgreeWithTheSpansAfterEvictionsAndCuts()
    {
        // Irregular waits, faults with their own reads (which give time
        // back to the I/O) and a small span cap: the block sums the columns
        // use must stay those of the spans kept.
        TimelineModel m;
        m.reset(2);
        m.setMaxSpansPerLane(300);
        std::uint64_t x = 12345;
        auto next = [&](std::uint64_t range) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            return 1 + (x >> 33) % range;
        };
        std::uint64_t t = 1000;
        std::uint64_t request = 1;
        std::vector<Event> events;
        for (int i = 0; i < 2000; ++i) {
            switch (next(3)) {
            case 1:
                events.push_back(eventAt(EventKind::LockWaitBegin, 0, t += next(20000), 0xa0, 0, 3, 1, 1));
                events.push_back(eventAt(EventKind::LockAcquired, 0, t += next(90000), 0xa0, 0, 3, 1, 1));
                events.push_back(eventAt(EventKind::LockReleased, 0, t += next(3000), 0xa0, 0, 3, 1000, 1));
                break;
            case 2: {
                const std::uint64_t begin = t += next(500000);
                events.push_back(eventAt(EventKind::FaultBegin, 0, begin, 0x900, 0, i));
                events.push_back(eventAt(EventKind::IoSubmit, 0, t += next(5000), request, 0, i, 1));
                if (i % 2) { // a wait between the submit and the sleep: the cut stops at it
                    events.push_back(eventAt(EventKind::LockWaitBegin, 0, t += next(2000), 0xa0, 0, 3, 1, 1));
                    events.push_back(eventAt(EventKind::LockAcquired, 0, t += next(2000), 0xa0, 0, 3, 1, 1));
                }
                events.push_back(eventAt(EventKind::LockReleased, 0, t += next(2000), 0xa0, 0, 3, 100, 1));
                events.push_back(eventAt(EventKind::PageLockWait, 0, t += next(2000), 0xbeef, 0, i));
                events.push_back(eventAt(EventKind::IoComplete, 2, t += next(50000), request++, 0, i, 1));
                events.push_back(eventAt(EventKind::PageLockWoken, 0, t += next(3000), 0xbeef, 0, i, 1));
                t += next(3000);
                events.push_back(eventAt(EventKind::FaultEnd, 0, t, 0x900, 0, i, std::int64_t(t - begin), 2));
                break;
            }
            default:
                events.push_back(eventAt(EventKind::FaultEnd, 0, t += next(3'000'000), 0x800, 0, i, next(20000), 1));
                break;
            }
        }
        m.addEvents(events);
        QCOMPARE(m.spans(0).size(), std::size_t(300));
        const double t0 = double(m.spans(0).front().start_ns);
        const double t1 = double(m.latestNs());
        for (std::size_t n : { std::size_t(7), std::size_t(64), std::size_t(640) }) {
            std::vector<TimelineModel::Column> cols(n);
            m.columns(0, t0, t1, cols);
            const double w = (t1 - t0) / double(n);
            for (std::size_t c = 0; c < n; ++c) {
                std::array<double, 6> sum {};
                for (const TimelineSpan& s : m.spans(0)) {
                    const double lo = std::max(double(s.start_ns), t0 + double(c) * w);
                    const double hi = std::min(double(s.end_ns), t0 + double(c + 1) * w);
                    if (hi > lo)
                        sum[std::size_t(s.state)] += hi - lo;
                }
                const auto best = std::max_element(sum.begin(), sum.end());
                if (*best == 0)
                    continue;
                std::array<double, 6> rest = sum;
                rest[std::size_t(best - sum.begin())] = 0;
                if (*best - *std::max_element(rest.begin(), rest.end()) < 1e-3 * *best)
                    continue; // a tie: either answer is right
                QCOMPARE(int(cols[c].state), int(best - sum.begin()));
                QVERIFY2(std::abs(cols[c].share - *best / w) < 1e-3,
                    qPrintable(QStringLiteral("column %1 of %2: share %3, spans say %4")
                                   .arg(c)
                                   .arg(n)
                                   .arg(cols[c].share)
                                   .arg(*best / w)));
            }
        }
    }

    void aMostlyWaitingLaneIsMostlyWaitColourAtAnyZoom()
    {
        // A lane's share of each colour in the view, and of the highlight.
        struct Shares {
            double wait = 0, running = 0, highlight = 0;
        };
        auto shares = [](TimelineView& view) {
            const QImage image = view.grab().toImage();
            const pcl::ui::TimelineLayout l(
                view.fontMetrics(), view.size(), view.model().laneCount(), view.viewStartNs(), view.viewSpanNs());
            const QRect lane = l.lane(0).toAlignedRect().adjusted(1, 1, -1, -1);
            // As the image holds them: 8 bits a channel.
            const QRgb running = pcl::ui::colors::cpuRunning().rgb();
            const QRgb spinning = pcl::ui::colors::cpuSpinning().rgb();
            const QRgb blocked = pcl::ui::colors::cpuBlocked().rgb();
            const QRgb highlight = view.palette().color(QPalette::Highlight).rgb();
            int wait = 0, run = 0, marked = 0, all = 0;
            for (int y = lane.top(); y <= lane.bottom(); ++y)
                for (int x = lane.left(); x <= lane.right(); ++x) {
                    const QRgb c = image.pixel(x, y);
                    wait += c == spinning || c == blocked;
                    run += c == running;
                    marked += c == highlight;
                    ++all;
                }
            return std::pair { Shares { double(wait) / all, double(run) / all, double(marked) / all }, image };
        };

        {
            // CPU 0 waits 62 % of its time, but no single state covers most
            // of it: every 400 us it runs 152 us (38 %), spins three times
            // 40 us (30 %, each under the spin limit), then sleeps 128 us on
            // the lock (32 %). Zoomed out, a pixel column holds several such
            // cycles; drawn in the state that covers the most of it, the
            // lane would be running blue from end to end.
            Simulation sim;
            TimelineView view(sim);
            view.model().reset(1);
            std::vector<Event> events;
            for (std::uint64_t t = 1000; t < 4'000'000'000; t += 400'000) {
                std::uint64_t at = t + 152'000;
                for (const std::uint64_t wait : { 40'000, 40'000, 40'000, 128'000 }) {
                    events.push_back(eventAt(EventKind::LockWaitBegin, 0, at, 0xa0, 0, 3, 1, 1));
                    events.push_back(
                        eventAt(EventKind::LockAcquired, 0, at += wait, 0xa0, 0, 3, std::int64_t(wait), 1));
                }
            }
            view.model().addEvents(events);
            view.resize(1280, 400);
            // At Fit (a pixel column over eight cycles), and zoomed in a
            // thousandfold (each span a dozen columns wide or more).
            for (const double zoom : { 1.0, 0.001 }) {
                view.fit();
                if (zoom < 1)
                    view.setViewRange(view.viewStartNs() + view.viewSpanNs() / 2, view.viewSpanNs() * zoom);
                const auto [s, image] = shares(view);
                qInfo("spinning and sleeping, zoom %.3f: %.1f %% of the lane in wait colours, %.1f %% running", zoom,
                    100 * s.wait, 100 * s.running);
                QVERIFY2(s.wait > 0.55 && s.wait < 0.68, qPrintable(QString::number(s.wait)));
                QVERIFY2(s.running > 0.30 && s.running < 0.42, qPrintable(QString::number(s.running)));
                QVERIFY(image.save(screenshotDir() + QStringLiteral("/timeline-62-percent-waiting-%1.png").arg(zoom)));
            }
        }
        {
            // A lesson's step highlights the lock, as the 2002 hash lock
            // lesson does: every 40 ms CPU 0 runs 15.2 ms and sleeps 24.8 ms
            // on it, for 10 s. At Fit a wait is three pixels wide: outlined
            // round each, the lane would be the highlight colour throughout.
            Simulation sim;
            TimelineView view(sim);
            view.model().reset(1);
            view.model().setLockNamer([](const Event&) { return QStringLiteral("pagecache_lock"); });
            // Paced, as a lesson runs: the 15 ms between waits are work, not idleness.
            view.model().setIdleGapNs(20'000'000);
            std::vector<Event> events;
            for (std::uint64_t t = 1000; t < 10'000'000'000; t += 40'000'000) {
                events.push_back(eventAt(EventKind::LockWaitBegin, 0, t + 15'200'000, 0xa0, 0, 3, 1, 1));
                events.push_back(eventAt(EventKind::LockAcquired, 0, t + 40'000'000, 0xa0, 0, 3, 24'800'000, 1));
            }
            view.model().addEvents(events);
            view.resize(1280, 400);
            view.setHighlightedLock(QStringLiteral("pagecache_lock"));
            for (const double zoom : { 1.0, 0.01 }) {
                view.fit();
                if (zoom < 1)
                    view.setViewRange(view.viewStartNs() + view.viewSpanNs() / 2, view.viewSpanNs() * zoom);
                const auto [s, image] = shares(view);
                qInfo("sleeping, lock highlighted, zoom %.2f: %.1f %% of the lane in wait colours, %.1f %% running, "
                      "%.1f %% highlight",
                    zoom, 100 * s.wait, 100 * s.running, 100 * s.highlight);
                // The outlines take a little of the waits' own area, zoomed
                // in; never the running time's.
                QVERIFY2(s.wait + s.highlight > 0.57 && s.wait > 0.5, qPrintable(QString::number(s.wait)));
                QVERIFY2(s.running > 0.33 && s.running < 0.41, qPrintable(QString::number(s.running)));
                QVERIFY2(s.highlight < 0.12, qPrintable(QString::number(s.highlight)));
                QVERIFY(image.save(
                    screenshotDir() + QStringLiteral("/timeline-62-percent-waiting-highlighted-%1.png").arg(zoom)));
            }
        }
    }

    void markersShowTheTimeBetweenThem()
    {
        Simulation sim;
        TimelineView view(sim);
        view.model().reset(2);
        view.model().addEvents(lockWaits());
        QVERIFY(view.markerText().contains(QStringLiteral("marker A")));
        const double origin = double(view.model().originNs());
        view.setMarkerA(origin + 1'000'000);
        view.setMarkerB(origin + 2'310'000);
        QCOMPARE(view.markerText(), QStringLiteral("A 1.00 ms   B 2.31 ms   B − A 1.31 ms"));

        // A click sets A, a shift-click B.
        view.resize(1280, 400);
        view.setViewRange(0, 130000);
        const int xa = int(view.xAt(30000));
        const int xb = int(view.xAt(90000));
        const int y = laneY(view, xa, 0);
        QVERIFY(y > 0);
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(xa, y));
        QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(xb, y));
        QVERIFY(std::abs(*view.markerA() - 30000) < 200);
        QVERIFY(std::abs(*view.markerB() - 90000) < 200);
        QVERIFY(view.markerText().contains(QStringLiteral("B − A 60")));
    }

    void zoomAndPanStopFollowing()
    {
        Simulation sim;
        TimelineView view(sim);
        view.model().reset(2);
        view.model().addEvents(lockWaits());
        view.resize(1280, 400);
        QVERIFY(view.following());
        const double span = view.viewSpanNs();
        QWheelEvent wheel(QPointF(640, 100), view.mapToGlobal(QPointF(640, 100)), QPoint(), QPoint(0, 120),
            Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(!view.following());
        QVERIFY(view.viewSpanNs() < span);
        view.setFollowing(true);
        QCOMPARE(view.viewStartNs(), double(view.model().latestNs()) - view.viewSpanNs());
    }

    void hoverSaysWhatASpanWas()
    {
        Simulation sim;
        TimelineView view(sim);
        view.model().reset(2);
        view.model().setLockNamer([](const Event&) { return QStringLiteral("pagecache_lock"); });
        view.model().addEvents(lockWaits());
        view.model().addEvents({
            eventAt(EventKind::FaultBegin, 1, 1000, 0x900, 0, 1234),
            eventAt(EventKind::IoSubmit, 1, 2000, 7, 0, 1234, 1),
            eventAt(EventKind::PageLockWait, 1, 3000, 0xbeef, 0, 1234),
            eventAt(EventKind::IoComplete, 2, 55000, 7, 0, 1234, 1),
            eventAt(EventKind::PageLockWoken, 1, 60000, 0xbeef, 0, 1234, 57000),
            eventAt(EventKind::FaultEnd, 1, 101000, 0x900, 0, 1234, 100000, int(FaultKind::Major)),
        });
        view.resize(1280, 400);
        view.setViewRange(0, 130000);
        const int x = int(view.xAt(7000));
        QCOMPARE(view.toolTipAt(QPoint(x, laneY(view, x, 0))),
            QStringLiteral("CPU 0 · spinning 10.0 µs for pagecache_lock (held by CPU 1)"));
        const int xBlocked = int(view.xAt(70000));
        QCOMPARE(view.toolTipAt(QPoint(xBlocked, laneY(view, xBlocked, 0))),
            QStringLiteral("CPU 0 · waiting 100 µs for pagecache_lock (held by CPU 1)"));
        const int xFault = int(view.xAt(80000));
        QCOMPARE(view.toolTipAt(QPoint(xFault, laneY(view, xFault, 1))),
            QStringLiteral("CPU 1 · major fault, file 0 page 1234, 100 µs"));
        const int xIo = int(view.xAt(30000));
        QVERIFY(view.toolTipAt(QPoint(xIo, laneY(view, xIo, 1)))
                    .startsWith(QStringLiteral("CPU 1 · in I/O 58.0 µs: its own read of file 0 page 1234")));
        QCOMPARE(view.toolTipAt(QPoint(xIo, laneY(view, xIo, 2))),
            QStringLiteral("disk · reading file 0 page 1234 for 53.0 µs, 53.0 µs after it was submitted"));
        QVERIFY(view.toolTipAt(QPoint(2, 2)).isEmpty());
    }

    void aRealRunHasLockWaitsOnCpuLanes()
    {
        Simulation sim;
        TimelineView view(sim);
        sim.setScenario(pacedGlobalHashLock());
        QCOMPARE(view.model().laneCount(), 5);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.eventsDropped(), std::uint64_t(0));
        int spinning = 0, blocked = 0, running = 0;
        bool named = false;
        for (int lane = 0; lane < 4; ++lane)
            for (const TimelineSpan& s : view.model().spans(lane)) {
                spinning += s.state == CpuState::Spinning;
                blocked += s.state == CpuState::Blocked;
                running += s.state == CpuState::Running;
                if ((s.state == CpuState::Spinning || s.state == CpuState::Blocked)
                    && view.model().lockName(s.lock) == QLatin1String("pagecache_lock"))
                    named = true;
            }
        QVERIFY(spinning + blocked > 0);
        QVERIFY(running > 0);
        QVERIFY(named);
        // Every lane is a partition: in order, no overlap.
        for (int lane = 0; lane < view.model().laneCount(); ++lane) {
            const auto& spans = view.model().spans(lane);
            for (std::size_t i = 1; i < spans.size(); ++i)
                QVERIFY(spans[i].start_ns >= spans[i - 1].end_ns);
        }
    }

    void tenSecondsOfMillionsOfEventsDrawQuickly()
    {
        Simulation sim;
        TimelineView view(sim);
        view.model().reset(4);
        // Four CPUs, a 5 us wait every 40 us each for 10 s: 2 million events.
        std::vector<Event> batch;
        batch.reserve(20000);
        std::size_t events = 0;
        for (std::uint64_t t = 1000; t < 10'000'000'000ull; t += 40'000) {
            for (std::uint16_t cpu = 0; cpu < 4; ++cpu) {
                batch.push_back(eventAt(EventKind::LockWaitBegin, cpu, t + cpu * 7000, 0xa0, 0, 3, (cpu + 1) % 4, 1));
                batch.push_back(eventAt(EventKind::LockAcquired, cpu, t + cpu * 7000 + 5000, 0xa0, 0, 3, 5000, 1));
            }
            if (batch.size() >= 20000) {
                events += batch.size();
                view.model().addEvents(batch);
                batch.clear();
            }
        }
        events += batch.size();
        view.model().addEvents(batch);
        QVERIFY(events >= 2'000'000);
        QCOMPARE(view.model().spans(0).size(), view.model().maxSpansPerLane());
        view.resize(1280, 400);
        view.setViewRange(
            double(view.model().earliestNs()), double(view.model().latestNs() - view.model().earliestNs()));
        view.grab(); // the first paint also sets up fonts and the backing store
        QElapsedTimer timer;
        timer.start();
        const QImage image = view.grab().toImage();
        const qint64 ms = timer.elapsed();
        qInfo("%zu events, %zu spans per lane kept, drawn in %lld ms", events, view.model().spans(0).size(),
            static_cast<long long>(ms));
        QVERIFY(ms < 100);
        QVERIFY(distinctColours(image) > 4);
    }

    void timeNothingIsKnownAboutIsHatchedNotAStatesColour()
    {
        // Two CPUs record a lock taken and released, then nothing (an
        // unpaced run whose work is uncontended): the time after their last
        // record is drawn as nothing known, the lane's base under a light
        // hatch, never in the colour of a state.
        Simulation sim;
        TimelineView view(sim);
        view.model().reset(2);
        view.model().addEvents({ eventAt(EventKind::LockAcquired, 0, 1000, 0xa0, 0, 3, 0, 1),
            eventAt(EventKind::LockReleased, 0, 2000, 0xa0, 0, 3, 1000, 1),
            eventAt(EventKind::LockAcquired, 1, 3000, 0xa0, 0, 3, 0, 1),
            eventAt(EventKind::LockReleased, 1, 4000, 0xa0, 0, 3, 1000, 1) });
        for (const int width : { 1280, 560 }) { // the legend whole, and cut short after "in I/O"
            view.resize(width, 300);
            view.setViewRange(1e6, 2e6);
            const QImage image = view.grab().toImage();
            const pcl::ui::TimelineLayout l(
                view.fontMetrics(), view.size(), view.model().laneCount(), view.viewStartNs(), view.viewSpanNs());
            const QColor base = view.palette().color(QPalette::Base);
            for (int lane = 0; lane < 2; ++lane) {
                const QRectF r = l.lane(lane);
                int light = 0, pixels = 0;
                for (int x = int(r.left()) + 4; x < int(r.right()) - 4; x += 7)
                    for (int y = int(r.top()) + 3; y < int(r.bottom()) - 3; y += 5) {
                        const QColor c(image.pixel(x, y));
                        ++pixels;
                        // The base, or a hatch line over it (a tenth of the text colour).
                        if (std::abs(c.lightness() - base.lightness()) <= 40 && c.saturation() < 40)
                            ++light;
                    }
                QVERIFY2(pixels > 100, qPrintable(QStringLiteral("lane %1").arg(lane)));
                QVERIFY2(light == pixels,
                    qPrintable(QStringLiteral("width %1, lane %2: %3 of %4 pixels are not the lane's base")
                                   .arg(width)
                                   .arg(lane)
                                   .arg(pixels - light)
                                   .arg(pixels)));
            }
        }
    }

    void aLessonsCpuLaneIsOutlined()
    {
        // A lesson points at CPU 1: its lane and name are outlined in the
        // highlight colour before the run has an event, and after.
        Simulation sim;
        TimelineView view(sim);
        view.resize(1280, 400);
        sim.setScenario(pacedSharedMapping());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setHighlightedCpu(1u);
        QCOMPARE(view.highlightedCpu(), std::optional<unsigned>(1));
        const pcl::ui::TimelineLayout l(
            view.fontMetrics(), view.size(), view.model().laneCount(), view.viewStartNs(), view.viewSpanNs());
        const QRectF outline = l.laneOutline(1);
        QVERIFY(outline.contains(l.lane(1)));
        QVERIFY(!outline.intersects(l.lane(0).adjusted(0, 0, 0, -2)));
        const QColor highlight = view.palette().color(QPalette::Highlight);
        const QPoint left = QPointF(outline.left(), outline.center().y()).toPoint();
        QCOMPARE(QColor(view.grab().toImage().pixel(left)), highlight);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        const QImage image = view.grab().toImage();
        QCOMPARE(QColor(image.pixel(left)), highlight);
        QCOMPARE(QColor(image.pixel(QPointF(outline.right(), outline.center().y()).toPoint())), highlight);
        QVERIFY(image.save(screenshotDir() + QStringLiteral("/timeline-cpu-outlined.png")));
        // In the colour-blind-safe scheme the outline is the scheme's, set
        // apart from every state's colour, not the desktop's selection blue.
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::ColorBlindSafe);
        const QColor safe = pcl::ui::colors::highlight(view.palette());
        QVERIFY(safe != highlight);
        QCOMPARE(QColor(view.grab().toImage().pixel(left)), safe);
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard);
        QCOMPARE(QColor(view.grab().toImage().pixel(left)), highlight);
        view.setHighlightedCpu(std::nullopt);
        QVERIFY(QColor(view.grab().toImage().pixel(left)) != highlight);
    }

    void screenshotIsNotBlank_data() { pcl::ui::test::addThemeRows(); }

    void screenshotIsNotBlank()
    {
        QFETCH(bool, dark);
        Simulation sim;
        TimelineView view(sim);
        pcl::ui::test::applyTheme(view, dark, QSize(1280, 400));
        sim.setScenario(pacedSharedMapping());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // 20 ms in the middle of the run, with markers 5 ms apart.
        const double mid = double(view.model().originNs()) + 30e6;
        view.setViewRange(mid, 20e6);
        view.setMarkerA(mid + 5e6);
        view.setMarkerB(mid + 10e6);
        const QImage image = view.grab().toImage();
        QVERIFY(distinctColours(image) > 12);
        const QString dir = screenshotDir();
        QVERIFY(
            image.save(dir + (dark ? QStringLiteral("/timeline-dark.png") : QStringLiteral("/timeline-light.png"))));
        // Zoomed in to a few waits, with their locks' names on them.
        view.clearMarkers();
        const auto& spans = view.model().spans(0);
        for (auto it = spans.rbegin(); it != spans.rend(); ++it)
            if (it->state == CpuState::Blocked || it->state == CpuState::Spinning) {
                view.setViewRange(double(it->start_ns) - 300e3, 700e3);
                break;
            }
        const QImage zoomed = view.grab().toImage();
        QVERIFY(distinctColours(zoomed) > 8);
        QVERIFY(zoomed.save(
            dir + (dark ? QStringLiteral("/timeline-zoomed-dark.png") : QStringLiteral("/timeline-zoomed-light.png"))));
    }
};

PCL_UI_TEST(TestTimeline)
#include "test_timeline.moc"
