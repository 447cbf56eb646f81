// The page descriptor: what the page cache indexes hold (struct page).
//
// An index stores `Page*` values; a page knows which file (address space) and
// which page offset it belongs to, so a gang lookup's results identify
// themselves. The fault, I/O and LRU state of a page lives in mm and is added
// by the modules that use it.
#pragma once

#include <cstdint>

namespace pcl {

/// A page offset within a file, in pages (the kernel's pgoff_t).
using pgoff_t = std::uint64_t;

/// Identifies a file (address space) inside one page cache.
using FileId = std::uint32_t;

struct Page {
    FileId mapping = 0; ///< the file this page caches (page->mapping)
    pgoff_t index = 0;  ///< its offset in that file, in pages (page->index)
};

} // namespace pcl
