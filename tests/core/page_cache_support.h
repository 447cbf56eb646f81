// Test support: a page put in the page cache the way a completed read
// leaves it.
#pragma once

#include "mm/page_cache.h"

namespace pcl::test {

/// Finds page @index of @f or creates it; a page it creates is marked up to
/// date and unlocked, as mm/filemap.c's read path leaves a page whose read
/// completed. The lookup's reference is dropped before it returns: the page
/// stays only as long as the cache keeps it.
inline PageCache::AddResult read_in(PageCache& cache, FileId f, pgoff_t index)
{
    PageCache::AddResult r = cache.find_or_create_page(f, index);
    if (r.status == PageCache::AddStatus::Created) {
        r.page->set(PG_uptodate);
        cache.page_locks().unlock_page(*r.page);
    }
    if (r.page)
        cache.put_page(r.page);
    return r;
}

} // namespace pcl::test
