// The readahead of a modern Linux kernel (mm/readahead.c and
// mm/filemap.c as of 6.10 on: page_cache_sync_ra, page_cache_async_ra,
// do_sync_mmap_readahead, do_async_mmap_readahead), for read(2) and mmap
// faults together, as the kernel applies it.
//
// What changed since 2.6.32 (OndemandReadahead, ReadaroundReadahead):
//   - The synchronous path no longer looks at the window. A miss is the
//     start of a stream when it is at page 0, larger than the maximum, or
//     within a page of where the previous read ended (prev_pos is the byte
//     after the last read, so a reader of every other page is "sequential"
//     and gets a fresh initial window at each miss: 4 pages for a one-page
//     read); a miss at the end of the current window is not continued.
//   - Context readahead is conservative: the cached run just before the
//     miss must be longer than the request (a random reader with one cached
//     neighbour reads only its page), and the window is that run plus the
//     request (twice the run when it reaches the start of the file), at
//     most the maximum, with a one-page asynchronous tail.
//   - The async path is as before: at the marker, push the window on and
//     ramp it up (x4 below a sixteenth of the maximum, else x2), all of it
//     asynchronous; a marker the state does not expect (interleaved
//     streams) sizes the window from the cached run after it.
//   - mmap faults: MADV_RANDOM reads only the page; MADV_SEQUENTIAL takes
//     the synchronous path with a request of the maximum; otherwise no
//     prev + 1 check any more: every miss counts in mmap_miss (at most
//     MMAP_LOTSAMISS x 10) and, under MMAP_LOTSAMISS, reads the maximum
//     centred on the fault with a quarter of it asynchronous; a hit counts
//     one miss off, and a marker hit runs the async path with the maximum.
// Not modelled: large folios. A kernel with large-folio readahead
// (page_cache_ra_order) reads each window in folios whose order grows by
// two per window and ends windows on folio boundaries, so its windows are
// those below trimmed to alignments (the measured comparison is in
// docs/benchmarks.md, "Readahead policies against the running kernel").
#pragma once

#include "mm/readahead_ondemand.h"

namespace pcl {

class LinuxReadahead final : public OndemandReadahead {
public:
    static constexpr unsigned kMmapLotsaMiss = 100;
    explicit LinuxReadahead(pgoff_t ra_pages = kDefaultRaPages)
        : OndemandReadahead(ra_pages)
    {
    }

    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override;
    ReadaheadWindow async_readahead(const ReadaheadRequest& r) override;
    void on_access(const ReadaheadRequest& r, bool hit) override;

private:
    /// page_cache_sync_ra for a request of @req pages; mutex_ held.
    ReadaheadWindow sync_ra(FileRaState& st, const ReadaheadRequest& r, pgoff_t req);
    /// page_cache_async_ra for a request of @req pages; mutex_ held.
    ReadaheadWindow async_ra(FileRaState& st, const ReadaheadRequest& r, pgoff_t req);
};

} // namespace pcl
