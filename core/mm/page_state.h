// Page state of a file, page by page, for views that draw a file as a strip
// of its pages (what /proc/kpageflags and mincore(2) tell about a real
// file, read from the simulated cache).
//
// The reader takes no page references and no page locks: it walks the
// file's index under RCU, as the lockless find_get_page does, and reads
// each page's flags and count as they are at that moment. That is safe
// because a page's frame goes back to the allocator only after an RCU grace
// period (FrameAllocator::free_rcu): a page found inside the read-side
// section stays a page of that file and offset until the section ends, even
// if reclaim removes it meanwhile. Like a gang lookup under RCU, the result
// is not an atomic picture of the file: each page's state was true at some
// moment during the call.
//
// The cost is bounded by the pages looked at, never by the file's size: a
// strip of a million-page file is summarised per pixel column from a
// bounded sample (summarise_page_states), and only a range that fits is read
// page by page (read_page_states).
#pragma once

#include "base/page.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pcl {

class PageCache;

/// One page of a file as found in the cache.
struct PageStateBits {
    bool present = false;    ///< the file's index holds a page at this offset
    std::uint32_t flags = 0; ///< PageFlag bits (0 when not present)
    std::int32_t count = 0;  ///< page_count (0 when not present)

    bool test(PageFlag f) const noexcept { return flags & f; }
    friend bool operator==(const PageStateBits&, const PageStateBits&) = default;
};

/// The most pages read_page_states reads in one call.
inline constexpr pgoff_t kMaxPageStateRead = pgoff_t(1) << 16;

/// The state of pages [@first, @first + @count) of @file, one entry per
/// page, into @out (resized to @count). Offsets beyond the file's end read
/// as not present. Throws std::invalid_argument naming "file" for an
/// unknown file, "count" above kMaxPageStateRead and "first" when the range
/// overflows.
void read_page_states(PageCache& cache, FileId file, pgoff_t first, pgoff_t count, std::vector<PageStateBits>& out);

/// What a run of pages holds, counted over the pages looked at.
struct PageStateSummary {
    pgoff_t first = 0;           ///< first page of the run
    pgoff_t pages = 0;           ///< pages in the run
    std::uint32_t sampled = 0;   ///< pages looked at: all of them, or an evenly spread sample
    std::uint32_t present = 0;   ///< cached
    std::uint32_t uptodate = 0;  ///< PG_uptodate
    std::uint32_t under_io = 0;  ///< PG_locked and not PG_uptodate: a read in flight
    std::uint32_t locked = 0;    ///< PG_locked and PG_uptodate: locked for another reason
    std::uint32_t dirty = 0;     ///< PG_dirty or PG_writeback
    std::uint32_t readahead = 0; ///< PG_readahead: the async readahead marker
    std::uint32_t ra_unused = 0; ///< PG_ra_unused: read ahead, not used yet
    std::int32_t max_count = 0;  ///< the highest page_count seen
    std::uint32_t writeback = 0; ///< PG_writeback: being written to the disk (counted in dirty too)

    friend bool operator==(const PageStateSummary&, const PageStateSummary&) = default;
};

/// Splits [@first, @first + @pages) into @columns runs as equal as whole
/// pages allow (run c is [first + c * pages / columns, first + (c + 1) *
/// pages / columns)) and summarises each into @out (resized to @columns).
/// A run of at most @per_column pages is read whole; a longer one through
/// @per_column pages spread evenly over it (the first page of each of
/// @per_column equal parts), so the call looks at no more than columns x
/// per_column pages whatever the file's size. Throws std::invalid_argument
/// naming "file", "columns" (0 or above 65536), "per_column" (0 or above
/// 4096) or "first" (the range overflows).
void summarise_page_states(PageCache& cache, FileId file, pgoff_t first, pgoff_t pages, std::size_t columns,
    std::size_t per_column, std::vector<PageStateSummary>& out);

} // namespace pcl
