#include "locks/lockview.h"

#include "kit/savefile.h"
#include "locks/lockrowdelegate.h"
#include "run/simulation.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace pcl::ui {

LockView::LockView(Simulation& simulation, QWidget* parent)
    : QWidget(parent)
    , sim_(simulation)
    , model_(new LockTableModel(this))
    , proxy_(new QSortFilterProxyModel(this))
    , modeGroup_(new QButtonGroup(this))
    , perLock_(new QToolButton)
    , perClass_(new QToolButton)
    , filter_(new QLineEdit)
    , showIdle_(new QCheckBox(tr("Idle locks")))
    , export_(new QToolButton)
    , stack_(new QStackedWidget)
    , empty_(new QLabel)
    , table_(new QTableView)
    , summary_(new QLabel)
{
    model_->setPalette(palette());
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(LockTableModel::SortRole);
    proxy_->setFilterRole(LockTableModel::FilterRole);
    proxy_->setFilterKeyColumn(LockTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setDynamicSortFilter(true);

    // Per lock / per class, as two halves of one control.
    perLock_->setText(tr("Per lock"));
    perLock_->setToolTip(tr("One row per named lock (e.g. each file's tree_lock)."));
    perClass_->setText(tr("Per class"));
    perClass_->setToolTip(tr("One row per lock class: every lock of one kind counted together, as lockdep does."));
    for (QToolButton* b : { perLock_, perClass_ }) {
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        modeGroup_->addButton(b);
    }
    modeGroup_->setExclusive(true);
    perLock_->setChecked(true);
    updateSegments();
    connect(perLock_, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(LockTableModel::Mode::PerLock);
        updateSegments();
    });
    connect(perClass_, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            setMode(LockTableModel::Mode::PerClass);
    });

    filter_->setPlaceholderText(tr("Filter by lock or class name"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Shows only the rows whose name or class contains this text (any case)."));
    connect(filter_, &QLineEdit::textChanged, this, &LockView::setFilterText);

    showIdle_->setToolTip(tr("Also list locks that were created but never taken."));
    connect(showIdle_, &QCheckBox::toggled, this, [this](bool on) {
        model_->setHideIdle(!on);
        updateSummary();
        updateEmptyState();
    });

    export_->setText(tr("Export CSV…"));
    export_->setToolTip(tr("Saves the rows shown, in the order shown, with raw values (ns, counts)."));
    export_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(export_, &QToolButton::clicked, this, &LockView::exportCsvInteractive);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    auto* segments = new QHBoxLayout;
    segments->setSpacing(0);
    segments->addWidget(perLock_);
    segments->addWidget(perClass_);
    bar->addLayout(segments);
    bar->addSpacing(6);
    bar->addWidget(filter_, 1);
    bar->addWidget(showIdle_);
    bar->addWidget(export_);

    // A selected lock that disappears is deselected, not replaced: Qt's
    // single-selection view would select its neighbour, and the other views
    // would follow a lock nobody chose. Connected before setModel() so that
    // it runs before the view's own handler.
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this](const QModelIndex&, int first, int last) {
        const QModelIndex current = table_->currentIndex();
        if (current.isValid() && current.row() >= first && current.row() <= last)
            dropSelection_ = selecting_ = true;
    });
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (dropSelection_) {
            table_->selectionModel()->clearSelection();
            table_->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
            dropSelection_ = selecting_ = false;
        }
        onSelectionChanged();
    });
    table_->setModel(proxy_);
    table_->setItemDelegate(new LockRowDelegate(table_));
    table_->setSortingEnabled(true);
    // The most waited-for first: the reddest row at the top.
    table_->sortByColumn(LockTableModel::WaitTotal, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // The heat shading is the row colour; alternating bands would fight it.
    table_->setAlternatingRowColors(false);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->setShowGrid(false);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    QHeaderView* header = table_->horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionsMovable(true);
    // Numbers grow as the run goes on: their columns follow their contents,
    // measured on the rows in view only so that the cost stays bounded. So
    // do the names: a name column left to stretch was what the numbers
    // left over, and zoomed for a lecture hall that made "page...lock" of
    // a page's lock. The last column takes the room to spare; where there
    // is none, the table scrolls sideways and the names stay whole.
    header->setResizeContentsPrecision(0);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(true);
    header->setSectionResizeMode(LockTableModel::Class, QHeaderView::Interactive);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        QAction* copy = menu.addAction(tr("Copy lock name"));
        copy->setEnabled(!selectedLock().isEmpty());
        connect(copy, &QAction::triggered, this, [this] {
            if (QClipboard* cb = QGuiApplication::clipboard())
                cb->setText(selectedLock());
        });
        menu.addAction(tr("Export CSV…"), this, &LockView::exportCsvInteractive);
        menu.exec(table_->viewport()->mapToGlobal(pos));
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LockView::onSelectionChanged);
    // A reset (a new run, another mode) deselects without a selectionChanged.
    connect(proxy_, &QAbstractItemModel::modelReset, this, &LockView::onSelectionChanged);

    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    empty_->setMargin(24);
    empty_->setForegroundRole(QPalette::PlaceholderText);
    QFont emptyFont = empty_->font();
    emptyFont.setPointSizeF(emptyFont.pointSizeF() * 1.1);
    empty_->setFont(emptyFont);
    stack_->addWidget(empty_);
    stack_->addWidget(table_);

    summary_->setTextFormat(Qt::PlainText);
    summary_->setWordWrap(false);
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);
    layout->addLayout(bar);
    layout->addWidget(stack_, 1);
    layout->addWidget(summary_);

    pending_.setSingleShot(true);
    connect(&pending_, &QTimer::timeout, this, &LockView::refresh);
    connect(&sim_, &Simulation::ticked, this, &LockView::onTicked);
    connect(&sim_, &Simulation::runReset, this, &LockView::onRunReset);
    connect(&sim_, &Simulation::stateChanged, this, [this](Simulation::State state) {
        // The end of a run: its final numbers, whatever the throttle says.
        if (state != Simulation::State::Running && state != Simulation::State::Paused)
            refresh();
        else
            updateEmptyState();
    });

    updateColumns();
    refresh();
}

void LockView::setMode(LockTableModel::Mode mode)
{
    if (model_->mode() == mode)
        return;
    (mode == LockTableModel::Mode::PerLock ? perLock_ : perClass_)->setChecked(true);
    model_->setMode(mode);
    updateColumns();
    refresh();
}

void LockView::setFilterText(const QString& text)
{
    if (filter_->text() != text)
        filter_->setText(text); // comes back here through textChanged
    proxy_->setFilterFixedString(text);
    updateSummary();
}

void LockView::updateColumns()
{
    const bool perLock = model_->mode() == LockTableModel::Mode::PerLock;
    // Per lock every row is one lock; per class the class is the row's name.
    table_->setColumnHidden(LockTableModel::Instances, perLock);
    table_->setColumnHidden(LockTableModel::Class, !perLock);
    showIdle_->setText(perLock ? tr("Idle locks") : tr("Idle classes"));
    sized_ = false;
}

void LockView::onTicked()
{
    if (!isVisible())
        return; // a hidden dock costs nothing; showEvent catches up
    const qint64 interval = 1000 / kRefreshPerSecond;
    if (!lastRefresh_.isValid() || lastRefresh_.elapsed() >= interval) {
        refresh();
        return;
    }
    if (!pending_.isActive())
        pending_.start(static_cast<int>(interval - lastRefresh_.elapsed()));
}

void LockView::onRunReset()
{
    pending_.stop();
    model_->clear();
    sized_ = false;
    refresh();
}

void LockView::refresh()
{
    pending_.stop();
    lastRefresh_.start();
    model_->setCpuTimeNs(sim_.elapsedSeconds() * 1e9 * double(sim_.scenario().engine.workload.cpus));
    model_->update(sim_.registry());
    if (!sized_ && model_->rowCount() > 0) {
        table_->resizeColumnToContents(LockTableModel::Class);
        sized_ = true;
    }
    updateSummary();
    updateEmptyState();
}

void LockView::updateEmptyState()
{
    const Simulation::State state = sim_.state();
    QString message;
    if (state == Simulation::State::Failed && !sim_.hasRun())
        message = tr("The run could not be built:\n%1").arg(sim_.error());
    else if (!sim_.registry() || !sim_.hasRun())
        message = tr("No run yet.\nChoose a scenario: every lock its CPUs take is listed here, live, with its "
                     "contentions, waits and holds.");
    else if (model_->rowCount() == 0 && state == Simulation::State::Ready)
        message = tr("No lock has been taken yet.\nPress Play or Step: each lock appears here as soon as a CPU "
                     "takes it.");
    else if (model_->rowCount() == 0)
        message = tr("No lock has been taken in this run.");
    empty_->setText(message);
    stack_->setCurrentWidget(message.isEmpty() ? static_cast<QWidget*>(table_) : empty_);
    export_->setEnabled(model_->rowCount() > 0);
}

void LockView::updateSummary()
{
    const auto& rows = model_->rows();
    if (rows.empty()) {
        summaryFull_.clear();
        showSummary();
        return;
    }
    const bool perLock = model_->mode() == LockTableModel::Mode::PerLock;
    std::uint64_t contentions = 0;
    std::uint64_t acquisitions = 0;
    const sync::LockStatRow* hottest = nullptr;
    for (const auto& r : rows) {
        contentions += r.contentions;
        acquisitions += r.acquisitions;
        // The hottest is the one CPUs lost the most time waiting for (the
        // reddest row), not the one with the highest share of contended
        // acquisitions.
        if (r.contentions > 0 && (!hottest || r.wait_total_ns > hottest->wait_total_ns))
            hottest = &r;
    }
    const int n = static_cast<int>(rows.size());
    QStringList parts;
    if (perLock)
        parts << (n == 1 ? tr("1 lock") : tr("%1 locks").arg(n));
    else
        parts << (n == 1 ? tr("1 class") : tr("%1 classes").arg(n));
    parts << tr("%1 acquisitions").arg(LockTableModel::formatCountShort(acquisitions));
    if (contentions == 0) {
        parts << tr("no contention");
    } else {
        parts << tr("%1 contentions").arg(LockTableModel::formatCountShort(contentions));
        parts << tr("hottest: %1 (CPUs waited %2 for it, over %3 contentions)")
                     .arg(QString::fromStdString(hottest->name),
                         LockTableModel::formatDuration(double(hottest->wait_total_ns)),
                         QLocale().toString(qulonglong(hottest->contentions)));
    }
    if (!proxy_->filterRegularExpression().pattern().isEmpty())
        parts << tr("%1 of %2 shown").arg(proxy_->rowCount()).arg(n);
    summaryFull_ = parts.join(QStringLiteral("  ·  "));
    showSummary();
}

QString LockView::summaryText() const
{
    return summaryFull_;
}

QString LockView::selectedLock() const
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows(LockTableModel::Name);
    if (rows.isEmpty())
        return {};
    return rows.first().data(LockTableModel::SortRole).toString();
}

void LockView::onSelectionChanged()
{
    const QString name = selectedLock();
    if (selecting_ || name == lastEmitted_)
        return;
    // The user chose another row: the other views follow it, and so does
    // the table's mark.
    if (name != model_->highlighted())
        model_->setHighlighted(QString());
    lastEmitted_ = name;
    Q_EMIT lockSelected(name);
}

void LockView::selectLock(const QString& name)
{
    int row = name.isEmpty() ? -1 : model_->rowOf(name);
    // Per class, a lock's name stands for its class.
    if (row < 0 && !name.isEmpty() && model_->mode() == LockTableModel::Mode::PerClass && sim_.registry()) {
        const std::string wanted = name.toStdString();
        for (const auto& lock : sim_.registry()->locks())
            if (lock.name == wanted) {
                row = model_->rowOf(QString::fromStdString(lock.lock_class));
                break;
            }
    }
    // The row named is marked as well as selected: the selection colour
    // would hide the shade a lesson asks the class to watch.
    model_->setHighlighted(row < 0 ? QString() : QString::fromStdString(model_->rowAt(row).name));
    selecting_ = true;
    const QModelIndex at = row < 0 ? QModelIndex() : proxy_->mapFromSource(model_->index(row, 0));
    if (at.isValid()) {
        table_->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        table_->scrollTo(at);
    } else {
        table_->selectionModel()->clearSelection();
    }
    lastEmitted_ = selectedLock();
    selecting_ = false;
}

bool LockView::exportCsv(const QString& path, QString* error) const
{
    // The columns shown, in the order the header shows them.
    const QHeaderView* header = table_->horizontalHeader();
    std::vector<int> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical))
            columns.push_back(logical);
    }
    QStringList line;
    for (int c : columns)
        line << LockTableModel::csvHeader(c);
    QByteArray out = line.join(QChar(',')).toUtf8() + '\n';
    for (int r = 0; r < proxy_->rowCount(); ++r) {
        const sync::LockStatRow& row = model_->rowAt(proxy_->mapToSource(proxy_->index(r, 0)).row());
        line.clear();
        for (int c : columns)
            line << LockTableModel::csvValue(row, c);
        out += line.join(QChar(',')).toUtf8() + '\n';
    }
    return writeFileAtomically(path, out, error);
}

void LockView::exportCsvInteractive()
{
    // Named for the run and for what the table shows, as every export is.
    const QString base = sim_.fileStem()
        + (model_->mode() == LockTableModel::Mode::PerLock ? QStringLiteral("_locks.csv")
                                                           : QStringLiteral("_lock-classes.csv"));
    const QString title = tr("Export lock statistics");
    const QString path = askSavePath(this, title, base, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (saveFile(
            this, path, [this](const QString& to, QString* why) { return exportCsv(to, why); }, &error)
        == SaveResult::Failed)
        showSaveFailure(this, title, tr("the lock table"), path, error);
}

void LockView::showSummary()
{
    // A narrow dock cuts the line at a word with an ellipsis, and the
    // tooltip has all of it.
    const int width = summary_->contentsRect().width();
    summary_->setText(
        width > 0 ? summary_->fontMetrics().elidedText(summaryFull_, Qt::ElideRight, width) : summaryFull_);
    summary_->setToolTip(summary_->text() == summaryFull_ ? QString() : summaryFull_);
}

void LockView::updateSegments()
{
    // The chosen half of the per lock / per class control in the highlight
    // colour: the style's sunken look alone is hard to tell apart on a
    // projector and in dark themes.
    for (QToolButton* b : { perLock_, perClass_ }) {
        QPalette p = palette();
        if (b->isChecked()) {
            p.setColor(QPalette::Button, p.color(QPalette::Highlight));
            p.setColor(QPalette::ButtonText, p.color(QPalette::HighlightedText));
        }
        b->setPalette(p);
    }
}

void LockView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange) {
        model_->setPalette(palette());
        updateSegments();
    }
    QWidget::changeEvent(event);
    // The presentation zoom: rows as tall as the new text (the table takes
    // this widget's font, which has already changed).
    if (event->type() == QEvent::FontChange) {
        table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
        // The class column is sized once to its names: again in the new font.
        if (sized_)
            table_->resizeColumnToContents(LockTableModel::Class);
    }
}

void LockView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    showSummary();
}

void LockView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
}

} // namespace pcl::ui
