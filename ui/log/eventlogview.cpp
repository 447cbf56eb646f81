#include "log/eventlogview.h"

#include "kit/savefile.h"
#include "run/simulation.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QScrollBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <bit>

namespace pcl::ui {

namespace {

/// The kinds in the order of the filter menu, under their headings.
struct KindGroup {
    const char* title;
    std::vector<LineKind> kinds;
};

const std::vector<KindGroup>& kindGroups()
{
    static const std::vector<KindGroup> groups = {
        { QT_TRANSLATE_NOOP("pcl::ui::EventLogView", "Locks"),
            { LineKind::LockWait, LineKind::LockWaitBegin, LineKind::LockAcquire, LineKind::LockRelease } },
        { QT_TRANSLATE_NOOP("pcl::ui::EventLogView", "Pages and faults"),
            { LineKind::PageSleep, LineKind::PageSleepBegin, LineKind::FaultMajor, LineKind::FaultWaitIo,
                LineKind::FaultOther, LineKind::FaultBegin } },
        { QT_TRANSLATE_NOOP("pcl::ui::EventLogView", "Disk"), { LineKind::IoSubmit, LineKind::IoComplete } },
        { QT_TRANSLATE_NOOP("pcl::ui::EventLogView", "Index"),
            { LineKind::IndexHeight, LineKind::IndexNode, LineKind::IndexTag, LineKind::IndexChain } },
        { QT_TRANSLATE_NOOP("pcl::ui::EventLogView", "Readahead and memory"),
            { LineKind::Readahead, LineKind::Eviction, LineKind::Refault } },
    };
    return groups;
}

} // namespace

EventLogView::EventLogView(Simulation& simulation, QWidget* parent)
    : QWidget(parent)
    , sim_(simulation)
    , model_(new EventLogModel(this))
    , view_(new QTreeView(this))
    , kindsButton_(new QToolButton(this))
    , kindsMenu_(new QMenu(this))
    , filter_(new QLineEdit(this))
    , followButton_(new QToolButton(this))
    , counter_(new QLabel(this))
    , emptyHint_(nullptr)
{
    setObjectName(QStringLiteral("eventLogView"));
    setWindowTitle(tr("Log"));

    kindsButton_->setPopupMode(QToolButton::InstantPopup);
    kindsButton_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    kindsButton_->setMenu(kindsMenu_);
    kindsButton_->setToolTip(tr("Which kinds of event the log shows. A kind switched on shows from its next event "
                                "(earlier ones were not kept); one switched off disappears at once."));
    buildKindsMenu();

    filter_->setPlaceholderText(tr("Filter: tree_lock, CPU 2, page 77…"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Shows only the lines that contain this text (not case sensitive)"));
    filter_->setMinimumWidth(fontMetrics().horizontalAdvance(QLatin1Char('x')) * 28);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        // A model reset moves the scroll bar: that is not the user scrolling.
        scrolling_ = true;
        model_->setTextFilter(text.trimmed());
        scrolling_ = false;
        if (follow_)
            scrollToNewest();
        updateCounter();
        updateEmptyHint();
    });

    followButton_->setText(tr("Follow"));
    followButton_->setCheckable(true);
    followButton_->setChecked(true);
    followButton_->setToolTip(
        tr("Keep the newest event in view. Scrolling up stops following; scrolling back to the bottom resumes it."));
    connect(followButton_, &QToolButton::toggled, this, &EventLogView::setFollow);

    counter_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    counter_->setToolTip(
        tr("<p><b>shown</b>: lines in the log now (after the filters).<br>"
           "<b>recorded</b>: events the simulated CPUs and the disk wrote into their rings.<br>"
           "<b>dropped</b>: events recorded but never shown here: a ring overflowed before it was read, or one tick "
           "brought more events than the log can take.</p>"
           "<p>Dropped events only leave gaps in this story: the counters, the lock statistics and the charts "
           "are exact whatever was dropped.</p>"));

    view_->setModel(model_);
    view_->setRootIsDecorated(false);
    view_->setItemsExpandable(false);
    view_->setUniformRowHeights(true); // 10000 rows: no per-row size queries
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    view_->setTextElideMode(Qt::ElideRight);
    view_->setAllColumnsShowFocus(true);
    view_->setContextMenuPolicy(Qt::CustomContextMenu);
    // Column widths from the font, once: measuring 10000 rows per tick
    // (ResizeToContents) would cost more than the log itself.
    QHeaderView* header = view_->header();
    header->setStretchLastSection(true);
    header->setSectionsMovable(false);
    const QFontMetrics fixed(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QFontMetrics fm = fontMetrics();
    const int pad = fm.horizontalAdvance(QLatin1Char('x')) * 3;
    header->resizeSection(
        EventLogModel::TimeColumn, fixed.horizontalAdvance(QStringLiteral("0000.000 000 s")) + pad / 2);
    header->resizeSection(EventLogModel::CpuColumn, fm.horizontalAdvance(QStringLiteral("CPU 00")) + pad);
    header->resizeSection(EventLogModel::KindColumn,
        fm.horizontalAdvance(QStringLiteral("wait_io fault")) + pad + view_->iconSize().width()
            + style()->pixelMetric(QStyle::PM_SmallIconSize));

    auto* copy = new QAction(tr("Copy"), view_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &EventLogView::copySelection);
    view_->addAction(copy);
    connect(view_, &QWidget::customContextMenuRequested, this, &EventLogView::showContextMenu);

    // Following: the user leaving the bottom stops it, coming back resumes it.
    QScrollBar* bar = view_->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        if (scrolling_)
            return;
        const bool atBottom = value >= bar->maximum();
        if (atBottom != follow_)
            setFollow(atBottom);
    });
    connect(bar, &QScrollBar::rangeChanged, this, [this] {
        if (follow_)
            scrollToNewest();
    });
    // Lines dropped from the top while the user reads older ones: keep what
    // they read where it is.
    connect(model_, &QAbstractItemModel::rowsRemoved, this, [this, bar](const QModelIndex&, int first, int last) {
        if (follow_ || first != 0)
            return;
        scrolling_ = true;
        bar->setValue(std::max(0, bar->value() - (last - first + 1)));
        scrolling_ = false;
    });

    emptyHint_ = new QLabel(view_->viewport());
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setWordWrap(true);
    emptyHint_->setAttribute(Qt::WA_TransparentForMouseEvents);
    emptyHint_->setForegroundRole(QPalette::PlaceholderText);
    view_->viewport()->installEventFilter(this);

    auto* bar1 = new QHBoxLayout;
    bar1->setContentsMargins(0, 0, 0, 0);
    bar1->addWidget(kindsButton_);
    bar1->addWidget(filter_, 1);
    bar1->addWidget(followButton_);
    bar1->addSpacing(fm.horizontalAdvance(QLatin1Char('x')) * 2);
    bar1->addWidget(counter_);

    auto* layout = new QVBoxLayout(this);
    const int m = style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing) > 0
        ? style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing)
        : 6;
    layout->setContentsMargins(m, m, m, m);
    layout->setSpacing(m);
    layout->addLayout(bar1);
    layout->addWidget(view_, 1);

    connect(&sim_, &Simulation::runReset, this, &EventLogView::onRunReset);
    connect(&sim_, &Simulation::eventsArrived, this, &EventLogView::onEventsArrived);
    connect(&sim_, &Simulation::ticked, this, &EventLogView::updateCounter);
    connect(&sim_, &Simulation::stateChanged, this, &EventLogView::updateEmptyHint);

    onRunReset();
}

void EventLogView::buildKindsMenu()
{
    kindsMenu_->setToolTipsVisible(true);
    QAction* notable = kindsMenu_->addAction(tr("Notable events"));
    notable->setToolTip(
        tr("Lock waits, page sleeps, major and wait_io faults, the tree's height, readahead, the disk"));
    connect(notable, &QAction::triggered, this, [this] { setKinds(kNotableLineKinds); });
    QAction* all = kindsMenu_->addAction(tr("Every kind"));
    all->setToolTip(tr("At benchmark speed most of these are routine and arrive by the thousand"));
    connect(all, &QAction::triggered, this, [this] { setKinds(kAllLineKinds); });
    for (const KindGroup& g : kindGroups()) {
        kindsMenu_->addSection(tr(g.title));
        for (const LineKind kind : g.kinds) {
            QAction* a = kindsMenu_->addAction(lineKindName(kind));
            a->setCheckable(true);
            a->setData(int(kind));
            a->setToolTip(lineKindDescription(kind));
            connect(a, &QAction::toggled, this, [this, kind](bool on) {
                const LineKindMask bit = lineKindBit(kind);
                setKinds(on ? model_->kinds() | bit : model_->kinds() & ~bit);
            });
        }
    }
    updateKindsButton();
}

void EventLogView::setKinds(LineKindMask kinds)
{
    scrolling_ = true;
    model_->setKinds(kinds);
    scrolling_ = false;
    if (follow_)
        scrollToNewest();
    updateKindsButton();
    updateCounter();
    updateEmptyHint();
}

void EventLogView::updateKindsButton()
{
    const LineKindMask kinds = model_->kinds();
    for (QAction* a : kindsMenu_->actions()) {
        if (!a->isCheckable())
            continue;
        const QSignalBlocker block(a);
        a->setChecked(kinds & lineKindBit(LineKind(a->data().toInt())));
    }
    QString what;
    if (kinds == kNotableLineKinds)
        what = tr("notable");
    else if (kinds == kAllLineKinds)
        what = tr("all");
    else
        what = tr("%1 of %2").arg(std::popcount(kinds)).arg(kLineKindCount);
    kindsButton_->setText(tr("Kinds: %1").arg(what));
    // Room for the menu arrow, which the style draws over the text otherwise.
    const QFontMetrics fm = kindsButton_->fontMetrics();
    kindsButton_->setMinimumWidth(fm.horizontalAdvance(kindsButton_->text()) + fm.height() * 2);
}

void EventLogView::setFollow(bool follow)
{
    if (follow_ != follow) {
        follow_ = follow;
        const QSignalBlocker block(followButton_);
        followButton_->setChecked(follow);
    }
    if (follow_)
        scrollToNewest();
}

void EventLogView::scrollToNewest()
{
    scrolling_ = true;
    view_->scrollToBottom();
    scrolling_ = false;
}

void EventLogView::onRunReset()
{
    const std::optional<Debugfs> fs = sim_.debugfs();
    model_->setEventText(EventText([this](const Event& e) { return sim_.lockName(e); },
        sim_.scenario().engine.index.kind, fs ? fs->cpus() : 0, fs ? fs->disks() : 1));
    scrolling_ = true;
    model_->clear();
    scrolling_ = false;
    updateCounter();
    updateEmptyHint();
}

void EventLogView::onEventsArrived(const std::vector<pcl::Event>& events)
{
    const bool wasEmpty = model_->rowCount() == 0;
    model_->append(events);
    if (follow_)
        scrollToNewest();
    if (wasEmpty)
        updateEmptyHint();
}

void EventLogView::setFilterText(const QString& text)
{
    filter_->setText(text);
}

QString EventLogView::counterText() const
{
    const QLocale locale;
    const std::uint64_t dropped = sim_.eventsDropped() + sim_.eventsNotShown() + model_->skipped();
    return tr("shown %1 · recorded %2 · dropped %3")
        .arg(locale.toString(model_->rowCount()), locale.toString(qulonglong(sim_.eventsRecorded())),
            locale.toString(qulonglong(dropped)));
}

void EventLogView::updateCounter()
{
    counter_->setText(counterText());
}

void EventLogView::updateEmptyHint()
{
    if (model_->rowCount() > 0) {
        emptyHint_->hide();
        return;
    }
    QString text;
    if (sim_.state() == Simulation::State::Empty)
        text = tr("No scenario loaded.");
    else if (model_->keptLines() > 0)
        text = tr("No line matches the filter.");
    else if (sim_.state() == Simulation::State::Ready)
        text = tr("Press Play or Step: lock waits, page sleeps, faults that go to the disk and readahead windows "
                  "will be told here as they happen.");
    else
        text = tr("No event of the kinds shown yet.");
    emptyHint_->setText(text);
    emptyHint_->setGeometry(view_->viewport()->rect().adjusted(24, 24, -24, -24));
    emptyHint_->show();
}

bool EventLogView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == view_->viewport() && event->type() == QEvent::Resize)
        emptyHint_->setGeometry(view_->viewport()->rect().adjusted(24, 24, -24, -24));
    return QWidget::eventFilter(watched, event);
}

void EventLogView::copySelection() const
{
    std::vector<int> rows;
    for (const QModelIndex& i : view_->selectionModel()->selectedRows())
        rows.push_back(i.row());
    std::sort(rows.begin(), rows.end());
    if (rows.empty())
        rows = model_->allRows();
    QApplication::clipboard()->setText(model_->rowsAsText(rows));
}

bool EventLogView::exportTo(const QString& path, ExportFormat format, QString* error) const
{
    const std::vector<int> rows = model_->allRows();
    const QString text = format == ExportFormat::Csv ? model_->rowsAsCsv(rows) : model_->rowsAsText(rows);
    return writeFileAtomically(path, text.toUtf8(), error);
}

void EventLogView::exportWithDialog()
{
    const QString textFilter = tr("Text, tab-separated (*.txt)");
    const QString csvFilter = tr("CSV (*.csv)");
    const QString title = tr("Export the log");
    // askSavePath gives a name typed without an extension the chosen
    // filter's, so the extension says which format was asked for.
    const QString path = askSavePath(
        this, title, sim_.fileStem() + QStringLiteral("_event-log.txt"), textFilter + QStringLiteral(";;") + csvFilter);
    if (path.isEmpty())
        return;
    const ExportFormat format
        = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive) ? ExportFormat::Csv : ExportFormat::Text;
    QString error;
    if (saveFile(
            this, path, [this, format](const QString& to, QString* why) { return exportTo(to, format, why); }, &error)
        == SaveResult::Failed)
        showSaveFailure(this, title, tr("the log"), path, error);
}

void EventLogView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    QAction* copy = menu.addAction(view_->selectionModel()->hasSelection() ? tr("Copy") : tr("Copy all shown lines"),
        this, &EventLogView::copySelection);
    copy->setShortcut(QKeySequence::Copy);
    copy->setEnabled(model_->rowCount() > 0);
    QAction* exp = menu.addAction(tr("Export…"), this, &EventLogView::exportWithDialog);
    exp->setEnabled(model_->rowCount() > 0);
    menu.exec(view_->viewport()->mapToGlobal(pos));
}

} // namespace pcl::ui
