// Where radix tree nodes come from: a slab cache per node size, as Linux
// keeps its radix_tree_node_cachep (lib/radix-tree.c, kmem_cache_create).
//
// A sparse file puts one page in a node of its own, so inserting into it is
// mostly allocating: from the general heap each 4 KB page of fresh nodes
// cost a page fault and the kernel's clear_page (42% of a sparse insert,
// docs/benchmarks.md), and an aligned malloc its split (10%). Here a cache
// carves its nodes out of 2 MB chunks that ask for transparent huge pages
// (one fault per chunk where THP is enabled for madvise), and a freed node
// goes back to its cache for the next insert instead of to the heap.
//
// Each thread keeps a magazine of free nodes per size (kmem_cache's per-CPU
// array cache), refilled from and flushed to the cache's shared free list
// in batches under its lock, so the lock is taken once per batch. Nodes are
// freed by the RCU callback thread and allocated by the inserting threads:
// the batches carry them across.
//
// A cache keeps its chunks for the life of the process, ready for the next
// tree: its memory is bounded by the most nodes of that size alive at once.
// Under AddressSanitizer a free node is poisoned until it is handed out
// again, so a use after free is still reported.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcl::radix {

/// Largest object the slab serves; larger ones are refused (nullptr).
inline constexpr std::size_t kSlabMaxBytes = 4096;

/// An object of @bytes (a multiple of 64, at most kSlabMaxBytes), 64-byte
/// aligned, contents undefined. nullptr if no memory could be mapped.
void* slab_alloc(std::size_t bytes) noexcept;
/// Returns an object of @bytes obtained from slab_alloc; any thread.
void slab_free(void* object, std::size_t bytes) noexcept;

/// Counters of one size's cache, for tests and the benchmark's notes.
struct SlabStats {
    std::uint64_t chunks = 0;      ///< 2 MB chunks mapped
    std::uint64_t carved = 0;      ///< objects ever carved out of chunks
    std::uint64_t shared_free = 0; ///< objects on the shared free list now
};
SlabStats slab_stats(std::size_t bytes) noexcept;

} // namespace pcl::radix
