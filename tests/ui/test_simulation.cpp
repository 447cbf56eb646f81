// The GUI's run controller: play, pause, step, reset and speed wired to the
// engine; samples and events delivered on the GUI thread's timer.
#include "mm/page_cache.h"
#include "run/simulation.h"
#include "sim/debugfs.h"
#include "sim/runner.h"

#include "mm/page_table.h"
#include "run/rewindbar.h"
#include "ui_test_registry.h"

#include <QElapsedTimer>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <sstream>

using pcl::Scenario;
using pcl::ui::Simulation;

namespace {

/// One CPU per file reading its file once through read(2): a known number
/// of operations and of disk reads.
Scenario small(unsigned cpus, std::uint64_t ops)
{
    Scenario s;
    s.engine.workload.pattern = pcl::WorkloadPattern::Sequential;
    s.engine.workload.cpus = cpus;
    s.engine.workload.file_pages = 256;
    s.engine.workload.operations_per_cpu = ops;
    s.engine.memory_pages = 4096;
    s.engine.device = { 1000, 100, 1.0 };
    s.sample_interval_ms = 20;
    return s;
}

/// Four CPUs reading one file at random on the 8-way Pentium III under 2.4's
/// one global hash lock: misses, I/O and the lock's contention, about 45
/// modelled milliseconds.
Scenario modelled()
{
    Scenario s = small(4, 3000);
    s.engine.index.kind = pcl::IndexKind::Hash;
    s.engine.index.scheme = "global";
    s.engine.workload.pattern = pcl::WorkloadPattern::Random;
    s.engine.workload.file_pages = 2048;
    s.engine.machine.profile = "pentium3-xeon-8way-2002";
    s.sample_interval_ms = 10;
    return s;
}

/// Radix trees under a spinlock per mapping, four CPUs writing through
/// mmap at random (dirty tags, writeback, a PTE per page mapped).
Scenario mmapWriters()
{
    Scenario s = modelled();
    s.engine.index.kind = pcl::IndexKind::Radix;
    s.engine.index.scheme = "spinlock";
    s.engine.workload.access = pcl::WorkloadAccess::MmapWrite;
    return s;
}

/// Plays @sim at 0.02 modelled s a second past 4 modelled ms, makes a
/// step there (a change a rewind must make again, at its moment), and
/// plays on past 12 ms, where it pauses.
void playWithAStep(Simulation& sim)
{
    sim.setPlaybackRate(0.02);
    sim.play();
    QTRY_VERIFY_WITH_TIMEOUT(sim.runningNs() > 4'000'000, 10000);
    sim.pause();
    sim.step(3);
    QTest::qWait(200);
    sim.play();
    QTRY_VERIFY_WITH_TIMEOUT(sim.runningNs() > 12'000'000, 10000);
    sim.pause();
}

/// Everything the views read of a run where it stands, in words: each
/// file's radix tree (its nodes, their slots, tags and locks held), the page
/// table (each PTE page and its lock), the lock table's rows, the samples
/// and the operations done.
std::string machineAsViewed(const Simulation& sim)
{
    std::ostringstream out;
    const auto fs = sim.debugfs();
    if (!fs)
        return {};
    for (const pcl::FileId f : fs->files()) {
        const pcl::IndexSnapshot snap = fs->index(f)->snapshot();
        out << "file " << f << " count " << snap.count << " height " << snap.height << " bytes " << snap.memory_bytes
            << "\n";
        for (const auto& n : snap.nodes) {
            out << " node " << n.id << " " << n.first_index << " " << n.occupied;
            for (const auto t : n.tagged)
                out << " " << t;
            for (const auto b : n.slot_bits)
                out << int(b);
            out << "\n";
        }
        for (const auto& l : snap.locks)
            out << " lock " << l.name << " " << l.state.held << " " << l.state.waiters << " " << l.state.holder_cpu
                << "\n";
    }
    const pcl::PageTableSnapshot table = fs->page_table().snapshot();
    out << "ptes " << table.mapped << " " << table.table_pages << " " << table.mm_lock.held << "\n";
    for (const auto& p : table.pte_pages)
        out << " pte " << p.first_vpn << " " << p.entries_set << " " << p.lock.held << " " << p.lock.holder_cpu << "\n";
    for (const auto& row : sim.registry()->locks())
        out << "lockrow " << row.name << " " << row.acquisitions << " " << row.contentions << " " << row.wait_total_ns
            << " " << row.hold_total_ns << " " << row.hold_max_ns << "\n";
    for (const auto& sample : sim.samples())
        out << "sample " << sample.clock_ns << " " << sample.operations << " " << sample.minor_faults << "\n";
    out << "operations " << fs->operations() << " at " << sim.runningNs() << "\n";
    return out.str();
}

/// The first line where @a and @b differ, as "line N: A | B"; empty if
/// they are the same.
QString firstDifference(const std::string& a, const std::string& b)
{
    std::istringstream x(a), y(b);
    std::string l, r;
    for (int n = 1;; ++n) {
        const bool more = bool(std::getline(x, l));
        const bool moreToo = bool(std::getline(y, r));
        if (!more && !moreToo)
            return {};
        if (more != moreToo || l != r)
            return QStringLiteral("line %1: %2 | %3").arg(n).arg(QString::fromStdString(l), QString::fromStdString(r));
    }
}

/// Whether @r is the run @whole is, in every figure a modelled run makes
/// the same: its totals, its modelled times, its schedule and its locks.
QString sameRun(const pcl::RunResult& r, const pcl::RunResult& whole)
{
    std::ostringstream a, b;
    for (const auto* x : { &r, &whole }) {
        std::ostringstream& out = x == &r ? a : b;
        out << x->operations << " " << x->wall_seconds << " " << x->cpu_seconds << " " << x->lock_order << " "
            << x->scheduling_points;
        for (const auto f : x->faults)
            out << " " << f;
        for (const auto& row : x->locks)
            out << "\n"
                << row.name << " " << row.acquisitions << " " << row.contentions << " " << row.wait_total_ns << " "
                << row.hold_max_ns;
    }
    return firstDifference(a.str(), b.str());
}

std::uint64_t sampledOperations(const Simulation& sim)
{
    std::uint64_t n = 0;
    for (const auto& s : sim.samples())
        n += s.operations;
    return n;
}

} // namespace

class TestSimulation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyUntilAScenarioIsSet()
    {
        Simulation sim;
        QCOMPARE(sim.state(), Simulation::State::Empty);
        QVERIFY(sim.engine() == nullptr);
        sim.play(); // nothing to play: no effect, no crash
        sim.step();
        QCOMPARE(sim.state(), Simulation::State::Empty);
    }

    void playRunsToTheEndAndTheSamplesAddUp()
    {
        Simulation sim;
        QSignalSpy states(&sim, &Simulation::stateChanged);
        sim.setScenario(small(2, 256));
        QCOMPARE(sim.state(), Simulation::State::Ready);
        sim.play();
        QCOMPARE(sim.state(), Simulation::State::Running);
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.engine()->operations(), std::uint64_t(512));
        // The closing sample is taken when the run ends: every operation is
        // in exactly one interval.
        QVERIFY(!sim.samples().empty());
        QCOMPARE(sampledOperations(sim), std::uint64_t(512));
        QCOMPARE(states.count(), 3); // ready, running, finished
    }

    void stepLetsEachCpuDoExactlyN()
    {
        Simulation sim;
        sim.setScenario(small(3, 100));
        sim.step(4);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QTRY_COMPARE_WITH_TIMEOUT(sim.engine()->operations(), std::uint64_t(12), 10000);
        QTest::qWait(100); // and no more
        for (const auto& c : sim.engine()->cpu_counters())
            QCOMPARE(c.operations, std::uint64_t(4));
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QVERIFY(sim.samples().empty()); // a paused run is not sampled
        sim.step(1);
        QTRY_COMPARE_WITH_TIMEOUT(sim.engine()->operations(), std::uint64_t(15), 10000);
    }

    void pauseHoldsAndPlayResumes()
    {
        Simulation sim;
        Scenario s = small(2, 100000);
        s.engine.ops_per_second = 200;
        sim.setScenario(s);
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->operations() > 0, 10000);
        sim.pause();
        QCOMPARE(sim.state(), Simulation::State::Paused);
        // Every CPU has finished the operation it was in and waits.
        QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->held_since().has_value(), 10000);
        const std::uint64_t held = sim.engine()->operations();
        const double elapsed = sim.elapsedSeconds();
        QTest::qWait(200);
        QCOMPARE(sim.engine()->operations(), held);
        QCOMPARE(sim.elapsedSeconds(), elapsed); // pauses are not running time
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->operations() > held, 10000);
    }

    void speedChangesTheRunningEngine()
    {
        Simulation sim;
        Scenario s = small(2, 300);
        s.engine.ops_per_second = 1; // 300 s at this speed
        sim.setScenario(s);
        sim.play();
        QVERIFY_EXCEPTION_THROWN(sim.setPacing(-5, 0), std::invalid_argument);
        sim.setPacing(0, 0);
        QCOMPARE(sim.scenario().engine.ops_per_second, 0.0);
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.engine()->operations(), std::uint64_t(600));
    }

    void resetBuildsAFreshRun()
    {
        Simulation sim;
        QSignalSpy resets(&sim, &Simulation::runReset);
        sim.setScenario(small(1, 64));
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        sim.reset();
        QCOMPARE(sim.state(), Simulation::State::Ready);
        QCOMPARE(sim.engine()->operations(), std::uint64_t(0));
        QVERIFY(sim.samples().empty());
        QCOMPARE(sim.elapsedSeconds(), 0.0);
        QCOMPARE(resets.count(), 2);
    }

    void durationStopsTheRun()
    {
        Simulation sim;
        Scenario s = small(1, 1000000);
        s.engine.ops_per_second = 100;
        s.duration_seconds = 0.3;
        sim.setScenario(s);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Stopped, 10000);
        QVERIFY(sim.elapsedSeconds() >= 0.3);
    }

    void eventsArriveInTimeOrderWithLockNames()
    {
        Simulation sim;
        Scenario s = small(2, 64);
        s.engine.ops_per_second = 500; // demo speed: every lock acquisition is an event
        sim.setScenario(s);
        std::vector<pcl::Event> all;
        connect(&sim, &Simulation::eventsArrived, this,
            [&](const std::vector<pcl::Event>& batch) { all.insert(all.end(), batch.begin(), batch.end()); });
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QVERIFY(!all.empty());
        QCOMPARE(sim.eventsDropped(), std::uint64_t(0));
        QCOMPARE(std::uint64_t(all.size()), sim.eventsRecorded());
        bool namedLock = false;
        for (const pcl::Event& e : all)
            if (e.kind == pcl::EventKind::LockAcquired && sim.lockName(e) == QLatin1String("mapping[0].tree_lock"))
                namedLock = true;
        QVERIFY(namedLock);
    }

    void aModelledRunWatchedWithPausesIsTheCommandLinesRun()
    {
        const Scenario s = modelled();
        std::uint64_t recorded = 0;
        pcl::RunOptions options;
        options.events = [&](const std::vector<pcl::Event>& batch) { recorded += batch.size(); };
        const pcl::RunResult whole = pcl::run_scenario(s, options);
        QCOMPARE(whole.state, std::string("finished"));

        Simulation sim;
        std::size_t sampled = 0;
        connect(&sim, &Simulation::sampled, this,
            [&](const std::vector<pcl::MetricsSample>& batch) { sampled += batch.size(); });
        sim.setScenario(s);
        QVERIFY(sim.isModelled());
        QCOMPARE(sim.playbackRate(), 0.0); // unpaced: as fast as it computes
        sim.setPlaybackRate(0.02);         // 20 modelled ms a second: a few ticks
        std::uint64_t shown = 0;
        connect(&sim, &Simulation::eventsArrived, this,
            [&](const std::vector<pcl::Event>& batch) { shown += batch.size(); });
        // A view's look at the pages after every tick, as the page views
        // look (find_get_page under the global lock, then put_page): it
        // must neither wait for a lock a standing CPU holds nor count in it.
        int looks = 0;
        connect(&sim, &Simulation::ticked, this, [&] {
            const auto fs = sim.debugfs();
            if (!fs)
                return;
            for (pcl::pgoff_t i = 0; i < 256; ++i)
                if (pcl::Page* page = fs->page_cache().find_get_page(fs->files().front(), i))
                    fs->page_cache().put_page(page);
            ++looks;
        });
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.elapsedSeconds() > 0.005, 10000);
        sim.pause();
        // Paused, the machine stands: its time and its CPUs do not move.
        const double at = sim.elapsedSeconds();
        const std::uint64_t ops = sim.engine()->operations();
        QTest::qWait(200);
        QCOMPARE(sim.elapsedSeconds(), at);
        QCOMPARE(sim.engine()->operations(), ops);
        sim.setPlaybackRate(0); // and on as fast as it computes
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        const auto r = sim.result();
        QVERIFY(r.has_value());
        // The same run, event for event: pauses and rates only change when
        // it was looked at.
        QCOMPARE(sameRun(*r, whole), QString());
        QVERIFY(looks > 3);
        QCOMPARE(shown + sim.eventsNotShown(), recorded);
        QCOMPARE(sampled, sim.samples().size()); // each once
        QCOMPARE(sampledOperations(sim), whole.operations);
    }

    void aModelledRunResetIsTheSameRunAgain()
    {
        // The old run is taken down on a thread of its own while the new
        // one plays: nothing of one modelled machine may reach the other.
        Scenario s = modelled();
        s.engine.workload.operations_per_cpu = 30000;
        const pcl::RunResult whole = pcl::run_scenario(s);
        Simulation sim;
        sim.setScenario(s);
        for (int run = 0; run < 3; ++run) {
            sim.play();
            if (run == 1)
                QTRY_VERIFY_WITH_TIMEOUT(sim.elapsedSeconds() > 0.01, 10000); // reset while it plays
            else
                QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 30000);
            if (run != 1) {
                const auto r = sim.result();
                QVERIFY(r.has_value());
                QCOMPARE(sameRun(*r, whole), QString());
            }
            sim.reset();
        }
    }

    void aModelledRunTakenBackToABookmarkShowsTheMachineAsItStood()
    {
        Simulation sim;
        pcl::ui::RewindBar bar(sim, {});
        sim.setScenario(mmapWriters());
        playWithAStep(sim);
        bar.bookmark();
        QCOMPARE(bar.bookmarks()->actions().size(), 1);
        const std::uint64_t marked = sim.runningNs();
        const std::string then = machineAsViewed(sim);
        QVERIFY(then.find("lockrow mapping[0].tree_lock") != std::string::npos);
        // On to the end, then back to the bookmark.
        sim.setPlaybackRate(0);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QVERIFY(machineAsViewed(sim) != then);
        const std::uint64_t end = sim.runningNs();
        QCOMPARE(sim.reachedNs(), end);
        bar.bookmarks()->actions().at(0)->trigger();
        QCOMPARE(sim.runningNs(), marked);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QCOMPARE(firstDifference(machineAsViewed(sim), then), QString());
        QCOMPARE(bar.bookmarks()->actions().size(), 1); // kept across the rewind
        QCOMPARE(sim.reachedNs(), end);
        // And plays on to the same end as before.
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.runningNs(), end);
        // Back one frame and forward again by the scrubber: the same moment.
        bar.back();
        QVERIFY(sim.runningNs() < end);
        sim.rewindTo(marked);
        QCOMPARE(firstDifference(machineAsViewed(sim), then), QString());
    }

    void aRewindFromACheckpointShowsWhatARunFromTheStartShows()
    {
        // The bookmark test's run, with a checkpoint at every tick: a
        // rewind then restores the nearest one before the moment and
        // re-executes from there, and every view must show what the run
        // showed when it first passed the moment.
        Simulation sim;
        pcl::ui::RewindBar bar(sim, {});
        sim.setScenario(mmapWriters());
        if (!sim.checkpoints().enabled() || sim.checkpoints().size() == 0)
            QSKIP("no checkpoints in this build (a sanitizer's): rewinds run the run again from its start");
        sim.checkpoints().setEveryHostNs(0);
        playWithAStep(sim); // the checkpoints after the step hold it already
        const std::uint64_t marked = sim.runningNs();
        const std::string then = machineAsViewed(sim);
        sim.setPlaybackRate(0);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        const std::uint64_t end = sim.runningNs();
        QVERIFY(sim.checkpoints().size() > 3);

        sim.rewindTo(marked);
        QVERIFY(sim.lastRewindFromNs().has_value());
        QVERIFY(*sim.lastRewindFromNs() > 0);
        QVERIFY(*sim.lastRewindFromNs() <= marked);
        QCOMPARE(sim.runningNs(), marked);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QCOMPARE(firstDifference(machineAsViewed(sim), then), QString());
        // Before the step: from a checkpoint before the change, made again.
        sim.rewindTo(1'000'000);
        QVERIFY(sim.lastRewindFromNs().has_value());
        QVERIFY(*sim.lastRewindFromNs() <= 1'000'000);
        sim.rewindTo(marked);
        QCOMPARE(firstDifference(machineAsViewed(sim), then), QString());
        // And on to the same end: the same run.
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.runningNs(), end);
        QVERIFY(!sim.branchedAtNs());

        // A change after a rewind is a branch: the checkpoints after it go.
        sim.rewindTo(marked);
        sim.step(2);
        QCOMPARE(sim.branchedAtNs(), std::optional<std::uint64_t>(marked));
        const pcl::ui::RunCheckpoints::Entry* last = sim.checkpoints().latestAtOrBefore(end);
        QVERIFY(last && last->runningNs() <= marked);
    }

    void backOneOperationGoesToWhereTheLastOneBegan()
    {
        Simulation sim;
        pcl::ui::RewindBar bar(sim, {});
        std::optional<unsigned> focus;
        bar.setFocusedCpu([&focus] { return focus; });
        sim.setScenario(modelled());
        sim.setPlaybackRate(0.01);
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.runningNs() > 5'000'000, 10000);
        sim.pause();
        // Of any CPU: back by as long ago as the latest operation began.
        std::uint64_t at = sim.runningNs();
        std::uint64_t clock = sim.clockNowNs();
        std::optional<std::uint64_t> began = sim.engine()->operation_began_before(clock);
        QVERIFY(began && *began < clock);
        bar.backOneOperation();
        QCOMPARE(sim.runningNs(), at - (clock - *began));
        QCOMPARE(sim.clockNowNs(), *began);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        // Again: the one before it.
        at = sim.runningNs();
        bar.backOneOperation();
        QVERIFY(sim.runningNs() < at);
        // Of the CPU in focus: its own last operation, further back than
        // the latest of any CPU's.
        focus = 2;
        at = sim.runningNs();
        clock = sim.clockNowNs();
        began = sim.engine()->operation_began_before(clock, 2u);
        QVERIFY(began);
        QVERIFY(*began <= *sim.engine()->operation_began_before(clock));
        bar.backOneOperation();
        QCOMPARE(sim.runningNs(), at - (clock - *began));
        // Played on from there unchanged, it is the same run: no branch.
        QVERIFY(!sim.branchedAtNs());
        sim.setPlaybackRate(0);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QVERIFY(!sim.branchedAtNs());
        const std::uint64_t end = sim.runningNs();
        // Taken back and changed (a step, each CPU one operation, made
        // there): from there another run, and the bar says so.
        sim.rewindTo(end / 2);
        sim.step(1);
        QVERIFY(sim.branchedAtNs());
        QCOMPARE(*sim.branchedAtNs(), end / 2);
        QCOMPARE(sim.reachedNs(), end / 2);
        QTRY_VERIFY2(bar.text().contains(QStringLiteral("a branch, changed at")), qPrintable(bar.text()));
        // Back before the change, the branch is still this run's: made
        // again at its moment.
        sim.rewindTo(end / 4);
        QCOMPARE(*sim.branchedAtNs(), end / 2);
        // A reset plays the scenario afresh: no branch.
        sim.reset();
        QVERIFY(!sim.branchedAtNs());
        // A run on this computer's threads cannot be taken back.
        Simulation host;
        host.setScenario(small(2, 100));
        QVERIFY(!host.backOneOperation());
    }

    void aModelledRunPlaysNoFasterThanItsRate()
    {
        Simulation sim;
        sim.setScenario(modelled());
        sim.setPlaybackRate(1e-3); // a modelled millisecond a second
        QElapsedTimer wall;
        wall.start();
        sim.play();
        QTest::qWait(500);
        const double seconds = double(wall.elapsed()) / 1000;
        // Never ahead of the rate (a tick's worth at most), whatever this
        // computer's speed; behind only if it could not compute it.
        QVERIFY2(sim.elapsedSeconds() <= 1e-3 * (seconds + 2.0 / Simulation::kTicksPerSecond),
            qPrintable(QString::number(sim.elapsedSeconds())));
        QVERIFY(sim.elapsedSeconds() > 0);
        QVERIFY_EXCEPTION_THROWN(sim.setPlaybackRate(-1), std::invalid_argument);
        QVERIFY_EXCEPTION_THROWN(sim.setPlaybackRate(100), std::invalid_argument);
    }

    void aStepOnAModelledMachineIsEachCpusOperation()
    {
        Simulation sim;
        sim.setScenario(modelled());
        sim.step(2);
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QTRY_COMPARE_WITH_TIMEOUT(sim.engine()->operations(), std::uint64_t(8), 10000);
        QTest::qWait(100); // and no more
        QCOMPARE(sim.engine()->operations(), std::uint64_t(8));
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QCOMPARE(sim.engine()->operations(), std::uint64_t(4 * 3000));
    }

    void aBadScenarioIsRefusedWithTheField()
    {
        Simulation sim;
        Scenario s = small(1, 10);
        s.engine.workload.cpus = 0;
        try {
            sim.setScenario(s);
            QFAIL("a scenario with no CPU was accepted");
        } catch (const pcl::ScenarioError& e) {
            QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("workload.cpus"));
        }
        QCOMPARE(sim.state(), Simulation::State::Empty);
    }
};

PCL_UI_TEST(TestSimulation)
#include "test_simulation.moc"
