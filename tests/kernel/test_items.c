/* The item helpers that the kernel's radix-tree tests declare in their
 * test.h (tools/testing/radix-tree/test.h) and call, for the tests built
 * here. The kernel's own test.c is not compiled: its walks use the xarray's
 * node-level xa_state API and verify_tag_consistency() reads the kernel's
 * node layout. These do the same with the radix_tree_* and xa_find() calls
 * of the adapter; verify_tag_consistency() is in tag_consistency.cpp.
 *
 * An item is a malloc'd struct item carrying its own index, so a test can
 * check that what the tree returns for an index is what was stored there. */
#include <assert.h>
#include <stdlib.h>

#include <linux/kernel.h>

#include "test.h"

/* The harness's count of slab objects in use (tools/testing/shared/linux.c).
 * RadixTree's nodes are its own (RadixTree::nodes() counts them), so the
 * tests' printv(2) lines about it print 0. */
int nr_allocated;

struct item* item_create(unsigned long index, unsigned int order)
{
    struct item* item = malloc(sizeof(*item));

    assert(item);
    item->index = index;
    item->order = order;
    return item;
}

int item_insert(struct radix_tree_root* root, unsigned long index)
{
    struct item* item = item_create(index, 0);
    int err = radix_tree_insert(root, index, item);

    if (err)
        free(item);
    return err;
}

void item_sanity(struct item* item, unsigned long index)
{
    assert(item->order == 0);
    assert(item->index == index);
}

void item_free(struct item* item, unsigned long index)
{
    item_sanity(item, index);
    free(item);
}

int item_delete(struct radix_tree_root* root, unsigned long index)
{
    struct item* item = radix_tree_delete(root, index);

    if (!item)
        return 0;
    item_free(item, index);
    return 1;
}

struct item* item_lookup(struct radix_tree_root* root, unsigned long index)
{
    return radix_tree_lookup(root, index);
}

void item_check_present(struct radix_tree_root* root, unsigned long index)
{
    struct item* item = radix_tree_lookup(root, index);

    assert(item != NULL);
    item_sanity(item, index);
}

void item_check_absent(struct radix_tree_root* root, unsigned long index)
{
    assert(radix_tree_lookup(root, index) == NULL);
}

struct item* item_tag_set(struct radix_tree_root* root, unsigned long index, int tag)
{
    return radix_tree_tag_set(root, index, tag);
}

struct item* item_tag_clear(struct radix_tree_root* root, unsigned long index, int tag)
{
    return radix_tree_tag_clear(root, index, tag);
}

int item_tag_get(struct radix_tree_root* root, unsigned long index, int tag)
{
    return radix_tree_tag_get(root, index, tag);
}

/* Sets @thentag on every entry in [@start, @end] that carries @iftag, and
 * returns how many: mm/page-writeback.c's tag_pages_for_writeback() (dirty
 * to towrite), which 2.6 did with radix_tree_range_tag_if_tagged(). Like the
 * kernel's, it lets go every @batch entries; here, to let RCU callbacks run. */
int tag_tagged_items(
    struct xarray* xa, unsigned long start, unsigned long end, unsigned batch, xa_mark_t iftag, xa_mark_t thentag)
{
    unsigned long index = start;
    int tagged = 0;

    if (batch == 0)
        batch = 1;
    while (index <= end && xa_find(xa, &index, end, iftag)) {
        radix_tree_tag_set(xa, index, thentag);
        if (++tagged % batch == 0)
            rcu_barrier();
        if (index == end)
            break;
        index++;
    }
    return tagged;
}

/* Deletes every entry, freeing the items (not the value entries), and
 * checks the tree is empty. */
void item_kill_tree(struct xarray* xa)
{
    unsigned long index = 0;
    void* entry;

    while ((entry = xa_find(xa, &index, ~0UL, XA_PRESENT))) {
        void* deleted = radix_tree_delete(xa, index);

        assert(deleted == entry);
        if (!xa_is_value(entry))
            item_free(entry, index);
        if (index == ~0UL)
            break;
        index++;
    }
    assert(radix_tree_empty(xa));
}
