// The C++ side of the kernel tests' adapter (radix_tree_adapter.cpp): which
// RadixTree an xarray of the kernel's tests is, and the scheme new ones get.
// The C side is include/linux/radix-tree.h and include/linux/xarray.h.
#pragma once

#include "index/radix_tree.h"
#include "sync/rcu.h"

struct xarray;

namespace pcl::kernel_test {

/// Trees made from now on use @scheme (at the harness's shift, XA_CHUNK_SHIFT).
void use_scheme(RadixTree::Scheme scheme);

/// The tree behind @xa, made on first use by whichever thread comes first.
RadixTree& tree_of(const xarray* xa);

/// The adapter's record of one entry: what RadixTree stores in its slot in
/// place of a page. It carries the entry's index, which RadixTree's gang
/// lookups do not return and the xa_state walks need, and is freed a grace
/// period after its entry is deleted, so a lockless reader may still read it.
struct Slot {
    rcu::Head rcu;
    void* entry = nullptr;
    unsigned long index = 0;
};

inline Slot* slot_of(Page* stored)
{
    return reinterpret_cast<Slot*>(stored);
}

} // namespace pcl::kernel_test
