// The skip list view's geometry: towers and links in detail, a histogram of
// tower heights per pixel column when aggregated, locks, recent changes.
#include "views/skiplist/skiplistlayout.h"

#include "kit/colormix.h"
#include "kit/colors.h"
#include "kit/lockstate.h"
#include "kit/numberformat.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

/// Tallest level row.
constexpr double kMaxLevelPx = 56;
/// Recent searches drawn at most.
constexpr std::size_t kMaxPaths = 4;
/// Fewest nodes a zoom shows.
constexpr double kMinViewNodes = 4;

bool isMappingLock(const std::string& name)
{
    return name.size() >= 13 && name.compare(name.size() - 13, 13, "skiplist_lock") == 0;
}

} // namespace

QColor SkipListLayout::towerColor(bool entry, bool upper) const
{
    if (!entry) // mid-insert or mid-erase: not an entry at this instant
        return colors::mix(palette_.color(QPalette::Base), palette_.color(QPalette::WindowText), 0.45);
    const QColor c = colors::series(0);
    return upper ? colors::mix(palette_.color(QPalette::Base), c, 0.55) : c;
}

QColor SkipListLayout::shareColor(double share) const
{
    if (share <= 0)
        return palette_.color(QPalette::Base);
    // Log scale over four decades: 1 -> full, 1/10 -> 0.83, 1/1000 -> 0.48.
    const double k = std::clamp(0.3 + 0.7 * (1.0 + std::log10(share) / 4.0), 0.3, 1.0);
    return colors::mix(palette_.color(QPalette::Base), colors::series(0), k);
}

void SkipListLayout::setSnapshot(IndexSnapshot snapshot)
{
    snap_ = std::move(snapshot);
    setView(first_, count_);
}

void SkipListLayout::setView(double first, double count)
{
    clampView(first, count, double(nodes()), kMinViewNodes, false);
}

SkipListLayout::Scene SkipListLayout::build() const
{
    Scene s;
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const double margin = 10;
    const double w = size_.width();
    const double h = size_.height();
    const double top = 6 + 2 * lh + 6 + 14 + lh;   // header, room for lock counts
    const double bottom = h - margin - 3 * lh - 6; // index labels, caption, lock line
    const double levelLabelW = fm.horizontalAdvance(QStringLiteral("level 16")) + 8;
    s.plot = QRectF(margin + levelLabelW, top, w - 2 * margin - levelLabelW, std::max(10.0, bottom - top));
    s.levels = std::max(1, snap_.height);
    s.levelPx = std::min(kMaxLevelPx, s.plot.height() / s.levels);
    // The plot shrinks to the levels, centred in the room there is.
    const double spare = s.plot.height() - s.levelPx * s.levels;
    s.plot.setTop(s.plot.top() + spare / 2);
    s.plot.setHeight(s.levelPx * s.levels);
    const double headW = 34;
    s.head = QRectF(s.plot.left(), s.plot.top(), headW, s.plot.height());
    s.area = QRectF(s.head.right() + 10, s.plot.top(), s.plot.right() - s.head.right() - 10, s.plot.height());

    buildHeader(s);
    // Head tower and level labels.
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    for (int l = 0; l < s.levels; ++l) {
        const QRectF row(s.head.left(), s.plot.bottom() - (l + 1) * s.levelPx, headW, s.levelPx);
        s.boxes.push_back({ row.adjusted(1, 1, -1, -1),
            colors::mix(palette_.color(QPalette::Base), palette_.color(QPalette::WindowText), 0.3) });
        if (s.levelPx >= lh * 0.8 || l == 0 || l == s.levels - 1)
            s.labels.push_back({ QRectF(margin, row.top(), levelLabelW - 6, row.height()),
                QStringLiteral("level %1").arg(l + 1), Qt::AlignRight | Qt::AlignVCenter, dim, false });
    }
    s.labels.push_back({ QRectF(s.head.left() - 10, s.plot.bottom() + 2, headW + 20, lh), QStringLiteral("head"),
        Qt::AlignHCenter | Qt::AlignTop, dim, false });

    if (nodes() == 0) {
        s.labels.push_back({ s.area, QStringLiteral("empty list"), Qt::AlignCenter, dim, false });
        return s;
    }
    const double count = viewCount();
    s.aggregated = count * kMinNodePx > s.area.width();
    if (s.aggregated)
        buildColumns(s);
    else
        buildDetail(s);
    buildLocksAndRecent(s);
    return s;
}

void SkipListLayout::buildHeader(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor text = palette_.color(QPalette::WindowText);
    const double x0 = 10;
    QString title = QStringLiteral("Skip list%1: %2 pages, %3 levels in use, scheme %4")
                        .arg(title_.isEmpty() ? QString() : QStringLiteral(" of ") + title_, groupedNumber(snap_.count),
                            QString::number(snap_.height), QLatin1String(index_scheme_name(snap_.scheme)));
    if (snap_.truncated)
        title += QStringLiteral(" (first %1 nodes)").arg(groupedNumber(snap_.nodes.size()));
    s.labels.push_back(
        { QRectF(x0, 6, size_.width() - 2 * x0 - 220, lh), title, Qt::AlignLeft | Qt::AlignVCenter, text, true });
    double lx = x0;
    const double ly = 6 + lh + 4;
    const double sw = lh * 0.8;
    auto swatch = [&](const QColor& c, const QString& t) {
        s.swatches.push_back({ QRectF(lx, ly + (lh - sw) / 2, sw, sw), c });
        lx += sw + 4;
        const double tw = fm.horizontalAdvance(t) + 2;
        s.labels.push_back({ QRectF(lx, ly, tw, lh), t, Qt::AlignLeft | Qt::AlignVCenter, text, false });
        lx += tw + 12;
    };
    swatch(towerColor(true, false), QStringLiteral("node (level 1)"));
    swatch(towerColor(true, true), QStringLiteral("tower links"));
    swatch(towerColor(false, false), QStringLiteral("(un)linking"));
    swatch(colors::series(1), QStringLiteral("inserted + search"));
    swatch(colors::series(3), QStringLiteral("erased"));
    swatch(colors::lockHeld(), QStringLiteral("lock held"));
    swatch(colors::lockWanted(), QStringLiteral("held + wanted (×N)"));
}

void SkipListLayout::buildDetail(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    const QColor linkColor = palette_.color(QPalette::WindowText);
    const std::size_t n = nodes();
    const auto first = std::size_t(std::floor(first_));
    const auto end = std::min(n, std::size_t(std::ceil(first_ + viewCount())));
    s.nodePx = std::min(kMaxNodePx, s.area.width() / viewCount());
    const double gap = std::max(2.0, s.nodePx * 0.18);
    const double levelGap = std::max(2.0, s.levelPx * 0.15);
    auto levelRect = [&](double x, int l) {
        return QRectF(
            x + gap / 2, s.plot.bottom() - (l + 1) * s.levelPx + levelGap / 2, s.nodePx - gap, s.levelPx - levelGap);
    };
    // Where each level's link last left from: the head, or a tower before the view.
    std::vector<double> from(std::size_t(s.levels), s.head.right());
    std::vector<bool> fromHidden(std::size_t(s.levels), false);
    {
        int missing = s.levels;
        std::vector<bool> found(std::size_t(s.levels), false);
        for (std::size_t i = first; i-- > 0 && missing > 0;)
            for (int l = 0; l < std::min(s.levels, snap_.nodes[i].level); ++l)
                if (!found[std::size_t(l)]) {
                    found[std::size_t(l)] = true;
                    fromHidden[std::size_t(l)] = true;
                    from[std::size_t(l)] = s.area.left();
                    --missing;
                }
    }
    // Index labels: as many as fit without overlapping.
    const double labelW = fm.horizontalAdvance(groupedNumber(snap_.nodes[end - 1].first_index)) + 8;
    const std::size_t every = std::max<std::size_t>(1, std::size_t(std::ceil(labelW / s.nodePx)));
    for (std::size_t i = first; i < end; ++i) {
        const IndexSnapshot::Node& node = snap_.nodes[i];
        const double x = s.area.left() + (double(i) - first_) * s.nodePx;
        const int height = std::clamp(node.level, 1, s.levels);
        Tower t;
        t.node = i;
        t.height = height;
        t.rect = levelRect(x, 0).united(levelRect(x, height - 1));
        s.towers.push_back(t);
        const bool entry = node.occupied > 0;
        for (int l = 0; l < height; ++l) {
            const QRectF r = levelRect(x, l);
            s.boxes.push_back({ r, towerColor(entry, l > 0) });
            const double y = r.center().y();
            s.links.push_back({ QLineF(from[std::size_t(l)], y, r.left(), y), linkColor, true });
            from[std::size_t(l)] = r.right();
        }
        if ((i - first) % every == 0)
            s.labels.push_back({ QRectF(x + s.nodePx / 2 - labelW / 2, s.plot.bottom() + 2, labelW, lh),
                groupedNumber(node.first_index), Qt::AlignHCenter | Qt::AlignTop, dim, false });
    }
    // Levels whose next tower is beyond the view: the link leaves on the right.
    int missing = s.levels;
    std::vector<bool> found(std::size_t(s.levels), false);
    for (std::size_t i = end; i < n && missing > 0; ++i)
        for (int l = 0; l < std::min(s.levels, snap_.nodes[i].level); ++l)
            if (!found[std::size_t(l)]) {
                found[std::size_t(l)] = true;
                --missing;
                const double y = s.plot.bottom() - (l + 0.5) * s.levelPx;
                s.links.push_back({ QLineF(from[std::size_t(l)], y, s.area.right(), y), linkColor, false });
            }
    s.labels.push_back({ QRectF(s.area.left(), s.plot.bottom() + lh + 4, s.area.width(), lh),
        QStringLiteral("page index of each node, in level-1 order (nodes %1–%2 of %3)")
            .arg(groupedNumber(first), groupedNumber(end - 1), groupedNumber(n)),
        Qt::AlignLeft | Qt::AlignVCenter, dim, false });
}

void SkipListLayout::buildColumns(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    const std::size_t n = nodes();
    const int pixels = std::max(1, int(std::floor(s.area.width())));
    const double perColumn = viewCount() / pixels;
    s.nodePx = perColumn;
    std::vector<std::uint32_t> reach(std::size_t(s.levels) + 1);
    for (int c = 0; c < pixels; ++c) {
        Column col;
        col.first = std::min(n, std::size_t(std::floor(first_ + c * perColumn)));
        col.end = std::min(n, std::max(col.first + 1, std::size_t(std::floor(first_ + (c + 1) * perColumn))));
        if (col.first >= col.end)
            break;
        std::fill(reach.begin(), reach.end(), 0);
        for (std::size_t i = col.first; i < col.end; ++i) {
            const int height = std::clamp(snap_.nodes[i].level, 1, s.levels);
            ++reach[std::size_t(height - 1)];
            col.tallest = std::max(col.tallest, height);
        }
        // reach[l] = nodes whose tower reaches level l + 1 (suffix sums).
        for (int l = s.levels - 2; l >= 0; --l)
            reach[std::size_t(l)] += reach[std::size_t(l) + 1];
        const double x = s.area.left() + c;
        col.rect = QRectF(x, s.plot.top(), 1, s.plot.height());
        const double total = double(col.end - col.first);
        for (int l = 0; l < col.tallest; ++l)
            s.boxes.push_back({ QRectF(x, s.plot.bottom() - (l + 1) * s.levelPx + 1, 1, s.levelPx - 1),
                shareColor(double(reach[std::size_t(l)]) / total) });
        s.columns.push_back(col);
    }
    // Page indexes at a few columns.
    const int ticks = std::max(1, int(s.area.width() / 120));
    for (int t = 0; t <= ticks && !s.columns.empty(); ++t) {
        const std::size_t c = std::min(s.columns.size() - 1, std::size_t(double(s.columns.size() - 1) * t / ticks));
        const QString label = groupedNumber(snap_.nodes[s.columns[c].first].first_index);
        const double lw = fm.horizontalAdvance(label) + 8;
        const double x = std::clamp(s.columns[c].rect.left() - lw / 2, s.area.left() - lw / 2, s.area.right() - lw / 2);
        s.labels.push_back(
            { QRectF(x, s.plot.bottom() + 2, lw, lh), label, Qt::AlignHCenter | Qt::AlignTop, dim, false });
    }
    s.labels.push_back({ QRectF(s.area.left(), s.plot.bottom() + lh + 4, s.area.width(), lh),
        QStringLiteral("page index · %1 nodes per pixel column; shade = share of them whose tower reaches the level "
                       "(log scale)")
            .arg(QString::number(perColumn, 'f', perColumn < 10 ? 1 : 0)),
        Qt::AlignLeft | Qt::AlignVCenter, dim, false });
}

std::vector<SkipListLayout::PathStep> SkipListLayout::searchPath(const IndexSnapshot& snap, pgoff_t key)
{
    int top = 0;
    for (const auto& node : snap.nodes)
        top = std::max(top, node.level);
    std::vector<PathStep> path;
    long at = -1; // the head
    for (int l = top - 1; l >= 0; --l) {
        path.push_back({ at, l });
        // Right along level l: the next tower at least l + 1 tall.
        for (;;) {
            long next = at + 1;
            while (next < long(snap.nodes.size()) && snap.nodes[std::size_t(next)].level <= l)
                ++next;
            if (next >= long(snap.nodes.size()) || snap.nodes[std::size_t(next)].first_index >= key)
                break;
            at = next;
            path.push_back({ at, l });
        }
    }
    return path;
}

void SkipListLayout::buildLocksAndRecent(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor text = palette_.color(QPalette::WindowText);
    auto waiters = [&](const QRectF& over, std::uint32_t count) {
        if (count == 0)
            return;
        const QString t = QStringLiteral("×%1").arg(count);
        const double tw = fm.horizontalAdvance(t) + 4;
        s.labels.push_back({ QRectF(over.center().x() - tw / 2, over.top() - lh - 2, tw, lh), t,
            Qt::AlignHCenter | Qt::AlignBottom, text, true });
    };
    // Per-list locks: the mapping scheme's one lock around everything; the head's own lock.
    for (const auto& lock : snap_.locks) {
        if (isMappingLock(lock.name)) {
            const QColor c = lockColor(lock.state, palette_.color(QPalette::Mid));
            const QRectF around = s.plot.adjusted(-4, -4, 4, 4);
            s.outlines.push_back({ around, c, lock.state.held || lock.state.waiters ? 3.0 : 1.0 });
            waiters(QRectF(around.left(), around.top(), 40, 10), lock.state.waiters);
            s.labels.push_back({ QRectF(s.area.left(), s.plot.bottom() + 2 * lh + 6, s.area.width(), lh),
                QStringLiteral("one lock for the whole list: %1, %2")
                    .arg(QString::fromStdString(lock.name), lockText(lock.state)),
                Qt::AlignLeft | Qt::AlignVCenter, text, false });
        } else if (lock.name == "skiplist_head") {
            s.outlines.push_back({ s.head.adjusted(-1, -1, 1, 1), lockColor(lock.state, QColor()), 2 });
            waiters(s.head, lock.state.waiters);
        }
    }
    if (snap_.scheme == SkipListScheme::PerNode)
        s.labels.push_back({ QRectF(s.area.left(), s.plot.bottom() + 2 * lh + 6, s.area.width(), lh),
            QStringLiteral("a lock per node, taken by writers only; searches take none (RCU)"),
            Qt::AlignLeft | Qt::AlignVCenter, palette_.color(QPalette::PlaceholderText), false });

    const QColor inserted = colors::series(1);
    const QColor erased = colors::series(3);
    if (!s.aggregated) {
        for (const Tower& t : s.towers) {
            const IndexSnapshot::Node& node = snap_.nodes[t.node];
            if (node.lock >= 0 && std::size_t(node.lock) < snap_.locks.size()) {
                const sync::LockState& st = snap_.locks[std::size_t(node.lock)].state;
                s.outlines.push_back({ t.rect.adjusted(-2, -2, 2, 2), lockColor(st, colors::lockHeld()), 2.5 });
                waiters(t.rect, st.waiters);
            }
        }
        // The searches of the most recent changes, newest on top.
        std::vector<const Recent*> newest;
        for (const Recent& r : recent_)
            newest.push_back(&r);
        std::sort(
            newest.begin(), newest.end(), [](const Recent* a, const Recent* b) { return a->strength < b->strength; });
        if (newest.size() > kMaxPaths)
            newest.erase(newest.begin(), newest.end() - long(kMaxPaths));
        const double gap = std::max(2.0, s.levelPx * 0.15);
        auto pointOf = [&](const PathStep& p) {
            const double x
                = p.node < 0 ? s.head.center().x() : s.area.left() + (double(p.node) - first_ + 0.5) * s.nodePx;
            const double y = s.plot.bottom() - (p.level + 0.5) * s.levelPx + gap / 4;
            return QPointF(x, y);
        };
        for (const Recent* r : newest) {
            QColor c = r->inserted ? inserted : erased;
            c.setAlphaF(std::clamp(r->strength, 0.25, 0.9));
            const std::vector<PathStep> path = searchPath(snap_, r->index);
            for (std::size_t i = 1; i < path.size(); ++i) {
                const QPointF a = pointOf(path[i - 1]), b = pointOf(path[i]);
                // Only what the view shows: a step entirely left or right of it is not drawn.
                if (std::max(a.x(), b.x()) < s.plot.left() || std::min(a.x(), b.x()) > s.area.right())
                    continue;
                s.paths.push_back({ QLineF(a, b), c, false });
            }
        }
        for (const Recent& r : recent_) {
            QColor c = r.inserted ? inserted : erased;
            c.setAlphaF(std::clamp(r.strength, 0.15, 1.0));
            if (r.inserted) {
                for (const Tower& t : s.towers)
                    if (snap_.nodes[t.node].id == r.node) {
                        s.outlines.push_back({ t.rect.adjusted(-4, -4, 4, 4), c, 2 });
                        break;
                    }
                continue;
            }
            // An erased node: a mark on the baseline where it stood.
            const auto it = std::lower_bound(snap_.nodes.begin(), snap_.nodes.end(), r.index,
                [](const IndexSnapshot::Node& a, pgoff_t i) { return a.first_index < i; });
            const double pos = double(it - snap_.nodes.begin());
            const double x = s.area.left() + (pos - first_) * s.nodePx;
            if (x >= s.area.left() - 1 && x <= s.area.right() + 1)
                s.boxes.push_back({ QRectF(x - 2, s.plot.bottom() - s.levelPx, 4, s.levelPx + 6), c });
        }
        return;
    }
    // Aggregated: a mark above each column holding a locked node, and below
    // each column with a recent change.
    const QRectF& plot = s.plot;
    auto columnOf = [&](double pos) -> int {
        const double c = std::floor((pos - first_) / s.nodePx);
        return c >= 0 && c < double(s.columns.size()) ? int(c) : -1;
    };
    for (std::size_t c = 0; c < s.columns.size(); ++c) {
        const Column& col = s.columns[c];
        sync::LockState worst;
        bool any = false;
        for (std::size_t i = col.first; i < col.end; ++i) {
            const int lock = snap_.nodes[i].lock;
            if (lock < 0 || std::size_t(lock) >= snap_.locks.size())
                continue;
            const sync::LockState& st = snap_.locks[std::size_t(lock)].state;
            if (!any || st.waiters > worst.waiters)
                worst = st;
            any = true;
        }
        if (any)
            s.boxes.push_back(
                { QRectF(col.rect.left() - 1, plot.top() - 10, 3, 8), lockColor(worst, colors::lockHeld()) });
    }
    for (const Recent& r : recent_) {
        QColor c = r.inserted ? inserted : erased;
        c.setAlphaF(std::clamp(r.strength, 0.15, 1.0));
        const auto it = std::lower_bound(snap_.nodes.begin(), snap_.nodes.end(), r.index,
            [](const IndexSnapshot::Node& a, pgoff_t i) { return a.first_index < i; });
        const int col = columnOf(double(it - snap_.nodes.begin()));
        if (col >= 0)
            s.boxes.push_back({ QRectF(s.columns[std::size_t(col)].rect.left() - 1, plot.bottom() + 1, 3, 5), c });
    }
}

int SkipListLayout::towerAt(const Scene& scene, const QPointF& pos)
{
    if (scene.aggregated || pos.y() < scene.plot.top() - 4 || pos.y() > scene.plot.bottom() + 4)
        return -1;
    for (std::size_t i = 0; i < scene.towers.size(); ++i) {
        const QRectF& r = scene.towers[i].rect;
        if (pos.x() >= r.left() - 2 && pos.x() <= r.right() + 2)
            return int(i);
    }
    return -1;
}

int SkipListLayout::columnAt(const Scene& scene, const QPointF& pos)
{
    if (!scene.aggregated || scene.columns.empty() || pos.y() < scene.plot.top() - 10
        || pos.y() > scene.plot.bottom() + 6)
        return -1;
    const double c = std::floor(pos.x() - scene.columns.front().rect.left());
    return c >= 0 && c < double(scene.columns.size()) ? int(c) : -1;
}

} // namespace pcl::ui
