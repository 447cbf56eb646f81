#include "run/simulation.h"

#include "kit/savefile.h"

#include "sim/run_figures.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <system_error>
#include <thread>

namespace pcl::ui {

Simulation::Simulation(QObject* parent)
    : LiveRun(parent)
{
    timer_.setInterval(1000 / kTicksPerSecond);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &Simulation::tick);
}

Simulation::~Simulation()
{
    // ~RunLoop stops the CPUs before their registry goes; a run still being
    // taken down is waited for, so that no thread outlives the window.
    loop_.reset();
    modelled_.reset();
    looking_.reset();
    if (retiring_.valid())
        retiring_.wait();
}

RunLoop* Simulation::loop() const
{
    if (modelled_)
        return modelled_->alive() ? &modelled_->loop() : nullptr;
    return loop_.get();
}

void Simulation::retire(std::unique_ptr<RunLoop> loop, std::unique_ptr<ModelledRun> modelled)
{
    if (!loop && !modelled)
        return;
    // At most one old run at a time: a second reset waits for the first.
    if (retiring_.valid())
        retiring_.wait();
    // The CPUs are stopped here, so the old run records nothing more; the
    // views dropped what they held of it when the new run was announced,
    // and nothing else reads it (no view reads a run from another thread).
    // A modelled run stands until its destructor ends it on its machine.
    if (loop)
        loop->end(RunEnd::Stopped, {});
    retiring_ = std::async(std::launch::async, [old = std::move(loop), oldModelled = std::move(modelled)]() mutable {
        old.reset();
        oldModelled.reset();
    });
}

QString Simulation::stateName(State state)
{
    switch (state) {
    case State::Empty:
        return tr("no scenario");
    case State::Ready:
        return tr("ready");
    case State::Running:
        return tr("running");
    case State::Paused:
        return tr("paused");
    case State::Finished:
        return tr("finished");
    case State::Stopped:
        return tr("stopped");
    case State::Failed:
        return tr("failed");
    }
    return {};
}

void Simulation::setScenario(const Scenario& scenario)
{
    scenario.validate();
    scenario_ = scenario;
    build();
}

void Simulation::reset()
{
    if (state_ == State::Empty)
        return;
    build();
}

void Simulation::build()
{
    timer_.stop();
    retire(std::move(loop_), std::move(modelled_));
    notShown_ = 0;
    samplesSeen_ = 0;
    reachedNs_ = 0;
    if (!rewinding_)
        branchedAtNs_.reset();
    changes_.clear();
    ahead_.clear();
    playbackAt_ = 0;
    playbackReached_ = 1;
    trace_ = ChromeTrace();
    checkpoints_.clear();
    recent_.clear();
    error_.clear();
    try {
        if (scenario_.engine.machine.is_modelled()) {
            modelled_ = std::make_unique<ModelledRun>(scenario_, true);
            if (!looking_)
                looking_.emplace();
            // Paced, a lesson's slow motion plays in real time; unpaced, as
            // fast as the machine can be computed.
            playbackRate_ = scenario_.engine.ops_per_second > 0 ? 1.0 : 0.0;
        } else {
            looking_.reset();
            loop_ = std::make_unique<RunLoop>(scenario_);
            loop_->engine().set_thread_nice(kCpuNice);
            loop_->set_sample_callback([this](const MetricsSample& s) { Q_EMIT sampled({ s }); });
        }
    } catch (const std::exception& e) {
        loop_.reset();
        modelled_.reset();
        looking_.reset();
        error_ = QString::fromStdString(e.what());
        setState(State::Failed);
        Q_EMIT runReset();
        return;
    }
    if (modelled_)
        checkpoint(true); // the run's start: every moment has one before it
    setState(State::Ready);
    Q_EMIT runReset();
    Q_EMIT ticked();
}

void Simulation::setState(State state)
{
    if (state_ == state)
        return;
    state_ = state;
    Q_EMIT stateChanged(state);
    if (state == State::Finished || state == State::Stopped || state == State::Failed)
        Q_EMIT runEnded();
}

std::optional<Debugfs> Simulation::debugfs() const
{
    if (!loop())
        return std::nullopt;
    return Debugfs(loop()->engine());
}

double Simulation::elapsedSeconds() const
{
    if (modelled_)
        return double(modelled_->running_ns()) / 1e9;
    return loop_ ? loop_->running_seconds() : 0.0;
}

std::uint64_t Simulation::clockNowNs() const
{
    if (modelled_)
        return modelled_->clock_now_ns();
    return loop_ ? loop_->clock_now_ns() : 0;
}

const std::vector<MetricsSample>& Simulation::samples() const
{
    static const std::vector<MetricsSample> none;
    return loop() ? loop()->samples() : none;
}

std::uint64_t Simulation::eventsRecorded() const
{
    return loop() ? loop()->engine().events().pushed() : 0;
}

std::uint64_t Simulation::eventsDropped() const
{
    return loop() ? loop()->engine().events().dropped() : 0;
}

QString Simulation::fileStem() const
{
    return fileStem_.isEmpty() ? fileNameStem(QString::fromStdString(scenario_.title)) : fileStem_;
}

bool Simulation::hasResult() const
{
    return loop() && loop()->phase() != RunLoop::Phase::Ready;
}

std::optional<RunResult> Simulation::result()
{
    if (!hasResult())
        return std::nullopt;
    pause();
    if (modelled_)
        return modelled_->result(); // where the machine stands, every event drained
    // Drain once more whatever the state: after step(), or when a CPU ended
    // its operation after the pause's drain, the rings still hold records
    // the totals count, and the trace would miss them.
    tick();
    return loop_->result();
}

QString Simulation::lockName(const Event& e) const
{
    const sync::LockRegistry* registry = this->registry();
    if (!registry)
        return {};
    // Every lock record names its lock the same way (lock_id, class_id).
    const ev::LockAcquired lock { e };
    if (lock.lock_id() != 0)
        if (const std::string name = registry->lock_name(lock.lock_id()); !name.empty())
            return QString::fromStdString(name);
    return QString::fromStdString(registry->class_name(lock.class_id()));
}

void Simulation::play()
{
    if (!loop() || (state_ != State::Ready && state_ != State::Paused))
        return;
    if (modelled_) {
        // Ready, or held after a step: the CPUs go (on the machine). A
        // pause of the slices alone left the run as it was.
        if (loop()->phase() != RunLoop::Phase::Running)
            change([](RunLoop& l) { l.play(); });
        playbackAt_ = modelled_->running_ns();
    } else {
        loop_->play();
    }
    timer_.start();
    setState(State::Running);
}

void Simulation::pause()
{
    if (state_ != State::Running)
        return;
    // A modelled run stands between ticks already: pausing stops the
    // slices and changes nothing of the run.
    if (!modelled_)
        loop_->pause(); // closes the interval up to the pause
    tick();             // and the events so far
    if (state_ == State::Running)
        setState(State::Paused);
}

void Simulation::togglePlay()
{
    if (state_ == State::Running)
        pause();
    else
        play();
}

void Simulation::step(std::uint64_t n)
{
    if (!loop() || (state_ != State::Ready && state_ != State::Paused && state_ != State::Running))
        return;
    if (state_ == State::Running)
        pause();
    if (modelled_)
        change([n](RunLoop& l) { l.step(n); });
    else
        loop_->step(n);
    setState(State::Paused);
    // Paused, the timer keeps draining (the step's events, as they come)
    // but takes no samples.
    timer_.start();
}

void Simulation::setPacing(double opsPerSecond, std::uint64_t holdStretchNs)
{
    if (modelled_ && modelled_->alive())
        change([opsPerSecond, holdStretchNs](RunLoop& l) { l.set_pacing(opsPerSecond, holdStretchNs); });
    else if (loop_)
        loop_->set_pacing(opsPerSecond, holdStretchNs);
    scenario_.engine.ops_per_second = opsPerSecond;
    scenario_.engine.hold_stretch_ns = holdStretchNs;
    Q_EMIT pacingChanged(opsPerSecond, holdStretchNs);
}

QString Simulation::cpusText(unsigned cpus)
{
    return cpus == 1 ? tr("1 CPU") : tr("%1 CPUs").arg(cpus);
}

QString Simulation::shortMachineTitle(const std::string& title)
{
    // To its first parenthesis or last comma: "SGI Altix 3000", "OSDL 8-way
    // Pentium III Xeon 700 MHz".
    QString t = QString::fromStdString(title);
    if (const qsizetype paren = t.indexOf(QStringLiteral(" (")); paren > 0)
        t.truncate(paren);
    else if (const qsizetype comma = t.lastIndexOf(QStringLiteral(", ")); comma > 0)
        t.truncate(comma);
    return t;
}

QString Simulation::machineShortText() const
{
    if (!scenario_.engine.machine.is_modelled() || state_ == State::Empty)
        return {};
    const std::string caption = machine_caption(scenario_); // "a modelled TITLE"
    return tr("modelled %1, %2")
        .arg(shortMachineTitle(caption.substr(std::strlen("a modelled "))), cpusText(scenario_.engine.workload.cpus));
}

QString Simulation::machineText() const
{
    if (state_ == State::Empty)
        return {};
    const unsigned cpus = scenario_.engine.workload.cpus;
    if (!scenario_.engine.machine.is_modelled())
        return tr("This computer: %1 simulated on real threads, %2 cores; times are this computer's")
            .arg(cpusText(cpus))
            .arg(std::thread::hardware_concurrency());
    QString machine = QString::fromStdString(machine_caption(scenario_));
    machine[0] = machine[0].toUpper();
    return tr("%1: %2; times are virtual, the same on every computer").arg(machine, cpusText(cpus));
}

void Simulation::setPlaybackRate(double modelledSecondsPerSecond)
{
    if (!(modelledSecondsPerSecond == 0 || (modelledSecondsPerSecond >= 1e-7 && modelledSecondsPerSecond <= 10)))
        throw std::invalid_argument("the playback rate must be from 1e-7 to 10 modelled seconds a second, or 0");
    playbackRate_ = modelledSecondsPerSecond;
    if (modelled_)
        playbackAt_ = modelled_->running_ns();
    Q_EMIT playbackRateChanged(modelledSecondsPerSecond);
}

void Simulation::followLoop()
{
    if (!loop())
        return;
    if (loop()->phase() != RunLoop::Phase::Ended)
        return;
    const RunEnd why = loop()->ended_by();
    if (why == RunEnd::Finished) {
        setState(State::Finished);
    } else if (why == RunEnd::Failed) {
        error_ = QString::fromStdString(loop()->engine().error());
        setState(State::Failed);
    } else {
        setState(State::Stopped);
    }
}

void Simulation::showEvents(std::vector<Event>& batch)
{
    // Everything is drained (the rings must not fill for a view) and goes
    // to the trace, the newest kMaxEventsPerTick are shown.
    trace_.add(batch);
    // The newest drained, shown or not: what a checkpoint shows the views
    // again runs without a gap up to its moment.
    remember(batch);
    if (batch.size() > kMaxEventsPerTick) {
        notShown_ += batch.size() - kMaxEventsPerTick;
        batch.erase(batch.begin(), batch.end() - static_cast<std::ptrdiff_t>(kMaxEventsPerTick));
        Q_EMIT eventsLeftOut();
    }
    Q_EMIT eventsArrived(batch);
}

void Simulation::remember(const std::vector<Event>& shown)
{
    if (!modelled_)
        return;
    // Only the batch's newest can stay: a fast run drains far more a tick.
    const auto keep = static_cast<std::ptrdiff_t>(std::min(shown.size(), kMaxEventsPerTick));
    recent_.insert(recent_.end(), shown.end() - keep, shown.end());
    if (recent_.size() > kMaxEventsPerTick)
        recent_.erase(recent_.begin(), recent_.end() - static_cast<std::ptrdiff_t>(kMaxEventsPerTick));
}

ModelledRun::Stop Simulation::advanceModelled(
    std::uint64_t until, std::uint64_t budgetNs, const RunLoop::EventSink& sink)
{
    QElapsedTimer took;
    took.start();
    const ModelledRun::Stop stop = modelled_->advance(until, budgetNs, sink);
    checkpoints_.spent(std::uint64_t(took.nsecsElapsed()));
    return stop;
}

void Simulation::checkpoint(bool always)
{
    if (!modelled_ || !modelled_->checkpointable() || !modelled_->alive() || !checkpoints_.enabled())
        return;
    if (!always && !checkpoints_.due(modelled_->running_ns()))
        return;
    try {
        RunCheckpoints::Entry e;
        e.run = modelled_->checkpoint();
        e.changes = changes_.size();
        e.trace = trace_.mark();
        e.recent = recent_;
        e.notShown = notShown_;
        checkpoints_.add(std::move(e));
    } catch (const std::system_error&) {
        // The host would not give a process: this run is taken back by
        // running it again from its start, as a sanitized build's is.
        checkpoints_.disable();
    }
}

bool Simulation::restore(const RunCheckpoints::Entry& c)
{
    // The run's whole course, made and still ahead: the checkpoint holds
    // the first c.changes of it, the rest are made again at their moments.
    std::vector<Change> course = std::move(changes_);
    course.insert(course.end(), ahead_.begin(), ahead_.end());
    try {
        QElapsedTimer took;
        took.start();
        modelled_->restore(*c.run);
        lastRestore_
            = { double(took.nsecsElapsed()) / 1e9, c.run->pages_copied(), c.run->pages_forgotten(), c.run->bytes() };
    } catch (const std::exception&) {
        // The host would not let the checkpoint be read (or its process is
        // gone): this run is built again, and goes back from its start.
        checkpoints_.disable();
        changes_ = std::move(course);
        ahead_.clear();
        return false;
    }
    const auto made = course.begin() + std::ptrdiff_t(std::min(c.changes, course.size()));
    changes_.assign(course.begin(), made);
    ahead_.assign(made, course.end());
    trace_.cut_to(c.trace);
    recent_ = c.recent;
    notShown_ = c.notShown;
    samplesSeen_ = 0;
    // The views start again from the checkpoint's moment, as from a run
    // built again: what they had been shown up to it, then its samples.
    setState(loop()->phase() == RunLoop::Phase::Ready ? State::Ready : State::Paused);
    rewinding_ = true;
    Q_EMIT runReset();
    rewinding_ = false;
    // Shown with the events of the run from here to the moment, the newest
    // of them all, without a gap (runModelledTo).
    toShow_ = recent_;
    return true;
}

void Simulation::change(std::function<void(RunLoop&)> fn)
{
    const std::uint64_t at = modelled_->running_ns();
    // Changed where the run had been before: from here it is another run
    // (a branch), and what the first one did after this is not its future.
    if (at < reachedNs_ || !ahead_.empty()) {
        branchedAtNs_ = at;
        reachedNs_ = at;
        checkpoints_.dropAfter(at);
    }
    ahead_.clear();
    const std::uint64_t turn = modelled_->call(fn, [this](std::vector<Event>& b) { showEvents(b); });
    changes_.push_back({ at, turn, std::move(fn) });
}

void Simulation::changeAgain(const Change& c)
{
    modelled_->call(
        c.fn, [this](std::vector<Event>& b) { showEvents(b); }, c.turn);
    changes_.push_back(c);
}

void Simulation::runModelledTo(std::uint64_t runningNs)
{
    // In slices of a few milliseconds of this computer's time, so that no
    // more than a slice's events are held at once; the trace takes every
    // one, the views the newest.
    std::vector<Event> newest = std::exchange(toShow_, {});
    bool leftOut = false;
    const auto keep = [&](std::vector<Event>& batch) {
        trace_.add(batch);
        remember(batch);
        newest.insert(newest.end(), batch.begin(), batch.end());
        if (newest.size() > 2 * kMaxEventsPerTick) {
            const std::size_t drop = newest.size() - kMaxEventsPerTick;
            notShown_ += drop;
            newest.erase(newest.begin(), newest.begin() + std::ptrdiff_t(drop));
            leftOut = true;
        }
    };
    constexpr std::uint64_t kSliceNs = 5'000'000;
    while (modelled_->alive() && modelled_->running_ns() < runningNs) {
        const ModelledRun::Stop stop = advanceModelled(runningNs, kSliceNs, keep);
        checkpoint(); // on the way: a later rewind to here is quick
        if (stop != ModelledRun::Stop::Budget)
            break;
    }
    if (leftOut)
        Q_EMIT eventsLeftOut();
    if (!newest.empty())
        Q_EMIT eventsArrived(newest);
}

bool Simulation::backOneOperation(std::optional<unsigned> cpu)
{
    if (!modelled_ || !modelled_->alive() || !engine())
        return false;
    // The engine remembers when each operation began on the run's clock;
    // the run stands at clock_now_ns, running_ns into the run.
    const std::uint64_t clockNow = modelled_->clock_now_ns();
    const std::optional<std::uint64_t> began = engine()->operation_began_before(clockNow, cpu);
    if (!began)
        return false;
    const std::uint64_t back = clockNow - *began;
    const std::uint64_t now = modelled_->running_ns();
    rewindTo(now > back ? now - back : 0);
    return true;
}

void Simulation::rewindTo(std::uint64_t runningNs)
{
    if (!modelled_)
        return;
    QElapsedTimer took;
    took.start();
    if (state_ == State::Running)
        pause();
    // Back: from the latest checkpoint before the moment, each change made
    // after it made again at its moment. (Forward, the run goes on from
    // where it stands: the trace and the views hold what it did up to here,
    // and the events between here and a later checkpoint are not kept.)
    lastRewindFromNs_.reset();
    lastRestore_ = {};
    const bool back = runningNs < modelled_->running_ns();
    // (A machine that failed has no course to go back along but its start.)
    const RunCheckpoints::Entry* from = back && modelled_->alive() ? checkpoints_.latestAtOrBefore(runningNs) : nullptr;
    if (from && restore(*from)) {
        lastRewindFromNs_ = from->runningNs();
    } else if (back) {
        // No checkpoint to go back to: the same run again from its start.
        std::vector<Change> course = std::move(changes_);
        course.insert(course.end(), ahead_.begin(), ahead_.end());
        const std::uint64_t reached = reachedNs_;
        const bool checkpoints = checkpoints_.enabled();
        rewinding_ = true;
        build();
        rewinding_ = false;
        if (!modelled_)
            return;
        if (!checkpoints)
            checkpoints_.disable();
        reachedNs_ = reached;
        ahead_ = std::move(course);
    }
    while (!ahead_.empty() && ahead_.front().atNs <= runningNs && modelled_->alive()) {
        const Change next = ahead_.front();
        ahead_.erase(ahead_.begin());
        runModelledTo(next.atNs);
        changeAgain(next);
    }
    runModelledTo(runningNs);
    if (!modelled_->alive())
        return;
    emitNewSamples();
    reachedNs_ = std::max(reachedNs_, modelled_->running_ns());
    playbackAt_ = modelled_->running_ns();
    followLoop();
    if (state_ == State::Ready && loop()->phase() != RunLoop::Phase::Ready)
        setState(State::Paused);
    lastRewindSeconds_ = double(took.nsecsElapsed()) / 1e9;
    timer_.start();
    Q_EMIT ticked();
}

void Simulation::emitNewSamples()
{
    const std::vector<MetricsSample>& all = loop()->samples();
    if (samplesSeen_ >= all.size())
        return;
    const std::vector<MetricsSample> fresh(all.begin() + std::ptrdiff_t(samplesSeen_), all.end());
    samplesSeen_ = all.size();
    Q_EMIT sampled(fresh);
}

void Simulation::tickModelled()
{
    const auto show = [this](std::vector<Event>& batch) { showEvents(batch); };
    const bool stepping = loop()->stepping();
    if (state_ != State::Running && !stepping)
        return;
    constexpr std::uint64_t kNoEnd = ~std::uint64_t(0);
    std::uint64_t until = kNoEnd;
    const std::uint64_t from = modelled_->running_ns();
    if (state_ == State::Running && playbackRate_ > 0) {
        playbackAt_ += std::uint64_t(playbackRate_ * 1e9 / kTicksPerSecond);
        until = playbackAt_;
    }
    // A change still ahead of a rewound run is made again at its moment.
    if (!ahead_.empty())
        until = std::min(until, ahead_.front().atNs);
    try {
        const ModelledRun::Stop stop = advanceModelled(until, kModelledSliceBudgetNs, show);
        if (!ahead_.empty() && modelled_->alive() && modelled_->running_ns() >= ahead_.front().atNs) {
            const Change next = ahead_.front();
            ahead_.erase(ahead_.begin());
            changeAgain(next);
        }
        if (until != kNoEnd && until > from) {
            // Behind the rate: what this computer could compute in the
            // tick's share is what is shown; the debt is not carried on.
            playbackReached_ = double(modelled_->running_ns() - from) / double(until - from);
            if (stop == ModelledRun::Stop::Budget)
                playbackAt_ = modelled_->running_ns();
        } else {
            playbackReached_ = 1;
        }
    } catch (const std::exception& e) {
        error_ = QString::fromStdString(e.what());
        timer_.stop();
        setState(State::Failed);
        return;
    }
    if (modelled_->alive()) {
        emitNewSamples();
        reachedNs_ = std::max(reachedNs_, modelled_->running_ns());
        checkpoint();
    }
}

void Simulation::tick()
{
    if (!loop())
        return;
    if (modelled_)
        tickModelled();
    else
        loop_->turn([this](std::vector<Event>& batch) { showEvents(batch); });
    if (!loop()) {
        Q_EMIT ticked();
        return;
    }
    followLoop();
    if (state_ != State::Running && state_ != State::Paused)
        timer_.stop(); // the run is over: no more ticks
    Q_EMIT ticked();
}

} // namespace pcl::ui
