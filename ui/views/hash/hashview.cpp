// The hash view's widget: snapshots on ticks, flashes from events, zoom,
// pan, click to expand a chain, tooltips, painting the HashLayout scene.
#include "views/hash/hashview.h"

#include "kit/hovertip.h"

#include "kit/colors.h"
#include "run/simulation.h"

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

QString lockText(const std::string& name, const sync::LockState& st)
{
    QString t = QString::fromStdString(name) + QStringLiteral(": ");
    if (!st.held)
        t += QStringLiteral("free");
    else if (st.holder_cpu >= 0)
        t += QStringLiteral("held by CPU %1").arg(st.holder_cpu);
    else
        t += QStringLiteral("held");
    if (st.waiters > 0)
        t += QStringLiteral(", %1 waiting").arg(st.waiters);
    return t;
}

} // namespace

HashView::HashView(Simulation& sim, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
{
    setObjectName(QStringLiteral("hash"));
    setAttribute(Qt::WA_OpaquePaintEvent);
    fitButton_ = new QToolButton(this);
    fitButton_->setText(tr("Fit"));
    fitButton_->setToolTip(tr("Show every bucket (double-click does the same)"));
    connect(fitButton_, &QToolButton::clicked, this, &HashView::fit);
    clock_.start();
    layout_.setFont(font());
    layout_.setPalette(palette());
    connect(&sim_, &Simulation::runReset, this, &HashView::onRunReset);
    connect(&sim_, &Simulation::ticked, this, &HashView::onTicked);
    connect(&sim_, &Simulation::eventsArrived, this, &HashView::onEvents);
}

HashView::~HashView() = default;

const HashLayout::Scene& HashView::scene() const
{
    if (dirty_) {
        scene_ = layout_.build();
        dirty_ = false;
    }
    return scene_;
}

void HashView::invalidate()
{
    dirty_ = true;
    update();
}

HashIndex* HashView::table() const
{
    if (benchmark_)
        return benchTable_.get();
    Engine* engine = sim_.engine();
    if (!engine || engine->files().empty())
        return nullptr;
    auto* mapping = dynamic_cast<HashMapping*>(engine->page_cache().file(engine->files().front()).index.get());
    return mapping ? mapping->table().get() : nullptr;
}

void HashView::onRunReset()
{
    benchmark_ = false;
    benchTable_.reset();
    benchRegistry_.reset();
    flashes_.clear();
    layout_.setSelected(std::nullopt);
    layout_.setSnapshot({});
    layout_.fit();
    refresh();
}

void HashView::onTicked()
{
    if (!isVisible() || benchmark_)
        return;
    refresh();
}

void HashView::refresh()
{
    HashIndex* t = table();
    if (!t) {
        if (!benchmark_) {
            layout_.setSnapshot({});
            invalidate();
        }
        return;
    }
    {
        SnapshotOptions options;
        // Lock states of a lock-per-bucket table are read only with slot
        // detail; the chain lengths are one word per bucket either way.
        options.slot_detail = true;
        options.max_nodes = std::size_t(1) << 22;
        QElapsedTimer timer;
        timer.start();
        if (benchmark_) {
            // As live: the frame time a benchmark measures counts the snapshot.
            layout_.setSnapshot(benchTable_->mapping(0)->snapshot(options));
        } else {
            Engine& engine = *sim_.engine();
            layout_.setSnapshot(engine.page_cache().file(engine.files().front()).index->snapshot(options));
            layout_.setFiles(int(engine.files().size()));
        }
        lastSnapshotMs_ = double(timer.nsecsElapsed()) / 1e6;
    }
    layout_.setTablePages(t->count());
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
    if (benchmark_)
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
    HashIndex* t = table();
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
    if (bucket)
        readChain();
    invalidate();
}

void HashView::setView(double first, double count)
{
    layout_.setView(first, count);
    invalidate();
}

void HashView::fit()
{
    layout_.fit();
    invalidate();
}

void HashView::benchmarkLoad(std::uint64_t pages)
{
    benchmark_ = true;
    benchTable_.reset();
    benchRegistry_ = std::make_unique<sync::LockRegistry>();
    benchPage_ = std::make_unique<Page>();
    HashConfig config;
    config.scheme = HashScheme::Hashed;
    config.locks = 64;
    // 2.4 sized the table from physical memory: about one bucket per page frame.
    config.memory_bytes = std::max<std::uint64_t>(pages, 16 * 64) * kPageHashPageSize;
    benchTable_ = HashIndex::create(config, *benchRegistry_);
    auto mapping = benchTable_->mapping(0);
    for (std::uint64_t i = 0; i < pages; ++i)
        mapping->insert(i, benchPage_.get());
    SnapshotOptions options;
    options.max_nodes = std::size_t(1) << 22;
    QElapsedTimer timer;
    timer.start();
    layout_.setSnapshot(mapping->snapshot(options));
    lastSnapshotMs_ = double(timer.nsecsElapsed()) / 1e6;
    layout_.setTablePages(benchTable_->count());
    layout_.setFiles(1);
    layout_.setSelected(std::nullopt);
    layout_.fit();
    flashes_.clear();
    invalidate();
}

QString HashView::message() const
{
    Engine* engine = sim_.engine();
    if (benchmark_ || layout_.buckets() > 0)
        return {};
    if (!engine)
        return tr("No run. Open a scenario whose index is the page hash (index kind \"hash\").");
    if (engine->config().index.kind != "hash")
        return tr("This run indexes its pages with a %1; the hash view shows runs whose index kind is \"hash\".")
            .arg(engine->config().index.kind == "radix" ? tr("radix tree") : tr("skip list"));
    return tr("Waiting for the first snapshot…");
}

void HashView::paintEvent(QPaintEvent*)
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
    for (const auto& o : s.outlines) {
        p.setPen(QPen(o.color, o.width));
        p.drawRect(o.rect);
    }
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

QString HashView::toolTipAt(const QPoint& pos) const
{
    const HashLayout::Scene& s = scene();
    const IndexSnapshot& snap = layout_.snapshot();
    if (const auto* c = HashLayout::cellAt(s, pos)) {
        QString t;
        if (c->end - c->first == 1)
            t = QStringLiteral("bucket %1: chain of %2 page%3")
                    .arg(num(c->first))
                    .arg(c->longest)
                    .arg(c->longest == 1 ? "" : "s");
        else
            t = QStringLiteral("buckets %1–%2 (%3): longest chain %4 (bucket %5), mean %6")
                    .arg(num(c->first), num(c->end - 1), num(c->end - c->first))
                    .arg(c->longest)
                    .arg(num(c->longestBucket))
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
                + QStringLiteral("\ncovers buckets %1–%2").arg(num(b->first), num(b->end - 1));
        return QStringLiteral("%1 locks over buckets %2–%3; the busiest: %4")
            .arg(num(b->locks), num(b->first), num(b->end - 1),
                b->state.held ? (b->state.waiters ? QStringLiteral("held, %1 waiting").arg(b->state.waiters)
                                                  : QStringLiteral("held"))
                              : QStringLiteral("all free"));
    }
    if (const auto* b = HashLayout::barAt(s, pos)) {
        const QString len = b->lengthEnd - b->length == 1
            ? QString::number(b->length)
            : QStringLiteral("%1–%2").arg(b->length).arg(b->lengthEnd - 1);
        return QStringLiteral("%1 bucket%2 with a chain of %3 page(s)")
            .arg(num(b->buckets), b->buckets == 1 ? "" : "s", len);
    }
    if (const auto* c = HashLayout::chainBoxAt(s, pos))
        return QStringLiteral("file %1, page %2 (offset %3 KiB)")
            .arg(c->entry.file)
            .arg(num(c->entry.index))
            .arg(num(c->entry.index * 4));
    return {};
}

bool HashView::event(QEvent* e)
{
    return showHoverTip(this, e) || QWidget::event(e);
}

void HashView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    layout_.setSize(size());
    const QSize b = fitButton_->sizeHint();
    fitButton_->setGeometry(width() - b.width() - 8, 4, b.width(), b.height());
    dirty_ = true;
}

void HashView::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) {
        layout_.setPalette(palette());
        layout_.setFont(font());
        dirty_ = true;
    }
    QWidget::changeEvent(e);
}

void HashView::wheelEvent(QWheelEvent* e)
{
    const HashLayout::Scene& s = scene();
    if (s.cells.empty())
        return;
    const double steps = e->angleDelta().y() / 120.0;
    const double count = layout_.viewCount();
    const double frac = std::clamp((e->position().y() - s.column.top()) / std::max(1.0, s.column.height()), 0.0, 1.0);
    const double anchor = layout_.viewFirst() + frac * count;
    const double next = count * std::pow(0.8, steps);
    layout_.setView(anchor - frac * next, next);
    invalidate();
    e->accept();
}

void HashView::mousePressEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton)
        return;
    pressed_ = true;
    dragging_ = false;
    pressPos_ = e->pos();
    pressFirst_ = layout_.viewFirst();
}

void HashView::mouseMoveEvent(QMouseEvent* e)
{
    if (!pressed_)
        return;
    if ((e->pos() - pressPos_).manhattanLength() > 4)
        dragging_ = true;
    if (!dragging_)
        return;
    const HashLayout::Scene& s = scene();
    if (s.cells.empty())
        return;
    const double perPixel = layout_.viewCount() / std::max(1.0, s.column.height());
    layout_.setView(pressFirst_ - (e->pos().y() - pressPos_.y()) * perPixel, layout_.viewCount());
    invalidate();
}

void HashView::mouseReleaseEvent(QMouseEvent* e)
{
    if (e->button() != Qt::LeftButton || !pressed_)
        return;
    pressed_ = false;
    if (dragging_)
        return;
    if (const auto* c = HashLayout::cellAt(scene(), e->pos())) {
        const std::uint64_t b = c->longestBucket;
        selectBucket(layout_.selected() == b ? std::nullopt : std::optional<std::uint64_t>(b));
    }
}

void HashView::mouseDoubleClickEvent(QMouseEvent*)
{
    fit();
}

} // namespace pcl::ui
