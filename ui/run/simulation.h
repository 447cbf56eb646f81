// One run on screen: a scenario, its run loop, and what the views read.
//
// On a modelled machine (sim/modelled_run.h) the run is played in virtual
// time: each tick lets the machine run on by the playback rate (say one
// modelled millisecond a second), within a share of the tick's host time,
// and between ticks the whole machine stands, so the views read it frozen.
// The run is then the command line's run of the same scenario, event for
// event, whatever the rate: a pause only stops the slices, and a step, a
// change of speed or pacing is a change to the run, made on the machine.
//
// The views never touch the engine's threads. A timer on the GUI thread
// turns the run loop the command line turns (sim/run_loop.h: drain the
// event rings, sample, end at the duration), then tells the views (ticked,
// eventsArrived); they read what they need from here and redraw. The engine
// never waits for the GUI: draining is the reader's side of the rings, and a
// view that falls behind only means older events were dropped (and counted).
#pragma once

#include "events/event.h"
#include "kit/liverun.h"
#include "run/runcheckpoints.h"
#include "sim/chrome_trace.h"
#include "sim/modelled_run.h"
#include "sim/run_loop.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <vector>

namespace pcl::ui {

class Simulation : public LiveRun {
    Q_OBJECT
public:
    enum class State { Empty, Ready, Running, Paused, Finished, Stopped, Failed };

    /// Events handed to the views per tick at most: at benchmark speed the
    /// CPUs record millions a second, more than any view can show, and a
    /// tick must stay short (the event loop never stalls). The newest are
    /// kept; the rest are counted in eventsNotShown().
    static constexpr std::size_t kMaxEventsPerTick = 20000;

    explicit Simulation(QObject* parent = nullptr);
    ~Simulation() override;

    /// Makes @scenario the next run (validated: throws ScenarioError), and
    /// ends the current one. The new run is built and waits for play() or
    /// step().
    void setScenario(const Scenario& scenario);
    const Scenario& scenario() const { return scenario_; }
    /// The run's name in the names of the files it is saved to: the
    /// preset's or the lesson's ("2002-global-hash-lock"); made from the
    /// scenario's title when none was given.
    QString fileStem() const;
    void setFileStem(const QString& stem) { fileStem_ = stem; }

    State state() const { return state_; }
    static QString stateName(State state);
    /// What went wrong, for State::Failed.
    QString error() const { return error_; }

    /// Whether a run is built (from Ready on; not when Empty, nor when its
    /// scenario failed to build).
    bool hasRun() const { return loop() != nullptr; }
    /// The running machine, read-only (core's Debugfs): what the windows
    /// and views read of it. Nothing without a run.
    std::optional<Debugfs> debugfs() const override;
    /// The engine itself, for tests that inspect or drive it directly
    /// (nullptr without a run). The windows read debugfs(); control goes
    /// through this class.
    Engine* engine() const { return loop() ? &loop()->engine() : nullptr; }
    /// The lock registry of the current run.
    const sync::LockRegistry* registry() const { return loop() ? &loop()->registry() : nullptr; }

    /// Seconds the current run has been running (pauses excluded).
    double elapsedSeconds() const;
    /// Now on the run's clock, the one the events it hands out are stamped
    /// on (pauses left out): a view's live edge. 0 before a run.
    std::uint64_t clockNowNs() const;
    /// The time series so far, oldest first (RunLoop::samples).
    const std::vector<MetricsSample>& samples() const;
    /// Events recorded and dropped by the rings; events drained but not
    /// handed to the views (beyond kMaxEventsPerTick).
    std::uint64_t eventsRecorded() const;
    std::uint64_t eventsDropped() const;
    std::uint64_t eventsNotShown() const { return notShown_; }

    /// Whether the run has measured something to save: it has been played
    /// or stepped (a run that failed to build has nothing).
    bool hasResult() const;
    /// The run so far as the command line's result (to_json, series_csv,
    /// locks_csv read it). A running run is paused first, so that its
    /// series closes where its totals are read (a CPU in the middle of an
    /// operation at the pause still finishes it: the totals may hold one
    /// more per CPU than the series); an ended run's result is exact; its
    /// state says which ("paused", "finished"...). Nothing without
    /// hasResult().
    std::optional<RunResult> result();
    /// Every event drained since the run began, for its Chrome trace: the
    /// first ChromeTrace::kDefaultMaxEvents, the rest counted as left out
    /// (the views see only the newest of each tick; the trace sees all).
    const ChromeTrace& trace() const { return trace_; }

    /// The name of the lock an event is about ("mapping[0].tree_lock"), or
    /// its class for an anonymous lock ("radix_node"), "" if unknown.
    QString lockName(const Event& e) const;

    /// Niceness of the engine's CPU threads: the GUI thread keeps drawing
    /// while eight CPUs spin on one lock on a two-core machine.
    static constexpr int kCpuNice = 5;

    /// Ticks per second of the GUI timer (30).
    static constexpr int kTicksPerSecond = 30;
    /// This computer's time a tick lets a modelled machine run at most: the
    /// rest of the tick is the window's, so it keeps drawing and answering.
    static constexpr std::uint64_t kModelledSliceBudgetNs = 18'000'000;

    /// Whether the run is on a modelled machine (its times virtual).
    bool isModelled() const { return modelled_ != nullptr; }
    /// The machine in a few words, for a window title: "modelled SGI Altix
    /// 3000, 64 CPUs"; empty on this computer's threads.
    QString machineShortText() const;
    /// The machine in a sentence, for the status bar: which, how many CPUs,
    /// and what its times are.
    QString machineText() const;
    /// "1 CPU", "64 CPUs".
    static QString cpusText(unsigned cpus);
    /// A profile's title to its first parenthesis or last comma.
    static QString shortMachineTitle(const std::string& title);
    /// On a modelled machine, modelled seconds played per second of the
    /// lecture's (0: as fast as this computer can compute them).
    double playbackRate() const { return playbackRate_; }
    /// Sets it (from 1e-7 to 10, or 0); applies at once.
    void setPlaybackRate(double modelledSecondsPerSecond);
    /// Whether the run can be taken back to an earlier moment: a modelled
    /// run, re-executed (deterministically, the same run) up to it.
    bool canRewind() const { return modelled_ != nullptr; }
    /// The furthest the run has got, in running time (virtual ns): how far
    /// back and forth a rewound run may be moved.
    std::uint64_t reachedNs() const { return reachedNs_; }
    /// Where the run stands, in running time (virtual ns).
    std::uint64_t runningNs() const { return modelled_ ? modelled_->running_ns() : 0; }
    /// Takes a modelled run to @runningNs (0 .. reachedNs(), or on past
    /// it): back by building it again and re-executing it to that moment,
    /// with every step and change of pacing made on the way made again at
    /// the same moment, so that every view shows the machine as it stood
    /// then; forward by letting it run. The run is paused there; Play goes
    /// on from there, the same run. Nothing on this computer's threads.
    void rewindTo(std::uint64_t runningNs);
    /// Takes a modelled run back to where the last operation began before
    /// the moment it stands at: of CPU @cpu, or of any CPU (nullopt). False
    /// when no such operation is remembered (the run has not begun, or a
    /// CPU's earlier ones are further back than it remembers).
    bool backOneOperation(std::optional<unsigned> cpu = std::nullopt);
    /// Where a rewound run was changed (a different speed, a step) and so
    /// went on as another run than the one first played: nullopt for none.
    std::optional<std::uint64_t> branchedAtNs() const { return branchedAtNs_; }
    /// While rewindTo() builds the run again (its runReset is the same
    /// scenario's, taken back).
    bool isRewinding() const { return rewinding_; }
    /// This computer's seconds the last rewindTo() took (re-executing the
    /// run to the moment asked for).
    double lastRewindSeconds() const { return lastRewindSeconds_; }
    /// Where the last rewindTo() re-executed from: the moment of the
    /// checkpoint it restored (running time, virtual ns), or nullopt when
    /// it ran the run again from its start (no checkpoint before the
    /// moment, or none possible: a sanitized build, a host that refused).
    std::optional<std::uint64_t> lastRewindFromNs() const { return lastRewindFromNs_; }
    /// What restoring that checkpoint took of lastRewindSeconds(), and the
    /// machine's pages it wrote back (they differed) and gave back (the
    /// checkpoint never had them): all 0 when there was none to restore.
    struct Restored {
        double seconds = 0;
        std::size_t pagesWritten = 0;
        std::size_t pagesGivenBack = 0;
        std::size_t bytes = 0; ///< the machine's memory at the checkpoint
    };
    const Restored& lastRestore() const { return lastRestore_; }
    /// The checkpoints of the run so far (runcheckpoints.h).
    const RunCheckpoints& checkpoints() const { return checkpoints_; }
    RunCheckpoints& checkpoints() { return checkpoints_; }

    /// The share of the playback rate the last ticks reached (1 when the
    /// machine keeps up; less when computing it takes longer than showing).
    double playbackReached() const { return playbackReached_; }

public Q_SLOTS:
    void play();
    void pause();
    void togglePlay();
    /// Each CPU does @n more operations, then holds (starts a Ready run paused).
    void step(std::uint64_t n = 1);
    /// Ends the current run and builds a fresh one of the same scenario.
    void reset();
    /// Operations per second per CPU (0 = unpaced) and the critical-section
    /// stretch, applied to the running engine at once. Throws
    /// std::invalid_argument for values out of range.
    void setPacing(double opsPerSecond, std::uint64_t holdStretchNs);

Q_SIGNALS:
    /// Then, for Finished, Stopped and Failed, runEnded (LiveRun). runReset,
    /// ticked and eventsArrived are LiveRun's: a new run was built
    /// (setScenario or reset), a tick turned the run, its events.
    void stateChanged(pcl::ui::Simulation::State state);
    /// Samples were taken, oldest first: one at a time as a run on this
    /// computer's threads takes them; on a modelled machine all that a
    /// slice took at once, and after a rewind all of the run's up to the
    /// moment (thousands: a view adds them in one go, not one by one).
    void sampled(const std::vector<pcl::MetricsSample>& samples);
    /// The speed changed (setPacing), from whichever control set it.
    void pacingChanged(double opsPerSecond, std::uint64_t holdStretchNs);
    /// The playback rate of a modelled run changed (setPlaybackRate).
    void playbackRateChanged(double modelledSecondsPerSecond);

private:
    void build();
    void tick();
    void setState(State state);
    /// The state the loop's phase and end mean.
    void followLoop();
    /// Hands a drained batch to the views, the newest kMaxEventsPerTick of it.
    void showEvents(std::vector<Event>& batch);

    /// The run's loop, whichever machine it is on (nullptr without one).
    RunLoop* loop() const;
    /// A modelled run's tick: the next slice, the samples it took.
    void tickModelled();
    /// Hands the samples a modelled slice took to sampled().
    void emitNewSamples();

    Scenario scenario_;
    std::unique_ptr<RunLoop> loop_;
    std::unique_ptr<ModelledRun> modelled_;
    /// While the run is modelled, this thread (the GUI's) reads its machine
    /// standing, and takes none of its locks.
    std::optional<LookingAtStandingMachine> looking_;
    double playbackRate_ = 0;
    double playbackReached_ = 1;
    /// Where the playback has got to, in running time (virtual ns).
    std::uint64_t playbackAt_ = 0;
    std::size_t samplesSeen_ = 0;
    std::uint64_t reachedNs_ = 0;
    std::optional<std::uint64_t> branchedAtNs_;
    bool rewinding_ = false;
    double lastRewindSeconds_ = 0;
    std::optional<std::uint64_t> lastRewindFromNs_;
    Restored lastRestore_;
    RunCheckpoints checkpoints_;
    /// The newest events drained (kMaxEventsPerTick at most): what a
    /// checkpoint shows the views again when the run is taken back to it.
    std::vector<Event> recent_;
    /// After a restore, the checkpoint's events, shown with the next ones.
    std::vector<Event> toShow_;
    void remember(const std::vector<Event>& shown);
    /// Takes a checkpoint where the modelled run stands (when one is due,
    /// or @always).
    void checkpoint(bool always = false);
    /// Takes the run back to checkpoint @c; false when the host refused
    /// (the run must then be built again).
    bool restore(const RunCheckpoints::Entry& c);
    /// Lets the modelled run go (ModelledRun::advance), counting this
    /// computer's time it took towards the next checkpoint.
    ModelledRun::Stop advanceModelled(std::uint64_t until, std::uint64_t budgetNs, const RunLoop::EventSink& sink);
    /// What changed the modelled run on the way, and when (running time):
    /// a rewind makes each again at its moment.
    struct Change {
        std::uint64_t atNs = 0; ///< running time where it was asked for
        std::uint64_t turn = 0; ///< the driver's turn it ran at (ModelledRun::call)
        std::function<void(RunLoop&)> fn;
    };
    std::vector<Change> changes_;
    /// After a rewind, the changes still ahead, made again when the run
    /// gets to them (the same run); a new change drops them (a branch).
    std::vector<Change> ahead_;
    /// Runs @fn on the modelled machine and records it as a change; one the
    /// user makes now (not @again) drops the changes ahead.
    void change(std::function<void(RunLoop&)> fn);
    /// Makes @c again, at the turn it ran at first.
    void changeAgain(const Change& c);
    /// Lets the modelled run go to @runningNs in slices, the views told
    /// once at the end with the newest events.
    void runModelledTo(std::uint64_t runningNs);
    /// The last run, being taken down on a thread of its own: a run of
    /// millions of pages takes seconds to free, which the window does not
    /// wait for. Waited for before the next one goes, and on destruction.
    std::future<void> retiring_;
    void retire(std::unique_ptr<RunLoop> loop, std::unique_ptr<ModelledRun> modelled);
    State state_ = State::Empty;
    QString error_;
    QTimer timer_;
    std::uint64_t notShown_ = 0;
    QString fileStem_;
    ChromeTrace trace_;
};

} // namespace pcl::ui
