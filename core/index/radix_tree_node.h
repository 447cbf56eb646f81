// The radix tree's node (struct radix_tree_node) and its per-thread preload.
//
// A node of height h (1 = leaf) has 2^shift slots. A leaf's slots hold
// pages; an interior node's slots hold child nodes. Beside the slots, one
// bitmap per tag says which slots have that tag somewhere below them
// ("tag propagated to the node"). The fanout is chosen at run time (shift
// 2..7), so a node is one allocation: this header (one cache line), then
// the slots, then - for the per-node locking schemes of the concurrent
// pagecache (2007) only - the node's lock.
//
// The three tag bitmaps of a node of up to 64 slots live in the header's
// own cache line, beside the slot count, as Linux's radix_tree_node keeps
// count and tags together: a leaf whose page is erased then costs two
// lines (the header and the slot's), fetched at once, instead of three.
// A 128-slot node's bitmaps (six words) follow its slots.
//
// Nodes are freed only after an RCU grace period, in every scheme, so that
// lockless readers and snapshots may walk the tree at any time.
//
// Preload (radix_tree_preload): an insert that holds a spinlock must not
// allocate, so before taking any lock the inserting thread fills a per-thread
// pool with as many nodes as the insert could possibly need; under the lock
// it only takes nodes from that pool.
#pragma once

#include "sync/rcu.h"
#include "sync/spinlock.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pcl::radix {

/// Where the parts of a node lie for a given fanout and scheme.
struct NodeLayout {
    unsigned shift = 6;          ///< log2 of the fanout
    unsigned fanout = 64;        ///< slots per node
    unsigned tag_words = 1;      ///< 64-bit words per tag bitmap
    bool has_lock = false;       ///< per-node lock present
    std::size_t tags_offset = 0; ///< byte offset of the tag bitmaps (in the header line up to 64 slots)
    std::size_t lock_offset = 0; ///< byte offset of the lock (if has_lock)
    std::size_t bytes = 0;       ///< whole allocation, a multiple of 64

    static NodeLayout make(unsigned shift, bool has_lock);
};

struct alignas(64) Node {
    rcu::Head rcu;                          ///< deferred free
    std::atomic<std::uint32_t> count { 0 }; ///< slots in use; written under the node's (or the tree's) lock
    std::uint8_t height = 0;                ///< 1 = leaf; fixed for the node's life
    std::uint8_t shift = 0;                 ///< copied from the layout, so the node describes itself
    std::uint8_t tag_words = 0;
    std::atomic<bool> dead { false }; ///< unlinked from the tree; set under the node's and its parent's lock
    std::uint32_t lock_offset = 0;    ///< 0 if the node has no lock
    std::uint32_t tags_offset = 0;    ///< byte offset of the tag bitmaps: header_tags, or after the slots
    /// The tag bitmaps of a node of at most 64 slots (one word per tag).
    std::atomic<std::uint64_t> header_tags[3] {};

    /// Bytes of tag bitmaps the header line holds.
    static constexpr std::size_t kHeaderTagBytes = sizeof(header_tags);

    std::atomic<std::uintptr_t>* slots() noexcept
    {
        return reinterpret_cast<std::atomic<std::uintptr_t>*>(reinterpret_cast<char*>(this) + sizeof(Node));
    }
    std::atomic<std::uintptr_t>& slot(unsigned offset) noexcept { return slots()[offset]; }
    /// Bitmap word @word of tag @tag.
    std::atomic<std::uint64_t>& tag_word(unsigned tag, unsigned word) noexcept
    {
        auto* base = reinterpret_cast<std::atomic<std::uint64_t>*>(reinterpret_cast<char*>(this) + tags_offset);
        return base[tag * tag_words + word];
    }
    /// The node's lock; only for layouts with has_lock.
    sync::SpinLock& lock() noexcept
    {
        return *reinterpret_cast<sync::SpinLock*>(reinterpret_cast<char*>(this) + lock_offset);
    }

    // Tag bitmap helpers. Writers hold the node's lock (or the tree's), so
    // plain load/store on the atomics suffices; readers load.
    bool tag_get(unsigned tag, unsigned offset) noexcept
    {
        return (tag_word(tag, offset / 64).load(std::memory_order_acquire) >> (offset % 64)) & 1;
    }
    void tag_set(unsigned tag, unsigned offset) noexcept
    {
        auto& w = tag_word(tag, offset / 64);
        w.store(w.load(std::memory_order_relaxed) | (std::uint64_t(1) << (offset % 64)), std::memory_order_release);
    }
    void tag_clear(unsigned tag, unsigned offset) noexcept
    {
        auto& w = tag_word(tag, offset / 64);
        w.store(w.load(std::memory_order_relaxed) & ~(std::uint64_t(1) << (offset % 64)), std::memory_order_release);
    }
    /// Slots carrying @tag.
    unsigned tag_count(unsigned tag) noexcept;
    bool any_tag(unsigned tag) noexcept;
    /// True if @offset is the only slot carrying @tag (clearing it empties the bitmap).
    bool only_tag(unsigned tag, unsigned offset) noexcept;
    /// First slot >= @offset carrying @tag, or the fanout if none.
    unsigned next_tagged(unsigned tag, unsigned offset) noexcept;
};

static_assert(sizeof(Node) == 64, "a node's header is one cache line");

/// Takes a node from the calling thread's preload pool and initialises it
/// (the pool must hold one: see preload()).
Node* node_from_preload(const NodeLayout& layout, unsigned height, sync::LockClass* lock_class) noexcept;
/// Makes sure the calling thread's pool holds @count nodes of this layout.
/// Returns false if the host allocator failed.
bool preload(const NodeLayout& layout, unsigned count) noexcept;
/// Frees a node now (no reader may still see it).
void free_node_now(Node* node) noexcept;
/// Frees a node after an RCU grace period.
void free_node_rcu(Node* node) noexcept;

} // namespace pcl::radix
