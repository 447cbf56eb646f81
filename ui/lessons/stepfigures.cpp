#include "lessons/stepfigures.h"

#include "index/index_kind.h"
#include "lib/report.h"
#include "run/simulation.h"
#include "sync/lock_stats.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTimer>

#include <cmath>

namespace pcl::ui {

std::optional<StepFigures> StepFigures::of(const Simulation& sim)
{
    const std::optional<Debugfs> fs = sim.debugfs();
    if (!fs || !sim.registry())
        return std::nullopt;
    StepFigures f;
    f.operations = fs->operations();
    if (f.operations == 0)
        return std::nullopt;
    f.seconds = sim.elapsedSeconds();
    // The index's own locks: the allocator's and the LRU's locks are
    // stretched and contended in every step alike, and would hide the
    // difference the steps are about.
    for (const sync::LockStatRow& row : sim.registry()->classes())
        if (is_index_lock_class(row.name))
            f.contentions += row.contentions;
    // Over the whole run: the intervals' fractions weighted by their length,
    // the hits over the lookups.
    double waited = 0, span = 0;
    std::uint64_t lookups = 0, hits = 0;
    for (const MetricsSample& s : sim.samples()) {
        waited += s.lock_wait_fraction * s.interval_s;
        span += s.interval_s;
        lookups += s.lookups;
        hits += s.lookup_hits;
    }
    f.lockWait = span > 0 ? waited / span : 0;
    f.hitRatio = lookups ? double(std::min(hits, lookups)) / double(lookups) : std::nan("");
    return f;
}

StepFiguresTable::StepFiguresTable(QWidget* parent)
    : QTableWidget(RowCount, 0, parent)
{
    setObjectName(QStringLiteral("stepFigures"));
    // Short names, the longest on two lines, so that the steps' columns fit
    // beside them in the lesson's column at 1280x720; what each means in
    // its tooltip.
    const std::pair<QString, QString> kRows[RowCount] = {
        { tr("Operations/s"), tr("Operations a second, all CPUs, over the step's run so far") },
        { tr("Index lock contentions\nper 1000 operations"),
            tr("Acquisitions of the page index's locks (the global hash lock, a file's tree lock, the nodes' "
               "locks) that had to wait, per 1000 operations of the CPUs") },
        { tr("Lock wait"), tr("The share of the CPUs' time spent waiting for locks, over the step's run so far") },
        { tr("Hit ratio"), tr("The share of page-cache lookups that found the page") },
    };
    for (int r = 0; r < RowCount; ++r) {
        auto* header = new QTableWidgetItem(kRows[r].first);
        header->setToolTip(kRows[r].second);
        setVerticalHeaderItem(r, header);
    }
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // As wide as the lesson's column, scrolling beyond: never wider.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    fitHeight();
}

void StepFiguresTable::changeEvent(QEvent* event)
{
    QTableWidget::changeEvent(event);
    // The rows grow with the window's zoom; their headers learn it later.
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &StepFiguresTable::fitHeight);
}

void StepFiguresTable::setFigures(int step, const QString& title, const StepFigures& f)
{
    auto it = columns_.find(step);
    if (it == columns_.end()) {
        // In step order, whichever order they were visited in.
        int column = 0;
        for (auto& [s, c] : columns_)
            if (s < step)
                column = std::max(column, c + 1);
        for (auto& [s, c] : columns_)
            if (c >= column)
                ++c;
        insertColumn(column);
        auto* header = new QTableWidgetItem(tr("Step %1").arg(step + 1));
        header->setToolTip(title);
        setHorizontalHeaderItem(column, header);
        it = columns_.emplace(step, column).first;
    }
    const auto percent = [](double x) { return QString::fromStdString(significant(100 * x)) + QStringLiteral(" %"); };
    const QString cells[RowCount] = {
        QString::fromStdString(significant(f.operationsPerSecond())),
        QString::fromStdString(significant(f.contentionsPer1000())),
        percent(f.lockWait),
        std::isfinite(f.hitRatio) ? percent(f.hitRatio) : QStringLiteral("—"),
    };
    for (int r = 0; r < RowCount; ++r) {
        QTableWidgetItem* item = this->item(r, it->second);
        if (!item) {
            item = new QTableWidgetItem;
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(r, it->second, item);
        }
        item->setText(cells[r]);
    }
    fitHeight();
}

void StepFiguresTable::clearSteps()
{
    setColumnCount(0);
    columns_.clear();
    fitHeight();
}

QList<int> StepFiguresTable::steps() const
{
    QList<int> out;
    for (const auto& [s, c] : columns_)
        out << s;
    return out;
}

QString StepFiguresTable::text(int step, Row row) const
{
    const auto it = columns_.find(step);
    const QTableWidgetItem* item = it == columns_.end() ? nullptr : this->item(row, it->second);
    return item ? item->text() : QString();
}

QList<QStringList> StepFiguresTable::rows() const
{
    if (columns_.empty())
        return {};
    QList<QStringList> out;
    QStringList heading { QString() };
    for (const auto& [step, column] : columns_)
        heading << horizontalHeaderItem(column)->text();
    out << heading;
    for (int r = 0; r < RowCount; ++r) {
        // One line each, as a report's table has them.
        QStringList cells { verticalHeaderItem(r)->text().replace(QLatin1Char('\n'), QLatin1Char(' ')) };
        for (const auto& [step, column] : columns_)
            cells << text(step, Row(r));
        out << cells;
    }
    return out;
}

QSize StepFiguresTable::sizeHint() const
{
    return { QTableWidget::sizeHint().width(), minimumHeight() };
}

void StepFiguresTable::fitHeight()
{
    int h = horizontalHeader()->sizeHint().height() + 2 * frameWidth();
    for (int r = 0; r < rowCount(); ++r)
        h += std::max(verticalHeader()->sectionSizeHint(r), fontMetrics().height() + 6);
    // Room for the scroll bar a long lesson's columns may need.
    h += horizontalScrollBar()->sizeHint().height();
    setFixedHeight(h);
}

} // namespace pcl::ui
