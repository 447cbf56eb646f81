// AddressSpace: one file's pages in the page cache (struct address_space).
#pragma once

#include "base/page.h"
#include "index/page_index.h"

#include <atomic>
#include <memory>

namespace pcl {

struct AddressSpace {
    FileId id = 0;          ///< this file's number in its page cache
    pgoff_t size_pages = 0; ///< the file's size (i_size in pages): offsets at or beyond it do not exist
    /// The file's page index: its own radix tree or skip list, or its view of
    /// the cache's one global hash table (mapping->page_tree).
    std::unique_ptr<PageIndex> index;

    /// Pages of this file in the cache (mapping->nrpages).
    std::uint64_t nrpages() const { return index->count(); }

    // Memory pressure on this file (reclaim writes, anyone reads).
    std::atomic<std::uint64_t> evictions { 0 };        ///< its pages reclaim evicted
    std::atomic<std::uint64_t> refaults { 0 };         ///< its evicted pages read in again while their shadow lasted
    std::atomic<std::uint64_t> wasted_readahead { 0 }; ///< its readahead pages evicted before first use: its thrashing
};

} // namespace pcl
