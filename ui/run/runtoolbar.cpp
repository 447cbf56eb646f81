#include "run/runtoolbar.h"

#include "run/simulation.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSlider>
#include <QStyle>

#include <cmath>

namespace pcl::ui {

namespace {

QLabel* figure(const QString& tooltip)
{
    auto* label = new QLabel(QStringLiteral("—"));
    label->setToolTip(tooltip);
    label->setTextFormat(Qt::RichText);
    label->setContentsMargins(10, 0, 10, 0);
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

int RunToolBar::positionFor(double opsPerSecond)
{
    const auto& s = speeds();
    if (opsPerSecond <= 0)
        return int(s.size()) - 1;
    int best = 0;
    for (int i = 0; i + 1 < int(s.size()); ++i)
        if (std::abs(std::log(s[i] / opsPerSecond)) < std::abs(std::log(s[best] / opsPerSecond)))
            best = i;
    return best;
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
    auto* speedBox = new QWidget;
    auto* speedLayout = new QHBoxLayout(speedBox);
    speedLayout->setContentsMargins(8, 0, 8, 0);
    auto* slow = new QLabel(tr("slow"));
    auto* fast = new QLabel(tr("fast"));
    speed_->setObjectName(QStringLiteral("speedSlider"));
    speed_->setRange(0, int(speeds().size()) - 1);
    speed_->setPageStep(1);
    speed_->setTickPosition(QSlider::TicksBelow);
    speed_->setMinimumWidth(140);
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
        showSpeed(sim_.scenario().engine.ops_per_second);
        updateActions();
        updateFigures();
    });
    // The Parameters panel and a lesson's step set the speed too: the
    // slider says what the run does, whoever set it.
    connect(&sim_, &Simulation::pacingChanged, this, [this](double ops) { showSpeed(ops); });
    connect(&sim_, &Simulation::ticked, this, &RunToolBar::updateFigures);
    showSpeed(sim_.scenario().engine.ops_per_second);
    updateActions();
    updateFigures();
}

void RunToolBar::showSpeed(double opsPerSecond)
{
    const QSignalBlocker block(speed_);
    speed_->setValue(positionFor(opsPerSecond));
    // The speed itself, which may lie between two stops.
    speedLabel_->setText(speedText(opsPerSecond));
}

void RunToolBar::speedChanged(int position)
{
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
    speed_->setEnabled(s != Simulation::State::Empty);
}

void RunToolBar::updateFigures()
{
    elapsed_->setText(caption(tr("time"), QString::number(sim_.elapsedSeconds(), 'f', 1) + QStringLiteral(" s")));
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
