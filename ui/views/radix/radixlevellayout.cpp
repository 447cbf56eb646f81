// One level of the radix tree at its level of detail: slots, cells or a bar.
#include "views/radix/radixlevellayout.h"

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

using Role = RadixTreeLayout::Role;

} // namespace

RadixLevelLayout::RadixLevelLayout(const RadixTreeLayout& layout, const Frame& frame,
    const RadixTreeAnimation& animation, RadixSlotBits& bits, std::vector<Item>& out)
    : layout_(layout)
    , snap_(layout.snapshot())
    , frame_(frame)
    , animation_(animation)
    , bits_(bits)
    , items_(out)
{
}

void RadixLevelLayout::slots(int level, std::int32_t begin, std::int32_t end, double top)
{
    const double tagH = tagHeight();
    QColor frame = frame_.text;
    frame.setAlphaF(0.55);
    for (std::int32_t i = begin; i < end; ++i) {
        const auto& n = snap_.nodes[std::size_t(i)];
        const double alpha = animation_.alphaOf(n.id, frame_.nowMs);
        const double x0 = xOf(double(n.first_index));
        const double x1 = xOf(double(n.first_index) + double(n.span));
        const double slotW = (x1 - x0) / n.slots;
        const unsigned s0 = unsigned(std::clamp(std::floor((frame_.tree.left() - x0) / slotW), 0.0, double(n.slots)));
        const unsigned s1 = unsigned(std::clamp(std::ceil((frame_.tree.right() - x0) / slotW), 0.0, double(n.slots)));
        Item f;
        f.role = Role::NodeFrame;
        f.rect = QRectF(QPointF(std::max(x0, frame_.tree.left() - 2), top),
            QPointF(std::min(x1, frame_.tree.right() + 2), top + frame_.slotH));
        f.pen = frame;
        f.penWidth = 1;
        f.level = level;
        f.node = i;
        f.alpha = alpha;
        items_.push_back(f);
        const double gap = slotW >= 8 ? 1 : slotW >= 5 ? 0.5 : 0;
        for (unsigned s = s0; s < s1; ++s) {
            bool known = true;
            const std::uint8_t b = bits_.bits(snap_, i, s, known);
            if (!known) {
                // Leaf slots of a snapshot without detail, until someone
                // reads them from the tree (setLeafDetail): the node's shade.
                const pgoff_t lo = n.first_index + s0;
                const pgoff_t hi = n.first_index + s1;
                bits_.addMissing(lo, hi);
                Item c;
                c.role = Role::NodeCell;
                c.rect = QRectF(QPointF(std::max(x0, frame_.tree.left()), top),
                    QPointF(std::min(x1, frame_.tree.right()), top + frame_.slotH));
                c.fill = layout_.occupancyColor(double(n.occupied) / n.slots);
                c.level = level;
                c.node = i;
                c.alpha = alpha;
                items_.push_back(c);
                break;
            }
            // A slot of a node far wider than the view is cut at its edges.
            const double sx = x0 + s * slotW;
            const double left = std::max(sx + gap, frame_.tree.left() - 1);
            const double right = std::min(sx + slotW - gap, frame_.tree.right() + 1);
            Item slot;
            slot.role = Role::Slot;
            slot.rect = QRectF(left, top + gap, right - left, frame_.slotH - 2 * gap);
            slot.fill = (b & IndexSnapshot::kSlotOccupied) ? layout_.occupiedColor() : layout_.emptyColor();
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
                tag.rect = QRectF(left, top + frame_.slotH + 2 + t * (tagH + 1), std::max(right - left, 1.0), tagH);
                tag.fill = RadixTreeLayout::tagColor(t);
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

void RadixLevelLayout::cells(int level, std::int32_t begin, std::int32_t end, double top)
{
    const double tagH = tagHeight();
    for (std::int32_t i = begin; i < end; ++i) {
        const auto& n = snap_.nodes[std::size_t(i)];
        const double x0 = xOf(double(n.first_index));
        const double x1 = xOf(double(n.first_index) + double(n.span));
        const double inset = x1 - x0 >= 6 ? 1 : 0;
        Item c;
        c.role = Role::NodeCell;
        c.rect = QRectF(QPointF(std::max(x0, frame_.tree.left() - 2) + inset / 2, top),
            QPointF(std::min(x1, frame_.tree.right() + 2) - inset / 2, top + frame_.slotH));
        c.fill = layout_.occupancyColor(double(n.occupied) / std::max(n.slots, 1u));
        c.level = level;
        c.node = i;
        c.alpha = animation_.alphaOf(n.id, frame_.nowMs);
        items_.push_back(c);
        for (unsigned t = 0; t < kTagCount; ++t) {
            if (n.tagged[t] == 0)
                continue;
            Item tag;
            tag.role = Role::NodeTag;
            tag.rect = QRectF(c.rect.left(), top + frame_.slotH + 2 + t * (tagH + 1), c.rect.width(), tagH);
            tag.fill = RadixTreeLayout::tagColor(t);
            tag.level = level;
            tag.node = i;
            tag.tag = int(t);
            tag.alpha = c.alpha;
            items_.push_back(tag);
        }
    }
}

void RadixLevelLayout::bar(int level, std::int32_t begin, std::int32_t end, double top)
{
    const double tagH = tagHeight();
    Item bar;
    bar.role = Role::LevelBar;
    bar.rect = QRectF(frame_.tree.left(), top, frame_.tree.width(), frame_.slotH);
    bar.fill = layout_.emptyColor();
    bar.level = level;
    items_.push_back(bar);

    const std::size_t bins = std::size_t(std::ceil(frame_.tree.width() / RadixTreeLayout::kBinPx));
    std::vector<std::uint64_t> occupied(bins, 0), capacity(bins, 0);
    std::vector<std::uint8_t> tagged(bins, 0);
    const double binsPerIndex = frame_.tree.width() / RadixTreeLayout::kBinPx / frame_.span;
    // Indexes [first, end) holding @slots slots, @used of them in use.
    auto add = [&](double first, double end, std::uint64_t used, std::uint64_t slots,
                   const std::array<std::uint32_t, kTagCount>& tags) {
        const double b0 = (first - frame_.first) * binsPerIndex;
        const double b1 = (end - frame_.first) * binsPerIndex;
        const std::size_t lo = std::size_t(std::clamp(b0, 0.0, double(bins - 1)));
        const std::size_t hi = std::size_t(std::clamp(std::ceil(b1) - 1, double(lo), double(bins - 1)));
        std::uint8_t t = 0;
        for (unsigned k = 0; k < kTagCount; ++k)
            if (tags[k])
                t |= std::uint8_t(1u << k);
        for (std::size_t b = lo; b <= hi; ++b) {
            occupied[b] += used;
            capacity[b] += slots;
            tagged[b] |= t;
        }
    };
    if (std::size_t(level) < snap_.levels.size() && snap_.levels[std::size_t(level)].binned) {
        // The snapshot counted this level into bins of at most a few pixels.
        for (const IndexSnapshot::Bin& b : snap_.levels[std::size_t(level)].bins) {
            const double first = double(b.first_index), end = double(b.last_index) + 1;
            if (b.nodes == 0 || end <= frame_.first || first >= frame_.first + frame_.span)
                continue;
            add(first, end, b.occupied, std::uint64_t(b.nodes) * snap_.fanout, b.tagged);
        }
    } else {
        for (std::int32_t i = begin; i < end; ++i) {
            const auto& n = snap_.nodes[std::size_t(i)];
            add(double(n.first_index), double(n.first_index) + double(n.span), n.occupied, n.slots, n.tagged);
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
            c.rect = QRectF(frame_.tree.left() + double(b) * RadixTreeLayout::kBinPx, top,
                double(e - b) * RadixTreeLayout::kBinPx, frame_.slotH)
                         .intersected(bar.rect);
            c.fill = layout_.occupancyColor(std::max(double(s) / kShades, 1.0 / kShades));
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
            tag.rect = QRectF(frame_.tree.left() + double(b) * RadixTreeLayout::kBinPx,
                top + frame_.slotH + 2 + k * (tagH + 1), double(e - b) * RadixTreeLayout::kBinPx, tagH)
                           .intersected(QRectF(frame_.tree.left(), top, frame_.tree.width(), frame_.rowH));
            tag.fill = RadixTreeLayout::tagColor(k);
            tag.level = level;
            tag.tag = int(k);
            items_.push_back(tag);
            b = e;
        }
    }
}

void RadixLevelLayout::ghosts()
{
    QColor frame = frame_.text;
    frame.setAlphaF(0.55);
    for (const RadixTreeAnimation::Ghost& g : animation_.ghosts()) {
        const double a = RadixTreeAnimation::ghostAlpha(g, frame_.nowMs);
        if (a <= 0)
            continue;
        const double x0 = xOf(double(g.node.first_index));
        const double x1 = xOf(double(g.node.first_index) + double(g.node.span));
        if (x1 < frame_.tree.left() || x0 > frame_.tree.right() || x1 - x0 < RadixTreeLayout::kMinCellPx)
            continue;
        Item c;
        c.role = Role::NodeCell;
        c.rect = QRectF(QPointF(std::max(x0, frame_.tree.left() - 2), frame_.rowTop(g.node.level)),
            QPointF(std::min(x1, frame_.tree.right() + 2), frame_.rowTop(g.node.level) + frame_.slotH));
        c.fill = layout_.occupancyColor(double(g.node.occupied) / std::max(g.node.slots, 1u));
        c.pen = frame;
        c.penWidth = 1;
        c.level = g.node.level;
        c.alpha = a;
        items_.push_back(c);
    }
}

} // namespace pcl::ui
