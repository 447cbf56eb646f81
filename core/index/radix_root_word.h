// The radix tree's root word and slot words (2.6's RADIX_TREE_INDIRECT_PTR):
// the root holds a node pointer with kNodeBit set or, at height 0, the page
// at index 0 itself; interior slots hold child nodes, leaf slots pages.
#pragma once

#include "base/page.h"
#include "index/radix_tree_node.h"

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
inline std::uint64_t node_id(const Node* n)
{
    return reinterpret_cast<std::uintptr_t>(n);
}

} // namespace pcl::radix::word
