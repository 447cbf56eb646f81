#include "run/simulation.h"

#include <algorithm>
#include <cmath>

namespace pcl::ui {

Simulation::Simulation(QObject* parent)
    : QObject(parent)
{
    timer_.setInterval(1000 / kTicksPerSecond);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &Simulation::tick);
}

Simulation::~Simulation()
{
    // The engine's CPUs stop and join before the registry they count into goes.
    sampler_.reset();
    engine_.reset();
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
    sampler_.reset();
    engine_.reset(); // stops and joins the old run's CPUs
    registry_ = std::make_unique<sync::LockRegistry>();
    samples_.clear();
    batch_.clear();
    notShown_ = 0;
    error_.clear();
    started_ = false;
    elapsedBefore_ = 0;
    lastSampleAt_ = 0;
    running_.invalidate();
    try {
        engine_ = std::make_unique<Engine>(scenario_.engine, *registry_);
        engine_->set_thread_nice(kCpuNice);
        sampler_ = std::make_unique<MetricsSampler>(*engine_);
    } catch (const std::exception& e) {
        engine_.reset();
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
}

double Simulation::elapsedSeconds() const
{
    return elapsedBefore_ + (running_.isValid() ? double(running_.nsecsElapsed()) / 1e9 : 0.0);
}

std::uint64_t Simulation::eventsRecorded() const
{
    return engine_ ? engine_->events().pushed() : 0;
}

std::uint64_t Simulation::eventsDropped() const
{
    return engine_ ? engine_->events().dropped() : 0;
}

QString Simulation::lockName(const Event& e) const
{
    if (!registry_)
        return {};
    // Every lock record names its lock the same way (lock_id, class_id).
    const ev::LockAcquired lock { e };
    if (lock.lock_id() != 0)
        if (const std::string name = registry_->lock_name(lock.lock_id()); !name.empty())
            return QString::fromStdString(name);
    return QString::fromStdString(registry_->class_name(lock.class_id()));
}

void Simulation::play()
{
    if (!engine_ || (state_ != State::Ready && state_ != State::Paused))
        return;
    if (!started_) {
        engine_->start();
        started_ = true;
    } else {
        engine_->resume();
        // The interval that spans the pause is not a rate of anything.
        sampler_->sample();
    }
    running_.start();
    timer_.start();
    setState(State::Running);
}

void Simulation::pause()
{
    if (state_ != State::Running)
        return;
    engine_->pause();
    // The interval up to the pause, and the events so far.
    if (elapsedSeconds() > lastSampleAt_)
        takeSample(elapsedSeconds());
    tick();
    elapsedBefore_ = elapsedSeconds();
    running_.invalidate();
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
    if (!engine_ || (state_ != State::Ready && state_ != State::Paused && state_ != State::Running))
        return;
    if (state_ == State::Running)
        pause();
    if (!started_) {
        engine_->start(true);
        started_ = true;
    }
    engine_->step(n);
    setState(State::Paused);
    // Paused, the timer keeps draining (the step's events, as they come)
    // but takes no samples.
    timer_.start();
}

void Simulation::setPacing(double opsPerSecond, std::uint64_t holdStretchNs)
{
    if (engine_)
        engine_->set_pacing(opsPerSecond, holdStretchNs);
    scenario_.engine.ops_per_second = opsPerSecond;
    scenario_.engine.hold_stretch_ns = holdStretchNs;
}

void Simulation::updateFromEngine()
{
    switch (engine_->state()) {
    case Engine::State::Finished:
        setState(State::Finished);
        break;
    case Engine::State::Stopped:
        setState(State::Stopped);
        break;
    case Engine::State::Failed:
        error_ = QString::fromStdString(engine_->error());
        setState(State::Failed);
        break;
    default:
        break;
    }
}

void Simulation::takeSample(double now)
{
    MetricsSample s = sampler_->sample();
    s.time_s = now; // running time: pauses are not part of the run
    lastSampleAt_ = now;
    if (samples_.size() >= kMaxSamples)
        samples_.erase(samples_.begin(), samples_.begin() + static_cast<std::ptrdiff_t>(kMaxSamples / 10));
    samples_.push_back(s);
    Q_EMIT sampled(s);
}

void Simulation::tick()
{
    if (!engine_)
        return;
    const bool running = state_ == State::Running;

    // Events: everything is drained (the rings must not fill for a view),
    // the newest kMaxEventsPerTick are shown.
    batch_.clear();
    engine_->events().drain_all(batch_);
    if (batch_.size() > kMaxEventsPerTick) {
        notShown_ += batch_.size() - kMaxEventsPerTick;
        batch_.erase(batch_.begin(), batch_.end() - static_cast<std::ptrdiff_t>(kMaxEventsPerTick));
    }
    if (!batch_.empty())
        Q_EMIT eventsArrived(batch_);

    // Samples at the scenario's interval of running time.
    const double now = elapsedSeconds();
    const double interval = double(scenario_.sample_interval_ms) / 1000.0;
    if (running && now - lastSampleAt_ >= interval)
        takeSample(now);

    if (running && scenario_.duration_seconds > 0 && now >= scenario_.duration_seconds) {
        engine_->stop();
        setState(State::Stopped);
    } else if (state_ == State::Running || state_ == State::Paused) {
        updateFromEngine();
    }
    if (state_ != State::Running && state_ != State::Paused) {
        // The run is over: its last interval and events, then no more ticks.
        if (running && elapsedSeconds() > lastSampleAt_)
            takeSample(elapsedSeconds());
        elapsedBefore_ = elapsedSeconds();
        running_.invalidate();
        timer_.stop();
        batch_.clear();
        engine_->events().drain_all(batch_);
        if (!batch_.empty())
            Q_EMIT eventsArrived(batch_);
    }
    Q_EMIT ticked();
}

} // namespace pcl::ui
