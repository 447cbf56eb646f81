// The readahead of a modern Linux kernel (mm/readahead.c and
// mm/filemap.c as of 6.16 on: page_cache_sync_ra, page_cache_async_ra,
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
//   - Large folios (page_cache_ra_order, with ra->order kept in the state
//     as 6.16 on does): a synchronous window or a read-around is read in
//     order-0 folios; each asynchronous window raises the order by two and
//     ends on a boundary of that order (at most the lowest set bit of the
//     maximum), so a stream's windows of 64, 256 and 512 pages become 60,
//     240 and 448; the order is then held to log2 of the window and to
//     MAX_PAGECACHE_ORDER. The simulator's pages stay 4 KB each: the folios
//     shape the windows, not the I/O. This is the file systems with large
//     folios (ext4 from 6.16, xfs, tmpfs); the comparison with the running
//     kernel is in docs/benchmarks.md, "Readahead policies against the
//     running kernel".
#pragma once

#include "mm/readahead_ondemand.h"

namespace pcl {

class LinuxReadahead final : public OndemandReadahead {
public:
    static constexpr unsigned kMmapLotsaMiss = 100;
    /// MAX_PAGECACHE_ORDER with 4 KB pages on x86-64: a PMD's 512 pages.
    static constexpr unsigned kMaxFolioOrder = 9;
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
    /// page_cache_async_ra's readit: raises st.order by two, ends the
    /// window on a boundary of that order, makes it all asynchronous, and
    /// holds the order to what page_cache_ra_order can use.
    void align_to_folios(FileRaState& st) const noexcept;
};

} // namespace pcl
