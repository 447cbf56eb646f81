// SkipList: a per-file page index as a skip list with cache-line-sized nodes
// and per-node locks, the alternative Josh MacDonald raised in the 2002
// radix-tree pagecache thread (2002: "my cache-optimized skip list ...
// uses cacheline-sized nodes and per-node locking to avoid false-sharing and
// increase concurrency").
//
// Glossary:
//   @list    one SkipList: the index of one file's pages (one per address_space)
//   @index   a page offset in the file (pgoff_t), the key
//   @node    one entry: its index, its page, its tags and a tower of links
//   @tower   a node's `height` forward links; level 0 links every node in index
//            order, level l+1 links a random subset (probability p) of level l
//   @head    the sentinel node before every other node, with a full tower
//   @pred    at level l, the last node whose index is below the one sought
//   @succ    at level l, the node after @pred (the first index >= the one sought)
//   @marked  a node whose erase has begun (the entry is gone; links remain)
//   @fully linked  a node linked at every level of its tower (the entry exists)
//
// Schemes (skiplist_schemes()):
//   "mapping"  one spinlock per file, mapping[<file>].skiplist_lock, taken by
//              every operation, lookups included, like the 2.5 radix tree's
//              per-mapping lock; nodes carry no lock.
//   "pernode"  MacDonald's per-node locks with lock-free search: the lazy
//              skip list of Herlihy, Lev, Luchangco and Shavit ("A Simple
//              Optimistic Skiplist Algorithm", 2007; the 2006 technical
//              report "A Provably Correct Scalable Concurrent Skip List").
//              Lookups and gang lookups take no lock and run under RCU;
//              insert locks the preds it links into, erase locks the victim
//              then its preds; unlinked nodes are freed after a grace period.
//
// Lock order (pernode): node locks are taken in decreasing index order
// (a victim before its preds, the pred at level 0 before the preds above
// it), so no two writers wait on each other in a cycle. No node lock is ever
// held while waiting for anything but another node lock.
#pragma once

#include "index/index_factory.h"
#include "index/page_index.h"
#include "sync/rcu.h"
#include "sync/spinlock.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// "mapping" or "pernode".
std::string_view skiplist_scheme_name(SkipListScheme scheme) noexcept;
/// The scheme called @name; an empty name is the default, "pernode" (the
/// design the seed proposes). Throws std::invalid_argument naming the allowed schemes.
SkipListScheme parse_skiplist_scheme(std::string_view name);

/// Shape and locking of one skip list.
struct SkipListConfig {
    /// Highest allowed tower height (pgoff_t has 64 bits; 32 levels at p = 1/2
    /// already index 2^32 pages with expected O(log n) search).
    static constexpr unsigned kMaxLevelLimit = 32;

    SkipListScheme scheme = SkipListScheme::PerNode;
    double p = 0.25;         ///< probability that a node reaches the next level, in (0, 1)
    unsigned max_level = 16; ///< tallest tower, 1..kMaxLevelLimit
    std::uint64_t seed = 1;  ///< seed of the tower-height generator

    /// From IndexSpec's skiplist_* fields and scheme; throws as validate() does.
    static SkipListConfig from_spec(const IndexSpec& spec);
    /// Throws std::invalid_argument naming the bad field, its allowed range and the value.
    void validate() const;
};

/// The skip list of one file. All operations are safe from any number of
/// threads at once; see the file comment for what each scheme locks.
class SkipList final : public PageIndex {
public:
    /// Creates an empty list for file @file. The mapping lock (mapping scheme)
    /// is registered in @registry, and node locks (pernode) count into its
    /// class "skiplist_node"; @registry must outlive the list. Throws
    /// std::invalid_argument if @config is invalid.
    SkipList(const SkipListConfig& config, FileId file, sync::LockRegistry& registry = sync::LockRegistry::global());
    /// Frees every node and waits (rcu::barrier) for deferred frees still
    /// queued. Call with no other thread using the list, and not from inside an
    /// RCU read-side section or an RCU callback.
    ~SkipList() override;
    SkipList(const SkipList&) = delete;
    SkipList& operator=(const SkipList&) = delete;

    IndexKind kind() const override { return IndexKind::SkipList; }
    std::string_view scheme() const override { return skiplist_scheme_name(config_.scheme); }
    const SkipListConfig& config() const noexcept { return config_; }
    FileId file() const noexcept { return file_; }

    /// The page at @index or nullptr. Mapping: under the mapping lock.
    /// Pernode: wait-free, under RCU, no lock.
    Page* lookup(pgoff_t index) override;
    bool lockless_lookups() const noexcept override { return !mapping_lock_; }
    Page* lookup_get_locked(pgoff_t index) override;
    /// Links a new node for @page at @index. The node is allocated first,
    /// before any lock is taken or the list searched (as add_to_page_cache
    /// calls radix_tree_preload before taking the mapping lock), so an
    /// injected allocation failure gives NoMemory even where an entry exists,
    /// just as -ENOMEM comes before -EEXIST in Linux. Exists leaves the old
    /// entry in place. Pernode: locks the preds at each level of the new tower.
    InsertResult insert(pgoff_t index, Page* page) override;
    /// Unlinks the node at @index and returns its page (nullptr if none); its
    /// tags stop counting at once. Pernode: marks the node under its lock,
    /// locks the preds, unlinks top-down, frees the node after a grace period.
    Page* erase(pgoff_t index) override;

    /// Tag operations change a node's tag bits under its lock (pernode) or the
    /// mapping lock. test_tag takes no lock under pernode. @tag must be below
    /// kTagCount, else std::out_of_range.
    bool set_tag(pgoff_t index, unsigned tag) override;
    bool clear_tag(pgoff_t index, unsigned tag) override;
    bool test_tag(pgoff_t index, unsigned tag) override;
    /// O(1): a per-tag count of tagged entries, kept exact. No lock.
    bool tagged(unsigned tag) override;

    /// Finds the first node >= @first and walks level 0, skipping nodes being
    /// inserted or erased. Ascending. Pernode: under RCU, no lock.
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override;
    std::size_t gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out) override;

    /// Entries (atomic, no lock).
    std::uint64_t count() const override { return count_.load(std::memory_order_relaxed); }
    /// Bytes of the linked nodes, the head and this object. A node stops
    /// counting when it is unlinked, not when its grace period ends.
    std::uint64_t memory_bytes() const override;
    /// Nodes in level-0 order (see IndexSnapshot; slot_bits[0] holds the
    /// entry's occupied and tag bits, the upper slots of the tower are links
    /// and hold no entry). Mapping: taken under the mapping lock, whose state
    /// is read just before. Pernode: under RCU while writers run; a node
    /// whose lock is held at that moment points into `locks`; a held head
    /// lock is listed as "skiplist_head".
    IndexSnapshot snapshot(const SnapshotOptions& options = {}) const override;
    /// Nodes = entries; height = the level hint, 0 when empty (IndexShape). Takes no lock.
    IndexShape shape() const override;

    /// Size of the allocation of a node with a tower of @height links under
    /// this list's scheme (a multiple of 64 bytes). The head is a node of
    /// height config().max_level.
    std::size_t node_bytes(unsigned height) const noexcept;

private:
    struct Node;
    class Section;
    class NodeGuard;

    // Node lifetime.
    /// A node numbered @number (Node::number), unpublished.
    Node* alloc_node(pgoff_t index, Page* page, unsigned height, std::uint32_t number) const noexcept;
    void destroy_node(Node* node) const noexcept;
    static void free_node_rcu(rcu::Head* head) noexcept;
    /// A new node's tower height, and in @draw the draw's number.
    unsigned random_height(std::uint64_t& draw) noexcept;
    void raise_level_hint(unsigned height) noexcept;
    void lower_level_hint() noexcept;

    // Searches.
    int find(pgoff_t index, unsigned levels, Node** preds, Node** succs) const noexcept;
    Node* locate(pgoff_t index) const noexcept;
    Node* seek(pgoff_t first) const noexcept;

    // The two write sides.
    InsertResult insert_locked(Node* node);
    InsertResult insert_lazy(Node* node);
    Page* erase_locked(pgoff_t index);
    Page* erase_lazy(pgoff_t index);

    bool change_tag(pgoff_t index, unsigned tag, bool set);
    std::size_t gang(pgoff_t first, std::size_t max, int tag, Page** out);

    bool pernode() const noexcept { return config_.scheme == SkipListScheme::PerNode; }

    // Read-mostly: set at construction (level_hint_ rarely changes).
    const SkipListConfig config_;
    const FileId file_;
    /// Class of the node locks (pernode), nullptr under the mapping scheme.
    sync::LockClass* const node_class_;
    /// The sentinel before the first node. Never marked, never freed before
    /// the list. Its tower is max_level links.
    Node* const head_;
    /// Level at which lockless searches start (a tower height, >= 1). Only a
    /// hint: any value >= 1 finds every node, since level 0 links them all;
    /// too high costs a few loads from the head's tower. Raised by inserts;
    /// lowered only under the mapping lock (mapping scheme), where it is exact.
    std::atomic<unsigned> level_hint_ { 1 };

    /// Mapping scheme only: protects every node's links, flags and tags, and
    /// is taken by every operation except count(), tagged() and
    /// memory_bytes(). Nothing is taken inside it. Its own cache line: every
    /// operation writes it.
    alignas(64) mutable std::optional<sync::SpinLock> mapping_lock_;

    // Written by every insert and erase, read without a lock: one line, apart
    // from the read-mostly fields above so lockless readers do not miss on it.
    /// Entries: incremented when a node becomes fully linked, decremented when
    /// it is marked (the two linearisation points).
    alignas(64) std::atomic<std::uint64_t> count_ { 0 };
    /// Per tag, live entries carrying it. Changed together with the node's tag
    /// bits under the node's lock (or the mapping lock), and when a tagged
    /// node is marked; so it is exact whenever no tag operation is in flight.
    std::atomic<std::uint64_t> tagged_[kTagCount] {};
    /// Bytes of the linked nodes (node_bytes of each).
    std::atomic<std::uint64_t> node_bytes_ { 0 };
    /// Tower heights drawn so far: the height of draw n is a hash of
    /// (seed, n), so one seed gives one shape when inserts run in one thread.
    std::atomic<std::uint64_t> draws_ { 0 };
};

} // namespace pcl
