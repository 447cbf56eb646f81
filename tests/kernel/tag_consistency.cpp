// verify_tag_consistency() of the kernel's radix-tree tests
// (tools/testing/radix-tree/test.c reads the kernel's nodes; this reads
// RadixTree's through its snapshot): a slot carries a tag exactly when the
// node below it has a slot carrying it, down to the leaves, and the root's
// tag is set exactly when the top node has one. Call with the tree quiet.
#include "radix_tree_adapter.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" void verify_tag_consistency(struct xarray* root, unsigned int tag)
{
    using pcl::IndexSnapshot;
    const IndexSnapshot snap = pcl::kernel_test::tree_of(root).snapshot();
    if (snap.truncated) {
        std::fprintf(stderr, "verify_tag_consistency: the snapshot is truncated\n");
        std::abort();
    }
    const std::uint8_t bit = IndexSnapshot::slot_tag_bit(tag);
    bool consistent = true;
    for (const IndexSnapshot::Node& node : snap.nodes) {
        bool any = false;
        for (std::uint8_t slot : node.slot_bits) {
            any |= (slot & bit) != 0;
            if ((slot & bit) && !(slot & IndexSnapshot::kSlotOccupied)) {
                std::fprintf(stderr, "tag %u: node %llu has the tag on an empty slot\n", tag,
                    static_cast<unsigned long long>(node.id));
                consistent = false;
            }
        }
        const bool above = node.parent < 0 ? snap.root_tagged[tag]
                                           : (snap.nodes[std::size_t(node.parent)].slot_bits[node.offset] & bit) != 0;
        if (any != above) {
            std::fprintf(stderr, "tag %u: node %llu (level %d, first index %llu) %s the tag, its %s %s\n", tag,
                static_cast<unsigned long long>(node.id), node.level, static_cast<unsigned long long>(node.first_index),
                any ? "has" : "has not", node.parent < 0 ? "root" : "parent's slot", above ? "has" : "has not");
            consistent = false;
        }
    }
    if (!consistent)
        std::abort();
}
