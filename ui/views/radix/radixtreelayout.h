// RadixTreeLayout: what the radix tree view draws for a snapshot of one
// file's tree, as a list of rectangles, lines and labels (no widget).
//
// Geometry: the tree is drawn in index space. Level L (0 = leaves) is a row;
// a node covering page indexes [first_index, first_index + span) is drawn
// over the same x-range as those indexes, so every node sits under the slot
// of its parent that points to it, as in lib/radix-tree.c's picture of the
// tree. The x-range shown is [viewFirst, viewFirst + viewSpan) in page
// indexes: the whole tree when fitted, any part of it when zoomed.
//
// Level of detail, per level, from the width a node gets on screen:
//   Slots  a node is a row of slots (occupied filled) with the three tag
//          bitmaps as coloured marks beneath: at least kMinSlotPx per slot
//   Cells  a node is one cell shaded by its occupancy, its tags as marks:
//          at least kMinCellPx per node
//   Bar    the level is one bar, binned per kBinPx pixels, each bin shaded
//          by the occupancy of the nodes in it
// So the cost of a frame is the visible nodes of the levels that show nodes
// plus one pass over the nodes (or the snapshot's bins) of each barred level.
//
// A big tree's snapshot is taken at the view's level of detail (detailFor():
// RadixDetail): the nodes narrower than kListPx are not listed but counted
// into bins per level, which the bars are drawn from, and the leaves outside
// the view (with a margin of half a view each side) are not read. When the
// view moves beyond what the snapshot holds (a zoom, a pan, another width),
// showsView() says so and the view takes another.
// RadixLevelLayout draws a level in each of the three; RadixSlotBits says
// what a slot holds when the snapshot was taken without slot detail;
// RadixLockLayout draws the locks over the tree.
//
// Animation (kAnimationMs, RadixTreeAnimation): when the height changes
// between snapshots, the rows and the x-scale are interpolated from the old
// tree to the new one, so a new root comes down from above while the old
// root slides into its slot 0 (radix_tree_extend), and the reverse on a
// shrink (radix_tree_shrink). Nodes present in a snapshot but not in the one
// before fade in; nodes gone fade out where they were.
#pragma once

#include "index/index_snapshot.h"
#include "views/radix/radixslotbits.h"
#include "views/radix/radixtreeanimation.h"

#include <QColor>
#include <QFont>
#include <QLineF>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace pcl::ui {

/// One file of the run, for the overview strip.
struct RadixFileInfo {
    FileId file = 0;
    std::uint64_t pages = 0; ///< entries in its index (count())
    std::uint64_t nodes = 0; ///< its tree's nodes (shape())
    int height = 0;          ///< its tree's height (shape())
};

class RadixTreeLayout {
public:
    /// What an item is, so that tests (and tooltips) can find it.
    enum class Role : std::uint8_t {
        Title,       ///< the heading line: file, scheme, pages, height, nodes
        Message,     ///< a sentence in place of the tree (empty tree, other index kind)
        FileCell,    ///< a file of the overview strip; `node` = its position in files()
        FileLabel,   ///< its label
        Legend,      ///< a legend swatch
        LegendText,  ///< its label
        HeightBar,   ///< the bracket beside the rows
        HeightLabel, ///< "height N" beside it
        LevelLabel,  ///< a row's name and its node count
        Connector,   ///< parent slot to child node
        NodeFrame,   ///< a node drawn with its slots: its frame
        Slot,        ///< one slot; `slot` = its offset; filled when occupied
        SlotTag,     ///< a tag mark under one slot; `tag` = which
        NodeCell,    ///< a node drawn as one cell (Cells), or one bin of a barred level (Bar; `node` = -1)
        NodeTag,     ///< a tag mark under a cell or a bin
        LevelBar,    ///< the background of a barred level
        NodeLock,    ///< outline of a node whose lock is held
        TreeLock,    ///< outline of the whole tree (or the root) while tree_lock is held
        LockLabel,   ///< the waiter count / holder of a lock
        SkipLabel,   ///< optimistic scheme: share of locked walks that started at this level
        WalkMark,    ///< optimistic scheme: where a CPU's last walk took its first lock; `node` = the CPU
        WalkLabel,   ///< its "CPU n" label
        LeafOutline, ///< the leaf a lesson's step points at, on a ring of the background; `node` = its position
    };
    enum class Detail : std::uint8_t { Slots, Cells, Bar };

    struct Item {
        Role role = Role::Title;
        QRectF rect;
        QLineF line; ///< Connector, HeightBar
        QColor fill; ///< invalid: no fill
        QColor pen;  ///< invalid: no outline (text colour for labels)
        double penWidth = 0;
        QString text;           ///< labels
        int align = 0;          ///< Qt::Alignment of the text
        int level = -1;         ///< tree level (0 = leaves)
        std::int32_t node = -1; ///< position in snapshot().nodes (or files() for the strip); -1 for ghosts and bins
        int slot = -1;          ///< slot offset (Slot, SlotTag)
        int tag = -1;           ///< kTagDirty, kTagWriteback, kTagTowrite
        double alpha = 1;       ///< fading in or out
    };

    /// Where the tree is drawn in one build(), for the parts that lay out
    /// a piece of it (RadixLevelLayout, RadixLockLayout).
    struct Frame {
        QRectF tree;      ///< treeRect()
        double first = 0; ///< page indexes in view: [first, first + span)
        double span = 1;
        double height = 1;      ///< rows in use: the tree's height (between two while it changes)
        double rowH = 0;        ///< the height of a level's row
        double slotH = 0;       ///< of its slots
        double labelsLeft = 0;  ///< the column of the level labels, left of the tree
        double labelsWidth = 0; ///< and its width
        QColor text;            ///< the palette's text colour
        QFont font;
        double nowMs = 0;

        double xOf(double index) const { return tree.left() + (index - first) / span * tree.width(); }
        /// Top of the slot row of @level.
        double rowTop(int level) const { return tree.top() + (height - 1 - level) * rowH; }
        /// A tag mark's height.
        double tagHeight() const { return std::clamp(rowH * 0.06, 1.5, 4.0); }
    };

    /// What is under a point.
    struct Hit {
        int file = -1;          ///< position in files() (overview strip)
        int level = -1;         ///< tree level
        std::int32_t node = -1; ///< position in snapshot().nodes
        int bin = -1;           ///< a bin of a level the snapshot binned: its position in the level's bins
        int slot = -1;          ///< slot offset, when the level shows slots
        pgoff_t first = 0;      ///< page indexes the slot (or the node) covers
        pgoff_t last = 0;
    };

    static constexpr double kAnimationMs = RadixTreeAnimation::kDurationMs;
    static constexpr double kMinSlotPx = 3;
    static constexpr double kMinCellPx = 3;
    static constexpr double kBinPx = 2;
    /// A level-of-detail snapshot lists the nodes at least this wide: less
    /// than kMinCellPx, so that a view zoomed in a little still finds every
    /// node it draws as a cell listed.
    static constexpr double kListPx = 1.5;
    /// Rows are at most this tall, their slots at most kMaxSlotPx.
    static constexpr double kMaxRowPx = 150;
    static constexpr double kMaxSlotPx = 36;
    /// Connectors are drawn while a level shows at most this many nodes.
    static constexpr std::size_t kMaxConnectors = 256;

    RadixTreeLayout();

    void setPalette(const QPalette& palette) { palette_ = palette; }
    void setFont(const QFont& font) { font_ = font; }
    /// The area to lay everything out in.
    void setRect(const QRectF& rect);
    QRectF rect() const { return rect_; }

    /// The run's files and the one shown.
    void setFiles(std::vector<RadixFileInfo> files, FileId selected);
    const std::vector<RadixFileInfo>& files() const { return files_; }
    FileId selectedFile() const { return selected_; }

    /// A new snapshot of the selected file's tree, taken at @nowMs (any
    /// monotonic clock in ms). Starts the height animation and the fades by
    /// comparing it with the previous one; @animate false shows it at once
    /// (a new file, the first snapshot).
    void setSnapshot(IndexSnapshot snapshot, double nowMs, bool animate = true);
    const IndexSnapshot& snapshot() const { return snap_; }
    bool hasSnapshot() const { return hasSnap_; }
    /// Drops the snapshot, the animations and the files.
    void clear();
    /// A sentence shown instead of the tree (e.g. the run uses another index).
    void setMessage(const QString& message) { message_ = message; }

    /// Optimistic scheme: [d] = locked walks that started d levels below the
    /// root since the previous snapshot (RadixTree::OptimisticStats deltas).
    void setSkipHistogram(std::vector<std::uint64_t> levelsSkipped) { skips_ = std::move(levelsSkipped); }

    /// Slot bits of leaves for indexes [first, first + bits.size()), for a
    /// snapshot taken without slot detail (read from the tree with lookups
    /// and test_tag). Bits as IndexSnapshot::Node::slot_bits.
    void setLeafDetail(pgoff_t first, std::vector<std::uint8_t> bits);
    /// The leaf index range whose slots the last build() would show but had
    /// no bits for (empty if none).
    std::optional<std::pair<pgoff_t, pgoff_t>> missingLeafDetail() const { return slotBits_.missing(); }

    /// Outlines the leaf that holds page @index, whenever the tree has one
    /// (nullopt: none). Kept across snapshots and clear(): a lesson's step
    /// names the page before its leaf exists.
    void setHighlightedIndex(std::optional<pgoff_t> index) { highlighted_ = index; }
    std::optional<pgoff_t> highlightedIndex() const { return highlighted_; }
    /// The leaf holding the highlighted index: its position in
    /// snapshot().nodes, -1 if there is none (no highlight, no such leaf yet).
    std::int32_t highlightedLeaf() const;

    // ---- view: which indexes are in view ---------------------------------
    /// Page indexes in view at the deepest zoom.
    static constexpr double kMinSpan = 8;
    bool fitted() const { return fitted_; }
    /// Back to the whole tree.
    void fit() { fitted_ = true; }
    /// Shows [first, first + span) (page indexes), clamped to the tree.
    void setView(double first, double span);
    /// Zooms by @factor (> 1: in) around the point at x.
    void zoomAt(double x, double factor, double nowMs);
    /// Moves the view by @dx pixels (positive: to the left, as a drag right).
    void panBy(double dx, double nowMs);
    double viewFirst(double nowMs) const;
    double viewSpan(double nowMs) const;
    /// The page indexes the whole tree spans once settled.
    double wholeSpan() const { return effSpan(1e300); }

    // ---- level of detail ---------------------------------------------------
    /// What a snapshot of a tree of @fanout and @height must list for the
    /// view (once settled), at the width setRect() and setFont() leave the tree.
    RadixDetail detailFor(unsigned fanout, int height) const;
    /// Whether the snapshot holds all the view draws once settled: its range,
    /// each level that is wide enough for cells listed, bins no coarser than
    /// two of the bar's, and the highlighted leaf.
    bool showsView() const;

    /// Lays everything out at @nowMs.
    const std::vector<Item>& build(double nowMs);
    const std::vector<Item>& items() const { return items_; }
    /// How the last build() drew @level.
    Detail levelDetail(int level) const;
    /// Whether an animation is under way at @nowMs.
    bool animating(double nowMs) const;

    /// Where the last build() put things.
    QRectF treeRect() const { return tree_; }
    QRectF overviewRect() const { return overview_; }
    /// The node's rect at @nowMs, as build() lays it out (nodes out of view included).
    QRectF nodeRect(std::int32_t node, double nowMs) const;
    /// Top of the slot row of @level at @nowMs.
    double rowTop(int level, double nowMs) const;
    double slotHeight() const { return slotH_; }
    Hit hitTest(const QPointF& pos, double nowMs) const;
    /// The tooltip of a hit, from the snapshot alone (the view adds the page's flags).
    QString describe(const Hit& hit) const;

    // Colours (palette aware).
    QColor occupiedColor() const;
    QColor emptyColor() const;
    /// A node or bin @fraction full: from the empty colour towards the occupied one.
    QColor occupancyColor(double fraction) const;
    static QColor tagColor(unsigned tag);
    static QString tagName(unsigned tag);

    /// A text item (the display list's one way of making one).
    static Item textItem(Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level = -1);

private:
    /// The index span of the root once any animation is over.
    double settledSpan() const;
    double effHeight(double nowMs) const;
    double effSpan(double nowMs) const;
    double xOf(double index, double first, double span) const;
    /// The level column left of the tree, from the font.
    double labelColumnWidth() const;
    /// The tree's width at rect() and the font (what build() makes treeRect()).
    double treeWidth() const;
    /// Whether the snapshot counted @level into bins instead of listing it.
    bool binned(int level) const;
    double rowTopEff(int level, double hEff) const;
    void indexLevels();
    void layoutHeader(double nowMs);
    void layoutLevels(double nowMs);
    void text(Role role, const QRectF& r, const QString& s, int align, const QColor& colour, int level = -1);

    QPalette palette_;
    QFont font_;
    QRectF rect_;
    std::vector<RadixFileInfo> files_;
    FileId selected_ = 0;
    IndexSnapshot snap_;
    bool hasSnap_ = false;
    QString message_;
    std::vector<std::uint64_t> skips_;
    /// [level] = [begin, end) of that level's nodes in snap_.nodes (BFS keeps levels contiguous and sorted by index).
    RadixLevelRanges levels_;
    std::vector<std::uint64_t> levelNodes_; ///< [level] = its nodes in the whole tree
    std::vector<std::uint64_t> levelOccupied_;
    RadixSlotBits slotBits_;
    RadixTreeAnimation animation_;

    std::optional<pgoff_t> highlighted_;

    bool fitted_ = true;
    double first_ = 0; ///< view when not fitted
    double span_ = 1;

    std::vector<Item> items_;
    std::vector<Detail> details_;
    QRectF tree_;
    QRectF overview_;
    double labelColumn_ = 0; ///< the height bracket and the level labels, left of the tree
    double rowH_ = 0;
    double slotH_ = 0;
};

} // namespace pcl::ui
