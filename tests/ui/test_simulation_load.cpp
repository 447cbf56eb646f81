// A run at its busiest, as the views see it: every tick brings the most
// Simulation hands out (kMaxEventsPerTick), eight CPUs queueing for one lock,
// for longer than the timeline's window. What each view keeps must stop
// growing (the timeline its span cap, the log its line cap) and each tick's
// work must be the new events' (the log formats at most its batch limit and
// counts the rest), so that a ten-minute run costs the GUI thread at its
// tenth minute what it cost at its first.
#include "log/eventlogmodel.h"
#include "log/eventlogview.h"
#include "run/simulation.h"
#include "sim/scenario.h"
#include "ui_test_registry.h"
#include "views/timeline/timelinemodel.h"
#include "views/timeline/timelineview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <cstdlib>

using pcl::Event;
using pcl::EventKind;
using namespace pcl::ui;

namespace {

constexpr unsigned kCpus = 8;
constexpr std::uint64_t kLock = 0x1000;
constexpr std::uint64_t kTickNs = 1'000'000'000ull / Simulation::kTicksPerSecond;
/// Waits each CPU ends in a tick: a wait begun and a wait ended are two
/// records, so the eight CPUs fill a tick exactly.
constexpr std::size_t kWaitsPerCpu = Simulation::kMaxEventsPerTick / (2 * kCpus);

/// Tick @k's records: each CPU waits kWaitsPerCpu times for the one lock,
/// in time order across the CPUs.
std::vector<Event> busiestTick(std::uint64_t k)
{
    std::vector<Event> batch;
    batch.reserve(Simulation::kMaxEventsPerTick);
    const std::uint64_t start = 1'000'000 + k * kTickNs;
    const std::uint64_t step = kTickNs / kWaitsPerCpu;
    for (std::size_t w = 0; w < kWaitsPerCpu; ++w)
        for (std::uint16_t cpu = 0; cpu < kCpus; ++cpu) {
            const std::uint64_t t = start + w * step + cpu;
            const std::int32_t holder = (cpu + 1) % kCpus;
            batch.push_back(pcl::make_event_at(t, EventKind::LockWaitBegin, cpu, kLock, 0, 2, holder, 1));
            batch.push_back(
                pcl::make_event_at(t + step / 2, EventKind::LockAcquired, cpu, kLock, 0, 2, std::int64_t(step / 2), 1));
        }
    return batch;
}

} // namespace

class TestSimulationLoad : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fullTicksKeepEveryViewBounded()
    {
        pcl::Scenario scenario = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
        scenario.engine.workload.cpus = kCpus;
        Simulation sim;
        sim.setScenario(scenario);
        TimelineView timeline(sim);
        EventLogView log(sim);
        timeline.resize(1280, 400);
        log.resize(1280, 300);
        timeline.show();
        log.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QCOMPARE(timeline.model().laneCount(), int(kCpus) + 1);

        // Longer than the timeline's window (10 s) by half; PCL_LOAD_TICKS
        // runs as many as asked (18000: ten minutes).
        std::uint64_t ticks = 15 * Simulation::kTicksPerSecond;
        if (const char* env = std::getenv("PCL_LOAD_TICKS"))
            ticks = std::max<std::uint64_t>(ticks, std::strtoull(env, nullptr, 10));
        // The mean time a tick took in each tenth of the run, printed: a
        // cost that grew with the run's history would rise tenth by tenth.
        std::vector<double> tenthMs(10, 0.0);
        QElapsedTimer clock;
        for (std::uint64_t k = 0; k < ticks; ++k) {
            const std::vector<Event> batch = busiestTick(k);
            clock.start();
            Q_EMIT sim.eventsArrived(batch);
            Q_EMIT sim.ticked();
            timeline.repaint();
            tenthMs[std::size_t(k * 10 / ticks)] += double(clock.nsecsElapsed()) / 1e6;
        }
        QString means;
        for (const double ms : tenthMs)
            means += QStringLiteral(" %1").arg(ms / double(ticks / 10), 0, 'f', 2);
        qInfo("%llu ticks of %zu records, ms a tick in each tenth:%s", static_cast<unsigned long long>(ticks),
            Simulation::kMaxEventsPerTick, qPrintable(means));

        // The timeline: each CPU's lane at its cap (two spans a wait), the
        // disk's empty, none older than the window.
        const TimelineModel& m = timeline.model();
        for (int lane = 0; lane < int(kCpus); ++lane) {
            QCOMPARE(m.spans(lane).size(), m.maxSpansPerLane());
            QVERIFY(m.spans(lane).front().end_ns >= m.latestNs() - m.windowNs());
        }
        QCOMPARE(m.spans(int(kCpus)).size(), std::size_t(0));

        // The log: its line cap, and of each tick's waits exactly the batch
        // limit formatted, the rest counted as not shown.
        const EventLogModel& lines = *log.model();
        QCOMPARE(lines.keptLines(), EventLogModel::kDefaultMaxLines);
        QCOMPARE(lines.rowCount(), EventLogModel::kDefaultMaxLines);
        QCOMPARE(lines.skipped(), ticks * (kCpus * kWaitsPerCpu - EventLogModel::kMaxLinesPerBatch));
        const QString newest = lines.index(lines.rowCount() - 1, EventLogModel::TextColumn).data().toString();
        QVERIFY2(newest.startsWith(
                     QStringLiteral("CPU 7 waited %1 for ").arg(formatDuration(double(kTickNs / kWaitsPerCpu / 2))))
                && newest.endsWith(QStringLiteral(", held by CPU 0")),
            qPrintable(newest));
    }
};

PCL_UI_TEST(TestSimulationLoad)
#include "test_simulation_load.moc"
