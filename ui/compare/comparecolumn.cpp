#include "compare/comparecolumn.h"

#include "compare/comparisonsummary.h"
#include "kit/colors.h"
#include "locks/locktablemodel.h"
#include "run/simulation.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString caption(const QString& name, const QString& value)
{
    return QStringLiteral("<span style='opacity:0.7'>%1</span>&nbsp;<b>%2</b>").arg(name, value);
}

} // namespace

CompareColumn::CompareColumn(Simulation& simulation, const QString& letter, int colour, QWidget* parent)
    : QWidget(parent)
    , sim_(simulation)
    , letter_(letter)
    , colour_(colour)
    , header_(new QLabel)
    , figures_(new QLabel)
    , table_(new QTableWidget(0, 4))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);

    header_->setObjectName(QStringLiteral("compareHeader"));
    header_->setTextFormat(Qt::RichText);
    QFont big = header_->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    header_->setFont(big);
    header_->setWordWrap(false);
    layout->addWidget(header_);

    figures_->setTextFormat(Qt::RichText);
    figures_->setToolTip(tr("Running time (pauses excluded); then, over the last sampling interval: operations per "
                            "second of all CPUs, page faults per second (all kinds), the share of page-cache lookups "
                            "that found the page, and the share of the CPUs' time spent waiting for locks"));
    layout->addWidget(figures_);

    table_->setObjectName(QStringLiteral("topLocks"));
    table_->setHorizontalHeaderLabels({ tr("lock"), tr("acquisitions"), tr("contentions"), tr("wait total") });
    table_->setToolTip(tr("The %1 most contended locks of this run, in lockstat's terms: a contention is an "
                          "acquisition that found the lock taken and had to wait; wait total is the time all "
                          "those waits took")
                           .arg(kTopLocks));
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setFocusPolicy(Qt::NoFocus);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    // Room for the header and five rows, no more: the charts below need the height.
    const int height = table_->horizontalHeader()->sizeHint().height()
        + kTopLocks * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth();
    table_->setFixedHeight(height);
    layout->addWidget(table_);

    connect(&sim_, &Simulation::runReset, this, &CompareColumn::refresh);
    connect(&sim_, &Simulation::stateChanged, this, &CompareColumn::refresh);
    connect(&sim_, &Simulation::ticked, this, &CompareColumn::refresh);
    refresh();
}

void CompareColumn::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        refresh();
}

std::vector<sync::LockStatRow> CompareColumn::topLocks(std::vector<sync::LockStatRow> locks, int n)
{
    locks.erase(
        std::remove_if(locks.begin(), locks.end(), [](const auto& r) { return r.acquisitions == 0; }), locks.end());
    const auto more = [](const sync::LockStatRow& x, const sync::LockStatRow& y) {
        if (x.contentions != y.contentions)
            return x.contentions > y.contentions;
        if (x.acquisitions != y.acquisitions)
            return x.acquisitions > y.acquisitions;
        return x.name < y.name;
    };
    const auto keep = std::min<std::size_t>(locks.size(), std::size_t(std::max(n, 0)));
    std::partial_sort(locks.begin(), locks.begin() + std::ptrdiff_t(keep), locks.end(), more);
    locks.resize(keep);
    return locks;
}

void CompareColumn::refresh()
{
    updateHeader();
    updateFigures();
    updateLocks();
}

void CompareColumn::updateHeader()
{
    const QString title = sim_.state() == Simulation::State::Empty
        ? tr("no scenario")
        : QString::fromStdString(sim_.scenario().title).toHtmlEscaped();
    // The letter on a swatch of the run's colour (white on it is readable in
    // both themes); the title in the palette's text colour, as every label.
    header_->setText(QStringLiteral("<span style='background-color:%1; color:white'>&nbsp;<b>%2</b>&nbsp;</span>"
                                    "&nbsp;<b>%3</b>")
                         .arg(colour().name(), letter_, title));
}

QColor CompareColumn::colour() const
{
    return colors::series(colour_);
}

void CompareColumn::updateFigures()
{
    QStringList parts;
    const Simulation::State state = sim_.state();
    parts.append(caption(tr("state"), Simulation::stateName(state).toLower()));
    parts.append(caption(tr("time"), QString::number(sim_.elapsedSeconds(), 'f', 1) + QStringLiteral(" s")));
    const auto& samples = sim_.samples();
    if (samples.empty()) {
        for (const QString& name : { tr("ops"), tr("faults"), tr("hits"), tr("lock wait") })
            parts.append(caption(name, QStringLiteral("—")));
    } else if (state == Simulation::State::Finished || state == Simulation::State::Stopped) {
        // An ended run's last interval is its tail, CPUs finishing one by
        // one: the figures worth reading then are those of the whole run.
        // Once per run, so a walk over the samples is fine here.
        RunTotals totals;
        std::uint64_t faults = 0, lookups = 0, hits = 0;
        for (const MetricsSample& s : samples) {
            totals.add(s);
            faults += s.minor_faults + s.major_faults + s.wait_io_faults + s.anon_faults;
            lookups += s.lookups;
            hits += s.lookup_hits;
        }
        const std::optional<double> perSecond
            = totals.seconds > 0 ? std::optional<double>(double(faults) / totals.seconds) : std::nullopt;
        parts.append(caption(tr("ops"), ComparisonSummary::rateText(totals.throughput())));
        parts.append(caption(tr("faults"), ComparisonSummary::rateText(perSecond)));
        parts.append(caption(tr("hits"),
            lookups ? ComparisonSummary::percentText(double(hits) / double(lookups)) : QStringLiteral("—")));
        parts.append(caption(tr("lock wait"), ComparisonSummary::percentText(totals.lockWaitFraction())));
        parts.append(QStringLiteral("<span style='opacity:0.7'>%1</span>").arg(tr("(over the run)")));
    } else {
        const MetricsSample& s = samples.back();
        const double faults
            = s.minor_faults_per_s + s.major_faults_per_s + s.wait_io_faults_per_s + s.anon_faults_per_s;
        parts.append(caption(tr("ops"), ComparisonSummary::rateText(s.operations_per_s)));
        parts.append(caption(tr("faults"), ComparisonSummary::rateText(faults)));
        parts.append(caption(tr("hits"),
            std::isfinite(s.hit_ratio) ? ComparisonSummary::percentText(s.hit_ratio) : QStringLiteral("—")));
        parts.append(caption(tr("lock wait"), ComparisonSummary::percentText(s.lock_wait_fraction)));
    }
    figures_->setText(parts.join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
}

void CompareColumn::updateLocks()
{
    const std::vector<sync::LockStatRow> rows
        = sim_.registry() ? topLocks(sim_.registry()->locks()) : std::vector<sync::LockStatRow> {};
    table_->setRowCount(int(rows.size()));
    const QPalette pal = palette();
    for (int r = 0; r < int(rows.size()); ++r) {
        const sync::LockStatRow& row = rows[std::size_t(r)];
        const QString texts[4] = { QString::fromStdString(row.name), LockTableModel::formatCountShort(row.acquisitions),
            LockTableModel::formatCountShort(row.contentions),
            LockTableModel::formatDuration(double(row.wait_total_ns)) };
        for (int c = 0; c < 4; ++c) {
            QTableWidgetItem* item = table_->item(r, c);
            if (!item) {
                item = new QTableWidgetItem;
                table_->setItem(r, c, item);
            }
            if (item->text() != texts[c])
                item->setText(texts[c]);
            item->setTextAlignment(Qt::AlignVCenter | (c == 0 ? Qt::AlignLeft : Qt::AlignRight));
        }
        // The contentions cell heats up as the locks table does: a tenth of
        // the acquisitions contended is fully hot.
        const double heat = std::min(1.0, row.contention_ratio() / 0.10);
        QTableWidgetItem* hot = table_->item(r, 2);
        if (heat > 0) {
            const QColor fill = colors::heat(heat, pal);
            hot->setBackground(fill);
            // Dark text on the light end of the heat scale, light text where
            // it starts from a dark theme's base.
            hot->setForeground(fill.lightness() > 140 ? QColor(0x20, 0x20, 0x20) : QColor(0xf0, 0xf0, 0xf0));
        } else {
            hot->setData(Qt::BackgroundRole, QVariant());
            hot->setData(Qt::ForegroundRole, QVariant());
        }
    }
}

QString CompareColumn::figuresText() const
{
    return figures_->text();
}

} // namespace pcl::ui
