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
#include <optional>
#include <string>
#include <vector>

namespace pcl {

/// The radix tree's three tags (PAGECACHE_TAG_*).
inline constexpr unsigned kTagDirty = 0;
inline constexpr unsigned kTagWriteback = 1;
inline constexpr unsigned kTagTowrite = 2;
inline constexpr unsigned kTagCount = 3;

/// Radix tree: which nodes a snapshot lists one by one, for a picture that
/// shows page indexes [first_index, last_index] at a given zoom. A node too
/// narrow to draw on its own (one covering fewer than list_span indexes) is
/// counted into its level's bins instead, and a leaf outside the range is
/// not read at all, so a snapshot of a million-page tree costs what its
/// picture shows. The defaults list every node.
struct RadixDetail {
    pgoff_t first_index = 0;
    pgoff_t last_index = ~pgoff_t(0);
    /// Nodes covering fewer indexes than this are binned, not listed (0: none are).
    pgoff_t list_span = 0;
    /// Indexes per bin; the snapshot rounds it up to a power of two and to
    /// the span of its widest binned node, so that a node falls in one bin.
    pgoff_t bin_span = 1;
    /// The nodes on the path to this index are listed whatever their span
    /// (the leaf a lesson points at).
    std::optional<pgoff_t> path_index;

    /// Lists every node.
    bool full() const { return list_span == 0 && first_index == 0 && last_index == ~pgoff_t(0); }
    bool operator==(const RadixDetail&) const = default;
};

struct SnapshotOptions {
    bool slot_detail = true;                      ///< fill Node::slot_bits
    std::size_t max_nodes = std::size_t(1) << 20; ///< stop (and set truncated) beyond this many nodes
    RadixDetail detail;                           ///< radix tree only
};

struct IndexSnapshot {
    /// Per-slot bits in Node::slot_bits.
    static constexpr std::uint8_t kSlotOccupied = 1;
    static constexpr std::uint8_t slot_tag_bit(unsigned tag) { return std::uint8_t(2u << tag); }

    struct Node {
        /// The node's identity, as its events name it, the same in every run:
        /// radix, the middle of the offsets it covers; skip list, its number
        /// in the list.
        std::uint64_t id = 0;
        std::int32_t parent
            = -1; ///< position of the parent in `nodes`, -1 for a root, a bucket, or a parent not listed
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
    std::vector<Node> nodes; ///< radix: those detail lists, breadth first from the root; skip list: level-0 order
    std::vector<Lock> locks; ///< the locks drawn over the structure (mapping lock, hashed locks, held node locks)
    std::array<bool, kTagCount> root_tagged {}; ///< "any entry tagged?" per tag

    /// Radix tree: the nodes of one level whose first index falls in one bin.
    struct Bin {
        std::uint32_t nodes = 0;
        std::uint32_t occupied = 0;                     ///< their slots in use
        std::array<std::uint32_t, kTagCount> tagged {}; ///< their slots carrying each tag
        pgoff_t first_index = ~pgoff_t(0);              ///< lowest index they cover
        pgoff_t last_index = 0;                         ///< highest index they cover
    };
    /// Radix tree: one level of the whole tree, [0] the leaves.
    struct Level {
        std::uint64_t nodes = 0; ///< in the whole tree (each counted by its parent's slot)
        /// Their slots in use. Interior levels: counted on every node. The
        /// leaves: counted when every leaf was read, else the tree's entry
        /// count (every entry of a tree of height 1 or more is in a leaf).
        std::uint64_t occupied = 0;
        /// Its nodes in range are counted into bins, not listed in `nodes`
        /// (but for those on the path to detail.path_index and those whose
        /// lock is held, which are listed as well).
        bool binned = false;
        std::vector<Bin> bins; ///< binned levels: bin b covers indexes [bin_first + b * detail.bin_span, + bin_span)
    };
    std::vector<Level> levels; ///< radix: [level], empty below height 1
    RadixDetail detail;        ///< radix: as asked, bin_span rounded (bins end at the root's last index)
    pgoff_t bin_first = 0;     ///< detail.first_index rounded down to a bin

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
