// The hash view's widget: snapshots on ticks, flashes from events, zoom,
// pan, click to expand a chain, tooltips, painting the HashLayout scene.
#include "views/hash/hashview.h"

#include "kit/colors.h"
#include "kit/indexkindmessage.h"
#include "kit/liverun.h"
#include "kit/lockstate.h"
#include "kit/numberformat.h"

#include <QEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

HashView::HashView(LiveRun& run, QWidget* parent)
    : SceneView(run, parent)
{
    setObjectName(QStringLiteral("hash"));
    setFitToolTip(tr("Show every bucket (double-click does the same)"));
}

HashView::~HashView() = default;

std::optional<HashChains> HashView::table() const
{
    return source_.pageHash();
}

void HashView::onRunReset()
{
    source_.clear();
    flashes_.clear();
    layout_.setSelected(std::nullopt);
    layout_.setSnapshot({});
    layout_.fit();
    refresh();
}

void HashView::onTicked()
{
    if (followsRun())
        refresh();
}

void HashView::refresh()
{
    const std::optional<HashChains> t = structureOrNothing(table());
    if (!t)
        return;
    {
        SnapshotOptions options;
        // Lock states of a lock-per-bucket table are read only with slot
        // detail; the chain lengths are one word per bucket either way.
        options.slot_detail = true;
        options.max_nodes = std::size_t(1) << 22;
        // The table is every file's: the first file's view of it shows it
        // whole (a benchmark's too, so its frame time counts the snapshot).
        const std::vector<FileId> files = source_.files();
        timeSnapshot([&] { layout_.setSnapshot(source_.index(files.front())->snapshot(options)); });
        layout_.setFiles(int(files.size()));
    }
    layout_.setTablePages(t->pages());
    if (layout_.selected()) {
        const std::uint32_t len = t->chain_length(*layout_.selected());
        if (len != selectedLength_)
            readChain();
    }
    // Forget flashes that have faded.
    const qint64 now = clock_.elapsed();
    for (auto it = flashes_.begin(); it != flashes_.end();)
        it = now - it->second > kFlashMs ? flashes_.erase(it) : std::next(it);
    invalidate();
}

void HashView::onEvents(const std::vector<Event>& events)
{
    if (source_.benchmark())
        return;
    const qint64 now = clock_.elapsed();
    for (const Event& e : events)
        if (e.kind == EventKind::IndexChainLength)
            flashes_[ev::IndexChainLength { e }.bucket()] = now;
    if (!events.empty() && isVisible())
        update();
}

void HashView::flashBucket(std::uint64_t bucket)
{
    flashes_[bucket] = clock_.elapsed();
    update();
}

std::vector<std::pair<std::uint64_t, double>> HashView::flashes() const
{
    std::vector<std::pair<std::uint64_t, double>> out;
    const qint64 now = clock_.elapsed();
    for (const auto& [bucket, at] : flashes_) {
        const qint64 age = now - at;
        if (age <= kFlashMs)
            out.emplace_back(bucket, 1.0 - double(age) / double(kFlashMs + 1));
    }
    std::sort(out.begin(), out.end());
    return out;
}

void HashView::readChain()
{
    const std::optional<HashChains> t = table();
    const auto sel = layout_.selected();
    if (!t || !sel || *sel >= t->buckets()) {
        layout_.setSelected(std::nullopt);
        return;
    }
    std::vector<HashChainEntry> chain = t->chain_entries(*sel, 4096);
    selectedLength_ = std::uint32_t(chain.size());
    layout_.setSelected(sel, std::move(chain));
}

void HashView::selectBucket(std::optional<std::uint64_t> bucket)
{
    layout_.setSelected(bucket);
    if (bucket) {
        readChain();
        // Keep the zoom, centre the bucket when it is out of view.
        const double first = layout_.viewFirst();
        const double count = layout_.viewCount();
        if (layout_.selected() && (double(*bucket) < first || double(*bucket) >= first + count))
            layout_.setView(double(*bucket) - count / 2, count);
    }
    invalidate();
}

void HashView::benchmarkLoad(std::uint64_t pages)
{
    source_.loadPageHash(pages);
    SnapshotOptions options;
    options.max_nodes = std::size_t(1) << 22;
    timeSnapshot([&] { layout_.setSnapshot(source_.index(0)->snapshot(options)); });
    layout_.setTablePages(source_.pageHash()->pages());
    layout_.setFiles(1);
    layout_.setSelected(std::nullopt);
    layout_.fit();
    flashes_.clear();
    invalidate();
}

QString HashView::message() const
{
    if (source_.benchmark() || layout_.buckets() > 0)
        return {};
    if (QString why = indexKindMessage(source_, IndexKind::Hash); !why.isEmpty())
        return why;
    return tr("Waiting for the first snapshot…");
}

void HashView::paintScene(QPainter& p)
{
    if (paintOnlyMessage(p, message()))
        return;
    const HashLayout::Scene& s = scene();
    p.fillRect(s.column, palette().color(QPalette::Base));
    p.fillRect(s.histogram, palette().color(QPalette::Base));
    for (const auto& c : s.cells)
        if (c.longest > 0)
            p.fillRect(c.rect, c.fill);
    // Separators between single-bucket rows.
    if (s.bucketsPerCell == 1 && !s.cells.empty() && s.cells.front().rect.height() >= 6) {
        p.setPen(QPen(palette().color(QPalette::Mid), 0));
        for (const auto& c : s.cells)
            p.drawLine(c.rect.topLeft(), c.rect.topRight());
    }
    for (const auto& b : s.bands)
        p.fillRect(b.rect, b.fill);
    // Flashes over the rows of changed buckets.
    QColor flash = palette().color(QPalette::Highlight);
    const qint64 now = clock_.elapsed();
    for (const auto& [bucket, at] : flashes_) {
        const qint64 age = now - at;
        if (age > kFlashMs)
            continue;
        if (auto row = HashLayout::rowOf(s, bucket)) {
            flash.setAlphaF(0.6 * (1.0 - double(age) / double(kFlashMs)));
            QRectF r = row->adjusted(-2, 0, 2, 0);
            r.setHeight(std::max(2.0, r.height())); // visible even in a one-pixel row
            p.fillRect(r, flash);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(s.column);
    for (const auto& b : s.bars)
        p.fillRect(b.rect, b.fill);
    paintOutlines(p, s);
    // The expanded chain: a connector from the bucket, then its pages.
    if (auto sel = layout_.selected(); sel && !s.chainBoxes.empty()) {
        if (auto row = HashLayout::rowOf(s, *sel)) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
            const QPointF a(s.column.right() + 2, row->center().y());
            const QPointF b(s.chain.left() + 4, s.chainBoxes.front().rect.center().y());
            p.drawLine(a, QPointF(a.x() + 8, a.y()));
            p.drawLine(QPointF(a.x() + 8, a.y()), QPointF(b.x(), b.y()));
            p.drawLine(QPointF(b.x(), b.y()), QPointF(b.x(), s.chainBoxes.back().rect.center().y()));
        }
    }
    for (const auto& c : s.chainBoxes) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.setBrush(palette().color(QPalette::Base));
        p.drawRoundedRect(c.rect, 3, 3);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(c.rect.adjusted(6, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, c.text);
    }
    paintKeyAndLabels(p, s);
}

QString HashView::toolTipAt(const QPoint& pos) const
{
    const HashLayout::Scene& s = scene();
    const IndexSnapshot& snap = layout_.snapshot();
    if (const auto* c = HashLayout::cellAt(s, pos)) {
        QString t;
        if (c->end - c->first == 1)
            t = QStringLiteral("bucket %1: chain of %2 page%3")
                    .arg(groupedNumber(c->first))
                    .arg(c->longest)
                    .arg(c->longest == 1 ? "" : "s");
        else
            t = QStringLiteral("buckets %1–%2 (%3): longest chain %4 (bucket %5), mean %6")
                    .arg(groupedNumber(c->first), groupedNumber(c->end - 1), groupedNumber(c->end - c->first))
                    .arg(c->longest)
                    .arg(groupedNumber(c->longestBucket))
                    .arg(c->mean, 0, 'f', 2);
        const int lock = layout_.lockOf(c->longestBucket);
        if (lock >= 0)
            t += QStringLiteral("\n")
                + lockText(snap.locks[std::size_t(lock)].name, snap.locks[std::size_t(lock)].state);
        t += QStringLiteral("\nclick to list the chain's pages");
        return t;
    }
    if (const auto* b = HashLayout::bandAt(s, pos)) {
        if (b->locks == 1 && b->firstLock < snap.locks.size())
            return lockText(snap.locks[b->firstLock].name, b->state)
                + QStringLiteral("\ncovers buckets %1–%2").arg(groupedNumber(b->first), groupedNumber(b->end - 1));
        return QStringLiteral("%1 locks over buckets %2–%3; the busiest: %4")
            .arg(groupedNumber(b->locks), groupedNumber(b->first), groupedNumber(b->end - 1),
                b->state.held ? (b->state.waiters ? QStringLiteral("held, %1 waiting").arg(b->state.waiters)
                                                  : QStringLiteral("held"))
                              : QStringLiteral("all free"));
    }
    if (const auto* b = HashLayout::barAt(s, pos)) {
        const QString len = b->lengthEnd - b->length == 1
            ? QString::number(b->length)
            : QStringLiteral("%1–%2").arg(b->length).arg(b->lengthEnd - 1);
        return QStringLiteral("%1 bucket%2 with a chain of %3 page(s)")
            .arg(groupedNumber(b->buckets), b->buckets == 1 ? "" : "s", len);
    }
    if (const auto* c = HashLayout::chainBoxAt(s, pos))
        return QStringLiteral("file %1, page %2 (offset %3 KiB)")
            .arg(c->entry.file)
            .arg(groupedNumber(c->entry.index))
            .arg(groupedNumber(c->entry.index * 4));
    return {};
}

Viewport HashView::viewport() const
{
    const HashLayout::Scene& s = scene();
    Viewport v;
    v.y = layout_.viewAxis(double(layout_.buckets()), double(HashLayout::kMinViewBuckets));
    v.y.origin = s.column.top();
    v.y.pixels = s.cells.empty() ? 0 : std::max(1.0, s.column.height());
    return v;
}

void HashView::setViewport(const Viewport& v)
{
    setView(v.y.first, v.y.span);
}

void HashView::clickAt(QMouseEvent* e)
{
    if (const auto* c = HashLayout::cellAt(scene(), e->pos())) {
        const std::uint64_t b = c->longestBucket;
        selectBucket(layout_.selected() == b ? std::nullopt : std::optional<std::uint64_t>(b));
    }
}

} // namespace pcl::ui
