// Structural events an index reports as they happen (node allocated, height
// grew, tag propagated...): what an index passes to trace::index_event(),
// and what the animated views decode back from the stream's records
// (to_index_event in event.h).
#pragma once

#include "base/page.h"

#include <cstdint>

namespace pcl {

struct IndexEvent {
    enum class Kind : std::uint8_t {
        NodeAlloc,    ///< a node was allocated and linked (radix node, skip-list node)
        NodeFree,     ///< a node was unlinked (its memory is freed after a grace period)
        HeightGrow,   ///< the tree gained a level; value = new height
        HeightShrink, ///< the tree lost a level; value = new height
        TagSet,       ///< a tag bit was set in a node; tag says which, level where
        TagClear,     ///< a tag bit was cleared in a node
        ChainLength,  ///< a hash chain changed length; value = new length, node = bucket
    };
    Kind kind;
    FileId file = 0;        ///< the file whose index changed
    pgoff_t index = 0;      ///< the page index the operation was about
    int level = 0;          ///< tree level of the node (0 = leaves); tower height for a skip-list node
    int tag = -1;           ///< tag number for TagSet/TagClear
    std::int64_t value = 0; ///< new height or chain length
    std::uint64_t node = 0; ///< identity of the node or bucket (stable while it lives)
};

} // namespace pcl
