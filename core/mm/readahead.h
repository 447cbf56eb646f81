// The readahead seam: where a policy decides how much to read.
//
// The fault and read paths call the file's policy on a page-cache miss
// (page_cache_sync_readahead) and when they find a page marked PG_readahead
// (page_cache_async_readahead). The policy answers with a window
// [start, start + size); the caller reads the pages of it that are not
// cached, in one request per contiguous run, and marks the page at
// start + size - async_size with PG_readahead so that reaching it starts
// the next window while the reader goes on. Policies (Linux's ondemand,
// mmap read-around, Morton's 2002 shrink-on-thrash) implement this
// interface; NoReadahead reads exactly what was asked.
#pragma once

#include "mm/page.h"

#include <algorithm>

namespace pcl {

struct ReadaheadWindow {
    pgoff_t start = 0;      ///< first page of the window
    pgoff_t size = 0;       ///< pages in it (0: read nothing)
    pgoff_t async_size = 0; ///< trailing pages whose first gets PG_readahead (0: no marker)
};

class ReadaheadPolicy {
public:
    virtual ~ReadaheadPolicy() = default;
    /// A miss at @index of @file (@file_pages long) by a request of
    /// @req_pages pages starting there. The window must contain @index.
    virtual ReadaheadWindow on_miss(FileId file, pgoff_t index, pgoff_t req_pages, pgoff_t file_pages) = 0;
    /// A hit on the PG_readahead marker at @index: the next window, read
    /// asynchronously (size 0: none).
    virtual ReadaheadWindow on_marker(FileId file, pgoff_t index, pgoff_t file_pages) = 0;
};

/// No readahead: read the requested pages only.
class NoReadahead final : public ReadaheadPolicy {
public:
    ReadaheadWindow on_miss(FileId, pgoff_t index, pgoff_t req_pages, pgoff_t file_pages) override
    {
        const pgoff_t end = std::min(file_pages, index + std::max<pgoff_t>(req_pages, 1));
        return { index, end > index ? end - index : 1, 0 };
    }
    ReadaheadWindow on_marker(FileId, pgoff_t, pgoff_t) override { return {}; }
};

} // namespace pcl
