// The radix tree's root word and slot words (2.6's RADIX_TREE_INDIRECT_PTR):
// the root holds a node pointer with kNodeBit set or, at height 0, the page
// at index 0 itself; interior slots hold child nodes, leaf slots pages.
#pragma once

#include "base/page.h"
#include "index/radix_tree_node.h"

#include <algorithm>
#include <cstdint>

namespace pcl::radix::word {

constexpr std::uintptr_t kNodeBit = 1;
inline bool is_node(std::uintptr_t v)
{
    return v & kNodeBit;
}
inline Node* to_node(std::uintptr_t v)
{
    return reinterpret_cast<Node*>(v & ~kNodeBit);
}
inline std::uintptr_t from_node(Node* n)
{
    return reinterpret_cast<std::uintptr_t>(n) | kNodeBit;
}
inline Page* to_page(std::uintptr_t v)
{
    return reinterpret_cast<Page*>(v);
}
/// A node's identity in the event stream and in snapshots, from its place
/// in the tree, which it keeps for its life (a grow or a shrink moves the
/// root, not the nodes below it): a node of height h covers the 2^k page
/// offsets [base, base + 2^k), k = shift * h (64 at most), and its id is
/// the middle of that range, base + 2^(k-1). The lowest bit set gives k
/// and the bits above it the base, so no two nodes linked at once share
/// an id; unlike the node's address, the id is the same in every run.
/// @within is any page offset the node covers (the tree's root covers 0).
inline std::uint64_t node_id(const Node* n, pgoff_t within)
{
    const unsigned k = std::min(unsigned(n->shift) * n->height, 64u);
    const std::uint64_t half = std::uint64_t(1) << (k - 1);
    const std::uint64_t base = k == 64 ? 0 : within & ~((half << 1) - 1);
    return base | half;
}

} // namespace pcl::radix::word
