// The radix tree view's model: snapshot + view state -> items to draw.
#include "views/radix/radixtreelayout.h"

#include "kit/colormix.h"
#include "kit/colors.h"
#include "kit/lockstate.h"
#include "kit/numberformat.h"
#include "views/radix/radixlevellayout.h"
#include "views/radix/radixlocklayout.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

constexpr double kBracketColumn = 52; ///< the height bracket, left of the level labels
constexpr double kRightPad = 14;

QString bytes(std::uint64_t b)
{
    if (b >= (std::uint64_t(1) << 20))
        return QStringLiteral("%1 MiB").arg(double(b) / double(1 << 20), 0, 'f', 1);
    if (b >= 1024)
        return QStringLiteral("%1 KiB").arg(double(b) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(b);
}

/// @x indexes as a page index, saturating.
pgoff_t toIndex(double x)
{
    return x >= 18446744073709551615.0 ? ~pgoff_t(0) : pgoff_t(std::max(0.0, x));
}

} // namespace

RadixTreeLayout::RadixTreeLayout() = default;

QColor RadixTreeLayout::occupiedColor() const
{
    if (colors::safe())
        return colors::isDark(palette_) ? colors::okabeIto::skyBlue() : colors::okabeIto::blue();
    return colors::isDark(palette_) ? QColor(0x5b, 0x9b, 0xe0) : QColor(0x2f, 0x6f, 0xb5);
}

QColor RadixTreeLayout::emptyColor() const
{
    const QColor base = palette_.color(QPalette::Base);
    return colors::isDark(palette_) ? base.lighter(170) : base.darker(112);
}

QColor RadixTreeLayout::tagColor(unsigned tag)
{
    switch (tag) {
    case kTagDirty:
        return colors::safe() ? colors::okabeIto::orange() : QColor(0xe0, 0x7b, 0x39);
    case kTagWriteback:
        return colors::safe() ? colors::okabeIto::reddishPurple() : QColor(0x9b, 0x6b, 0xd6);
    default:
        return colors::safe() ? colors::okabeIto::vermillion() : QColor(0xc8, 0x3e, 0x8c);
    }
}

QString RadixTreeLayout::tagName(unsigned tag)
{
    switch (tag) {
    case kTagDirty:
        return QStringLiteral("dirty");
    case kTagWriteback:
        return QStringLiteral("writeback");
    default:
        return QStringLiteral("towrite");
    }
}

QColor RadixTreeLayout::occupancyColor(double fraction) const
{
    if (fraction <= 0)
        return emptyColor();
    // Never lighter than a quarter: one page in a node must still show.
    return colors::mix(emptyColor(), occupiedColor(), 0.25 + 0.75 * std::min(fraction, 1.0));
}

void RadixTreeLayout::setRect(const QRectF& rect)
{
    rect_ = rect;
}

void RadixTreeLayout::setFiles(std::vector<RadixFileInfo> files, FileId selected)
{
    files_ = std::move(files);
    selected_ = selected;
}

void RadixTreeLayout::clear()
{
    snap_ = {};
    hasSnap_ = false;
    levels_.clear();
    levelNodes_.clear();
    levelOccupied_.clear();
    slotBits_.clear();
    animation_.clear();
    files_.clear();
    skips_.clear();
    message_.clear();
    fitted_ = true;
    items_.clear();
}

void RadixTreeLayout::setLeafDetail(pgoff_t first, std::vector<std::uint8_t> bits)
{
    slotBits_.setLeafDetail(first, std::move(bits));
}

// ---- snapshots and animation ----------------------------------------------

double RadixTreeLayout::settledSpan() const
{
    if (snap_.height > 0 && !snap_.nodes.empty())
        return double(snap_.nodes[0].span);
    return 1;
}

double RadixTreeLayout::effHeight(double nowMs) const
{
    return animation_.height(nowMs, std::max(snap_.height, 1));
}

double RadixTreeLayout::effSpan(double nowMs) const
{
    return animation_.span(nowMs, settledSpan());
}

bool RadixTreeLayout::animating(double nowMs) const
{
    return animation_.animating(nowMs);
}

void RadixTreeLayout::indexLevels()
{
    levels_ = radixLevelRanges(snap_);
    levelNodes_.assign(levels_.size(), 0);
    levelOccupied_.assign(levels_.size(), 0);
    if (snap_.levels.size() == levels_.size()) {
        // The tree's own totals: a level-of-detail snapshot lists only part of it.
        for (std::size_t l = 0; l < levels_.size(); ++l) {
            levelNodes_[l] = snap_.levels[l].nodes;
            levelOccupied_[l] = snap_.levels[l].occupied;
        }
        return;
    }
    for (const auto& n : snap_.nodes)
        if (n.level >= 0 && std::size_t(n.level) < levelOccupied_.size()) {
            ++levelNodes_[std::size_t(n.level)];
            levelOccupied_[std::size_t(n.level)] += n.occupied;
        }
}

bool RadixTreeLayout::binned(int level) const
{
    return level >= 0 && std::size_t(level) < snap_.levels.size() && snap_.levels[std::size_t(level)].binned;
}

void RadixTreeLayout::setSnapshot(IndexSnapshot snapshot, double nowMs, bool animate)
{
    const bool sameTree = hasSnap_ && snapshot.file == snap_.file;
    const double fromHeight = effHeight(nowMs);
    const double fromSpan = effSpan(nowMs);
    IndexSnapshot old = std::move(snap_);
    snap_ = std::move(snapshot);
    hasSnap_ = true;
    indexLevels();
    slotBits_.setSnapshot(snap_);

    if (!animate || !sameTree) {
        animation_.clear();
        if (!sameTree)
            fitted_ = true;
        return;
    }
    animation_.advance(old, snap_, levels_, fromHeight, fromSpan, settledSpan(), nowMs);
}

// ---- view ----------------------------------------------------------------

double RadixTreeLayout::viewFirst(double nowMs) const
{
    if (fitted_)
        return 0;
    (void)nowMs;
    return first_;
}

double RadixTreeLayout::viewSpan(double nowMs) const
{
    return fitted_ ? effSpan(nowMs) : span_;
}

void RadixTreeLayout::setView(double first, double span)
{
    const double whole = effSpan(1e300);
    span = std::clamp(span, std::min(kMinSpan, whole), whole);
    if (span >= whole) {
        fitted_ = true;
        return;
    }
    first_ = std::clamp(first, 0.0, whole - span);
    span_ = span;
    fitted_ = false;
}

void RadixTreeLayout::zoomAt(double x, double factor, double nowMs)
{
    if (factor <= 0 || tree_.width() <= 0)
        return;
    const double first = viewFirst(nowMs);
    const double span = viewSpan(nowMs);
    const double at = first + (x - tree_.left()) / tree_.width() * span;
    const double newSpan = span / factor;
    setView(at - (at - first) / span * newSpan, newSpan);
}

void RadixTreeLayout::panBy(double dx, double nowMs)
{
    if (fitted_ || tree_.width() <= 0)
        return;
    setView(viewFirst(nowMs) - dx / tree_.width() * viewSpan(nowMs), viewSpan(nowMs));
}

// ---- level of detail --------------------------------------------------------

RadixDetail RadixTreeLayout::detailFor(unsigned fanout, int height) const
{
    RadixDetail d;
    d.path_index = highlighted_;
    if (height <= 0 || fanout < 2)
        return d;
    double span = std::pow(double(fanout), height); // the root's: the fitted view
    if (!fitted_) {
        span = span_;
        // Half a view either side, so that a pan needs no new snapshot at once.
        d.first_index = toIndex(first_ - span / 2);
        d.last_index = toIndex(first_ + span * 1.5);
    }
    const double perPx = span / treeWidth();
    d.list_span = std::max<pgoff_t>(1, toIndex(std::ceil(kListPx * perPx)));
    d.bin_span = std::max<pgoff_t>(1, toIndex(kBinPx * perPx));
    return d;
}

bool RadixTreeLayout::showsView() const
{
    if (!hasSnap_ || snap_.height == 0 || snap_.detail.full())
        return true;
    const RadixDetail& d = snap_.detail;
    const double first = fitted_ ? 0 : first_;
    const double span = fitted_ ? settledSpan() : span_;
    if (first < double(d.first_index) || first + span > double(d.last_index) + 1)
        return false;
    const double width = treeWidth();
    bool anyBinned = false;
    for (int level = 0; level < snap_.height; ++level) {
        if (!binned(level))
            continue;
        anyBinned = true;
        if (std::pow(double(snap_.fanout), level + 1) / span * width >= kMinCellPx)
            return false;
    }
    if (!anyBinned)
        return true;
    return double(d.bin_span) / span * width <= 2 * kBinPx && d.path_index == highlighted_;
}

double RadixTreeLayout::labelColumnWidth() const
{
    const QFontMetricsF fm(font_);
    return kBracketColumn
        + std::max(fm.horizontalAdvance(QStringLiteral("leaves · level 00")),
            fm.horizontalAdvance(QStringLiteral("00,000,000 nodes · 100% full")))
        + 10;
}

double RadixTreeLayout::treeWidth() const
{
    return std::max(10.0, rect_.width() - labelColumnWidth() - kRightPad);
}

double RadixTreeLayout::xOf(double index, double first, double span) const
{
    return tree_.left() + (index - first) / span * tree_.width();
}

double RadixTreeLayout::rowTopEff(int level, double hEff) const
{
    return tree_.top() + (hEff - 1 - level) * rowH_;
}

double RadixTreeLayout::rowTop(int level, double nowMs) const
{
    return rowTopEff(level, effHeight(nowMs));
}

RadixTreeLayout::Detail RadixTreeLayout::levelDetail(int level) const
{
    if (level < 0 || std::size_t(level) >= details_.size())
        return Detail::Bar;
    return details_[std::size_t(level)];
}

QRectF RadixTreeLayout::nodeRect(std::int32_t node, double nowMs) const
{
    if (node < 0 || std::size_t(node) >= snap_.nodes.size())
        return {};
    const auto& n = snap_.nodes[std::size_t(node)];
    const double first = viewFirst(nowMs);
    const double span = viewSpan(nowMs);
    const double x0 = xOf(double(n.first_index), first, span);
    const double x1 = xOf(double(n.first_index) + double(n.span), first, span);
    return QRectF(x0, rowTop(n.level, nowMs), x1 - x0, slotH_);
}

std::int32_t RadixTreeLayout::highlightedLeaf() const
{
    if (!highlighted_ || !hasSnap_ || levels_.empty())
        return -1;
    const auto [begin, end] = levels_[0];
    const auto& ns = snap_.nodes;
    const pgoff_t index = *highlighted_;
    const auto it = std::partition_point(ns.begin() + begin, ns.begin() + end,
        [&](const IndexSnapshot::Node& n) { return n.first_index + (n.span - 1) < index; });
    if (it == ns.begin() + end || it->first_index > index)
        return -1;
    return std::int32_t(it - ns.begin());
}

// ---- build -----------------------------------------------------------------

RadixTreeLayout::Item RadixTreeLayout::textItem(
    Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level)
{
    return Item { .role = role, .rect = r, .pen = colour, .text = s, .align = align, .level = level };
}

void RadixTreeLayout::text(Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level)
{
    items_.push_back(textItem(role, r, s, align, colour, level));
}

const std::vector<RadixTreeLayout::Item>& RadixTreeLayout::build(double nowMs)
{
    items_.clear();
    slotBits_.clearMissing();
    details_.assign(levels_.size(), Detail::Bar);
    layoutHeader(nowMs);
    if (!message_.isEmpty()) {
        text(Role::Message, tree_, message_, Qt::AlignCenter | Qt::TextWordWrap, palette_.color(QPalette::Text));
        return items_;
    }
    if (!hasSnap_)
        return items_;
    if (snap_.height == 0) {
        const QString what = snap_.count == 0
            ? QStringLiteral("The tree is empty: height 0, no nodes.")
            : QStringLiteral("Height 0: the only page, at index 0, is held in the root pointer itself - no node "
                             "is needed until a page beyond index 0 arrives.");
        text(Role::Message, tree_, what, Qt::AlignCenter | Qt::TextWordWrap, palette_.color(QPalette::Text));
        return items_;
    }
    layoutLevels(nowMs);
    return items_;
}

void RadixTreeLayout::layoutHeader(double nowMs)
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor textColour = palette_.color(QPalette::Text);
    double y = rect_.top();

    // Title.
    QString title;
    if (hasSnap_) {
        std::uint64_t nodes = 0;
        for (auto n : levelNodes_)
            nodes += n;
        title = QStringLiteral("file %1 · radix tree, %2 · %3 pages · height %4 · %5 nodes of %6 slots · %7")
                    .arg(snap_.file)
                    .arg(QLatin1String(index_scheme_name(snap_.scheme)))
                    .arg(groupedNumber(snap_.count))
                    .arg(snap_.height)
                    .arg(groupedNumber(nodes))
                    .arg(snap_.fanout)
                    .arg(bytes(snap_.memory_bytes));
        if (snap_.truncated)
            title += QStringLiteral(" · first %1 nodes shown").arg(groupedNumber(snap_.nodes.size()));
    } else {
        title = QStringLiteral("radix tree");
    }
    text(Role::Title, QRectF(rect_.left(), y, rect_.width(), lh + 4), title, Qt::AlignLeft | Qt::AlignVCenter,
        textColour);
    y += lh + 6;

    // Overview strip: every file, its pages and height.
    overview_ = QRectF(rect_.left(), y, rect_.width(), lh + 12);
    if (!files_.empty()) {
        std::uint64_t most = 1;
        for (const auto& f : files_)
            most = std::max(most, f.pages);
        const double w = std::min(200.0, overview_.width() / double(files_.size()));
        for (std::size_t i = 0; i < files_.size(); ++i) {
            const auto& f = files_[i];
            Item cell;
            cell.role = Role::FileCell;
            cell.rect
                = QRectF(overview_.left() + double(i) * w, overview_.top(), w - (w > 6 ? 2 : 0), overview_.height());
            const bool sel = f.file == selected_;
            cell.fill = sel ? palette_.color(QPalette::Highlight) : palette_.color(QPalette::AlternateBase);
            if (sel)
                cell.fill.setAlphaF(0.35);
            cell.pen = sel ? palette_.color(QPalette::Highlight) : palette_.color(QPalette::Mid);
            cell.penWidth = sel ? 2 : 1;
            cell.node = std::int32_t(i);
            items_.push_back(cell);
            // Pages as a bar along the bottom: which files are big at a glance.
            Item bar;
            bar.role = Role::FileCell;
            bar.rect = QRectF(cell.rect.left() + 1, cell.rect.bottom() - 4,
                (cell.rect.width() - 2) * double(f.pages) / double(most), 3);
            bar.fill = occupiedColor();
            bar.node = std::int32_t(i);
            items_.push_back(bar);
            const QString full
                = QStringLiteral("file %1 · %2 p · h %3").arg(f.file).arg(groupedNumber(f.pages)).arg(f.height);
            const QString label = fm.horizontalAdvance(full) + 8 <= cell.rect.width()    ? full
                : fm.horizontalAdvance(QString::number(f.file)) + 4 <= cell.rect.width() ? QString::number(f.file)
                                                                                         : QString();
            if (!label.isEmpty())
                text(Role::FileLabel, cell.rect.adjusted(4, 0, -2, -4), label, Qt::AlignLeft | Qt::AlignVCenter,
                    textColour);
        }
    }
    y += overview_.height() + 6;

    // Legend: always visible, so a colour on screen can be looked up.
    double x = rect_.left();
    const double sw = lh * 0.8;
    auto swatch = [&](const QColor& fill, const QColor& pen, double penWidth, const QString& label) {
        Item s;
        s.role = Role::Legend;
        s.rect = QRectF(x, y + (lh - sw) / 2 + 2, sw, sw);
        s.fill = fill;
        s.pen = pen;
        s.penWidth = penWidth;
        s.text = label;
        items_.push_back(s);
        x += sw + 4;
        const double tw = fm.horizontalAdvance(label);
        text(Role::LegendText, QRectF(x, y + 2, tw + 2, lh), label, Qt::AlignLeft | Qt::AlignVCenter, textColour);
        x += tw + 14;
    };
    swatch(occupiedColor(), QColor(), 0, QStringLiteral("occupied slot"));
    swatch(emptyColor(), QColor(), 0, QStringLiteral("empty slot"));
    for (unsigned t = 0; t < kTagCount; ++t)
        swatch(tagColor(t), QColor(), 0, tagName(t) + QStringLiteral(" tag"));
    swatch(QColor(), colors::lockHeld(), 2.5, QStringLiteral("lock held"));
    swatch(QColor(), colors::lockWanted(), 2.5, QStringLiteral("held + wanted"));
    if (hasSnap_ && !snap_.walks.empty())
        swatch(textColour, QColor(), 0, QStringLiteral("CPU n: its last walk's first lock"));
    y += lh + 10;

    // Room above the top row for a lock's label.
    labelColumn_ = labelColumnWidth();
    y += lh;
    tree_ = QRectF(rect_.left() + labelColumn_, y + 6, treeWidth(), std::max(10.0, rect_.bottom() - y - 12));
    const double hEff = effHeight(nowMs);
    rowH_ = std::min(kMaxRowPx, tree_.height() / std::max(hEff, 1.0));
    slotH_ = std::clamp(rowH_ * 0.36, 5.0, kMaxSlotPx);
}

void RadixTreeLayout::layoutLevels(double nowMs)
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const QColor textColour = palette_.color(QPalette::Text);
    const double hEff = effHeight(nowMs);
    const double first = viewFirst(nowMs);
    const double span = viewSpan(nowMs);
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    const double band = slotH_ + 2 + 3 * (tagH + 1);
    const int h = snap_.height;

    // The height on the side: a bracket over the rows in use.
    {
        const double top = rowTopEff(h - 1, hEff);
        const double bottom = rowTopEff(0, hEff) + band;
        const double bx = rect_.left() + kBracketColumn - 8;
        Item bracket;
        bracket.role = Role::HeightBar;
        bracket.line = QLineF(bx, top, bx, bottom);
        bracket.rect = QRectF(bx - 4, top, 4, bottom - top);
        bracket.pen = textColour;
        bracket.penWidth = 1.5;
        items_.push_back(bracket);
        text(Role::HeightLabel, QRectF(rect_.left(), (top + bottom) / 2 - lh, kBracketColumn - 12, 2 * lh),
            QStringLiteral("height\n%1").arg(h), Qt::AlignCenter, textColour);
    }

    std::uint64_t skipTotal = 0;
    for (auto s : skips_)
        skipTotal += s;

    const Frame frame { tree_, first, span, hEff, rowH_, slotH_, rect_.left() + kBracketColumn,
        labelColumn_ - kBracketColumn, textColour, font_, nowMs };
    RadixLevelLayout levelLayout(*this, frame, animation_, slotBits_, items_);

    for (int level = h - 1; level >= 0; --level) {
        const double top = rowTopEff(level, hEff);
        const auto [begin, end] = levels_[std::size_t(level)];
        const std::uint64_t nodes = levelNodes_[std::size_t(level)];
        const double cap = double(nodes) * snap_.fanout;
        QString name = level == h - 1 ? QStringLiteral("root · level %1").arg(level)
            : level == 0              ? QStringLiteral("leaves · level 0")
                                      : QStringLiteral("level %1").arg(level);
        QString second = QStringLiteral("%1 node%2 · %3% full")
                             .arg(groupedNumber(nodes))
                             .arg(nodes == 1 ? "" : "s")
                             .arg(cap > 0 ? 100.0 * double(levelOccupied_[std::size_t(level)]) / cap : 0.0, 0, 'f', 0);
        const QRectF labelRect(
            rect_.left() + kBracketColumn, top, labelColumn_ - kBracketColumn - 6, std::max(band, 2 * lh));
        text(Role::LevelLabel, labelRect, band >= 2 * lh ? name + QLatin1Char('\n') + second : name,
            Qt::AlignLeft | Qt::AlignTop, textColour, level);
        const std::size_t depth = std::size_t(h - 1 - level);
        if (skipTotal > 0 && depth < skips_.size() && band >= 2 * lh) {
            const double share = 100.0 * double(skips_[depth]) / double(skipTotal);
            text(Role::SkipLabel, QRectF(labelRect.left(), top + 2 * lh, labelRect.width(), lh),
                QStringLiteral("%1% of locks here").arg(share, 0, 'f', 0), Qt::AlignLeft | Qt::AlignTop,
                colors::lockHeld().darker(colors::isDark(palette_) ? 80 : 130), level);
        }

        // Which nodes of this level are in view (they are in index order).
        const auto& ns = snap_.nodes;
        auto lo = std::partition_point(ns.begin() + begin, ns.begin() + end,
            [&](const IndexSnapshot::Node& n) { return double(n.first_index) + double(n.span) <= first; });
        auto hi = std::partition_point(
            lo, ns.begin() + end, [&](const IndexSnapshot::Node& n) { return double(n.first_index) < first + span; });
        const auto vb = std::int32_t(lo - ns.begin());
        const auto ve = std::int32_t(hi - ns.begin());
        const double nodePx = std::pow(double(snap_.fanout), level + 1) / span * tree_.width();
        // A level the snapshot binned is a bar until the view's next
        // snapshot lists it (showsView()).
        Detail d = binned(level)                  ? Detail::Bar
            : nodePx / snap_.fanout >= kMinSlotPx ? Detail::Slots
            : nodePx >= kMinCellPx                ? Detail::Cells
                                                  : Detail::Bar;
        details_[std::size_t(level)] = d;
        if (d == Detail::Slots)
            levelLayout.slots(level, vb, ve, top);
        else if (d == Detail::Cells)
            levelLayout.cells(level, vb, ve, top);
        else
            levelLayout.bar(level, vb, ve, top);

        // Connectors from the parents' slots, while there are few enough to read.
        if (level < h - 1 && d != Detail::Bar && details_[std::size_t(level + 1)] == Detail::Slots
            && std::size_t(ve - vb) <= kMaxConnectors) {
            const double parentBottom = rowTopEff(level + 1, hEff) + band;
            QColor c = textColour;
            c.setAlphaF(0.35);
            for (std::int32_t i = vb; i < ve; ++i) {
                const auto& n = ns[std::size_t(i)];
                const double x0 = xOf(double(n.first_index), first, span);
                const double x1 = xOf(double(n.first_index) + double(n.span), first, span);
                const double cx = (std::max(x0, tree_.left()) + std::min(x1, tree_.right())) / 2;
                Item line;
                line.role = Role::Connector;
                line.line = QLineF(cx, parentBottom, cx, top);
                line.pen = c;
                line.penWidth = 1;
                line.level = level;
                line.node = i;
                line.alpha = animation_.alphaOf(n.id, nowMs);
                items_.push_back(line);
            }
        }
    }
    levelLayout.ghosts();
    RadixLockLayout lockLayout(snap_, frame, animation_, items_);
    lockLayout.locks();
    lockLayout.walks();

    // The leaf a lesson points at, over everything else: around its slots
    // and tag marks, and never narrower than 10 px, so that a leaf of a
    // fitted big tree still shows.
    if (const std::int32_t leaf = highlightedLeaf(); leaf >= 0) {
        QRectF r = nodeRect(leaf, nowMs);
        r.setHeight(band);
        if (r.width() < 10)
            r = QRectF(r.center().x() - 5, r.top(), 10, r.height());
        if (r.right() >= tree_.left() && r.left() <= tree_.right()) {
            Item outline;
            outline.role = Role::LeafOutline;
            outline.level = 0;
            outline.node = leaf;
            // A ring of the background just outside it parts it from the
            // neighbouring leaves, whose occupied slots are blue as well.
            outline.rect = r.adjusted(-6, -6, 6, 6);
            outline.pen = palette_.color(QPalette::Base);
            outline.penWidth = 3;
            items_.push_back(outline);
            outline.rect = r.adjusted(-3, -3, 3, 3);
            outline.pen = palette_.color(QPalette::Highlight);
            items_.push_back(outline);
        }
    }
}

// ---- hover -----------------------------------------------------------------

RadixTreeLayout::Hit RadixTreeLayout::hitTest(const QPointF& pos, double nowMs) const
{
    Hit hit;
    if (overview_.contains(pos) && !files_.empty()) {
        const double w = std::min(200.0, overview_.width() / double(files_.size()));
        const auto i = std::size_t((pos.x() - overview_.left()) / w);
        if (i < files_.size())
            hit.file = int(i);
        return hit;
    }
    if (!hasSnap_ || snap_.height == 0 || pos.x() < tree_.left() || pos.x() > tree_.right())
        return hit;
    const double hEff = effHeight(nowMs);
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    const double band = slotH_ + 2 + 3 * (tagH + 1);
    for (int level = 0; level < snap_.height; ++level) {
        const double top = rowTopEff(level, hEff);
        if (pos.y() < top || pos.y() > top + band)
            continue;
        const double first = viewFirst(nowMs);
        const double span = viewSpan(nowMs);
        const double index = first + (pos.x() - tree_.left()) / tree_.width() * span;
        const auto [begin, end] = levels_[std::size_t(level)];
        const auto& ns = snap_.nodes;
        auto it = std::partition_point(ns.begin() + begin, ns.begin() + end,
            [&](const IndexSnapshot::Node& n) { return double(n.first_index) + double(n.span) <= index; });
        if (it == ns.begin() + end || double(it->first_index) > index) {
            // A binned level: the bin under the point, if it holds nodes there.
            if (!binned(level) || index < double(snap_.bin_first))
                return hit;
            const auto& bins = snap_.levels[std::size_t(level)].bins;
            const double b = (index - double(snap_.bin_first)) / double(snap_.detail.bin_span);
            if (b >= double(bins.size()))
                return hit;
            const auto& bin = bins[std::size_t(b)];
            if (bin.nodes == 0 || index < double(bin.first_index) || index >= double(bin.last_index) + 1)
                return hit;
            hit.level = level;
            hit.bin = int(b);
            hit.first = bin.first_index;
            hit.last = bin.last_index;
            return hit;
        }
        hit.level = level;
        hit.node = std::int32_t(it - ns.begin());
        hit.first = it->first_index;
        hit.last = it->first_index + (it->span - 1);
        if (levelDetail(level) == Detail::Slots) {
            const pgoff_t per = it->span / it->slots;
            const auto slot = unsigned((index - double(it->first_index)) / double(per));
            if (slot < it->slots) {
                hit.slot = int(slot);
                hit.first = it->first_index + pgoff_t(slot) * per;
                hit.last = hit.first + per - 1;
            }
        }
        return hit;
    }
    return hit;
}

QString RadixTreeLayout::describe(const Hit& hit) const
{
    if (hit.file >= 0 && std::size_t(hit.file) < files_.size()) {
        const auto& f = files_[std::size_t(hit.file)];
        return QStringLiteral("file %1: %2 pages, tree height %3, %4 nodes")
            .arg(f.file)
            .arg(groupedNumber(f.pages))
            .arg(f.height)
            .arg(groupedNumber(f.nodes));
    }
    if (hit.bin >= 0 && binned(hit.level) && std::size_t(hit.bin) < snap_.levels[std::size_t(hit.level)].bins.size()) {
        const auto& b = snap_.levels[std::size_t(hit.level)].bins[std::size_t(hit.bin)];
        QStringList tags;
        for (unsigned t = 0; t < kTagCount; ++t)
            tags << QStringLiteral("%1 %2").arg(tagName(t)).arg(b.tagged[t]);
        return QStringList {
            (hit.level == 0 ? QStringLiteral("%1 leaves covering indexes %2 - %3")
                            : QStringLiteral("%1 level-%4 nodes covering indexes %2 - %3").arg(hit.level))
                .arg(groupedNumber(b.nodes))
                .arg(groupedNumber(b.first_index))
                .arg(groupedNumber(b.last_index)),
            QStringLiteral("%1 of %2 slots occupied")
                .arg(groupedNumber(b.occupied))
                .arg(groupedNumber(std::uint64_t(b.nodes) * snap_.fanout)),
            QStringLiteral("tagged slots: %1").arg(tags.join(QStringLiteral(", "))),
            QStringLiteral("Too narrow to draw one by one here: zoom in to see each node."),
        }
            .join(QLatin1Char('\n'));
    }
    if (hit.node < 0 || std::size_t(hit.node) >= snap_.nodes.size())
        return {};
    const auto& n = snap_.nodes[std::size_t(hit.node)];
    QStringList lines;
    if (hit.slot >= 0) {
        bool known = true;
        const std::uint8_t b = slotBits_.bits(snap_, hit.node, unsigned(hit.slot), known);
        QStringList tags;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (b & IndexSnapshot::slot_tag_bit(t))
                tags << tagName(t);
        if (n.level == 0) {
            lines << QStringLiteral("page index %1").arg(groupedNumber(hit.first));
            lines << QStringLiteral("leaf slot %1 of %2: %3")
                         .arg(hit.slot)
                         .arg(n.slots)
                         .arg(!known                                  ? QStringLiteral("?")
                                 : (b & IndexSnapshot::kSlotOccupied) ? QStringLiteral("occupied")
                                                                      : QStringLiteral("empty"));
        } else {
            lines << QStringLiteral("indexes %1 - %2").arg(groupedNumber(hit.first)).arg(groupedNumber(hit.last));
            lines << QStringLiteral("level %1 slot %2 of %3: %4")
                         .arg(n.level)
                         .arg(hit.slot)
                         .arg(n.slots)
                         .arg((b & IndexSnapshot::kSlotOccupied) ? QStringLiteral("points to a node")
                                                                 : QStringLiteral("empty"));
        }
        if (known)
            lines << QStringLiteral("tags: %1")
                         .arg(tags.isEmpty() ? QStringLiteral("none") : tags.join(QStringLiteral(", ")));
    } else {
        lines << QStringLiteral("level %1 node covering indexes %2 - %3")
                     .arg(n.level)
                     .arg(groupedNumber(n.first_index))
                     .arg(groupedNumber(n.first_index + (n.span - 1)));
        lines << QStringLiteral("%1 of %2 slots occupied").arg(n.occupied).arg(n.slots);
        QStringList tags;
        for (unsigned t = 0; t < kTagCount; ++t)
            tags << QStringLiteral("%1 %2").arg(tagName(t)).arg(n.tagged[t]);
        lines << QStringLiteral("tagged slots: %1").arg(tags.join(QStringLiteral(", ")));
    }
    if (n.lock >= 0 && std::size_t(n.lock) < snap_.locks.size()) {
        const auto& st = snap_.locks[std::size_t(n.lock)].state;
        if (st.held || st.readers)
            lines << QStringLiteral("node lock %1").arg(lockText(st));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace pcl::ui
