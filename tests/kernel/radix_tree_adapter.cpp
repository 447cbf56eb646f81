// The radix_tree_* and xa_* calls of the kernel's radix-tree tests
// (include/linux/radix-tree.h, include/linux/xarray.h here) on RadixTree.
//
// Every entry a test stores goes into a Slot record of its own, and the
// record into the tree: RadixTree's slots hold Page pointers, never read
// through, so the tree is the same whatever they point at, and the record
// carries the index the xa_state walks need. A record is freed through
// pcl::rcu a grace period after its delete, as RadixTree frees its nodes,
// so each call here reads records inside a read-side section of its own
// (nested in the test's rcu_read_lock() where it has one).
#include "radix_tree_adapter.h"

#include "sync/rcu.h"
#include "sync/rcu_read_fast.h" // before liburcu's own header

#include <linux/radix-tree.h>
#include <linux/xarray.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <urcu/urcu-memb.h>

namespace pcl::kernel_test {
namespace {

std::atomic<RadixTree::Scheme> g_scheme { RadixTree::Scheme::Rcu };
std::atomic<FileId> g_next_file { 0 };

[[noreturn]] void not_modelled(const char* what)
{
    std::fprintf(stderr, "kernel radix-tree test: %s is not modelled by RadixTree\n", what);
    std::abort();
}

void free_slot(rcu::Head* head)
{
    delete reinterpret_cast<Slot*>(head); // rcu is Slot's first member
}

void retire(Slot* slot)
{
    rcu::call(&slot->rcu, free_slot);
}

Page* stored(Slot* slot)
{
    return reinterpret_cast<Page*>(slot);
}

/// A gang lookup's records, per thread (the kernel's results array holds
/// entries, not records).
std::vector<Page*>& gang_buffer(std::size_t size)
{
    thread_local std::vector<Page*> buffer;
    if (buffer.size() < size)
        buffer.resize(size);
    return buffer;
}

int insert(const xarray* xa, unsigned long index, void* entry)
{
    auto slot = std::make_unique<Slot>();
    slot->entry = entry;
    slot->index = index;
    switch (tree_of(xa).insert(index, stored(slot.get()))) {
    case InsertResult::Inserted:
        slot.release();
        return 0;
    case InsertResult::Exists:
        return -EEXIST;
    case InsertResult::NoMemory:
        return -ENOMEM;
    }
    return -EINVAL;
}

void* erase(const xarray* xa, unsigned long index)
{
    Slot* slot = slot_of(tree_of(xa).erase(index));
    if (!slot)
        return nullptr;
    void* entry = slot->entry;
    retire(slot);
    return entry;
}

void* lookup(const xarray* xa, unsigned long index)
{
    RadixTree& tree = tree_of(xa);
    rcu::FastReadGuard guard;
    Slot* slot = slot_of(tree.lookup(index));
    return slot ? slot->entry : nullptr;
}

/// Gang lookup of up to @max records from @first (carrying @tag, or all if
/// @tag is XA_PRESENT). Call inside a read-side section.
std::size_t gang(const xarray* xa, unsigned long first, std::size_t max, unsigned tag, Page** out)
{
    RadixTree& tree = tree_of(xa);
    return tag == XA_PRESENT ? tree.gang_lookup(first, max, out) : tree.gang_lookup_tag(first, max, tag, out);
}

unsigned check_tag(unsigned tag)
{
    if (tag >= kTagCount)
        not_modelled("a mark beyond the page cache's three tags");
    return tag;
}

/// radix_tree_tag_set and _clear: the entry at @index once its tag is set
/// (@set) or cleared, NULL when there is none.
void* change_tag(struct radix_tree_root* root, unsigned long index, unsigned int tag, bool set)
{
    RadixTree& tree = tree_of(root);
    rcu::FastReadGuard guard;
    if (!(set ? tree.set_tag(index, check_tag(tag)) : tree.clear_tag(index, check_tag(tag))))
        return nullptr;
    Slot* slot = slot_of(tree.lookup(index));
    return slot ? slot->entry : nullptr;
}

} // namespace

void use_scheme(RadixTree::Scheme scheme)
{
    g_scheme.store(scheme, std::memory_order_relaxed);
}

RadixTree& tree_of(const xarray* xa)
{
    // The tests initialise trees statically (RADIX_TREE, DEFINE_XARRAY), so
    // the tree is made here, once, even when two threads meet an empty one.
    std::atomic_ref<void*> word(const_cast<xarray*>(xa)->xa_tree);
    if (void* tree = word.load(std::memory_order_acquire))
        return *static_cast<RadixTree*>(tree);
    auto fresh = std::make_unique<RadixTree>(g_next_file.fetch_add(1, std::memory_order_relaxed),
        RadixTree::Config { g_scheme.load(std::memory_order_relaxed), XA_CHUNK_SHIFT });
    void* expected = nullptr;
    if (word.compare_exchange_strong(expected, fresh.get(), std::memory_order_acq_rel))
        return *fresh.release(); // for the process's life, as the tests' trees are
    return *static_cast<RadixTree*>(expected);
}

} // namespace pcl::kernel_test

using namespace pcl;
using namespace pcl::kernel_test;

extern "C" {

int radix_tree_insert(struct radix_tree_root* root, unsigned long index, void* item)
{
    return insert(root, index, item);
}

void* radix_tree_lookup(struct radix_tree_root* root, unsigned long index)
{
    return lookup(root, index);
}

void* radix_tree_delete(struct radix_tree_root* root, unsigned long index)
{
    return erase(root, index);
}

void* radix_tree_tag_set(struct radix_tree_root* root, unsigned long index, unsigned int tag)
{
    return change_tag(root, index, tag, true);
}

void* radix_tree_tag_clear(struct radix_tree_root* root, unsigned long index, unsigned int tag)
{
    return change_tag(root, index, tag, false);
}

int radix_tree_tag_get(const struct radix_tree_root* root, unsigned long index, unsigned int tag)
{
    return tree_of(root).test_tag(index, check_tag(tag)) ? 1 : 0;
}

int radix_tree_tagged(const struct radix_tree_root* root, unsigned int tag)
{
    return tree_of(root).tagged(check_tag(tag)) ? 1 : 0;
}

bool radix_tree_empty(const struct radix_tree_root* root)
{
    return tree_of(root).count() == 0;
}

unsigned int radix_tree_gang_lookup(
    const struct radix_tree_root* root, void** results, unsigned long first_index, unsigned int max_items)
{
    std::vector<Page*>& found = gang_buffer(max_items);
    rcu::FastReadGuard guard;
    const std::size_t n = gang(root, first_index, max_items, XA_PRESENT, found.data());
    for (std::size_t i = 0; i < n; ++i)
        results[i] = slot_of(found[i])->entry;
    return unsigned(n);
}

unsigned int radix_tree_gang_lookup_tag(const struct radix_tree_root* root, void** results, unsigned long first_index,
    unsigned int max_items, unsigned int tag)
{
    std::vector<Page*>& found = gang_buffer(max_items);
    rcu::FastReadGuard guard;
    const std::size_t n = gang(root, first_index, max_items, check_tag(tag), found.data());
    for (std::size_t i = 0; i < n; ++i)
        results[i] = slot_of(found[i])->entry;
    return unsigned(n);
}

unsigned int radix_tree_gang_lookup_tag_slot(const struct radix_tree_root* root, void*** results,
    unsigned long first_index, unsigned int max_items, unsigned int tag)
{
    std::vector<Page*>& found = gang_buffer(max_items);
    rcu::FastReadGuard guard;
    const std::size_t n = gang(root, first_index, max_items, check_tag(tag), found.data());
    for (std::size_t i = 0; i < n; ++i)
        results[i] = &slot_of(found[i])->entry;
    return unsigned(n);
}

void* xa_find(struct xarray* xa, unsigned long* indexp, unsigned long max, xa_mark_t filter)
{
    if (filter != XA_PRESENT)
        check_tag(filter);
    Page* found = nullptr;
    rcu::FastReadGuard guard;
    if (gang(xa, *indexp, 1, filter, &found) == 0)
        return nullptr;
    Slot* slot = slot_of(found);
    if (slot->index > max)
        return nullptr;
    *indexp = slot->index;
    return slot->entry;
}

void* xa_erase(struct xarray* xa, unsigned long index)
{
    return erase(xa, index);
}

void* xa_store(struct xarray* xa, unsigned long index, void* entry, unsigned int gfp)
{
    (void)gfp;
    if (!entry)
        return erase(xa, index);
    const int err = insert(xa, index, entry);
    if (err == -EEXIST)
        not_modelled("replacing a present entry (xa_store)");
    if (err)
        not_modelled("an insert that fails for want of memory (xa_store)");
    return nullptr;
}

void xa_set_mark(struct xarray* xa, unsigned long index, xa_mark_t mark)
{
    radix_tree_tag_set(xa, index, mark);
}

void xa_destroy(struct xarray* xa)
{
    unsigned long index = 0;
    while (xa_find(xa, &index, ~0UL, XA_PRESENT)) {
        erase(xa, index);
        if (index == ~0UL)
            break;
        ++index;
    }
}

bool xa_empty(struct xarray* xa)
{
    return radix_tree_empty(xa);
}

void* xas_load(struct xa_state* xas)
{
    return lookup(xas->xa, xas->xa_index);
}

void* xas_store(struct xa_state* xas, void* entry)
{
    if (!entry)
        return erase(xas->xa, xas->xa_index);
    if (insert(xas->xa, xas->xa_index, entry) == -EEXIST)
        not_modelled("replacing a present entry (xas_store)");
    return nullptr;
}

void xas_set_mark(struct xa_state* xas, xa_mark_t mark)
{
    radix_tree_tag_set(xas->xa, xas->xa_index, mark);
}

void xas_set_order(struct xa_state* xas, unsigned long index, unsigned int order)
{
    if (order != 0)
        not_modelled("a multi-order entry (xas_set_order)");
    xas_set(xas, index);
}

void pcl_rcu_register_thread(void)
{
    // pcl::rcu registers a thread on its first read-side section.
    rcu::read_lock();
    rcu::read_unlock();
}

void pcl_rcu_barrier(void)
{
    urcu_memb_barrier(); // the tests' own call_rcu() callbacks
    rcu::barrier();      // RadixTree's nodes and the adapter's records
}

} // extern "C"
