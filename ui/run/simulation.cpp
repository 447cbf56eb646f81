#include "run/simulation.h"

#include "kit/savefile.h"

#include <algorithm>
#include <cmath>

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
    if (retiring_.valid())
        retiring_.wait();
}

void Simulation::retire(std::unique_ptr<RunLoop> loop)
{
    if (!loop)
        return;
    // At most one old run at a time: a second reset waits for the first.
    if (retiring_.valid())
        retiring_.wait();
    // The CPUs are stopped here, so the old run records nothing more; the
    // views dropped what they held of it when the new run was announced,
    // and nothing else reads it (no view reads a run from another thread).
    loop->end(RunEnd::Stopped, {});
    retiring_ = std::async(std::launch::async, [old = std::move(loop)]() mutable { old.reset(); });
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
    retire(std::move(loop_));
    notShown_ = 0;
    trace_ = ChromeTrace();
    error_.clear();
    try {
        loop_ = std::make_unique<RunLoop>(scenario_);
        loop_->engine().set_thread_nice(kCpuNice);
        loop_->set_sample_callback([this](const MetricsSample& s) { Q_EMIT sampled(s); });
    } catch (const std::exception& e) {
        loop_.reset();
        error_ = QString::fromStdString(e.what());
        setState(State::Failed);
        Q_EMIT runReset();
        return;
    }
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
    if (!loop_)
        return std::nullopt;
    return Debugfs(loop_->engine());
}

double Simulation::elapsedSeconds() const
{
    return loop_ ? loop_->running_seconds() : 0.0;
}

std::uint64_t Simulation::clockNowNs() const
{
    return loop_ ? loop_->clock_now_ns() : 0;
}

const std::vector<MetricsSample>& Simulation::samples() const
{
    static const std::vector<MetricsSample> none;
    return loop_ ? loop_->samples() : none;
}

std::uint64_t Simulation::eventsRecorded() const
{
    return loop_ ? loop_->engine().events().pushed() : 0;
}

std::uint64_t Simulation::eventsDropped() const
{
    return loop_ ? loop_->engine().events().dropped() : 0;
}

QString Simulation::fileStem() const
{
    return fileStem_.isEmpty() ? fileNameStem(QString::fromStdString(scenario_.title)) : fileStem_;
}

bool Simulation::hasResult() const
{
    return loop_ && loop_->phase() != RunLoop::Phase::Ready;
}

std::optional<RunResult> Simulation::result()
{
    if (!hasResult())
        return std::nullopt;
    pause();
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
    if (!loop_ || (state_ != State::Ready && state_ != State::Paused))
        return;
    loop_->play();
    timer_.start();
    setState(State::Running);
}

void Simulation::pause()
{
    if (state_ != State::Running)
        return;
    loop_->pause(); // closes the interval up to the pause
    tick();         // and the events so far
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
    if (!loop_ || (state_ != State::Ready && state_ != State::Paused && state_ != State::Running))
        return;
    if (state_ == State::Running)
        pause();
    loop_->step(n);
    setState(State::Paused);
    // Paused, the timer keeps draining (the step's events, as they come)
    // but takes no samples.
    timer_.start();
}

void Simulation::setPacing(double opsPerSecond, std::uint64_t holdStretchNs)
{
    if (loop_)
        loop_->set_pacing(opsPerSecond, holdStretchNs);
    scenario_.engine.ops_per_second = opsPerSecond;
    scenario_.engine.hold_stretch_ns = holdStretchNs;
    Q_EMIT pacingChanged(opsPerSecond, holdStretchNs);
}

void Simulation::followLoop()
{
    if (loop_->phase() != RunLoop::Phase::Ended)
        return;
    const RunEnd why = loop_->ended_by();
    if (why == RunEnd::Finished) {
        setState(State::Finished);
    } else if (why == RunEnd::Failed) {
        error_ = QString::fromStdString(loop_->engine().error());
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
    if (batch.size() > kMaxEventsPerTick) {
        notShown_ += batch.size() - kMaxEventsPerTick;
        batch.erase(batch.begin(), batch.end() - static_cast<std::ptrdiff_t>(kMaxEventsPerTick));
    }
    Q_EMIT eventsArrived(batch);
}

void Simulation::tick()
{
    if (!loop_)
        return;
    loop_->turn([this](std::vector<Event>& batch) { showEvents(batch); });
    followLoop();
    if (state_ != State::Running && state_ != State::Paused)
        timer_.stop(); // the run is over: no more ticks
    Q_EMIT ticked();
}

} // namespace pcl::ui
