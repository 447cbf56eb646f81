// RadixTree: one per file, page offset -> page, as Linux 2.5-2.6 (lib/radix-tree.c).
//
// Glossary:
//   @index   page offset in the file
//   @height  levels of nodes; 0 = at most one entry, at index 0, held in the root itself
//   @shift   log2 of the fanout: 4 = the 2002 thread's rat-4 (16-way), 7 = rat-7 (128-way), 6 = Linux
//   @offset  slot of @index in a node of height h: (index >> (h-1)*shift) & (fanout-1)
//   @tag     dirty, writeback, towrite: a bit per slot, propagated to every ancestor
//
// The tree is "only as deep as needed" (the radix-tree pagecache thread): inserting beyond the
// largest index the height can hold adds a root above the old one (the old
// root becomes slot 0 of the new one); when the root has only slot 0 in use
// the tree shrinks back.
//
// Locking schemes (Scheme, index_scheme.h), in the order Linux went through them:
//   spinlock   mapping->tree_lock, a spinlock, for every operation (2.5)
//   rwlock     the same lock as an rwlock; lookups take it shared (2.6.0-2.6.26)
//   rcu        lookups and gang lookups lockless under RCU; writers take
//              tree_lock (the 2.6.27 lockless pagecache)
//   pernode    Zijlstra's concurrent write side (2007): every node has a lock;
//              writers lock top-down from the root and let go of every
//              ancestor as soon as the node below is "safe" (cannot change
//              its parent); readers as in rcu
//   optimistic Zijlstra's optimistic locking: walk down under RCU without
//              locks, lock only the highest node that will change, check it
//              is still live and still safe, and go on top-down from there;
//              if the check fails, fall back to pernode from the root.
//              Records how many levels each operation skipped.
// In pernode and optimistic, tree_lock guards only the root pointer, the
// height and the root tags (the ancestor of the root node in the ladder).
#pragma once

#include "index/page_index.h"
#include "index/radix_tree_node.h"
#include "sync/lock_stats.h"
#include "sync/percpu_counter.h"
#include "sync/rwlock.h"
#include "sync/spinlock.h"

#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

class RadixTree final : public PageIndex {
public:
    using Scheme = RadixScheme;

    struct Config {
        Scheme scheme = Scheme::Rcu;
        unsigned shift = 6; ///< 2..7

        /// Throws std::invalid_argument naming the bad field.
        void validate() const;
    };

    /// Histogram of the concurrent pagecache thread's "levels skipped" (optimistic scheme).
    struct OptimisticStats {
        /// [d] = operations that locked a node d levels below the root. An
        /// operation that found nothing to change (erasing or tagging an
        /// absent index) takes no lock and is not counted.
        std::vector<std::uint64_t> levels_skipped;
        std::uint64_t failed = 0; ///< operations whose optimistic check failed and that fell back to the root
    };

    static constexpr unsigned kMinShift = 2;
    static constexpr unsigned kMaxShift = 7;
    static constexpr unsigned kMaxHeight = 32; ///< 64-bit indexes at shift 2

    RadixTree(FileId file, const Config& config, sync::LockRegistry& registry = sync::LockRegistry::global());
    ~RadixTree() override;
    RadixTree(const RadixTree&) = delete;
    RadixTree& operator=(const RadixTree&) = delete;

    IndexKind kind() const override { return IndexKind::Radix; }
    std::string_view scheme() const override { return scheme_name(config_.scheme); }

    Page* lookup(pgoff_t index) override;
    bool lockless_lookups() const noexcept override
    {
        return config_.scheme != Scheme::Spinlock && config_.scheme != Scheme::RwLock;
    }
    Page* lookup_get_locked(pgoff_t index) override;
    InsertResult insert(pgoff_t index, Page* page) override;
    Page* erase(pgoff_t index) override;
    bool set_tag(pgoff_t index, unsigned tag) override;
    bool clear_tag(pgoff_t index, unsigned tag) override;
    bool test_tag(pgoff_t index, unsigned tag) override;
    bool tagged(unsigned tag) override;
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override;
    std::size_t gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out) override;
    std::uint64_t count() const override;
    std::uint64_t memory_bytes() const override;
    IndexSnapshot snapshot(const SnapshotOptions& options = {}) const override;
    IndexShape shape() const override { return { nodes(), int(height()) }; }

    /// Current height (0: empty or a single entry at index 0).
    unsigned height() const noexcept;
    unsigned shift() const noexcept { return layout_.shift; }
    unsigned fanout() const noexcept { return layout_.fanout; }
    /// Bytes of one node allocation (header, slots, tag bitmaps, lock).
    std::size_t node_bytes() const noexcept { return layout_.bytes; }
    /// Nodes in the tree.
    std::uint64_t nodes() const noexcept { return std::uint64_t(nodes_.sum()); }
    const Config& config() const noexcept { return config_; }
    OptimisticStats optimistic_stats() const;
    void reset_optimistic_stats() noexcept;

    /// Largest index a tree of @height can hold at @shift.
    static pgoff_t max_index(unsigned height, unsigned shift) noexcept;
    static std::string_view scheme_name(Scheme scheme) noexcept;
    /// Throws std::invalid_argument listing the schemes.
    static Scheme parse_scheme(std::string_view name);

private:
    enum class Op : std::uint8_t { Insert, Erase, SetTag, ClearTag };
    struct Result {
        InsertResult insert = InsertResult::Inserted;
        Page* page = nullptr; ///< erased page
        bool found = false;   ///< an entry existed at the index (erase and tag ops)
    };
    struct Ladder;

    bool node_locks() const noexcept { return layout_.has_lock; }
    unsigned offset(pgoff_t index, unsigned height) const noexcept;
    unsigned height_for(pgoff_t index) const noexcept;

    // Tree-level lock: the whole tree (spinlock, rwlock, rcu writers) or the
    // root only (pernode, optimistic).
    void lock_root() noexcept;
    void unlock_root() noexcept;

    Result modify(Op op, pgoff_t index, unsigned tag, Page* page);
    Result modify_from_root(Op op, pgoff_t index, unsigned tag, Page* page);
    bool try_optimistic(Op op, pgoff_t index, unsigned tag, Page* page, Result& result);
    Result modify_root_entry(Op op, pgoff_t index, unsigned tag, Page* page, std::uintptr_t root);
    Result descend(Ladder& ladder, Op op, pgoff_t index, unsigned tag, Page* page, unsigned budget, unsigned height);
    bool safe(radix::Node* node, unsigned height, Op op, pgoff_t index, unsigned tag) noexcept;
    void propagate(Ladder& ladder, Op op, pgoff_t index, unsigned tag, int depth, std::array<bool, kTagCount> cleared);
    bool grant_allocations(unsigned count) noexcept;
    bool preload_for(pgoff_t index) noexcept;
    /// A node for an operation on @index, covering @within (its identity,
    /// radix::word::node_id, comes from where it sits).
    radix::Node* new_node(unsigned height, pgoff_t index, pgoff_t within);
    /// Unlinks @node, which covers @index, and frees it after a grace period.
    void kill_node(radix::Node* node, pgoff_t index);
    std::uintptr_t extend(std::uintptr_t root, unsigned to_height, pgoff_t index);
    void shrink_locked();
    void finish(Ladder& ladder, Op op, const Result& result);
    bool shrinkable() noexcept;
    /// Counts a locked walk in the histogram and remembers it as the CPU's last.
    void record_skip(int depth, pgoff_t index, bool fell_back = false) noexcept;

    /// The root word and the root tags as one consistent pair (see root_seq_).
    std::uintptr_t load_root(std::uint8_t& tags) const noexcept;
    Page* walk(pgoff_t index) noexcept;
    /// lookup() of the spinlock and rwlock schemes: the walk under tree_lock.
    [[gnu::noinline]] Page* lookup_under_tree_lock(pgoff_t index);
    bool walk_tag(pgoff_t index, unsigned tag) noexcept;
    std::size_t gang(pgoff_t first, std::size_t max, Page** out, int tag) noexcept;

    FileId file_;
    Config config_;
    radix::NodeLayout layout_;
    unsigned preload_nodes_ = 0; ///< nodes an insert may need at most (2 * max height - 1)
    std::atomic<std::uintptr_t> root_ {
        0
    }; ///< node | kNodeBit, or the page at index 0, or 0; written under the root lock
    std::atomic<std::uint8_t> root_tags_ { 0 }; ///< bit t: some entry carries tag t; written under the root lock
    /// A sequence count around every change of root_ or root_tags_ (odd while
    /// one is under way; written under the root lock). At height 0 the page
    /// at index 0 and its tags are these two words: a lockless reader that
    /// loaded them one after the other could pair the page with the tags of
    /// a taller tree that existed in between, so readers take them together.
    std::atomic<std::uint32_t> root_seq_ { 0 };
    /// Marks a change of the root word or the root tags (root lock held).
    struct RootWrite {
        explicit RootWrite(RadixTree& tree) noexcept
            : seq(tree.root_seq_)
        {
            seq.store(seq.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
            std::atomic_thread_fence(std::memory_order_release);
        }
        ~RootWrite() { seq.store(seq.load(std::memory_order_relaxed) + 1, std::memory_order_release); }
        std::atomic<std::uint32_t>& seq;
    };
    // Each on a cache line of its own, as the lock in the kernel's
    // address_space is far from another file's: allocated on their own, two
    // files' locks could share a line, and two CPUs each reading its own
    // file would bounce it (false sharing) on every lookup.
    alignas(64) std::optional<sync::SpinLock> tree_lock_; ///< "mapping[F].tree_lock": all schemes but rwlock
    alignas(64) std::optional<sync::RwLock> tree_rwlock_; ///< "mapping[F].tree_lock" as an rwlock
    sync::LockClass* node_class_ = nullptr;               ///< "radix_node"
    sync::PercpuCounter count_;                           ///< entries
    sync::PercpuCounter nodes_;                           ///< nodes linked into the tree
    struct alignas(64) SkipShard {
        std::array<std::atomic<std::uint64_t>, kMaxHeight + 1> levels {};
        std::atomic<std::uint64_t> failed { 0 };
    };
    std::unique_ptr<SkipShard[]> skips_; ///< optimistic scheme only, per-thread shards
    /// Optimistic scheme only: each simulated CPU's last locked walk (slot
    /// cpu % kWalkSlots), packed in one word so that a snapshot reads it
    /// whole without a lock: bit 0 valid, bit 1 fell back, bits 2-7 levels
    /// skipped, bits 8-23 CPU, bits 24-63 the index's low 40 bits. Written
    /// by the walking CPU, read by snapshot(), both relaxed: it is a picture.
    static constexpr unsigned kWalkSlots = 64;
    struct alignas(64) LastWalk {
        std::atomic<std::uint64_t> word { 0 };
    };
    std::unique_ptr<LastWalk[]> walks_;
};

} // namespace pcl
