// RadixSlotBits: what each slot of a radix tree snapshot holds (occupied,
// and one bit per tag, as IndexSnapshot::Node::slot_bits), wherever that is
// known.
//
// A snapshot taken with slot detail says it for every node it lists (the
// radix view takes every snapshot so). One taken without says it for none,
// yet an interior node's slots are still known from its children: slot i is
// occupied when a child sits at offset i, and carries a tag when that child
// has the tag on any slot (tags propagate up to the root). The leaves' slots
// then come from whoever reads them from the tree (setLeafDetail); the leaf
// range a layout wanted and had no bits for is kept (missing()).
#pragma once

#include "index/index_snapshot.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace pcl::ui {

class RadixSlotBits {
public:
    /// A new snapshot: derives its interior nodes' bits if it was taken
    /// without slot detail, and forgets the leaves' bits of the last one.
    void setSnapshot(const IndexSnapshot& snapshot);
    /// Slot bits of leaves for indexes [first, first + bits.size()).
    void setLeafDetail(pgoff_t first, std::vector<std::uint8_t> bits);
    /// Forgets everything (derived bits, leaf bits, the missing range).
    void clear();

    /// The bits of slot @slot of @node (its position in @snapshot.nodes,
    /// the snapshot last given to setSnapshot()); @known is false, and 0
    /// returned, when nothing says.
    std::uint8_t bits(const IndexSnapshot& snapshot, std::int32_t node, unsigned slot, bool& known) const;

    /// The leaf index range whose slots were wanted without bits, since
    /// the last clearMissing() (empty if none).
    std::optional<std::pair<pgoff_t, pgoff_t>> missing() const { return missing_; }
    void clearMissing() { missing_.reset(); }
    /// Adds [first, last) to missing().
    void addMissing(pgoff_t first, pgoff_t last);

private:
    /// Slot bits derived for interior nodes of a snapshot taken without slot detail.
    std::vector<std::vector<std::uint8_t>> derived_;
    pgoff_t leafFirst_ = 0;
    std::vector<std::uint8_t> leafBits_;
    std::optional<std::pair<pgoff_t, pgoff_t>> missing_;
};

} // namespace pcl::ui
