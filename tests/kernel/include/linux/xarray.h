/* The part of the kernel's <linux/xarray.h> (6.12) that the kernel's
 * radix-tree tests call, on pcl::RadixTree (radix_tree_adapter.cpp) in
 * place of lib/xarray.c. Compiled into the kernel's own test files
 * (tools/testing/radix-tree) ahead of the harness's headers, and into the
 * adapter, so it is C that C++ also reads and names no kernel header.
 *
 * What an xarray adds to the 2.6 radix tree RadixTree models (multi-index
 * entries, value entries in the tree itself, marks beyond three, replacing
 * a present entry, xas_nomem's preallocation) is not here: a call that
 * would need it aborts, naming it.
 *
 * Locking: RadixTree takes its own locks in every operation (tree_lock or
 * its node locks, by scheme), as 2.6's page cache held tree_lock around each
 * radix_tree_* call. xa_lock(), the lock an xarray's user holds around a
 * sequence of calls, is therefore empty here. In the tests built with this
 * header a sequence under it is either the only writer's (regression1.c)
 * or ends the same whatever another thread's call falls between its own
 * (iteration_check.c: an insert into an empty index, then a tag on it; a
 * delete in between leaves nothing to tag), and leaving it out lets the
 * writers meet inside the tree under the pernode and optimistic schemes. */
#ifndef PCL_KERNEL_XARRAY_H
#define PCL_KERNEL_XARRAY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slots per node: 1 << XA_CHUNK_SHIFT. The harness's default is 3
 * (tools/testing/shared/shared.mk, SHIFT), so few entries make deep trees;
 * tests/kernel/CMakeLists.txt defines it, and the adapter builds its trees
 * with the same shift. */
#ifndef XA_CHUNK_SHIFT
#error "XA_CHUNK_SHIFT is defined by tests/kernel/CMakeLists.txt"
#endif
#define XA_CHUNK_SIZE (1UL << XA_CHUNK_SHIFT)
#define XA_CHUNK_MASK (XA_CHUNK_SIZE - 1)

/* An xarray is a RadixTree, made on first use (RADIX_TREE() and
 * DEFINE_XARRAY() initialise static and stack trees alike) and set up with
 * the scheme the runner chose. */
struct xarray {
    void* xa_tree;
};

#define XARRAY_INIT(name, flags)                                                                                       \
    {                                                                                                                  \
        NULL                                                                                                           \
    }
#define DEFINE_XARRAY(name) struct xarray name = XARRAY_INIT(name, 0)

/* RadixTree's tags are the page cache's three: dirty, writeback, towrite. */
typedef unsigned int xa_mark_t;
#define XA_MARK_0 ((xa_mark_t)0U)
#define XA_MARK_1 ((xa_mark_t)1U)
#define XA_MARK_2 ((xa_mark_t)2U)
#define XA_PRESENT ((xa_mark_t)8U)
#define XA_MARK_MAX XA_MARK_2

/* Value entries: RadixTree stores whatever pointer it is given (the adapter
 * keeps each entry in a slot record of its own, radix_tree_adapter.cpp),
 * so an odd "value" is just another entry to it. */
static inline void* xa_mk_value(unsigned long v)
{
    return (void*)((v << 1) | 1);
}
static inline bool xa_is_value(const void* entry)
{
    return (unsigned long)entry & 1;
}

#define xa_lock(xa) ((void)(xa))
#define xa_unlock(xa) ((void)(xa))
#define xa_lock_irq(xa) ((void)(xa))
#define xa_unlock_irq(xa) ((void)(xa))

/* The entry at the first index >= *@indexp and <= @max that is present
 * (XA_PRESENT) or carries mark @filter, found with one gang lookup; *@indexp
 * is set to its index. NULL if there is none (*@indexp unchanged). Takes
 * the RCU read lock itself. */
void* xa_find(struct xarray* xa, unsigned long* indexp, unsigned long max, xa_mark_t filter);
/* Removes and returns the entry at @index (radix_tree_delete). */
void* xa_erase(struct xarray* xa, unsigned long index);
/* Stores @entry at @index, which must be empty: RadixTree inserts, it does
 * not replace (aborts if an entry is there). Returns NULL. */
void* xa_store(struct xarray* xa, unsigned long index, void* entry, unsigned int gfp);
/* radix_tree_tag_set. */
void xa_set_mark(struct xarray* xa, unsigned long index, xa_mark_t mark);
/* Removes every entry. */
void xa_destroy(struct xarray* xa);
bool xa_empty(struct xarray* xa);

/* The xa_state iteration of the tests, on xa_find(): each step is a gang
 * lookup of one entry from the index after the last one found, as 2.6's
 * find_get_pages() walked with radix_tree_gang_lookup. RadixTree's lockless
 * lookups retry internally and never hand out an internal entry, so
 * xas_retry() has nothing to retry. */
struct xa_state {
    struct xarray* xa;
    unsigned long xa_index;
    bool xa_found; /* xa_index is the entry last returned; the next step starts after it */
};

#define XA_STATE(name, array, index) struct xa_state name = { (array), (index), false }

static inline void xas_set(struct xa_state* xas, unsigned long index)
{
    xas->xa_index = index;
    xas->xa_found = false;
}

/* Walk again from xa_index (the entry there is returned again if present). */
static inline void xas_reset(struct xa_state* xas)
{
    xas->xa_found = false;
}

/* Go on after the entry last returned, with the next step's fresh walk. */
static inline void xas_pause(struct xa_state* xas)
{
    if (xas->xa_found && xas->xa_index != ~0UL) {
        xas->xa_index++;
        xas->xa_found = false;
    }
}

static inline void* pcl_xas_step(struct xa_state* xas, unsigned long max, xa_mark_t filter)
{
    unsigned long index = xas->xa_index;
    void* entry;

    if (xas->xa_found) {
        if (index >= max)
            return NULL;
        index++;
    }
    if (index > max)
        return NULL;
    xas->xa_index = index;
    entry = xa_find(xas->xa, &xas->xa_index, max, filter);
    xas->xa_found = entry != NULL;
    return entry;
}

#define xas_find(xas, max) pcl_xas_step(xas, max, XA_PRESENT)
#define xas_next_entry(xas, max) pcl_xas_step(xas, max, XA_PRESENT)
#define xas_find_marked(xas, max, mark) pcl_xas_step(xas, max, mark)
#define xas_next_marked(xas, max, mark) pcl_xas_step(xas, max, mark)
#define xas_for_each(xas, entry, max) for (entry = xas_find(xas, max); entry; entry = xas_next_entry(xas, max))
#define xas_for_each_marked(xas, entry, max, mark)                                                                     \
    for (entry = xas_find_marked(xas, max, mark); entry; entry = xas_next_marked(xas, max, mark))

static inline bool xas_retry(struct xa_state* xas, const void* entry)
{
    (void)xas;
    (void)entry;
    return false;
}

/* Single-index operations at xa_index. */
void* xas_load(struct xa_state* xas);
#define xas_reload(xas) xas_load(xas)
#define xas_find_conflict(xas) xas_load(xas)
/* NULL erases; anything else inserts into an empty index. Returns the old entry. */
void* xas_store(struct xa_state* xas, void* entry);
void xas_set_mark(struct xa_state* xas, xa_mark_t mark);
/* RadixTree holds order-0 entries only: any other order aborts. */
void xas_set_order(struct xa_state* xas, unsigned long index, unsigned int order);

/* RadixTree allocates its nodes inside the operation (its own preload),
 * so there is never a preallocation to retry with. */
static inline bool xas_nomem(struct xa_state* xas, unsigned int gfp)
{
    (void)xas;
    (void)gfp;
    return false;
}

#define xas_lock(xas) ((void)(xas))
#define xas_unlock(xas) ((void)(xas))
#define xas_lock_irq(xas) ((void)(xas))
#define xas_unlock_irq(xas) ((void)(xas))

#ifdef __cplusplus
}
#endif

#endif /* PCL_KERNEL_XARRAY_H */
