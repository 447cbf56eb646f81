// A read-only picture of an index's structure, for drawing. Taken while the
// index is in use (under RCU or with atomic reads), so it is a consistent
// picture of each node but not necessarily of all nodes at one instant.
#pragma once

#include "base/page.h"
#include "index/index_kind.h"
#include "index/index_scheme.h"
#include "sync/instrumented_lock.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pcl {

/// The radix tree's three tags (PAGECACHE_TAG_*).
inline constexpr unsigned kTagDirty = 0;
inline constexpr unsigned kTagWriteback = 1;
inline constexpr unsigned kTagTowrite = 2;
inline constexpr unsigned kTagCount = 3;

struct SnapshotOptions {
    bool slot_detail = true;                      ///< fill Node::slot_bits
    std::size_t max_nodes = std::size_t(1) << 20; ///< stop (and set truncated) beyond this many nodes
};

struct IndexSnapshot {
    /// Per-slot bits in Node::slot_bits.
    static constexpr std::uint8_t kSlotOccupied = 1;
    static constexpr std::uint8_t slot_tag_bit(unsigned tag) { return std::uint8_t(2u << tag); }

    struct Node {
        std::uint64_t id = 0;       ///< stable identity while the node lives
        std::int32_t parent = -1;   ///< position of the parent in `nodes`, -1 for a root or a bucket
        std::uint32_t offset = 0;   ///< slot of this node in its parent
        int level = 0;              ///< radix: 0 = leaf, height-1 = root; skip list: tower height; hash: 0
        pgoff_t first_index = 0;    ///< lowest page index the node covers (radix) or holds (skip list)
        pgoff_t span = 1;           ///< page indexes the node covers
        std::uint32_t slots = 0;    ///< capacity: fanout (radix), tower height (skip list), chain length (hash)
        std::uint32_t occupied = 0; ///< slots in use
        std::array<std::uint32_t, kTagCount> tagged {}; ///< slots carrying each tag
        std::vector<std::uint8_t> slot_bits;            ///< per slot: kSlotOccupied | slot_tag_bit(t)...
        int lock = -1; ///< position in `locks` of the node's own lock, -1 if it has none
    };

    struct Lock {
        std::string name; ///< e.g. "mapping[0].tree_lock", "hash_lock[17]", "radix_node"
        sync::LockState state;
    };

    IndexKind kind = IndexKind::Radix;
    IndexScheme scheme; ///< the locking scheme; index_scheme_name() names it
    FileId file = 0;
    std::uint64_t count = 0; ///< entries (for the hash: of this file)
    std::uint64_t memory_bytes = 0;
    int height = 0;          ///< radix: tree height; skip list: highest level in use; hash: 0
    unsigned fanout = 0;     ///< radix: slots per node
    bool truncated = false;  ///< more nodes than SnapshotOptions::max_nodes
    std::vector<Node> nodes; ///< radix: breadth first from the root; skip list: level-0 order
    std::vector<Lock> locks; ///< the locks drawn over the structure (mapping lock, hashed locks, held node locks)
    std::array<bool, kTagCount> root_tagged {}; ///< "any entry tagged?" per tag

    /// Radix tree, optimistic scheme: where one CPU's last modifying walk took its first lock.
    struct Walk {
        int cpu = 0;            ///< simulated CPU (current_cpu())
        pgoff_t index = 0;      ///< the index the operation was for (its low 40 bits)
        int levels_skipped = 0; ///< depth below the root of the node it locked first (0: the root lock)
        bool fell_back = false; ///< its optimistic check failed, so it started again from the root
    };
    std::vector<Walk> walks; ///< radix optimistic only: the last walk of each CPU seen, by CPU

    // Hash table only (all files share it):
    std::vector<std::uint32_t> chain_lengths;   ///< per bucket
    std::uint32_t buckets_per_lock = 0;         ///< hashed locks cover contiguous groups of this many buckets
    std::vector<std::uint64_t> chain_histogram; ///< [n] = buckets whose chain holds n pages
    double chi_square = 0.0;                    ///< chi-square of the bucket loads against a uniform spread
};

} // namespace pcl
