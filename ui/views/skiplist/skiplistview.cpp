// The skip list view's widget: file selector, snapshots paced by their own
// cost, recent changes from events, zoom, pan, tooltips, painting.
#include "views/skiplist/skiplistview.h"

#include "kit/indexkindmessage.h"
#include "kit/liverun.h"
#include "kit/lockstate.h"
#include "kit/numberformat.h"

#include <QComboBox>
#include <QEvent>
#include <QPainter>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

SkipListView::SkipListView(LiveRun& run, QWidget* parent)
    : SceneView(run, parent)
{
    setObjectName(QStringLiteral("skiplist"));
    files_ = new QComboBox(this);
    files_->setToolTip(tr("Each file has its own skip list"));
    connect(files_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0)
            setFile(FileId(files_->itemData(i).toUInt()));
    });
    setFitToolTip(tr("Show the whole list (double-click does the same)"));
}

SkipListView::~SkipListView() = default;

const PageIndex* SkipListView::index() const
{
    return source_.indexKind() == IndexKind::SkipList ? source_.index(file_) : nullptr;
}

void SkipListView::fillFiles()
{
    files_->clear();
    if (source_.benchmark() || !source_.hasRun()) {
        files_->setVisible(false);
        return;
    }
    for (FileId id : source_.files())
        files_->addItem(tr("file %1 (%2 pages)").arg(id).arg(groupedNumber(source_.filePages(id))), id);
    files_->setVisible(files_->count() > 1);
    const int at = files_->findData(file_);
    files_->setCurrentIndex(at >= 0 ? at : 0);
    if (at < 0 && files_->count() > 0)
        file_ = FileId(files_->itemData(0).toUInt());
    placeControls();
}

void SkipListView::onRunReset()
{
    source_.clear();
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
    if (!followsRun())
        return;
    if (files_->count() == 0 && source_.hasRun())
        fillFiles();
    // A snapshot walks every node: keep its share of the GUI thread under a third.
    if (clock_.elapsed() - lastSnapshotAt_ < qint64(2 * lastSnapshotMs()))
        return;
    refresh();
}

void SkipListView::refresh()
{
    const PageIndex* list = structureOrNothing(index());
    if (!list)
        return;
    // A live refresh, benchmark included: the frame time counts the walk.
    layout_.setSnapshot(takeSnapshot(*list));
    if (!source_.benchmark()) {
        layout_.setTitle(tr("file %1 of %2").arg(file_).arg(source_.files().size()));
    }
    updateRecent();
    invalidate();
}

IndexSnapshot SkipListView::takeSnapshot(const PageIndex& list)
{
    SnapshotOptions options;
    options.slot_detail = false;
    options.max_nodes = maxNodes_;
    IndexSnapshot snap = timeSnapshot([&] { return list.snapshot(options); });
    lastSnapshotAt_ = clock_.elapsed();
    // Only a walk that was long enough to time says how fast nodes go.
    if (snap.nodes.size() >= kMinSnapshotNodes && lastSnapshotMs() > 0.5) {
        const double perMs = double(snap.nodes.size()) / lastSnapshotMs();
        maxNodes_ = std::clamp(std::size_t(perMs * kSnapshotBudgetMs), kMinSnapshotNodes, kMaxSnapshotNodes);
    }
    return snap;
}

void SkipListView::onEvents(const std::vector<Event>& events)
{
    if (source_.benchmark())
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
    scene_.invalidate();
}

void SkipListView::benchmarkLoad(std::uint64_t pages)
{
    source_.loadSkipList(pages);
    file_ = 0;
    // As live: a first walk times the list, the second stays in the budget.
    takeSnapshot(*source_.index(0));
    layout_.setSnapshot(takeSnapshot(*source_.index(0)));
    layout_.setTitle(tr("file 0"));
    layout_.setRecent({});
    layout_.fit();
    changes_.clear();
    fillFiles();
    invalidate();
}

QString SkipListView::message() const
{
    if (source_.benchmark() || layout_.nodes() > 0)
        return {};
    return indexKindMessage(source_, IndexKind::SkipList);
}

void SkipListView::paintScene(QPainter& p)
{
    if (paintOnlyMessage(p, message()))
        return;
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
    paintOutlines(p, s);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintKeyAndLabels(p, s);
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
        QString text = tr("page %1 · tower height %2").arg(groupedNumber(node.first_index)).arg(node.level);
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
                           .arg(groupedNumber(col.end - col.first), groupedNumber(snap.nodes[col.first].first_index),
                               groupedNumber(snap.nodes[col.end - 1].first_index))
                           .arg(col.tallest);
        for (int l = 1; l < col.tallest; ++l)
            text += tr("\nreaching level %1: %2").arg(l + 1).arg(groupedNumber(reach[std::size_t(l)]));
        return text;
    }
    return {};
}

void SkipListView::placeControls()
{
    StructureView::placeControls();
    const QSize c = files_->sizeHint();
    files_->setGeometry(fitButton()->x() - c.width() - 6, 4, c.width(), fitButton()->height());
}

Viewport SkipListView::viewport() const
{
    const SkipListLayout::Scene& s = scene();
    Viewport v;
    v.x = layout_.viewAxis(double(layout_.nodes()));
    v.x.origin = s.area.left();
    // Aggregated, a column holds nodePx nodes; in detail a tower is nodePx
    // wide, and the towers in view may end before the area does.
    if (layout_.nodes() > 0 && s.nodePx > 0)
        v.x.pixels = s.aggregated ? v.x.span / s.nodePx : v.x.span * s.nodePx;
    return v;
}

void SkipListView::setViewport(const Viewport& v)
{
    setView(v.x.first, v.x.span);
}

} // namespace pcl::ui
