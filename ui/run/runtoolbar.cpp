#include "run/runtoolbar.h"

#include "run/simulation.h"
#include "sched/machine_profiles.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSlider>
#include <QStyle>

#include <algorithm>
#include <cmath>
#include <thread>

namespace pcl::ui {

namespace {

QLabel* figure(const QString& tooltip)
{
    auto* label = new QLabel(QStringLiteral("—"));
    label->setToolTip(tooltip);
    label->setTextFormat(Qt::RichText);
    label->setContentsMargins(6, 0, 6, 0);
    return label;
}

QString rate(double perSecond)
{
    if (!std::isfinite(perSecond))
        return QStringLiteral("—");
    if (perSecond >= 1e6)
        return QString::number(perSecond / 1e6, 'f', 2) + QStringLiteral(" M/s");
    if (perSecond >= 1e3)
        return QString::number(perSecond / 1e3, 'f', 1) + QStringLiteral(" k/s");
    return QString::number(perSecond, 'f', 0) + QStringLiteral(" /s");
}

QString caption(const QString& name, const QString& value)
{
    return QStringLiteral("<span style='opacity:0.7'>%1</span>&nbsp;<b>%2</b>").arg(name, value);
}

} // namespace

const std::vector<double>& RunToolBar::speeds()
{
    static const std::vector<double> kSpeeds { 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000, 0 };
    return kSpeeds;
}

namespace {

/// The stop of @stops (the last one 0) closest to @value on a log scale.
int closestStop(const std::vector<double>& stops, double value)
{
    if (value <= 0)
        return int(stops.size()) - 1;
    int best = 0;
    for (int i = 0; i + 1 < int(stops.size()); ++i)
        if (std::abs(std::log(stops[i] / value)) < std::abs(std::log(stops[best] / value)))
            best = i;
    return best;
}

} // namespace

int RunToolBar::positionFor(double opsPerSecond)
{
    return closestStop(speeds(), opsPerSecond);
}

const std::vector<double>& RunToolBar::playbackRates()
{
    static const std::vector<double> kRates { 1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1,
        0 };
    return kRates;
}

QString RunToolBar::timeText(double seconds)
{
    if (seconds >= 1 || seconds == 0)
        return QString::number(seconds, 'f', 1) + QStringLiteral(" s");
    if (seconds >= 1e-3)
        return QString::number(seconds * 1e3, 'f', seconds >= 0.1 ? 0 : 1) + QStringLiteral(" ms");
    return QString::number(seconds * 1e6, 'f', 0) + QStringLiteral(" \u00b5s");
}

QString RunToolBar::playbackText(double modelledSecondsPerSecond)
{
    if (modelledSecondsPerSecond <= 0)
        return tr("as fast as it computes");
    if (modelledSecondsPerSecond == 1)
        return tr("real time");
    return tr("%1 a second").arg(timeText(modelledSecondsPerSecond));
}

const std::vector<double>& RunToolBar::stops() const
{
    return sim_.isModelled() ? playbackRates() : speeds();
}

QString RunToolBar::speedText(double opsPerSecond)
{
    if (opsPerSecond <= 0)
        return tr("unpaced");
    const QString n = opsPerSecond >= 1000 ? QString::number(opsPerSecond / 1000) + QStringLiteral("k")
                                           : QString::number(opsPerSecond);
    return tr("%1 ops/s per CPU").arg(n);
}

RunToolBar::RunToolBar(Simulation& simulation, QWidget* parent)
    : QToolBar(tr("Run"), parent)
    , sim_(simulation)
    , play_(new QAction(this))
    , step_(new QAction(tr("Step"), this))
    , reset_(new QAction(tr("Reset"), this))
    , machine_(new QComboBox)
    , speed_(new QSlider(Qt::Horizontal))
    , speedLabel_(new QLabel)
    , elapsed_(figure(tr("Running time of this run (pauses excluded)")))
    , opsRate_(figure(tr("Operations per second, all CPUs, over the last sampling interval. An operation is one "
                         "read(2) call or one page fault of the workload")))
    , faultRate_(figure(tr("Page faults per second over the last interval: minor (page cached), major (read from "
                           "the disk by this CPU), waiting for another CPU's read, and anonymous")))
    , hitRatio_(figure(tr("Hit ratio: of the page-cache lookups in the last interval, the share that found the page "
                          "in the cache (a hit); a miss must read the page from the disk")))
    , lockWait_(figure(tr("Lock wait: the share of the CPUs' time in the last interval spent waiting to acquire a "
                          "lock (summed over all locks, divided by CPUs x interval)")))
{
    setObjectName(QStringLiteral("runToolBar"));
    setMovable(false);
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    play_->setObjectName(QStringLiteral("playAction"));
    play_->setShortcut(Qt::Key_Space);
    connect(play_, &QAction::triggered, &sim_, &Simulation::togglePlay);
    addAction(play_);

    step_->setObjectName(QStringLiteral("stepAction"));
    step_->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    step_->setShortcut(Qt::Key_S);
    step_->setToolTip(tr("Step: each CPU does one more operation, then holds (S)"));
    connect(step_, &QAction::triggered, this, [this] { sim_.step(1); });
    addAction(step_);

    reset_->setObjectName(QStringLiteral("resetAction"));
    reset_->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    reset_->setShortcut(Qt::Key_R);
    reset_->setToolTip(tr("Reset: start this scenario again from the beginning (R)"));
    connect(reset_, &QAction::triggered, &sim_, &Simulation::reset);
    addAction(reset_);

    addSeparator();
    // The machine: this computer's threads, or the machine of an argument,
    // modelled (its CPUs scheduled in virtual time, the same every run).
    machine_->setObjectName(QStringLiteral("machineBox"));
    // Never the keyboard's: a combo box with the focus takes Space (play)
    // to open itself, and Home or an arrow to change the machine. The
    // Parameters panel's machine field is the keyboard's way to choose.
    machine_->setFocusPolicy(Qt::NoFocus);
    machine_->setAccessibleName(tr("Machine"));
    machine_->setToolTip(tr("The machine the run is on: this computer, its simulated CPUs on real threads, or a "
                            "modelled machine of one of the threads, its CPUs in virtual time, the same in every "
                            "run and on every computer"));
    machine_->addItem(tr("This computer"), QString());
    machine_->setItemData(0,
        tr("The simulated CPUs run on this computer's %1 cores as real threads, in its own time")
            .arg(std::thread::hardware_concurrency()),
        Qt::ToolTipRole);
    for (const std::string& name : sched::machine_profile_names()) {
        try {
            const sched::MachineProfile p = sched::load_machine_profile(name);
            const QString title
                = name == sched::kHostMachine ? tr("This computer, modelled") : Simulation::shortMachineTitle(p.title);
            machine_->addItem(tr("%1 · %2").arg(title, Simulation::cpusText(p.max_cpus)), QString::fromStdString(name));
            machine_->setItemData(machine_->count() - 1, QString::fromStdString(p.description), Qt::ToolTipRole);
        } catch (const std::exception&) {
            // A broken profile of the user's is not offered; `pagecache-lab-cli machines` says what is wrong.
        }
    }
    machine_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    machine_->setMinimumContentsLength(12);
    addWidget(machine_);
    connect(machine_, &QComboBox::activated, this, &RunToolBar::machineChosen);

    addSeparator();
    auto* speedBox = new QWidget;
    auto* speedLayout = new QHBoxLayout(speedBox);
    speedLayout->setContentsMargins(8, 0, 8, 0);
    auto* slow = new QLabel(tr("slow"));
    auto* fast = new QLabel(tr("fast"));
    speed_->setObjectName(QStringLiteral("speedSlider"));
    speed_->setRange(0, int(speeds().size()) - 1);
    speed_->setPageStep(1);
    speed_->setTickPosition(QSlider::TicksBelow);
    speed_->setMinimumWidth(100);
    speed_->setToolTip(tr("Speed: operations per second per CPU, from slow motion to unpaced (as fast as the "
                          "machine goes). Applies at once."));
    speedLabel_->setMinimumWidth(speedLabel_->fontMetrics().horizontalAdvance(QStringLiteral("100k ops/s per CPU")));
    speedLayout->addWidget(slow);
    speedLayout->addWidget(speed_);
    speedLayout->addWidget(fast);
    speedLayout->addWidget(speedLabel_);
    addWidget(speedBox);
    connect(speed_, &QSlider::valueChanged, this, &RunToolBar::speedChanged);

    addSeparator();
    for (QLabel* l : { elapsed_, opsRate_, faultRate_, hitRatio_, lockWait_ })
        addWidget(l);

    connect(&sim_, &Simulation::stateChanged, this, &RunToolBar::updateActions);
    connect(&sim_, &Simulation::runReset, this, [this] {
        showMachine();
        if (sim_.isModelled())
            showPlayback(sim_.playbackRate());
        else
            showSpeed(sim_.scenario().engine.ops_per_second);
        updateActions();
        updateFigures();
    });
    // The Parameters panel and a lesson's step set the speed too: the
    // slider says what the run does, whoever set it.
    connect(&sim_, &Simulation::pacingChanged, this, [this](double ops) {
        if (!sim_.isModelled())
            showSpeed(ops);
    });
    connect(&sim_, &Simulation::playbackRateChanged, this, &RunToolBar::showPlayback);
    connect(&sim_, &Simulation::ticked, this, &RunToolBar::updateFigures);
    showSpeed(sim_.scenario().engine.ops_per_second);
    updateActions();
    updateFigures();
}

void RunToolBar::showMachine()
{
    const MachineSpec& m = sim_.scenario().engine.machine;
    const QString name = m.is_modelled() ? QString::fromStdString(m.profile) : QString();
    const int index = machine_->findData(name);
    const QSignalBlocker block(machine_);
    machine_->setCurrentIndex(std::max(index, 0));
}

void RunToolBar::machineChosen(int index)
{
    Scenario s = sim_.scenario();
    const std::string name = machine_->itemData(index).toString().toStdString();
    s.engine.machine.profile = name.empty() ? std::string(sched::kHostMachine) : name;
    s.engine.machine.modelled = name == sched::kHostMachine;
    if (!s.engine.machine.is_modelled()) {
        // This computer's threads have their own transfers and their own
        // order: a model's scale and seed do not apply to them.
        s.engine.machine.latency_scale = 1.0;
        s.engine.machine.schedule_seed = 0;
    }
    try {
        if (!name.empty()) {
            // A modelled machine has the CPUs it has: a run of more is
            // brought down to them, and says so.
            const unsigned most = sched::load_machine_profile(name).max_cpus;
            if (s.engine.workload.cpus > most && !s.engine.trace) {
                s.engine.workload.cpus = most;
                QMessageBox::information(
                    this, tr("Machine"), tr("This machine has %1 CPUs: the run now has as many.").arg(most));
            }
        }
        sim_.setScenario(s);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Machine"), QString::fromStdString(e.what()));
        showMachine();
    }
}

void RunToolBar::showSpeed(double opsPerSecond)
{
    const QSignalBlocker block(speed_);
    speed_->setRange(0, int(speeds().size()) - 1);
    speed_->setToolTip(tr("Speed: operations per second per CPU, from slow motion to unpaced (as fast as the "
                          "machine goes). Applies at once."));
    speed_->setValue(positionFor(opsPerSecond));
    // The speed itself, which may lie between two stops.
    speedLabel_->setText(speedText(opsPerSecond));
}

void RunToolBar::showPlayback(double modelledSecondsPerSecond)
{
    const QSignalBlocker block(speed_);
    speed_->setRange(0, int(playbackRates().size()) - 1);
    speed_->setToolTip(tr("Playback: how much of the modelled machine's time passes in a second of yours, from a "
                          "microsecond to real time, or as fast as this computer can compute it. The run is the "
                          "same at every speed. Applies at once."));
    speed_->setValue(closestStop(playbackRates(), modelledSecondsPerSecond));
    speedLabel_->setText(playbackText(modelledSecondsPerSecond));
}

void RunToolBar::speedChanged(int position)
{
    if (sim_.isModelled()) {
        const double rate = playbackRates()[std::size_t(position)];
        speedLabel_->setText(playbackText(rate));
        sim_.setPlaybackRate(rate);
        return;
    }
    const double ops = speeds()[std::size_t(position)];
    speedLabel_->setText(speedText(ops));
    try {
        sim_.setPacing(ops, sim_.scenario().engine.hold_stretch_ns);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Speed"), QString::fromStdString(e.what()));
    }
}

void RunToolBar::updateActions()
{
    const Simulation::State s = sim_.state();
    const bool running = s == Simulation::State::Running;
    play_->setText(running ? tr("Pause") : tr("Play"));
    play_->setIcon(style()->standardIcon(running ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    play_->setToolTip(running ? tr("Pause the run (Space)") : tr("Run the scenario (Space)"));
    const bool live = s == Simulation::State::Ready || s == Simulation::State::Paused || running;
    play_->setEnabled(live);
    step_->setEnabled(live);
    reset_->setEnabled(s != Simulation::State::Empty);
    machine_->setEnabled(s != Simulation::State::Empty);
    speed_->setEnabled(s != Simulation::State::Empty);
}

void RunToolBar::updateFigures()
{
    if (sim_.isModelled()) {
        // Virtual time, in the unit that suits it: a modelled run of a few
        // milliseconds is most of a lecture's.
        QString text = timeText(sim_.elapsedSeconds());
        if (sim_.state() == Simulation::State::Running && sim_.playbackRate() > 0 && sim_.playbackReached() < 0.9)
            text += tr(" (computed at %1 % of the rate)").arg(int(std::round(sim_.playbackReached() * 100)));
        elapsed_->setText(caption(tr("modelled time"), text));
        elapsed_->setToolTip(tr("Time on the modelled machine since the run began: virtual, the same on every "
                                "computer, standing still while paused"));
    } else {
        elapsed_->setText(caption(tr("time"), QString::number(sim_.elapsedSeconds(), 'f', 1) + QStringLiteral(" s")));
        elapsed_->setToolTip(tr("Running time of this run (pauses excluded)"));
    }
    if (sim_.samples().empty()) {
        for (auto [label, name] : { std::pair { opsRate_, tr("ops") }, std::pair { faultRate_, tr("faults") },
                 std::pair { hitRatio_, tr("hits") }, std::pair { lockWait_, tr("lock wait") } })
            label->setText(caption(name, QStringLiteral("—")));
        return;
    }
    const MetricsSample& s = sim_.samples().back();
    opsRate_->setText(caption(tr("ops"), rate(s.operations_per_s)));
    faultRate_->setText(caption(tr("faults"),
        rate(s.minor_faults_per_s + s.major_faults_per_s + s.wait_io_faults_per_s + s.anon_faults_per_s)));
    hitRatio_->setText(caption(tr("hits"),
        std::isfinite(s.hit_ratio) ? QString::number(s.hit_ratio * 100, 'f', 1) + QStringLiteral(" %")
                                   : QStringLiteral("—")));
    lockWait_->setText(
        caption(tr("lock wait"), QString::number(s.lock_wait_fraction * 100, 'f', 1) + QStringLiteral(" %")));
}

QStringList RunToolBar::figures() const
{
    QStringList out;
    for (QLabel* l : { elapsed_, opsRate_, faultRate_, hitRatio_, lockWait_ })
        out.append(l->text());
    return out;
}

} // namespace pcl::ui
