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

    // Writeback (changed under the page lock of the page concerned, read
    // by anyone): NR_FILE_DIRTY and NR_WRITEBACK of this file.
    std::atomic<std::uint64_t> nr_dirty { 0 };     ///< pages with PG_dirty
    std::atomic<std::uint64_t> nr_writeback { 0 }; ///< pages with PG_writeback
    std::atomic<std::uint64_t> written { 0 };      ///< pages whose writeback completed, ever
    /// When the file went from clean to dirty (inode->dirtied_when, now_ns
    /// time; 0 while clean): what periodic writeback ages it by.
    std::atomic<std::uint64_t> dirtied_when_ns { 0 };
};

} // namespace pcl
