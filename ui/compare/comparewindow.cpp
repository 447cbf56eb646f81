#include "compare/comparewindow.h"

#include "charts/chartstyle.h"
#include "compare/comparechart.h"
#include "compare/comparecolumn.h"
#include "run/runtoolbar.h"

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QSlider>
#include <QStyle>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>

namespace pcl::ui {

namespace {

const QString kDefaultA = QStringLiteral("2002-global-hash-lock");
const QString kDefaultB = QStringLiteral("2002-radix-tree-per-file");
constexpr int kOpenFile = -1; ///< the picker item that opens a file dialog (its data)

bool ended(Simulation::State s)
{
    return s == Simulation::State::Finished || s == Simulation::State::Stopped || s == Simulation::State::Failed;
}

double faultsPerSecond(const MetricsSample& s)
{
    return s.minor_faults_per_s + s.major_faults_per_s + s.wait_io_faults_per_s + s.anon_faults_per_s;
}

} // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window)
    , sims_ { std::make_unique<Simulation>(), std::make_unique<Simulation>() }
    , toolBar_(new QToolBar(tr("Compare")))
    , start_(new QAction(tr("Start both"), this))
    , pause_(new QAction(tr("Pause both"), this))
    , reset_(new QAction(tr("Reset both"), this))
    , speed_(new QSlider(Qt::Horizontal))
    , speedLabel_(new QLabel)
    , summaryHeading_(new QLabel)
    , summaryLabel_(new QLabel)
{
    setObjectName(QStringLiteral("compareWindow"));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1280, 720);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);

    // The controls: both runs start, pause and reset together, at one speed.
    toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    start_->setObjectName(QStringLiteral("startBoth"));
    start_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    start_->setShortcut(Qt::Key_Space);
    start_->setToolTip(tr("Start both runs at the same moment (Space); a run that has ended starts again"));
    pause_->setObjectName(QStringLiteral("pauseBoth"));
    pause_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    pause_->setToolTip(tr("Pause both runs"));
    reset_->setObjectName(QStringLiteral("resetBoth"));
    reset_->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    reset_->setShortcut(Qt::Key_R);
    reset_->setToolTip(tr("Start both scenarios again from the beginning (R)"));
    connect(start_, &QAction::triggered, this, &CompareWindow::startBoth);
    connect(pause_, &QAction::triggered, this, &CompareWindow::pauseBoth);
    connect(reset_, &QAction::triggered, this, &CompareWindow::resetBoth);
    toolBar_->addAction(start_);
    toolBar_->addAction(pause_);
    toolBar_->addAction(reset_);
    toolBar_->addSeparator();
    auto* speedBox = new QWidget;
    auto* speedLayout = new QHBoxLayout(speedBox);
    speedLayout->setContentsMargins(8, 0, 8, 0);
    speed_->setObjectName(QStringLiteral("speedSlider"));
    speed_->setRange(0, int(RunToolBar::speeds().size()) - 1);
    speed_->setPageStep(1);
    speed_->setTickPosition(QSlider::TicksBelow);
    speed_->setMinimumWidth(160);
    speed_->setMaximumWidth(260);
    speed_->setToolTip(tr("Speed of both runs: operations per second per CPU, from slow motion to unpaced (as fast "
                          "as the machine goes). Applies at once."));
    speedLabel_->setMinimumWidth(speedLabel_->fontMetrics().horizontalAdvance(QStringLiteral("100k ops/s per CPU")));
    speedLayout->addWidget(new QLabel(tr("slow")));
    speedLayout->addWidget(speed_);
    speedLayout->addWidget(new QLabel(tr("fast")));
    speedLayout->addWidget(speedLabel_);
    speedLayout->addStretch(1);
    toolBar_->addWidget(speedBox);
    speed_->setValue(RunToolBar::positionFor(0));
    speedLabel_->setText(RunToolBar::speedText(0));
    connect(speed_, &QSlider::valueChanged, this, &CompareWindow::applySpeed);

    // The pickers and the columns share one grid, so each picker sits over
    // the run it chooses.
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(18);
    grid->setVerticalSpacing(4);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    for (int side = 0; side < 2; ++side) {
        const QString letter = side == 0 ? QStringLiteral("A") : QStringLiteral("B");
        auto* row = new QHBoxLayout;
        auto* label = new QLabel(tr("Scenario %1:").arg(letter));
        pickers_[side] = new QComboBox;
        pickers_[side]->setObjectName(side == 0 ? QStringLiteral("pickerA") : QStringLiteral("pickerB"));
        pickers_[side]->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        pickers_[side]->setMinimumContentsLength(24);
        label->setBuddy(pickers_[side]);
        row->addWidget(label);
        row->addWidget(pickers_[side], 1);
        grid->addLayout(row, 0, side);
        columns_[side] = new CompareColumn(*sims_[side], letter, side);
        grid->addWidget(columns_[side], 1, side);
    }
    layout->addWidget(toolBar_);
    layout->addLayout(grid);
    buildPickers();

    // The difference, in the benchmarks' words.
    auto* summaryFrame = new QFrame;
    summaryFrame->setObjectName(QStringLiteral("summary"));
    summaryFrame->setFrameShape(QFrame::StyledPanel);
    summaryFrame->setAutoFillBackground(true);
    summaryFrame->setBackgroundRole(QPalette::AlternateBase);
    auto* summaryLayout = new QVBoxLayout(summaryFrame);
    summaryLayout->setContentsMargins(10, 6, 10, 6);
    summaryLayout->setSpacing(2);
    QFont big = summaryLabel_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    summaryLabel_->setFont(big);
    summaryLabel_->setTextFormat(Qt::RichText);
    summaryLabel_->setWordWrap(true);
    summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summaryHeading_->setTextFormat(Qt::RichText);
    summaryLayout->addWidget(summaryHeading_);
    summaryLayout->addWidget(summaryLabel_);
    summaryFrame->setToolTip(
        tr("Throughput: all operations of a run divided by its running time. Contentions: acquisitions that found "
           "the lock taken, summed over every lock class. Lock wait: the share of the CPUs' time spent waiting for "
           "locks over the run.\n\nBoth runs share this machine's %n core(s) while running side by side, so each "
           "goes slower than it would alone; the ratio compares them under the same load, as a benchmark's "
           "ratios do.",
            nullptr, QThread::idealThreadCount()));
    layout->addWidget(summaryFrame);

    // The charts: one metric each, both runs overlaid.
    auto* chartRow = new QHBoxLayout;
    chartRow->setSpacing(4);
    const struct {
        QString title;
        QString axis;
        MetricUnit unit;
        CompareChart::Extract extract;
    } specs[] = {
        { tr("Operations/s"), tr("operations/s"), MetricUnit::PerSecond,
            [](const MetricsSample& s) { return s.operations_per_s; } },
        { tr("Lock wait"), tr("% of CPU time"), MetricUnit::Percent,
            [](const MetricsSample& s) { return s.lock_wait_fraction * 100; } },
        { tr("Page faults/s"), tr("faults/s, all kinds"), MetricUnit::PerSecond, faultsPerSecond },
        { tr("Hit ratio"), tr("% of lookups"), MetricUnit::Percent,
            [](const MetricsSample& s) { return s.hit_ratio * 100; } },
    };
    for (const auto& spec : specs) {
        auto* chart = new CompareChart(spec.title, spec.axis, spec.unit, spec.extract);
        auto* view = new QChartView(chart);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(200);
        chartRow->addWidget(view, 1);
        charts_.push_back(chart);
    }
    layout->addLayout(chartRow, 1);

    connectRun(0);
    connectRun(1);
    for (CompareChart* chart : charts_)
        styleChart(chart, palette());

    try {
        setScenarios(ScenarioLibrary::load(kDefaultA), ScenarioLibrary::load(kDefaultB));
    } catch (const std::exception& e) {
        // A bundled preset that does not parse is a build defect; the window
        // still opens, with both pickers free to choose another.
        summaryLabel_->setText(tr("The default scenarios could not be read: %1").arg(QString::fromUtf8(e.what())));
    }
    updateActions();
    updateSummary();
    updateTitle();
}

CompareWindow::~CompareWindow()
{
    // The runs end before the columns reading them go.
    for (auto& sim : sims_) {
        sim->disconnect();
        sim.reset();
    }
}

void CompareWindow::buildPickers()
{
    const QList<ScenarioEntry> presets = ScenarioLibrary::presets();
    for (QComboBox* picker : pickers_) {
        const QSignalBlocker block(picker);
        for (const ScenarioEntry& e : presets) {
            picker->addItem(e.id, e.id);
            picker->setItemData(picker->count() - 1, QString::fromStdString(e.scenario.title), Qt::ToolTipRole);
        }
        picker->insertSeparator(picker->count());
        picker->addItem(tr("Open file…"), kOpenFile);
    }
    for (int side = 0; side < 2; ++side)
        connect(pickers_[side], &QComboBox::activated, this, [this, side](int index) { pickerActivated(side, index); });
}

void CompareWindow::selectInPicker(int side, const ScenarioEntry& entry)
{
    QComboBox* picker = pickers_[side];
    const QSignalBlocker block(picker);
    int index = picker->findData(entry.id);
    if (index < 0) {
        // A file: listed above the separator, by its name, the path in its tooltip.
        index = picker->count() - 2;
        picker->insertItem(index, QFileInfo(entry.id).fileName(), entry.id);
        picker->setItemData(index, entry.path, Qt::ToolTipRole);
    }
    picker->setCurrentIndex(index);
}

void CompareWindow::pickerActivated(int side, int index)
{
    QComboBox* picker = pickers_[side];
    QString id = picker->itemData(index).toString();
    if (picker->itemData(index) == QVariant(kOpenFile)) {
        id = QFileDialog::getOpenFileName(this,
            tr("Open scenario %1").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B")), QString(),
            tr("Scenarios (*.json);;All files (*)"));
        if (id.isEmpty()) {
            selectInPicker(side, entries_[side]);
            return;
        }
    }
    try {
        ScenarioEntry entry = ScenarioLibrary::load(id);
        entry.scenario.engine.ops_per_second = RunToolBar::speeds()[std::size_t(speed_->value())];
        sims_[side]->setScenario(entry.scenario);
        entries_[side] = entry;
        if (!entry.path.startsWith(QLatin1Char(':')))
            ScenarioLibrary::addRecentFile(entry.path);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Scenario"), QString::fromUtf8(e.what()));
    }
    selectInPicker(side, entries_[side]);
    updateTitle();
    updateActions();
}

void CompareWindow::setScenarios(const ScenarioEntry& a, const ScenarioEntry& b)
{
    // Both validated before either side changes.
    a.scenario.validate();
    b.scenario.validate();
    // One speed for both, A's: a comparison at two speeds compares nothing.
    const double ops = a.scenario.engine.ops_per_second;
    ScenarioEntry entries[2] = { a, b };
    for (int side = 0; side < 2; ++side) {
        entries[side].scenario.engine.ops_per_second = ops;
        sims_[side]->setScenario(entries[side].scenario);
        entries_[side] = entries[side];
        selectInPicker(side, entries_[side]);
    }
    {
        const QSignalBlocker block(speed_);
        speed_->setValue(RunToolBar::positionFor(ops));
    }
    speedLabel_->setText(RunToolBar::speedText(ops));
    updateTitle();
    updateActions();
    updateSummary();
}

void CompareWindow::startBoth()
{
    // Build first (a run that has ended starts again), then play back to
    // back: the two starts are a few microseconds apart.
    for (auto& sim : sims_)
        if (ended(sim->state()))
            sim->reset();
    for (auto& sim : sims_)
        sim->play();
}

void CompareWindow::pauseBoth()
{
    for (auto& sim : sims_)
        sim->pause();
}

void CompareWindow::resetBoth()
{
    for (auto& sim : sims_)
        sim->reset();
}

void CompareWindow::applySpeed(int position)
{
    const double ops = RunToolBar::speeds()[std::size_t(position)];
    speedLabel_->setText(RunToolBar::speedText(ops));
    try {
        for (auto& sim : sims_)
            sim->setPacing(ops, sim->scenario().engine.hold_stretch_ns);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Speed"), QString::fromUtf8(e.what()));
    }
}

void CompareWindow::connectRun(int side)
{
    Simulation& sim = *sims_[side];
    connect(&sim, &Simulation::runReset, this, [this, side] {
        totals_[side] = {};
        for (CompareChart* chart : charts_)
            chart->clear(side);
        updateSummary();
    });
    connect(&sim, &Simulation::sampled, this, [this, side](const std::vector<MetricsSample>& samples) {
        for (const MetricsSample& s : samples) {
            totals_[side].add(s);
            for (CompareChart* chart : charts_)
                chart->addSample(side, s);
        }
    });
    connect(&sim, &Simulation::ticked, this, &CompareWindow::updateSummary);
    connect(&sim, &Simulation::stateChanged, this, [this] {
        updateSummary();
        updateActions();
    });
}

void CompareWindow::updateSummary()
{
    for (int side = 0; side < 2; ++side)
        if (const sync::LockRegistry* r = sims_[side]->registry())
            totals_[side].setContentions(r->classes());
    summary_.a = totals_[0];
    summary_.b = totals_[1];
    const bool started = !sims_[0]->samples().empty() || !sims_[1]->samples().empty();
    QString heading;
    if (bothEnded())
        heading = tr("<b>Difference</b> — final, both runs have ended");
    else if (started)
        heading = tr("<b>Difference</b> — live, so far");
    else
        heading = tr("<b>Difference</b> — press Start both");
    summaryHeading_->setText(heading);
    summaryLabel_->setText(summary_.richText());
}

QString CompareWindow::summaryText() const
{
    return summary_.text();
}

bool CompareWindow::bothEnded() const
{
    return ended(sims_[0]->state()) && ended(sims_[1]->state());
}

void CompareWindow::updateActions()
{
    auto startable
        = [](Simulation::State s) { return s != Simulation::State::Empty && s != Simulation::State::Running; };
    start_->setEnabled(startable(sims_[0]->state()) || startable(sims_[1]->state()));
    pause_->setEnabled(
        sims_[0]->state() == Simulation::State::Running || sims_[1]->state() == Simulation::State::Running);
    reset_->setEnabled(sims_[0]->state() != Simulation::State::Empty || sims_[1]->state() != Simulation::State::Empty);
}

void CompareWindow::updateTitle()
{
    auto name = [](const ScenarioEntry& e) {
        return e.id.isEmpty() ? QStringLiteral("—") : QFileInfo(e.id).completeBaseName();
    };
    setWindowTitle(tr("Compare — %1 vs %2 — Page Cache Lab").arg(name(entries_[0]), name(entries_[1])));
}

void CompareWindow::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (CompareChart* chart : charts_)
            styleChart(chart, palette());
}

} // namespace pcl::ui
