// The skip list view's widget: file selector, snapshots paced by their own
// cost, recent changes from events, zoom, pan, tooltips, painting.
#include "views/skiplist/skiplistview.h"

#include "kit/hovertip.h"

#include "index/skip_list.h"
#include "run/simulation.h"

#include <QComboBox>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString num(std::uint64_t v)
{
    return QLocale(QLocale::English).toString(qulonglong(v));
}

QString lockText(const sync::LockState& st)
{
    QString t = !st.held     ? QStringLiteral("free")
        : st.holder_cpu >= 0 ? QStringLiteral("held by CPU %1").arg(st.holder_cpu)
                             : QStringLiteral("held");
    if (st.waiters > 0)
        t += QStringLiteral(", %1 waiting").arg(st.waiters);
    return t;
}

} // namespace

SkipListView::SkipListView(Simulation& sim, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
{
    setObjectName(QStringLiteral("skiplist"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    files_ = new QComboBox(this);
    files_->setToolTip(tr("Each file has its own skip list"));
    connect(files_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0)
            setFile(FileId(files_->itemData(i).toUInt()));
    });
    fitButton_ = new QToolButton(this);
    fitButton_->setText(tr("Fit"));
    fitButton_->setToolTip(tr("Show the whole list (double-click does the same)"));
    connect(fitButton_, &QToolButton::clicked, this, &SkipListView::fit);
    clock_.start();
    layout_.setFont(font());
    layout_.setPalette(palette());
    connect(&sim_, &Simulation::runReset, this, &SkipListView::onRunReset);
    connect(&sim_, &Simulation::ticked, this, &SkipListView::onTicked);
    connect(&sim_, &Simulation::eventsArrived, this, &SkipListView::onEvents);
}

SkipListView::~SkipListView() = default;

const SkipListLayout::Scene& SkipListView::scene() const
{
    if (dirty_) {
        scene_ = layout_.build();
        dirty_ = false;
    }
    return scene_;
}

void SkipListView::invalidate()
{
    dirty_ = true;
    update();
}

PageIndex* SkipListView::index() const
{
    if (benchmark_)
        return benchList_.get();
    Engine* engine = sim_.engine();
    if (!engine || engine->config().index.kind != "skiplist")
        return nullptr;
    const auto& ids = engine->files();
    if (std::find(ids.begin(), ids.end(), file_) == ids.end())
        return nullptr;
    return engine->page_cache().file(file_).index.get();
}

void SkipListView::fillFiles()
{
    files_->clear();
    Engine* engine = sim_.engine();
    if (benchmark_ || !engine) {
        files_->setVisible(false);
        return;
    }
    for (FileId id : engine->files())
        files_->addItem(tr("file %1 (%2 pages)").arg(id).arg(num(engine->page_cache().file(id).size_pages)), id);
    files_->setVisible(files_->count() > 1);
    const int at = files_->findData(file_);
    files_->setCurrentIndex(at >= 0 ? at : 0);
    if (at < 0 && files_->count() > 0)
        file_ = FileId(files_->itemData(0).toUInt());
    resizeEvent(nullptr);
}

void SkipListView::onRunReset()
{
    benchmark_ = false;
    benchList_.reset();
    benchRegistry_.reset();
    changes_.clear();
    file_ = 0;
    fillFiles();
    layout_.setSnapshot({});
    layout_.fit();
    lastSnapshotAt_ = -1'000'000;
    refresh();
}

void SkipListView::setFile(FileId file)
{
    if (file == file_)
        return;
    file_ = file;
    const int at = files_->findData(file);
    if (at >= 0)
        files_->setCurrentIndex(at);
    layout_.setSnapshot({});
    layout_.fit();
    refresh();
}

void SkipListView::onTicked()
{
    if (!isVisible() || benchmark_)
        return;
    if (files_->count() == 0 && sim_.engine())
        fillFiles();
    // A snapshot walks every node: keep its share of the GUI thread under a third.
    if (clock_.elapsed() - lastSnapshotAt_ < qint64(2 * lastSnapshotMs_))
        return;
    refresh();
}

void SkipListView::refresh()
{
    PageIndex* list = index();
    if (!list) {
        if (!benchmark_) {
            layout_.setSnapshot({});
            invalidate();
        }
        return;
    }
    // A live refresh, benchmark included: the frame time counts the walk.
    layout_.setSnapshot(takeSnapshot(*list));
    if (!benchmark_) {
        Engine* engine = sim_.engine();
        layout_.setTitle(tr("file %1 of %2").arg(file_).arg(engine->files().size()));
    }
    updateRecent();
    invalidate();
}

IndexSnapshot SkipListView::takeSnapshot(const PageIndex& list)
{
    QElapsedTimer t;
    t.start();
    SnapshotOptions options;
    options.slot_detail = false;
    options.max_nodes = maxNodes_;
    IndexSnapshot snap = list.snapshot(options);
    lastSnapshotMs_ = double(t.nsecsElapsed()) / 1e6;
    lastSnapshotAt_ = clock_.elapsed();
    // Only a walk that was long enough to time says how fast nodes go.
    if (snap.nodes.size() >= kMinSnapshotNodes && lastSnapshotMs_ > 0.5) {
        const double perMs = double(snap.nodes.size()) / lastSnapshotMs_;
        maxNodes_ = std::clamp(std::size_t(perMs * kSnapshotBudgetMs), kMinSnapshotNodes, kMaxSnapshotNodes);
    }
    return snap;
}

void SkipListView::onEvents(const std::vector<Event>& events)
{
    if (benchmark_)
        return;
    const qint64 now = clock_.elapsed();
    bool any = false;
    for (const Event& e : events)
        if ((e.kind == EventKind::IndexNodeAlloc || e.kind == EventKind::IndexNodeFree) && e.file == file_) {
            const ev::IndexNodeAlloc node { e }; // IndexNodeFree has the same fields
            changes_.push_back({ node.node(), node.page(), node.file(), e.kind == EventKind::IndexNodeAlloc, now });
            any = true;
        }
    while (changes_.size() > kMaxRecent)
        changes_.pop_front();
    if (any && isVisible()) {
        updateRecent();
        invalidate();
    }
}

void SkipListView::updateRecent()
{
    const qint64 now = clock_.elapsed();
    while (!changes_.empty() && now - changes_.front().at > kRecentMs)
        changes_.pop_front();
    std::vector<SkipListLayout::Recent> recent;
    recent.reserve(changes_.size());
    for (const Change& c : changes_)
        if (c.file == file_)
            recent.push_back({ c.node, c.index, c.inserted, 1.0 - double(now - c.at) / double(kRecentMs + 1) });
    layout_.setRecent(std::move(recent));
    dirty_ = true;
}

void SkipListView::setView(double first, double count)
{
    layout_.setView(first, count);
    invalidate();
}

void SkipListView::fit()
{
    layout_.fit();
    invalidate();
}

void SkipListView::benchmarkLoad(std::uint64_t pages)
{
    benchmark_ = true;
    benchList_.reset();
    benchRegistry_ = std::make_unique<sync::LockRegistry>();
    benchPage_ = std::make_unique<Page>();
    SkipListConfig config;
    config.scheme = SkipListScheme::PerNode;
    benchList_ = std::make_unique<SkipList>(config, 0, *benchRegistry_);
    for (std::uint64_t i = 0; i < pages; ++i)
        benchList_->insert(i, benchPage_.get());
    // As live: a first walk times the list, the second stays in the budget.
    takeSnapshot(*benchList_);
    layout_.setSnapshot(takeSnapshot(*benchList_));
    layout_.setTitle(tr("file 0"));
    layout_.setRecent({});
    layout_.fit();
    changes_.clear();
    fillFiles();
    invalidate();
}

QString SkipListView::message() const
{
    if (benchmark_ || layout_.nodes() > 0)
        return {};
    Engine* engine = sim_.engine();
    if (!engine)
        return tr("No run. Open a scenario whose index is the skip list (index kind \"skiplist\").");
    if (engine->config().index.kind != "skiplist")
        return tr("This run indexes its pages with a %1; the skip list view shows runs whose index kind is "
                  "\"skiplist\".")
            .arg(engine->config().index.kind == "radix" ? tr("radix tree") : tr("hash table"));
    return {};
}

void SkipListView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    const QString msg = message();
    if (!msg.isEmpty()) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, msg);
        lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
        return;
    }
    const SkipListLayout::Scene& s = scene();
    p.fillRect(s.plot, palette().color(QPalette::Base));
    for (const auto& b : s.boxes)
        p.fillRect(b.rect, b.fill);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const auto& l : s.links) {
        p.setPen(QPen(l.color, 1));
        p.drawLine(l.line);
        if (l.arrow && l.line.length() > 8) {
            const QPointF tip = l.line.p2();
            p.drawLine(tip, tip + QPointF(-4, -3));
            p.drawLine(tip, tip + QPointF(-4, 3));
        }
    }
    // Recent searches: thick, round-capped, over the links.
    for (const auto& l : s.paths) {
        p.setPen(QPen(l.color, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawLine(l.line);
    }
    p.setBrush(Qt::NoBrush);
    for (const auto& o : s.outlines) {
        p.setPen(QPen(o.color, o.width));
        p.drawRect(o.rect);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const auto& w : s.swatches) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.setBrush(w.fill);
        p.drawRect(w.rect);
    }
    QFont bold = font();
    bold.setBold(true);
    for (const auto& l : s.labels) {
        p.setFont(l.bold ? bold : font());
        p.setPen(l.color);
        p.drawText(l.rect, l.flags, l.text);
    }
    lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

QString SkipListView::toolTipAt(const QPoint& pos) const
{
    const SkipListLayout::Scene& s = scene();
    const IndexSnapshot& snap = layout_.snapshot();
    if (s.head.adjusted(-2, -2, 2, 2).contains(pos))
        return tr("head: the sentinel before every node; a search starts at its top level (%1) and drops a level "
                  "whenever the next tower overshoots")
            .arg(s.levels);
    if (const int t = SkipListLayout::towerAt(s, pos); t >= 0) {
        const IndexSnapshot::Node& node = snap.nodes[s.towers[std::size_t(t)].node];
        QString text = tr("page %1 · tower height %2").arg(num(node.first_index)).arg(node.level);
        if (node.occupied == 0)
            text += tr(" · being linked or unlinked");
        if (node.tagged[kTagDirty])
            text += tr(" · dirty");
        if (node.tagged[kTagWriteback])
            text += tr(" · writeback");
        if (node.lock >= 0 && std::size_t(node.lock) < snap.locks.size())
            text += tr("\nnode lock: %1").arg(lockText(snap.locks[std::size_t(node.lock)].state));
        return text;
    }
    if (const int c = SkipListLayout::columnAt(s, pos); c >= 0) {
        const SkipListLayout::Column& col = s.columns[std::size_t(c)];
        std::vector<std::uint64_t> reach(std::size_t(s.levels), 0);
        for (std::size_t i = col.first; i < col.end; ++i)
            for (int l = 0; l < std::min(s.levels, snap.nodes[i].level); ++l)
                ++reach[std::size_t(l)];
        QString text = tr("%1 node(s), pages %2–%3 · tallest tower %4")
                           .arg(num(col.end - col.first), num(snap.nodes[col.first].first_index),
                               num(snap.nodes[col.end - 1].first_index))
                           .arg(col.tallest);
        for (int l = 1; l < col.tallest; ++l)
            text += tr("\nreaching level %1: %2").arg(l + 1).arg(num(reach[std::size_t(l)]));
        return text;
    }
    return {};
}

bool SkipListView::event(QEvent* e)
{
    return showHoverTip(this, e) || QWidget::event(e);
}

void SkipListView::resizeEvent(QResizeEvent* e)
{
    if (e)
        QWidget::resizeEvent(e);
    layout_.setSize(size());
    const QSize b = fitButton_->sizeHint();
    fitButton_->setGeometry(width() - b.width() - 8, 4, b.width(), b.height());
    const QSize c = files_->sizeHint();
    files_->setGeometry(fitButton_->x() - c.width() - 6, 4, c.width(), b.height());
    dirty_ = true;
}

void SkipListView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        layout_.setPalette(palette());
        layout_.setFont(font());
        dirty_ = true;
    }
    QWidget::changeEvent(e);
}

void SkipListView::wheelEvent(QWheelEvent* e)
{
    const SkipListLayout::Scene& s = scene();
    if (layout_.nodes() == 0)
        return;
    const double steps = e->angleDelta().y() / 120.0;
    const double count = layout_.viewCount();
    const double frac = std::clamp((e->position().x() - s.area.left()) / std::max(1.0, s.area.width()), 0.0, 1.0);
    // In detail mode towers may not fill the width: anchor on the node under the cursor.
    const double shown = s.aggregated ? count : std::min(count, s.area.width() / std::max(1.0, s.nodePx));
    const double anchor = layout_.viewFirst() + frac * shown;
    const double next = count * std::pow(0.8, steps);
    layout_.setView(anchor - frac * next, next);
    invalidate();
    e->accept();
}

void SkipListView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    pressed_ = true;
    dragging_ = false;
    pressPos_ = e->pos();
    pressFirst_ = layout_.viewFirst();
}

void SkipListView::mouseMoveEvent(QMouseEvent* e)
{
    if (!pressed_)
        return;
    if ((e->pos() - pressPos_).manhattanLength() > 4)
        dragging_ = true;
    if (!dragging_)
        return;
    const SkipListLayout::Scene& s = scene();
    const double perPixel = s.aggregated ? s.nodePx : 1.0 / std::max(1.0, s.nodePx);
    layout_.setView(pressFirst_ - (e->pos().x() - pressPos_.x()) * perPixel, layout_.viewCount());
    invalidate();
}

void SkipListView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() == Qt::LeftButton)
        pressed_ = false;
}

void SkipListView::mouseDoubleClickEvent(QMouseEvent*)
{
    fit();
}

} // namespace pcl::ui
