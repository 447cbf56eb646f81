// The radix tree view's model: snapshot + view state -> items to draw.
#include "radixtreelayout.h"

#include "colors.h"

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

constexpr double kBracketColumn = 52; ///< the height bracket, left of the level labels
constexpr double kRightPad = 14;
constexpr double kMinSpan = 8; ///< page indexes in view at the deepest zoom

QColor mix(const QColor& a, const QColor& b, double k)
{
    return QColor::fromRgbF(
        a.redF() * (1 - k) + b.redF() * k, a.greenF() * (1 - k) + b.greenF() * k, a.blueF() * (1 - k) + b.blueF() * k);
}

double smooth(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

QString number(std::uint64_t n)
{
    return QLocale::c().toString(qulonglong(n)).replace(QLatin1Char(','), QChar(0x202f));
}

QString bytes(std::uint64_t b)
{
    if (b >= (std::uint64_t(1) << 20))
        return QStringLiteral("%1 MiB").arg(double(b) / double(1 << 20), 0, 'f', 1);
    if (b >= 1024)
        return QStringLiteral("%1 KiB").arg(double(b) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(b);
}

/// [level] = [begin, end) of the level's nodes: the snapshot lists them
/// breadth first from the root, so each level is contiguous and in index order.
std::vector<std::pair<std::int32_t, std::int32_t>> levelRanges(const IndexSnapshot& s)
{
    std::vector<std::pair<std::int32_t, std::int32_t>> r(std::size_t(std::max(s.height, 0)), { 0, 0 });
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const int l = s.nodes[i].level;
        if (l < 0 || l >= s.height)
            continue;
        auto& range = r[std::size_t(l)];
        if (range.first == range.second)
            range = { std::int32_t(i), std::int32_t(i + 1) };
        else
            range.second = std::int32_t(i + 1);
    }
    return r;
}

bool wholeTreeLock(const std::string& scheme)
{
    return scheme == "spinlock" || scheme == "rwlock" || scheme == "rcu";
}

QColor lockColor(const sync::LockState& s)
{
    return s.waiters > 0 ? colors::lockWanted() : colors::lockHeld();
}

QString lockText(const sync::LockState& s)
{
    QString t;
    if (s.readers > 0)
        t = QStringLiteral("held by %1 reader%2").arg(s.readers).arg(s.readers == 1 ? "" : "s");
    else if (s.holder_cpu >= 0)
        t = QStringLiteral("held by CPU %1").arg(s.holder_cpu);
    else
        t = QStringLiteral("held");
    if (s.waiters > 0)
        t += QStringLiteral(", %1 waiting").arg(s.waiters);
    return t;
}

} // namespace

RadixTreeLayout::RadixTreeLayout() = default;

QColor RadixTreeLayout::occupiedColor() const
{
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
        return QColor(0xe0, 0x7b, 0x39);
    case kTagWriteback:
        return QColor(0x9b, 0x6b, 0xd6);
    default:
        return QColor(0xc8, 0x3e, 0x8c);
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
    return mix(emptyColor(), occupiedColor(), 0.25 + 0.75 * std::min(fraction, 1.0));
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
    levelOccupied_.clear();
    derived_.clear();
    leafBits_.clear();
    missingLeaf_.reset();
    born_.clear();
    ghosts_.clear();
    anim_.reset();
    files_.clear();
    skips_.clear();
    message_.clear();
    fitted_ = true;
    items_.clear();
}

void RadixTreeLayout::setLeafDetail(pgoff_t first, std::vector<std::uint8_t> bits)
{
    leafFirst_ = first;
    leafBits_ = std::move(bits);
}

// ---- snapshots and animation ----------------------------------------------

double RadixTreeLayout::progress(double nowMs) const
{
    if (!anim_)
        return 1;
    return smooth((nowMs - anim_->startMs) / kAnimationMs);
}

double RadixTreeLayout::effHeight(double nowMs) const
{
    if (anim_ && progress(nowMs) < 1)
        return anim_->fromHeight + (anim_->toHeight - anim_->fromHeight) * progress(nowMs);
    return std::max(snap_.height, 1);
}

double RadixTreeLayout::effSpan(double nowMs) const
{
    if (anim_ && progress(nowMs) < 1) {
        // Geometric: each level multiplies the span by the fanout, so the
        // slide looks the same speed all the way.
        const double t = progress(nowMs);
        return anim_->fromSpan * std::pow(anim_->toSpan / anim_->fromSpan, t);
    }
    if (snap_.height > 0 && !snap_.nodes.empty())
        return double(snap_.nodes[0].span);
    return 1;
}

bool RadixTreeLayout::animating(double nowMs) const
{
    if (anim_ && nowMs - anim_->startMs < kAnimationMs)
        return true;
    for (const auto& [id, t] : born_)
        if (nowMs - t < kAnimationMs)
            return true;
    for (const Ghost& g : ghosts_)
        if (nowMs - g.diedMs < kAnimationMs)
            return true;
    return false;
}

double RadixTreeLayout::alphaOf(std::uint64_t id, double nowMs) const
{
    const auto it = born_.find(id);
    if (it == born_.end())
        return 1;
    return std::clamp((nowMs - it->second) / kAnimationMs, 0.0, 1.0);
}

void RadixTreeLayout::indexLevels()
{
    levels_ = levelRanges(snap_);
    levelOccupied_.assign(levels_.size(), 0);
    for (const auto& n : snap_.nodes)
        if (n.level >= 0 && std::size_t(n.level) < levelOccupied_.size())
            levelOccupied_[std::size_t(n.level)] += n.occupied;
}

void RadixTreeLayout::deriveInteriorBits()
{
    // Without slot detail an interior node's slots are still known: slot i
    // is occupied when a child sits at offset i, and carries a tag when that
    // child has the tag on any slot (tags propagate up to the root).
    derived_.clear();
    if (snap_.nodes.empty() || !snap_.nodes[0].slot_bits.empty())
        return;
    derived_.resize(snap_.nodes.size());
    for (std::size_t i = 0; i < snap_.nodes.size(); ++i) {
        const auto& n = snap_.nodes[i];
        if (n.parent < 0 || std::size_t(n.parent) >= snap_.nodes.size())
            continue;
        auto& bits = derived_[std::size_t(n.parent)];
        if (bits.empty())
            bits.assign(snap_.nodes[std::size_t(n.parent)].slots, 0);
        if (n.offset >= bits.size())
            continue;
        std::uint8_t b = IndexSnapshot::kSlotOccupied;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (n.tagged[t] > 0)
                b |= IndexSnapshot::slot_tag_bit(t);
        bits[n.offset] = b;
    }
}

void RadixTreeLayout::diff(const IndexSnapshot& old, double nowMs)
{
    // Nodes are matched by place (level, first index) and identity: a node at
    // a place that was empty, or that holds another node than before, is new.
    // Each level is in index order in both, so this is a merge, not a hash.
    const auto oldLevels = levelRanges(old);
    const std::size_t levels = std::max(oldLevels.size(), levels_.size());
    for (std::size_t l = 0; l < levels; ++l) {
        std::int32_t a = l < oldLevels.size() ? oldLevels[l].first : 0;
        const std::int32_t ae = l < oldLevels.size() ? oldLevels[l].second : 0;
        std::int32_t b = l < levels_.size() ? levels_[l].first : 0;
        const std::int32_t be = l < levels_.size() ? levels_[l].second : 0;
        while (a < ae || b < be) {
            const IndexSnapshot::Node* on = a < ae ? &old.nodes[std::size_t(a)] : nullptr;
            const IndexSnapshot::Node* nn = b < be ? &snap_.nodes[std::size_t(b)] : nullptr;
            if (on && nn && on->first_index == nn->first_index) {
                if (on->id != nn->id) {
                    ghosts_.push_back({ *on, nowMs });
                    born_[nn->id] = nowMs;
                }
                ++a;
                ++b;
            } else if (on && (!nn || on->first_index < nn->first_index)) {
                ghosts_.push_back({ *on, nowMs });
                ++a;
            } else {
                born_[nn->id] = nowMs;
                ++b;
            }
        }
    }
}

void RadixTreeLayout::setSnapshot(IndexSnapshot snapshot, double nowMs, bool animate)
{
    const bool sameTree = hasSnap_ && snapshot.file == snap_.file;
    const double fromHeight = effHeight(nowMs);
    const double fromSpan = effSpan(nowMs);
    const int oldHeight = snap_.height;
    IndexSnapshot old = std::move(snap_);
    snap_ = std::move(snapshot);
    hasSnap_ = true;
    indexLevels();
    deriveInteriorBits();
    leafBits_.clear();

    // Forget finished fades.
    for (auto it = born_.begin(); it != born_.end();)
        it = nowMs - it->second >= kAnimationMs ? born_.erase(it) : std::next(it);
    ghosts_.erase(std::remove_if(
                      ghosts_.begin(), ghosts_.end(), [&](const Ghost& g) { return nowMs - g.diedMs >= kAnimationMs; }),
        ghosts_.end());
    if (anim_ && nowMs - anim_->startMs >= kAnimationMs)
        anim_.reset();

    if (!animate || !sameTree) {
        born_.clear();
        ghosts_.clear();
        anim_.reset();
        if (!sameTree)
            fitted_ = true;
        return;
    }
    // Fading a million nodes in and out is invisible at the level of detail
    // they are drawn with; the merge is cheap, the ghosts' copies are not.
    constexpr std::size_t kMaxDiffNodes = 1u << 16;
    if (old.nodes.size() <= kMaxDiffNodes && snap_.nodes.size() <= kMaxDiffNodes)
        diff(old, nowMs);
    if (oldHeight != snap_.height && oldHeight > 0 && snap_.height > 0)
        anim_ = HeightAnim { nowMs, fromHeight, double(snap_.height), fromSpan, effSpan(1e300) };
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

// ---- build -----------------------------------------------------------------

void RadixTreeLayout::text(Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level)
{
    Item it;
    it.role = role;
    it.rect = r;
    it.text = s;
    it.align = align;
    it.pen = colour;
    it.level = level;
    items_.push_back(std::move(it));
}

const std::vector<RadixTreeLayout::Item>& RadixTreeLayout::build(double nowMs)
{
    items_.clear();
    missingLeaf_.reset();
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
        title = QStringLiteral("file %1 · radix tree, %2 · %3 pages · height %4 · %5 nodes of %6 slots · %7")
                    .arg(snap_.file)
                    .arg(QString::fromStdString(snap_.scheme))
                    .arg(number(snap_.count))
                    .arg(snap_.height)
                    .arg(number(snap_.nodes.size()))
                    .arg(snap_.fanout)
                    .arg(bytes(snap_.memory_bytes));
        if (snap_.truncated)
            title += QStringLiteral(" · first %1 nodes shown").arg(number(snap_.nodes.size()));
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
            const QString full = QStringLiteral("file %1 · %2 p · h %3").arg(f.file).arg(number(f.pages)).arg(f.height);
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
    labelColumn_ = kBracketColumn
        + std::max(fm.horizontalAdvance(QStringLiteral("leaves · level 00")),
            fm.horizontalAdvance(QStringLiteral("00 000 nodes · 100% full")))
        + 10;
    y += lh;
    tree_ = QRectF(rect_.left() + labelColumn_, y + 6, std::max(10.0, rect_.width() - labelColumn_ - kRightPad),
        std::max(10.0, rect_.bottom() - y - 12));
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

    for (int level = h - 1; level >= 0; --level) {
        const double top = rowTopEff(level, hEff);
        const auto [begin, end] = levels_[std::size_t(level)];
        const std::uint64_t nodes = std::uint64_t(end - begin);
        const double cap = double(nodes) * snap_.fanout;
        QString name = level == h - 1 ? QStringLiteral("root · level %1").arg(level)
            : level == 0              ? QStringLiteral("leaves · level 0")
                                      : QStringLiteral("level %1").arg(level);
        QString second = QStringLiteral("%1 node%2 · %3% full")
                             .arg(number(nodes))
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
        Detail d = nodePx / snap_.fanout >= kMinSlotPx ? Detail::Slots
            : nodePx >= kMinCellPx                     ? Detail::Cells
                                                       : Detail::Bar;
        details_[std::size_t(level)] = d;
        if (d == Detail::Slots)
            layoutSlots(level, vb, ve, first, span, top, nowMs);
        else if (d == Detail::Cells)
            layoutCells(level, vb, ve, first, span, top, nowMs);
        else
            layoutBar(level, vb, ve, first, span, top);

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
                line.alpha = alphaOf(n.id, nowMs);
                items_.push_back(line);
            }
        }
    }
    layoutGhosts(first, span, hEff, nowMs);
    layoutLocks(first, span, hEff, nowMs);
    layoutWalks(first, span, hEff);
}

void RadixTreeLayout::layoutWalks(double first, double span, double hEff)
{
    // Zijlstra's optimistic locking (2007): each CPU walks down without locks and
    // locks the highest node its change reaches. A mark on that node's row,
    // above the index it was for, per CPU: how far down its last walk went
    // before it took a lock (at the root when its check failed: outlined red).
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const int h = snap_.height;
    for (const auto& w : snap_.walks) {
        const int level = std::clamp(h - 1 - w.levels_skipped, 0, std::max(h - 1, 0));
        const double x = xOf(double(w.index) + 0.5, first, span);
        if (x < tree_.left() - 1 || x > tree_.right() + 1)
            continue;
        const double top = rowTopEff(level, hEff);
        Item m;
        m.role = Role::WalkMark;
        m.rect = QRectF(x - 4, top - 10, 8, 8);
        m.fill = colors::series(w.cpu);
        if (w.fell_back) {
            m.pen = colors::lockBlocked();
            m.penWidth = 2;
        }
        m.level = level;
        m.node = w.cpu;
        items_.push_back(m);
        Item label;
        label.role = Role::WalkLabel;
        label.rect = QRectF(x + 6, top - 6 - lh, 80, lh);
        label.text = QStringLiteral("CPU %1").arg(w.cpu);
        label.align = Qt::AlignLeft | Qt::AlignBottom;
        label.pen = colors::series(w.cpu);
        label.level = level;
        label.node = w.cpu;
        items_.push_back(label);
    }
}

std::uint8_t RadixTreeLayout::slotBits(std::int32_t node, unsigned slot, bool& known) const
{
    const auto& n = snap_.nodes[std::size_t(node)];
    known = true;
    if (slot < n.slot_bits.size())
        return n.slot_bits[slot];
    if (std::size_t(node) < derived_.size() && n.level > 0) {
        const auto& d = derived_[std::size_t(node)];
        return slot < d.size() ? d[slot] : 0; // no child recorded there: empty
    }
    if (n.level == 0) {
        const pgoff_t index = n.first_index + slot;
        if (index >= leafFirst_ && index - leafFirst_ < leafBits_.size())
            return leafBits_[std::size_t(index - leafFirst_)];
    }
    known = false;
    return 0;
}

void RadixTreeLayout::layoutSlots(
    int level, std::int32_t begin, std::int32_t end, double first, double span, double top, double nowMs)
{
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    QColor frame = palette_.color(QPalette::Text);
    frame.setAlphaF(0.55);
    for (std::int32_t i = begin; i < end; ++i) {
        const auto& n = snap_.nodes[std::size_t(i)];
        const double alpha = alphaOf(n.id, nowMs);
        const double x0 = xOf(double(n.first_index), first, span);
        const double x1 = xOf(double(n.first_index) + double(n.span), first, span);
        const double slotW = (x1 - x0) / n.slots;
        const unsigned s0 = unsigned(std::clamp(std::floor((tree_.left() - x0) / slotW), 0.0, double(n.slots)));
        const unsigned s1 = unsigned(std::clamp(std::ceil((tree_.right() - x0) / slotW), 0.0, double(n.slots)));
        Item f;
        f.role = Role::NodeFrame;
        f.rect = QRectF(
            QPointF(std::max(x0, tree_.left() - 2), top), QPointF(std::min(x1, tree_.right() + 2), top + slotH_));
        f.pen = frame;
        f.penWidth = 1;
        f.level = level;
        f.node = i;
        f.alpha = alpha;
        items_.push_back(f);
        const double gap = slotW >= 8 ? 1 : slotW >= 5 ? 0.5 : 0;
        for (unsigned s = s0; s < s1; ++s) {
            bool known = true;
            const std::uint8_t b = slotBits(i, s, known);
            if (!known) {
                // Leaf slots of a snapshot without detail: the view fetches
                // them for the leaves in view; until then, the node's shade.
                const pgoff_t lo = n.first_index + s0;
                const pgoff_t hi = n.first_index + s1;
                if (!missingLeaf_)
                    missingLeaf_ = { lo, hi };
                else
                    missingLeaf_ = { std::min(missingLeaf_->first, lo), std::max(missingLeaf_->second, hi) };
                Item c;
                c.role = Role::NodeCell;
                c.rect = QRectF(
                    QPointF(std::max(x0, tree_.left()), top), QPointF(std::min(x1, tree_.right()), top + slotH_));
                c.fill = occupancyColor(double(n.occupied) / n.slots);
                c.level = level;
                c.node = i;
                c.alpha = alpha;
                items_.push_back(c);
                break;
            }
            // A slot of a node far wider than the view is cut at its edges.
            const double sx = x0 + s * slotW;
            const double left = std::max(sx + gap, tree_.left() - 1);
            const double right = std::min(sx + slotW - gap, tree_.right() + 1);
            Item slot;
            slot.role = Role::Slot;
            slot.rect = QRectF(left, top + gap, right - left, slotH_ - 2 * gap);
            slot.fill = (b & IndexSnapshot::kSlotOccupied) ? occupiedColor() : emptyColor();
            slot.level = level;
            slot.node = i;
            slot.slot = int(s);
            slot.alpha = alpha;
            items_.push_back(slot);
            for (unsigned t = 0; t < kTagCount; ++t) {
                if (!(b & IndexSnapshot::slot_tag_bit(t)))
                    continue;
                Item tag;
                tag.role = Role::SlotTag;
                tag.rect = QRectF(left, top + slotH_ + 2 + t * (tagH + 1), std::max(right - left, 1.0), tagH);
                tag.fill = tagColor(t);
                tag.level = level;
                tag.node = i;
                tag.slot = int(s);
                tag.tag = int(t);
                tag.alpha = alpha;
                items_.push_back(tag);
            }
        }
    }
}

void RadixTreeLayout::layoutCells(
    int level, std::int32_t begin, std::int32_t end, double first, double span, double top, double nowMs)
{
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    for (std::int32_t i = begin; i < end; ++i) {
        const auto& n = snap_.nodes[std::size_t(i)];
        const double x0 = xOf(double(n.first_index), first, span);
        const double x1 = xOf(double(n.first_index) + double(n.span), first, span);
        const double inset = x1 - x0 >= 6 ? 1 : 0;
        Item c;
        c.role = Role::NodeCell;
        c.rect = QRectF(QPointF(std::max(x0, tree_.left() - 2) + inset / 2, top),
            QPointF(std::min(x1, tree_.right() + 2) - inset / 2, top + slotH_));
        c.fill = occupancyColor(double(n.occupied) / std::max(n.slots, 1u));
        c.level = level;
        c.node = i;
        c.alpha = alphaOf(n.id, nowMs);
        items_.push_back(c);
        for (unsigned t = 0; t < kTagCount; ++t) {
            if (n.tagged[t] == 0)
                continue;
            Item tag;
            tag.role = Role::NodeTag;
            tag.rect = QRectF(c.rect.left(), top + slotH_ + 2 + t * (tagH + 1), c.rect.width(), tagH);
            tag.fill = tagColor(t);
            tag.level = level;
            tag.node = i;
            tag.tag = int(t);
            tag.alpha = c.alpha;
            items_.push_back(tag);
        }
    }
}

void RadixTreeLayout::layoutBar(int level, std::int32_t begin, std::int32_t end, double first, double span, double top)
{
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    Item bar;
    bar.role = Role::LevelBar;
    bar.rect = QRectF(tree_.left(), top, tree_.width(), slotH_);
    bar.fill = emptyColor();
    bar.level = level;
    items_.push_back(bar);

    const std::size_t bins = std::size_t(std::ceil(tree_.width() / kBinPx));
    std::vector<std::uint64_t> occupied(bins, 0), capacity(bins, 0);
    std::vector<std::uint8_t> tagged(bins, 0);
    const double binsPerIndex = tree_.width() / kBinPx / span;
    for (std::int32_t i = begin; i < end; ++i) {
        const auto& n = snap_.nodes[std::size_t(i)];
        const double b0 = (double(n.first_index) - first) * binsPerIndex;
        const double b1 = (double(n.first_index) + double(n.span) - first) * binsPerIndex;
        const std::size_t lo = std::size_t(std::clamp(b0, 0.0, double(bins - 1)));
        const std::size_t hi = std::size_t(std::clamp(std::ceil(b1) - 1, double(lo), double(bins - 1)));
        std::uint8_t t = 0;
        for (unsigned k = 0; k < kTagCount; ++k)
            if (n.tagged[k])
                t |= std::uint8_t(1u << k);
        for (std::size_t b = lo; b <= hi; ++b) {
            occupied[b] += n.occupied;
            capacity[b] += n.slots;
            tagged[b] |= t;
        }
    }
    // One cell per run of bins with the same shade (16 steps), one mark per
    // run of bins carrying a tag.
    constexpr int kShades = 16;
    auto shade = [&](std::size_t b) {
        return capacity[b] == 0 ? -1 : int(std::lround(kShades * double(occupied[b]) / double(capacity[b])));
    };
    for (std::size_t b = 0; b < bins;) {
        const int s = shade(b);
        std::size_t e = b + 1;
        while (e < bins && shade(e) == s)
            ++e;
        if (s >= 0) {
            Item c;
            c.role = Role::NodeCell;
            c.rect
                = QRectF(tree_.left() + double(b) * kBinPx, top, double(e - b) * kBinPx, slotH_).intersected(bar.rect);
            c.fill = occupancyColor(std::max(double(s) / kShades, 1.0 / kShades));
            c.level = level;
            items_.push_back(c);
        }
        b = e;
    }
    for (unsigned k = 0; k < kTagCount; ++k) {
        for (std::size_t b = 0; b < bins;) {
            if (!(tagged[b] & (1u << k))) {
                ++b;
                continue;
            }
            std::size_t e = b + 1;
            while (e < bins && (tagged[e] & (1u << k)))
                ++e;
            Item tag;
            tag.role = Role::NodeTag;
            tag.rect = QRectF(
                tree_.left() + double(b) * kBinPx, top + slotH_ + 2 + k * (tagH + 1), double(e - b) * kBinPx, tagH)
                           .intersected(QRectF(tree_.left(), top, tree_.width(), rowH_));
            tag.fill = tagColor(k);
            tag.level = level;
            tag.tag = int(k);
            items_.push_back(tag);
            b = e;
        }
    }
}

void RadixTreeLayout::layoutGhosts(double first, double span, double hEff, double nowMs)
{
    QColor frame = palette_.color(QPalette::Text);
    frame.setAlphaF(0.55);
    for (const Ghost& g : ghosts_) {
        const double a = 1 - (nowMs - g.diedMs) / kAnimationMs;
        if (a <= 0)
            continue;
        const double x0 = xOf(double(g.node.first_index), first, span);
        const double x1 = xOf(double(g.node.first_index) + double(g.node.span), first, span);
        if (x1 < tree_.left() || x0 > tree_.right() || x1 - x0 < kMinCellPx)
            continue;
        Item c;
        c.role = Role::NodeCell;
        c.rect = QRectF(QPointF(std::max(x0, tree_.left() - 2), rowTopEff(g.node.level, hEff)),
            QPointF(std::min(x1, tree_.right() + 2), rowTopEff(g.node.level, hEff) + slotH_));
        c.fill = occupancyColor(double(g.node.occupied) / std::max(g.node.slots, 1u));
        c.pen = frame;
        c.penWidth = 1;
        c.level = g.node.level;
        c.alpha = a;
        items_.push_back(c);
    }
}

void RadixTreeLayout::layoutLocks(double first, double span, double hEff, double nowMs)
{
    const QFontMetricsF fm(font_);
    const double lh = fm.height();
    const double tagH = std::clamp(rowH_ * 0.06, 1.5, 4.0);
    const double band = slotH_ + 2 + 3 * (tagH + 1);
    const int h = snap_.height;

    // The nodes whose lock is held (per-node schemes): outlined, waiters counted.
    for (std::size_t i = 0; i < snap_.nodes.size(); ++i) {
        const auto& n = snap_.nodes[i];
        if (n.lock < 0 || std::size_t(n.lock) >= snap_.locks.size())
            continue;
        const auto& st = snap_.locks[std::size_t(n.lock)].state;
        if (!st.held && st.readers == 0)
            continue;
        double x0 = xOf(double(n.first_index), first, span);
        double x1 = xOf(double(n.first_index) + double(n.span), first, span);
        if (x1 < tree_.left() || x0 > tree_.right())
            continue;
        x0 = std::max(x0, tree_.left() - 3);
        x1 = std::min(x1, tree_.right() + 3);
        if (x1 - x0 < 6) { // an aggregated node still shows its lock
            const double c = (x0 + x1) / 2;
            x0 = c - 3;
            x1 = c + 3;
        }
        const double top = rowTopEff(n.level, hEff);
        Item o;
        o.role = Role::NodeLock;
        o.rect = QRectF(QPointF(x0 - 2, top - 2), QPointF(x1 + 2, top + slotH_ + 2));
        o.pen = lockColor(st);
        o.penWidth = 2.5;
        o.level = n.level;
        o.node = std::int32_t(i);
        o.alpha = alphaOf(n.id, nowMs);
        items_.push_back(o);
        if (st.waiters > 0)
            text(Role::LockLabel, QRectF(o.rect.right() - 40, top - lh - 1, 40, lh),
                QStringLiteral("+%1").arg(st.waiters), Qt::AlignRight | Qt::AlignBottom, colors::lockWanted(), n.level);
    }

    // The mapping's tree_lock.
    if (snap_.locks.empty())
        return;
    const auto& tree = snap_.locks[0].state;
    if (!tree.held && tree.readers == 0)
        return;
    const double top = rowTopEff(h - 1, hEff);
    Item o;
    o.role = Role::TreeLock;
    o.pen = lockColor(tree);
    o.penWidth = 3;
    if (wholeTreeLock(snap_.scheme)) {
        // One lock over every node: the whole tree is outlined.
        o.rect = QRectF(QPointF(tree_.left() - 6, top - 6), QPointF(tree_.right() + 6, rowTopEff(0, hEff) + band + 4));
        items_.push_back(o);
        text(Role::LockLabel, QRectF(tree_.right() - 360, top - lh - 6, 360, lh),
            QStringLiteral("tree_lock %1").arg(lockText(tree)), Qt::AlignRight | Qt::AlignBottom, o.pen);
    } else {
        // Per-node schemes: tree_lock guards only the root pointer, the
        // height and the root tags: the root's row label stands for them.
        o.rect = QRectF(rect_.left() + kBracketColumn - 4, top - 3, labelColumn_ - kBracketColumn - 2, band + 6);
        items_.push_back(o);
        text(Role::LockLabel, QRectF(o.rect.left(), top - lh - 4, 300, lh),
            QStringLiteral("tree_lock (root) %1").arg(lockText(tree)), Qt::AlignLeft | Qt::AlignBottom, o.pen);
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
        if (it == ns.begin() + end || double(it->first_index) > index)
            return hit;
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
            .arg(number(f.pages))
            .arg(f.height)
            .arg(number(f.nodes));
    }
    if (hit.node < 0 || std::size_t(hit.node) >= snap_.nodes.size())
        return {};
    const auto& n = snap_.nodes[std::size_t(hit.node)];
    QStringList lines;
    if (hit.slot >= 0) {
        bool known = true;
        const std::uint8_t b = slotBits(hit.node, unsigned(hit.slot), known);
        QStringList tags;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (b & IndexSnapshot::slot_tag_bit(t))
                tags << tagName(t);
        if (n.level == 0) {
            lines << QStringLiteral("page index %1").arg(number(hit.first));
            lines << QStringLiteral("leaf slot %1 of %2: %3")
                         .arg(hit.slot)
                         .arg(n.slots)
                         .arg(!known                                  ? QStringLiteral("?")
                                 : (b & IndexSnapshot::kSlotOccupied) ? QStringLiteral("occupied")
                                                                      : QStringLiteral("empty"));
        } else {
            lines << QStringLiteral("indexes %1 - %2").arg(number(hit.first)).arg(number(hit.last));
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
                     .arg(number(n.first_index))
                     .arg(number(n.first_index + (n.span - 1)));
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
