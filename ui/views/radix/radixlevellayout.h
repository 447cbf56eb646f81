// RadixLevelLayout: one level (row) of the radix tree, drawn at its level of
// detail (see radixtreelayout.h):
//   slots()  each node in view a row of slots, occupied ones filled, with
//            its tag bitmaps as coloured marks beneath
//   cells()  each node in view one cell shaded by its occupancy, its tags
//            as marks
//   bar()    the level one bar, binned per kBinPx pixels, each bin shaded
//            by the occupancy of the nodes in it
// and ghosts(), the nodes of the previous snapshot fading out as cells
// where they were. It appends RadixTreeLayout items; RadixTreeLayout::build()
// makes one per frame and decides which of the three each level gets.
#pragma once

#include "views/radix/radixtreelayout.h"

#include <QColor>
#include <QRectF>

#include <cstdint>
#include <vector>

namespace pcl::ui {

class RadixLevelLayout {
public:
    using Item = RadixTreeLayout::Item;
    using Frame = RadixTreeLayout::Frame;

    /// Lays out levels of @layout's snapshot in @frame, appending to @out;
    /// fades as @animation says; reads slot bits from @bits, noting there
    /// the leaves it had no bits for.
    RadixLevelLayout(const RadixTreeLayout& layout, const Frame& frame, const RadixTreeAnimation& animation,
        RadixSlotBits& bits, std::vector<Item>& out);

    /// Nodes [begin, end) of the snapshot (those of @level in view), their
    /// slot row at @top.
    void slots(int level, std::int32_t begin, std::int32_t end, double top);
    void cells(int level, std::int32_t begin, std::int32_t end, double top);
    void bar(int level, std::int32_t begin, std::int32_t end, double top);
    /// The nodes fading out (RadixTreeAnimation::ghosts()), on their levels.
    void ghosts();

private:
    double xOf(double index) const { return frame_.xOf(index); }
    double tagHeight() const { return frame_.tagHeight(); }

    const RadixTreeLayout& layout_;
    const IndexSnapshot& snap_;
    const Frame& frame_;
    const RadixTreeAnimation& animation_;
    RadixSlotBits& bits_;
    std::vector<Item>& items_;
};

} // namespace pcl::ui
