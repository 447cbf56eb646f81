#include "charts/chartsview.h"

#include <QResizeEvent>

#include "charts/axisscale.h"
#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/faultlatencychart.h"
#include "charts/lockwaitchart.h"
#include "charts/seriescatalog.h"
#include "charts/timeserieschart.h"
#include "kit/colorscheme.h"
#include "kit/savefile.h"
#include "run/simulation.h"
#include "sim/run_figures.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include <cmath>

namespace pcl::ui {

const QString ChartsView::kFaultLatencyId = QStringLiteral("fault_latency");
const QString ChartsView::kLockWaitId = QStringLiteral("lock_wait_classes");

ChartsView::ChartsView(Simulation& simulation, QWidget* parent)
    : QWidget(parent)
    , sim_(simulation)
    , picker_(new QPushButton(this))
    , pickerMenu_(new QMenu(this))
    , grid_(new QWidget)
    , gridLayout_(new QGridLayout(grid_))
    , faultLatency_(new FaultLatencyChart)
    , lockWait_(new LockWaitChart)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 6, 8, 6);
    picker_->setText(tr("Charts"));
    picker_->setToolTip(tr("Pick the charts to show. Right-click a chart to save it as PNG, SVG or PDF."));
    picker_->setMenu(pickerMenu_);
    bar->addWidget(picker_);
    csv_ = new QPushButton(this);
    csv_->setText(tr("Export data as CSV…"));
    csv_->setToolTip(tr("Save every metric of the run, one row per sample"));
    connect(csv_, &QPushButton::clicked, this, &ChartsView::saveDataAs);
    bar->addWidget(csv_);
    hint_ = new QLabel(tr("Right-click a chart to save it as PNG, SVG or PDF."), this);
    hint_->setForegroundRole(QPalette::PlaceholderText);
    // The hint asks for no width of its own, so that the dock can be narrow
    // beside a lesson on a 1280-pixel screen; it shows where it fits
    // (resizeEvent), and the picker's tooltip says the same.
    hint_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(hint_, 1);
    layout->addLayout(bar);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    gridLayout_->setContentsMargins(8, 0, 8, 8);
    gridLayout_->setSpacing(8);
    scroll->setWidget(grid_);
    layout->addWidget(scroll, 1);

    // The picker lists the charts by group, time series then histograms.
    std::map<MetricGroup, std::vector<const ChartSpec*>> byGroup;
    for (const ChartSpec& spec : SeriesCatalog::charts()) {
        auto* chart = new TimeSeriesChart(spec, kMaxPointsPerSeries);
        timeSeries_.push_back(chart);
        addChart(spec.id, chart);
        shown_[spec.id] = spec.shownByDefault;
        byGroup[spec.group].push_back(&spec);
    }
    addChart(kFaultLatencyId, faultLatency_);
    shown_[kFaultLatencyId] = false;
    addChart(kLockWaitId, lockWait_);
    shown_[kLockWaitId] = false;

    auto addToggle = [this](const QString& id, const QString& title) {
        QAction* a = pickerMenu_->addAction(title);
        a->setCheckable(true);
        a->setChecked(shown_[id]);
        connect(a, &QAction::toggled, this, [this, id](bool on) { setChartShown(id, on); });
        a->setObjectName(QStringLiteral("show_") + id);
    };
    for (const auto& [group, specs] : byGroup) {
        pickerMenu_->addSection(metricGroupName(group));
        for (const ChartSpec* spec : specs)
            addToggle(spec->id, spec->title);
    }
    pickerMenu_->addSection(tr("Distributions"));
    addToggle(kFaultLatencyId, faultLatency_->title());
    addToggle(kLockWaitId, tr("Lock wait by class"));

    restyle();
    relayout();

    // Another colour scheme: the series and bars take its colours.
    connect(&ColorSchemeNotifier::instance(), &ColorSchemeNotifier::changed, this, [this] {
        restyle();
        refreshHistograms();
    });
    connect(&sim_, &Simulation::sampled, this, &ChartsView::addSamples);
    connect(&sim_, &Simulation::runReset, this, &ChartsView::clear);
    connect(&sim_, &Simulation::ticked, this, &ChartsView::onTicked);
    connect(&sim_, &Simulation::stateChanged, this, [this] { refreshHistograms(); });

    // A view opened in the middle of a run shows it from the start.
    addSamples(sim_.samples());
    refreshHistograms();
}

QChartView* ChartsView::addChart(const QString& id, QChart* chart)
{
    auto* view = new QChartView(chart, grid_);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(260);
    view->setFrameShape(QFrame::NoFrame);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    view->setObjectName(QStringLiteral("chart_") + id);
    connect(view, &QWidget::customContextMenuRequested, this,
        [this, id, view](const QPoint& pos) { showChartMenu(id, view->mapToGlobal(pos)); });
    order_.append(id);
    views_[id] = view;
    view->hide();
    return view;
}

QStringList ChartsView::shownCharts() const
{
    QStringList out;
    for (const QString& id : order_)
        if (shown_.at(id))
            out.append(id);
    return out;
}

bool ChartsView::isChartShown(const QString& id) const
{
    const auto it = shown_.find(id);
    return it != shown_.end() && it->second;
}

void ChartsView::setChartShown(const QString& id, bool shown)
{
    const auto it = shown_.find(id);
    if (it == shown_.end() || it->second == shown)
        return;
    it->second = shown;
    if (QAction* a = pickerMenu_->findChild<QAction*>(QStringLiteral("show_") + id))
        a->setChecked(shown);
    relayout();
    updateGeometry();
    if (shown && (id == kFaultLatencyId || id == kLockWaitId))
        refreshHistograms();
}

QChart* ChartsView::chart(const QString& id) const
{
    const auto it = views_.find(id);
    return it == views_.end() ? nullptr : it->second->chart();
}

TimeSeriesChart* ChartsView::timeSeries(const QString& id) const
{
    for (TimeSeriesChart* c : timeSeries_)
        if (c->spec().id == id)
            return c;
    return nullptr;
}

void ChartsView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (columnsFor(event->size().width()) != columns_)
        relayout();
    // The bar's margins and spacing, then the two buttons, then the hint.
    const int room = event->size().width() - 16 - 2 * 6 - picker_->sizeHint().width() - csv_->sizeHint().width();
    hint_->setVisible(room >= hint_->sizeHint().width());
}

int ChartsView::columnWidthNeeded() const
{
    // Two charts side by side only where each keeps room for its legend and
    // its whole title, in the font they are drawn in now: zoomed to 175%,
    // two columns that fit at 100% cut every title short.
    int needed = fontMetrics().averageCharWidth() * kColumnChars;
    for (const QString& id : shownCharts()) {
        const QChart* c = chart(id);
        needed = std::max(needed, QFontMetrics(c->titleFont()).horizontalAdvance(c->title()) + kTitleRoom);
    }
    return needed;
}

QSize ChartsView::minimumSizeHint() const
{
    // One column as wide as the widest title shown, with the grid's margins,
    // a scroll bar and the frames around: a dock narrowed to less cuts the
    // titles short.
    int widest = 0;
    for (const QString& id : shownCharts()) {
        const QChart* c = chart(id);
        widest = std::max(widest, QFontMetrics(c->titleFont()).horizontalAdvance(c->title()) + kTitleRoom);
    }
    const QSize least = QWidget::minimumSizeHint();
    return QSize(std::max(least.width(), widest + 8 + 8 + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 12),
        least.height());
}

int ChartsView::columnsFor(int width) const
{
    // The grid's margins and the spacing between the columns.
    return (width - 8 - 8 - 8) / 2 >= columnWidthNeeded() ? 2 : 1;
}

void ChartsView::relayout()
{
    // Time series in two columns when wide (the four default charts fill a
    // 1280 x 720 window; a lone last one takes the whole row), one in a
    // narrow dock; each histogram gets a whole row, as its bucket labels
    // need the width.
    columns_ = columnsFor(width());
    for (const auto& [id, view] : views_) {
        gridLayout_->removeWidget(view);
        view->hide();
    }
    QStringList series, histograms;
    for (const QString& id : shownCharts())
        (id == kFaultLatencyId || id == kLockWaitId ? histograms : series).append(id);
    int row = 0;
    const int columns = columns_;
    for (int i = 0; i < series.size(); ++i) {
        const bool alone = i == series.size() - 1 && i % columns == 0;
        gridLayout_->addWidget(views_.at(series[i]), row, i % columns, 1, alone ? 2 : 1);
        if (i % columns == columns - 1 || alone)
            ++row;
    }
    for (const QString& id : histograms)
        gridLayout_->addWidget(views_.at(id), row++, 0, 1, 2);
    for (const QString& id : shownCharts())
        views_.at(id)->show();
    for (int r = 0; r < gridLayout_->rowCount(); ++r)
        gridLayout_->setRowStretch(r, r < row ? 1 : 0);
}

void ChartsView::restyle()
{
    for (const auto& [id, view] : views_) {
        styleChart(view->chart(), palette());
        view->setBackgroundBrush(palette().color(QPalette::Base));
    }
}

void ChartsView::changeEvent(QEvent* event)
{
    // A font change is the presentation zoom: the charts' titles, axes and
    // legends are sized from the application font.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::FontChange) {
        restyle();
        updateGeometry();
        if (columnsFor(width()) != columns_)
            relayout();
    }
    QWidget::changeEvent(event);
}

void ChartsView::addSamples(const std::vector<MetricsSample>& samples)
{
    if (samples.empty())
        return;
    // A few (a run on this computer's threads gives them one at a time)
    // are appended point by point; many (a rewind's, a view opened late)
    // rebuild each line once.
    constexpr std::size_t kOneByOne = 16;
    for (TimeSeriesChart* c : timeSeries_) {
        if (samples.size() < kOneByOne)
            for (const MetricsSample& s : samples)
                c->addSample(s);
        else
            c->addSamples(samples);
    }
    extendTimeRange(samples.back().time_s);
}

void ChartsView::extendTimeRange(double seconds)
{
    if (seconds <= timeMax_)
        return;
    // The shared axis ends on a round number past the newest sample and
    // moves only when a sample crosses it.
    const AxisScale scale = niceScale(seconds, 0.0, false);
    timeMax_ = scale.max;
    for (TimeSeriesChart* c : timeSeries_)
        c->setTimeRange(scale.max, scale.step);
}

void ChartsView::clear()
{
    // A modelled machine's time is virtual: the axis says so.
    const QString timeTitle = QString::fromStdString(time_caption(sim_.scenario())) + QStringLiteral(" (s)");
    for (TimeSeriesChart* c : timeSeries_) {
        c->clear();
        c->setTimeRange(1, 0.2);
        c->timeAxis()->setTitleText(timeTitle);
    }
    timeMax_ = 0;
    faultLatency_->clear();
    lockWait_->clear();
    sinceHistograms_.invalidate();
}

void ChartsView::onTicked()
{
    if (!sinceHistograms_.isValid() || sinceHistograms_.elapsed() >= kHistogramRefreshMs)
        refreshHistograms();
}

void ChartsView::refreshHistograms()
{
    sinceHistograms_.start();
    const std::optional<Debugfs> fs = sim_.debugfs();
    if (!fs) {
        faultLatency_->clear();
        lockWait_->clear();
        return;
    }
    // Only what is on screen is read: the lock table of a radix tree with
    // per-node locks can be long.
    if (isChartShown(kFaultLatencyId)) {
        faultLatency_->setHistograms({ &fs->fault_latency(FaultKind::Minor), &fs->fault_latency(FaultKind::Major),
            &fs->fault_latency(FaultKind::WaitIo), &fs->fault_latency(FaultKind::Anon) });
    }
    if (isChartShown(kLockWaitId) && sim_.registry())
        lockWait_->setClasses(sim_.registry()->classes());
}

void ChartsView::showChartMenu(const QString& id, const QPoint& globalPos)
{
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("chartMenu"));
    // The resolutions in pixels, so the choice says what the file will be.
    QMenu* png = menu.addMenu(tr("Save chart as PNG"));
    const QString uses[] = { tr("for a screen"), tr("for print"), tr("for a poster") };
    for (std::size_t i = 0; i < std::size(kPngScales); ++i) {
        const int scale = kPngScales[i];
        png->addAction(
            tr("%1 × %2 pixels, %3…").arg(kExportSize.width() * scale).arg(kExportSize.height() * scale).arg(uses[i]),
            this, [this, id, scale] { saveChartAs(id, QStringLiteral("png"), scale); });
    }
    menu.addAction(tr("Save chart as SVG…"), this, [this, id] { saveChartAs(id, QStringLiteral("svg"), 1); });
    menu.addAction(tr("Save chart as PDF…"), this, [this, id] { saveChartAs(id, QStringLiteral("pdf"), 1); });
    menu.addSeparator();
    menu.addAction(tr("Export data as CSV…"), this, &ChartsView::saveDataAs);
    menu.addSeparator();
    menu.addAction(tr("Hide this chart"), this, [this, id] { setChartShown(id, false); });
    menu.exec(globalPos);
}

QString ChartsView::chartFileName(const QString& id, const QString& suffix) const
{
    // The histogram of lock waits is by class, apart from the time series
    // of lock wait ("lock_wait"): named as run --out names it.
    QString what = id == kLockWaitId ? QStringLiteral("lock-wait-by-class") : id;
    what.replace(QLatin1Char('_'), QLatin1Char('-'));
    return sim_.fileStem() + QLatin1Char('_') + what + QLatin1Char('.') + suffix;
}

QString ChartsView::chartCaption() const
{
    if (sim_.state() == Simulation::State::Empty)
        return {};
    const Scenario& s = sim_.scenario();
    const QString title = s.title.empty() ? tr("Untitled scenario") : QString::fromStdString(s.title);
    return tr("%1 — %2; %3 s of %4.")
        .arg(title, QString::fromStdString(parameter_caption(s)))
        .arg(sim_.elapsedSeconds(), 0, 'g', 3)
        .arg(QString::fromStdString(time_caption(s)));
}

SaveResult ChartsView::saveChart(const QString& id, const QString& path, int pngScale, QString* error)
{
    QChart* c = chart(id);
    if (!c) {
        if (error)
            *error = tr("there is no chart called \"%1\"").arg(id);
        return SaveResult::Failed;
    }
    if (id == kFaultLatencyId || id == kLockWaitId)
        refreshHistograms(); // a hidden histogram is not kept up to date
    ChartExportOptions options;
    options.caption = chartCaption();
    options.pngScale = pngScale;
    return saveFile(
        this, path, [&](const QString& to, QString* why) { return exportChart(c, to, why, options); }, error);
}

SaveResult ChartsView::saveData(const QString& path, QString* error)
{
    return saveFile(
        this, path, [this](const QString& to, QString* why) { return exportSamplesCsv(sim_.samples(), to, why); },
        error);
}

void ChartsView::saveChartAs(const QString& id, const QString& suffix, int pngScale)
{
    const QString filter = suffix == QLatin1String("svg") ? tr("SVG image (*.svg)")
        : suffix == QLatin1String("pdf")                  ? tr("PDF document (*.pdf)")
                                                          : tr("PNG image (*.png)");
    const QString path = askSavePath(this, tr("Save chart"), chartFileName(id, suffix), filter);
    if (path.isEmpty())
        return;
    QString error;
    if (saveChart(id, path, pngScale, &error) == SaveResult::Failed)
        showSaveFailure(this, tr("Save chart"), tr("the chart"), path, error);
}

void ChartsView::saveDataAs()
{
    const QString path = askSavePath(this, tr("Export data"), sim_.fileStem() + QStringLiteral("_metrics.csv"),
        tr("CSV, for a spreadsheet (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (saveData(path, &error) == SaveResult::Failed)
        showSaveFailure(this, tr("Export data"), tr("the metrics"), path, error);
}

} // namespace pcl::ui
