// RadixTreeAnimation: how the radix tree view goes from one snapshot of a
// file's tree to the next, over kDurationMs (RadixTreeLayout asks it what
// to draw at a given time).
//
// When the height changes between snapshots, the rows and the x-scale are
// interpolated from the old tree to the new one, so a new root comes down
// from above while the old root slides into its slot 0 (radix_tree_extend),
// and the reverse on a shrink (radix_tree_shrink). Nodes present in a
// snapshot but not in the one before fade in; nodes gone fade out where
// they were (ghosts).
#pragma once

#include "index/index_snapshot.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pcl::ui {

/// [level] = [begin, end) of the level's nodes in a snapshot's nodes: the
/// snapshot lists them breadth first from the root, so each level is
/// contiguous and in index order.
using RadixLevelRanges = std::vector<std::pair<std::int32_t, std::int32_t>>;
RadixLevelRanges radixLevelRanges(const IndexSnapshot& snapshot);

class RadixTreeAnimation {
public:
    static constexpr double kDurationMs = 400;

    /// A node of an earlier snapshot that is gone, fading out where it was.
    struct Ghost {
        IndexSnapshot::Node node;
        double diedMs = 0;
    };

    /// @next replaces @prev, a snapshot of the same tree, at @nowMs (any
    /// monotonic clock in ms). @nextLevels are next's radixLevelRanges;
    /// @shownHeight and @shownSpan what was on screen until now (height()
    /// and span() at @nowMs); @settledSpan the index span of @next's root.
    /// Starts the fades and, when the height changed, the height animation.
    void advance(const IndexSnapshot& prev, const IndexSnapshot& next, const RadixLevelRanges& nextLevels,
        double shownHeight, double shownSpan, double settledSpan, double nowMs);
    /// No animation: the next snapshot shows at once.
    void clear();

    /// The height of the rows at @nowMs: @settled unless the height is changing.
    double height(double nowMs, double settled) const;
    /// The index span of the root at @nowMs: @settled unless the height is changing.
    double span(double nowMs, double settled) const;
    /// Whether anything is moving or fading at @nowMs.
    bool animating(double nowMs) const;
    /// How far node @id has faded in at @nowMs (1 when it is not new).
    double alphaOf(std::uint64_t id, double nowMs) const;
    /// The nodes fading out, and how visible @ghost still is at @nowMs (<= 0: gone).
    const std::vector<Ghost>& ghosts() const { return ghosts_; }
    static double ghostAlpha(const Ghost& ghost, double nowMs);

private:
    struct HeightAnim {
        double startMs = 0;
        double fromHeight = 0, toHeight = 0;
        double fromSpan = 1, toSpan = 1;
    };
    double progress(double nowMs) const;
    void expire(double nowMs);
    void diff(const IndexSnapshot& prev, const IndexSnapshot& next, const RadixLevelRanges& nextLevels, double nowMs);

    std::unordered_map<std::uint64_t, double> born_; ///< node id -> when it appeared (while fading in)
    std::vector<Ghost> ghosts_;                      ///< nodes gone, while fading out
    std::optional<HeightAnim> anim_;
};

} // namespace pcl::ui
