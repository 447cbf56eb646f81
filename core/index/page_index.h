// PageIndex: the index of one file's pages, from page offset to page.
//
// Glossary (as in lib/radix-tree.c):
//   @index  a page offset in the file (pgoff_t)
//   @page   the value stored: a page descriptor, never null
//   @tag    one of kTagDirty, kTagWriteback, kTagTowrite (index_snapshot.h)
//
// Three families implement it: RadixTree (one tree per file), HashIndex (one
// table for all files; each file sees it through a per-file PageIndex) and
// SkipList (one per file), each with the locking schemes Linux went through.
// Every operation is safe to call from any number of threads at once; what
// locks it takes depends on the scheme. Gang lookups are not atomic snapshots
// under lockless schemes (neither are Linux's under RCU): each returned entry
// was present at some moment during the call.
#pragma once

#include "base/machine_calls.h"
#include "base/page.h"
#include "index/alloc_failure.h"
#include "index/index_snapshot.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pcl {

/// The size and depth of an index's structure, read from counters the index
/// keeps anyway (no walk, no lock), so a sampler may ask many times a second
/// while CPUs change it. What the two numbers mean depends on the family:
///   radix     nodes linked into the tree; height as RadixTree::height()
///   skiplist  nodes (one per entry; the head not counted); height = the
///             tallest tower searches start from (exact under "mapping";
///             under "pernode" an upper bound, since only inserts move it)
///   hash      0 and 0: a hash table has neither; its shape is its chain
///             lengths, which the snapshot carries
struct IndexShape {
    std::uint64_t nodes = 0;
    int height = 0;
};

enum class InsertResult : std::uint8_t {
    Inserted, ///< the page is now in the index
    Exists,   ///< an entry was already present at that index; nothing was replaced (-EEXIST)
    NoMemory, ///< a node could not be allocated; the index is unchanged (-ENOMEM)
};

class PageIndex {
public:
    virtual ~PageIndex() = default;

    /// The family (index_kind_name() names it).
    virtual IndexKind kind() const = 0;
    /// The locking scheme, e.g. "rcu", "optimistic", "global".
    virtual std::string_view scheme() const = 0;

    /// The page at @index, or nullptr (find_get_page without the reference).
    virtual Page* lookup(pgoff_t index) = 0;
    /// Whether lookups take no lock (they run under RCU): a reader may then
    /// still hold a page that was erased until a grace period has passed,
    /// and takes its reference speculatively (PageCache::find_get_page).
    virtual bool lockless_lookups() const noexcept = 0;
    /// find_get_page as 2.4 and 2.6.0 did it, for an index whose lookups
    /// take a lock: the page at @index with a reference taken under that
    /// lock, in one lock round trip; nullptr if there is none. A page whose
    /// references reclaim has frozen (it is about to be erased) is not
    /// taken: the lock is dropped and the lookup tried again. Throws
    /// std::logic_error when lockless_lookups() is true.
    virtual Page* lookup_get_locked(pgoff_t index) = 0;
    /// On a modelled machine, charges one walk of this index, a level a
    /// step (a hash bucket's chain is one level), to the calling CPU. A
    /// lookup_get_locked() charges it under its lock, so that the lock's
    /// hold is the walk's; the page cache charges a lockless lookup's and
    /// an insert's before the call. The host's walk takes its own time.
    void charge_walk() const
    {
        if (on_modelled_machine()) [[unlikely]] {
            const int height = shape().height;
            charge_work(Work::IndexLevel, std::uint64_t(height > 1 ? height : 1));
        }
    }
    /// Stores @page at @index unless an entry is already there.
    virtual InsertResult insert(pgoff_t index, Page* page) = 0;
    /// Removes and returns the entry at @index (nullptr if none); its tags go with it.
    virtual Page* erase(pgoff_t index) = 0;

    /// Sets @tag on the entry at @index; false if there is no entry.
    virtual bool set_tag(pgoff_t index, unsigned tag) = 0;
    /// Clears @tag on the entry at @index; false if there is no entry.
    virtual bool clear_tag(pgoff_t index, unsigned tag) = 0;
    /// Whether the entry at @index carries @tag (false if there is no entry).
    virtual bool test_tag(pgoff_t index, unsigned tag) = 0;
    /// Whether any entry carries @tag (radix_tree_tagged).
    virtual bool tagged(unsigned tag) = 0;

    /// Up to @max entries at indexes >= @first, in ascending index order,
    /// written to @out; returns how many.
    virtual std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) = 0;
    /// As gang_lookup, only entries carrying @tag.
    virtual std::size_t gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out) = 0;

    /// Entries in the index.
    virtual std::uint64_t count() const = 0;
    /// Bytes the index itself uses (nodes, tables, links; not the pages).
    virtual std::uint64_t memory_bytes() const = 0;
    /// A picture of the structure for drawing.
    virtual IndexSnapshot snapshot(const SnapshotOptions& options = {}) const = 0;
    /// Nodes and height, cheaply (see IndexShape); exact once writers are quiet.
    virtual IndexShape shape() const = 0;

    /// Allocation failure injection for this index.
    AllocFailure& alloc_failure() noexcept { return alloc_failure_; }

protected:
    AllocFailure alloc_failure_;
};

} // namespace pcl
