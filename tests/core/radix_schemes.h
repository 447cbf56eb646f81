// The radix tree's locking schemes: every test of the tree runs on each.
#pragma once

#include "index/radix_tree.h"

namespace pcl::test {

inline constexpr RadixTree::Scheme kRadixSchemes[] = { RadixTree::Scheme::Spinlock, RadixTree::Scheme::RwLock,
    RadixTree::Scheme::Rcu, RadixTree::Scheme::PerNode, RadixTree::Scheme::Optimistic };

} // namespace pcl::test
