// The radix tree view: snapshots on ticks, painting the layout's items,
// zoom, pan, file selection and tooltips.
#include "views/radix/radixtreeview.h"

#include "index/page_index.h"
#include "kit/colors.h"
#include "kit/indexkindmessage.h"
#include "kit/liverun.h"
#include "kit/pageflags.h"

#include <QComboBox>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

constexpr int kMargin = 8;

} // namespace

RadixTreeView::RadixTreeView(LiveRun& run, QWidget* parent)
    : StructureView(run, parent)
{
    setObjectName(QStringLiteral("radix"));
    setMouseTracking(false);

    combo_ = new QComboBox(this);
    combo_->setToolTip(tr("The file whose tree is shown (one radix tree per file)"));
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(combo_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0)
            selectFile(FileId(combo_->itemData(i).toUInt()));
    });
    setFitToolTip(tr("Show the whole tree (or double-click)"));

    animTimer_.setSingleShot(true);
    connect(&animTimer_, &QTimer::timeout, this, qOverload<>(&QWidget::update));

    onRunReset();
}

RadixTreeView::~RadixTreeView() = default;

QRectF RadixTreeView::layoutRect() const
{
    return QRectF(kMargin, kMargin, width() - 2 * kMargin, height() - 2 * kMargin);
}

void RadixTreeView::placeControls()
{
    StructureView::placeControls();
    const QSize c = combo_->sizeHint();
    combo_->setGeometry(
        fitButton()->x() - 6 - c.width(), fitButton()->y(), c.width(), std::max(c.height(), fitButton()->height()));
}

void RadixTreeView::onRunReset()
{
    source_.clear();
    layout_.clear();
    lastSkips_.clear();
    selected_ = 0;
    refreshAtNextTick();
    combo_->clear();
    if (source_.hasRun())
        refresh();
    update();
}

void RadixTreeView::onEvents(const std::vector<Event>& events)
{
    // A height change always deserves the next tick's snapshot: it is what
    // the animation shows, and a skipped tick could miss a grow-then-shrink.
    for (const Event& e : events)
        if ((e.kind == EventKind::IndexHeightGrow || e.kind == EventKind::IndexHeightShrink) && e.file == selected_)
            refreshAtNextTick();
}

const PageIndex* RadixTreeView::index() const
{
    return source_.index(selected_);
}

std::vector<RadixFileInfo> RadixTreeView::fileInfos() const
{
    std::vector<RadixFileInfo> out;
    auto info = [](FileId f, const PageIndex& idx) {
        const IndexShape shape = idx.shape();
        return RadixFileInfo { f, idx.count(), shape.nodes, shape.height };
    };
    for (FileId f : source_.files())
        if (const PageIndex* idx = source_.index(f))
            out.push_back(info(f, *idx));
    return out;
}

void RadixTreeView::syncCombo(const std::vector<RadixFileInfo>& files)
{
    bool same = combo_->count() == int(files.size());
    for (int i = 0; same && i < combo_->count(); ++i)
        same = combo_->itemData(i).toUInt() == files[std::size_t(i)].file;
    if (!same) {
        combo_->clear();
        for (const auto& f : files)
            combo_->addItem(tr("file %1").arg(f.file), QVariant::fromValue(uint(f.file)));
    }
    const int at = combo_->findData(QVariant::fromValue(uint(selected_)));
    if (at >= 0 && combo_->currentIndex() != at)
        combo_->setCurrentIndex(at);
    placeControls();
}

void RadixTreeView::selectFile(FileId file)
{
    if (file == selected_)
        return;
    selected_ = file;
    lastSkips_.clear();
    refresh();
}

void RadixTreeView::setHighlightedNode(std::optional<pgoff_t> index)
{
    layout_.setHighlightedIndex(index);
    // A fitted view shows every leaf; a zoomed one keeps its zoom and
    // centres the page.
    if (index && !layout_.fitted()) {
        const double now = nowMs();
        const double first = layout_.viewFirst(now);
        const double span = layout_.viewSpan(now);
        if (double(*index) < first || double(*index) >= first + span)
            layout_.setView(double(*index) - span / 2, span);
    }
    update();
}

void RadixTreeView::fit()
{
    layout_.fit();
    update();
}

void RadixTreeView::refresh()
{
    const auto files = fileInfos();
    syncCombo(files);
    layout_.setFiles(files, selected_);
    if (const QString why = indexKindMessage(source_, IndexKind::Radix); !why.isEmpty()) {
        layout_.setMessage(why);
        update();
        return;
    }
    const PageIndex* idx = index();
    if (!idx) {
        layout_.setMessage(tr("This run has no file %1.").arg(selected_));
        update();
        return;
    }
    layout_.setMessage(QString());
    takeSnapshot(*idx);
    paceSnapshots();

    // Optimistic scheme: where the locked part of each walk started, over
    // the operations since the last snapshot.
    if (const auto skipped = source_.optimisticLevelsSkipped(selected_)) {
        const std::vector<std::uint64_t>& now = *skipped;
        std::vector<std::uint64_t> delta(now.size(), 0);
        for (std::size_t d = 0; d < now.size(); ++d)
            delta[d] = now[d] - (d < lastSkips_.size() ? std::min(lastSkips_[d], now[d]) : 0);
        lastSkips_ = now;
        layout_.setSkipHistogram(std::move(delta));
    } else {
        layout_.setSkipHistogram({});
    }
    update();
}

void RadixTreeView::benchmarkLoad(std::uint64_t pages, unsigned shift)
{
    layout_.clear();
    source_.loadRadixTree(pages, shift);
    selected_ = 0;
    refresh();
}

void RadixTreeView::takeSnapshot(const PageIndex& idx)
{
    // The detail depends on the tree's width on screen.
    layout_.setPalette(palette());
    layout_.setFont(font());
    layout_.setRect(layoutRect());
    SnapshotOptions options;
    const IndexShape shape = idx.shape();
    if (const unsigned fanout = source_.radixFanout(selected_); fanout > 0 && shape.nodes > kFullSnapshotMaxNodes)
        options.detail = layout_.detailFor(fanout, shape.height);
    timeSnapshot([&] {
        IndexSnapshot snap = idx.snapshot(options);
        const bool sameFile = layout_.hasSnapshot() && layout_.snapshot().file == snap.file;
        layout_.setSnapshot(std::move(snap), nowMs(), sameFile);
    });
}

void RadixTreeView::paintScene(QPainter& p)
{
    p.fillRect(rect(), palette().color(QPalette::Base));
    layout_.setPalette(palette());
    layout_.setFont(font());
    layout_.setRect(layoutRect());
    const double now = nowMs();
    // A zoom, a pan or a new width can show more than the snapshot holds.
    if (layout_.hasSnapshot() && layout_.snapshot().file == selected_ && !layout_.showsView())
        if (const PageIndex* idx = index(); idx && idx->kind() == IndexKind::Radix)
            takeSnapshot(*idx);
    layout_.build(now);

    const QRectF treeClip = layout_.treeRect().adjusted(-10, -24, 10, 10);
    using Role = RadixTreeLayout::Role;
    for (const auto& it : layout_.items()) {
        const bool inTree = it.role == Role::NodeFrame || it.role == Role::Slot || it.role == Role::SlotTag
            || it.role == Role::NodeCell || it.role == Role::NodeTag || it.role == Role::LevelBar
            || it.role == Role::Connector || it.role == Role::NodeLock || it.role == Role::LeafOutline;
        if (inTree)
            p.setClipRect(treeClip);
        else
            p.setClipping(false);
        p.setOpacity(it.alpha);
        if (!it.text.isEmpty() && it.role != Role::Legend) {
            p.setPen(it.pen);
            p.drawText(it.rect, it.align, it.text);
            continue;
        }
        if (it.role == Role::Connector || it.role == Role::HeightBar) {
            p.setPen(QPen(it.pen, it.penWidth));
            p.drawLine(it.line);
            if (it.role == Role::HeightBar) {
                p.drawLine(QLineF(it.line.p1(), it.line.p1() + QPointF(6, 0)));
                p.drawLine(QLineF(it.line.p2(), it.line.p2() + QPointF(6, 0)));
            }
            continue;
        }
        if (it.fill.isValid()) {
            if (!it.pen.isValid() && it.alpha >= 1) {
                p.fillRect(it.rect, it.fill);
                continue;
            }
            p.setBrush(it.fill);
        } else {
            p.setBrush(Qt::NoBrush);
        }
        if (it.pen.isValid())
            p.setPen(QPen(it.pen, it.penWidth));
        else
            p.setPen(Qt::NoPen);
        p.drawRect(it.rect);
    }
    p.setClipping(false);
    p.setOpacity(1);
    if (layout_.animating(now))
        animTimer_.start(16);
}

// ---- interaction -----------------------------------------------------------

QString RadixTreeView::pageText(pgoff_t index) const
{
    const std::optional<PageLook> page = source_.page(selected_, index);
    if (!page)
        return {};
    const QString flags = QStringLiteral("flags: %1").arg(pageFlagNames(page->flags, QStringLiteral(" ")));
    if (!page->references)
        return flags;
    return flags + QStringLiteral("\nreferences: %1").arg(*page->references);
}

QString RadixTreeView::toolTipAt(const QPoint& pos) const
{
    const auto hit = layout_.hitTest(pos, nowMs());
    QString text = layout_.describe(hit);
    if (text.isEmpty())
        return text;
    if (hit.level == 0 && hit.slot >= 0) {
        const QString page = pageText(hit.first);
        if (!page.isEmpty())
            text += QLatin1Char('\n') + page;
    }
    return text;
}

Viewport RadixTreeView::viewport() const
{
    const double now = nowMs();
    const QRectF tree = layout_.treeRect();
    Viewport v;
    v.x.first = layout_.viewFirst(now);
    v.x.span = layout_.viewSpan(now);
    v.x.lo = 0;
    v.x.hi = layout_.wholeSpan();
    v.x.minSpan = RadixTreeLayout::kMinSpan;
    v.x.origin = tree.left();
    v.x.pixels = std::max(0.0, tree.width());
    return v;
}

void RadixTreeView::setViewport(const Viewport& v)
{
    layout_.setView(v.x.first, v.x.span);
    update();
}

void RadixTreeView::clickAt(QMouseEvent* e)
{
    const auto hit = layout_.hitTest(e->position(), nowMs());
    if (hit.file >= 0 && std::size_t(hit.file) < layout_.files().size())
        selectFile(layout_.files()[std::size_t(hit.file)].file);
}

} // namespace pcl::ui
