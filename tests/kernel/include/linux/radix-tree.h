/* The radix_tree_* API of the kernel's <linux/radix-tree.h> (6.12) that the
 * kernel's radix-tree tests call, on pcl::RadixTree (radix_tree_adapter.cpp)
 * in place of lib/radix-tree.c, and printv() from the harness's own
 * tools/testing/shared/linux/radix-tree.h, which this header replaces.
 *
 * Semantics are 2.6's (lib/radix-tree.c, RadixTree's model): an insert
 * into an occupied index fails with -EEXIST, tag calls on an absent index
 * return NULL (or 0), gang lookups return up to max_items entries in index
 * order. Not here: the chunked iterator (radix_tree_iter,
 * radix_tree_for_each_slot), slot replacement, preloads, multi-order
 * entries; tests that call them are not built (tests/kernel/CMakeLists.txt). */
#ifndef PCL_KERNEL_RADIX_TREE_H
#define PCL_KERNEL_RADIX_TREE_H

#include <linux/xarray.h>

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In 6.12 a radix tree is an xarray. */
#define radix_tree_root xarray
#define RADIX_TREE_INIT(name, mask) XARRAY_INIT(name, mask)
#define RADIX_TREE(name, mask) struct radix_tree_root name = RADIX_TREE_INIT(name, mask)

#define RADIX_TREE_MAP_SHIFT XA_CHUNK_SHIFT
#define RADIX_TREE_MAP_SIZE (1UL << RADIX_TREE_MAP_SHIFT)
#define RADIX_TREE_MAP_MASK (RADIX_TREE_MAP_SIZE - 1UL)
#define RADIX_TREE_MAX_TAGS 3

/* 0, -EEXIST if @index holds an entry, -ENOMEM if a node could not be had. */
int radix_tree_insert(struct radix_tree_root* root, unsigned long index, void* item);
void* radix_tree_lookup(struct radix_tree_root* root, unsigned long index);
void* radix_tree_delete(struct radix_tree_root* root, unsigned long index);
/* The entry at @index, or NULL if there is none (nothing is tagged then). */
void* radix_tree_tag_set(struct radix_tree_root* root, unsigned long index, unsigned int tag);
void* radix_tree_tag_clear(struct radix_tree_root* root, unsigned long index, unsigned int tag);
int radix_tree_tag_get(const struct radix_tree_root* root, unsigned long index, unsigned int tag);
int radix_tree_tagged(const struct radix_tree_root* root, unsigned int tag);
bool radix_tree_empty(const struct radix_tree_root* root);
unsigned int radix_tree_gang_lookup(
    const struct radix_tree_root* root, void** results, unsigned long first_index, unsigned int max_items);
unsigned int radix_tree_gang_lookup_tag(const struct radix_tree_root* root, void** results, unsigned long first_index,
    unsigned int max_items, unsigned int tag);
/* A "slot" is the adapter's record of the entry: *slot is the entry, valid
 * under rcu_read_lock() as the kernel's slots are. */
unsigned int radix_tree_gang_lookup_tag_slot(const struct radix_tree_root* root, void*** results,
    unsigned long first_index, unsigned int max_items, unsigned int tag);

extern int test_verbose;
#define printv(verbosity_level, fmt, ...)                                                                              \
    if (test_verbose >= verbosity_level)                                                                               \
    printf(fmt, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* PCL_KERNEL_RADIX_TREE_H */
