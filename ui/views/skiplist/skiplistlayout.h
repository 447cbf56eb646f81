// SkipListLayout: what the skip list view draws for one snapshot of a
// file's skip list (MacDonald's per-file skip list index, with either lock
// scheme).
//
// Glossary:
//   @tower    a node drawn as a stack of boxes, one per level of its tower
//             (height = the node's level); level 1 at the bottom
//   @head     the sentinel before every node, drawn at the left with a box
//             for every level in use
//   @link     a line at level l from a tower to the next tower as tall: the
//             route a search takes at that level
//   @column   when towers would be narrower than kMinNodePx, each pixel
//             column draws the nodes that fall in it as a histogram of tower
//             heights: at each level, a box shaded by the share of the
//             column's nodes whose tower reaches that level (log scale, so a
//             single tall tower among thousands still shows)
//   @recent   nodes inserted or erased in the last moments (from the
//             IndexNodeAlloc/IndexNodeFree events), highlighted while fading
//   @path     the search each recent insert or erase made to find its place:
//             from the head's top level, right along a level while the next
//             tower's index is below the key, else down a level (William
//             Pugh's search). A skip list's search is fixed by the towers, so
//             it is reconstructed exactly from the snapshot (searches that
//             only look a page up record no event and are not drawn)
//
// Locks (colors.h): a held node lock outlines its tower green, yellow when
// others wait for it (their number written above); the "mapping" scheme's
// one lock outlines the whole list the same way.
#pragma once

#include "kit/scenelayout.h"

#include <QLineF>

#include <cstdint>
#include <vector>

namespace pcl::ui {

class SkipListLayout : public SceneLayout {
public:
    /// The widths a tower is drawn at: narrower towers aggregate into
    /// columns, and none is wider (a list of three nodes is not drawn 300 px
    /// a node).
    static constexpr double kMinNodePx = 14, kMaxNodePx = 48;

    /// A recently inserted or erased node.
    struct Recent {
        std::uint64_t node = 0; ///< IndexSnapshot::Node::id (the event's object)
        pgoff_t index = 0;      ///< its page index
        bool inserted = true;   ///< false: erased
        double strength = 1;    ///< 1 = just now, fading to 0
    };

    /// One step of a search: at @level (0 = level 1) on the node at
    /// position @node of snapshot.nodes, or on the head (@node = -1).
    struct PathStep {
        long node = -1;
        int level = 0;
        friend bool operator==(const PathStep&, const PathStep&) = default;
    };
    /// The steps a search for @key makes in @snapshot (ordered by index, node
    /// level = tower height): every position it stands on, level by level,
    /// ending on level 1 at the last node before @key (or the head).
    static std::vector<PathStep> searchPath(const IndexSnapshot& snapshot, pgoff_t key);

    /// One node drawn in full (detail mode).
    struct Tower {
        QRectF rect;          ///< the whole tower
        std::size_t node = 0; ///< position in snapshot.nodes
        int height = 1;
    };
    /// One pixel column of nodes (aggregated mode).
    struct Column {
        QRectF rect;
        std::size_t first = 0; ///< first node (position in snapshot.nodes)
        std::size_t end = 0;   ///< one past the last
        int tallest = 0;
    };
    /// A filled box: a tower's level, or a column's level.
    struct Box {
        QRectF rect;
        QColor fill;
    };
    struct Link {
        QLineF line;
        QColor color;
        bool arrow = true; ///< ends at a tower (false: leaves the view)
    };

    /// What to draw, in painting order: plot background, boxes, links,
    /// outlines, swatches, labels.
    struct Scene : Overlay {
        QRectF plot;             ///< head and nodes
        QRectF head;             ///< the head's tower
        QRectF area;             ///< where nodes are drawn
        bool aggregated = false; ///< columns instead of towers
        double nodePx = 0;       ///< width of a tower, or nodes per pixel column when aggregated
        double levelPx = 0;
        int levels = 1; ///< level rows drawn
        std::vector<Tower> towers;
        std::vector<Column> columns;
        std::vector<Box> boxes;
        std::vector<Link> links;
        std::vector<Link> paths; ///< recent searches, drawn over the links
    };

    void setSnapshot(IndexSnapshot snapshot);
    void setRecent(std::vector<Recent> recent) { recent_ = std::move(recent); }
    /// What the title calls the file ("file 0 of 2").
    void setTitle(const QString& title) { title_ = title; }

    std::size_t nodes() const { return snap_.nodes.size(); }
    /// Shows nodes [first, first + count) (positions in level-0 order), clamped.
    void setView(double first, double count);
    double viewCount() const { return viewCountOf(double(nodes())); }

    Scene build() const;

    /// The tower at @pos (detail) or -1.
    static int towerAt(const Scene& scene, const QPointF& pos);
    /// The column at @pos (aggregated) or -1.
    static int columnAt(const Scene& scene, const QPointF& pos);
    /// The colour of a lock in @state, @free if nobody holds or wants it.
    /// The fill of a level box reached by @share of a column's nodes.
    QColor shareColor(double share) const;
    /// The colour of a node's tower.
    QColor towerColor(bool entry, bool upper) const;

private:
    void buildHeader(Scene& s) const;
    void buildDetail(Scene& s) const;
    void buildColumns(Scene& s) const;
    void buildLocksAndRecent(Scene& s) const;

    QString title_;
    std::vector<Recent> recent_;
};

} // namespace pcl::ui
