// Linux's on-demand readahead (mm/readahead.c, 2.6.23 onwards; details as in
// 2.6.32's ondemand_readahead, get_init_ra_size, get_next_ra_size and
// try_context_readahead where the rules of mm/readahead.c leave a choice).
//
// Per file, a file_ra_state {start, size, async_size, prev_pos} (prev_pos in
// pages here) and, for mmap read-around, mmap_miss; ra_pages is the
// per-device maximum (default 32 pages = 128 KB). Linux keeps the state per
// struct file and updates it without a lock (a race only mis-sizes a
// window); the simulator keeps it per FileId under one mutex, because an
// unsynchronised update is undefined behaviour in C++.
#pragma once

#include "base/wait_queue.h"
#include "mm/readahead.h"

#include <mutex>
#include <unordered_map>

namespace pcl {

/// struct file_ra_state, in pages.
struct FileRaState {
    pgoff_t start = 0;
    pgoff_t size = 0;
    pgoff_t async_size = 0;
    pgoff_t prev = ~pgoff_t(0); ///< last page accessed; -1 (none) as file_ra_state_init sets prev_pos
    unsigned mmap_miss = 0;     ///< mmap faults that missed, less hits (do_sync/async_mmap_readahead)
    unsigned order = 0;         ///< ra->order: the folio order of the last window (large-folio kernels only)
};

class OndemandReadahead : public ReadaheadPolicy {
public:
    static constexpr pgoff_t kDefaultRaPages = 32;
    explicit OndemandReadahead(pgoff_t ra_pages = kDefaultRaPages);

    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override;
    ReadaheadWindow async_readahead(const ReadaheadRequest& r) override;
    void on_access(const ReadaheadRequest& r, bool hit) override;

    pgoff_t ra_pages() const noexcept { return ra_pages_; }
    /// A copy of @file's state (a fresh one if the file was never accessed).
    FileRaState state(FileId file) const;
    ReadaheadWindow window_of(FileId file) const override;

    /// get_init_ra_size: @req rounded up to a power of two, x4 if <= max/32,
    /// x2 if <= max/4, else max.
    static pgoff_t init_size(pgoff_t req, pgoff_t max) noexcept;
    /// get_next_ra_size: x4 if cur < max/16, else x2, at most max.
    static pgoff_t next_size(pgoff_t cur, pgoff_t max) noexcept;

protected:
    /// ondemand_readahead on @st, with mutex_ held. @req_pages is the
    /// request size (ra_pages for mmap, as filemap_fault passes it).
    ReadaheadWindow ondemand(FileRaState& st, const ReadaheadRequest& r, pgoff_t req_pages, bool hit_marker);
    FileRaState& state_locked(FileId file) { return states_[file]; }
    /// A PG_readahead marker the state does not expect (another stream on
    /// the file moved it): the cached run after the marker, at most the
    /// maximum, stands for the old async size; the request is added and the
    /// sum ramped up (2.6.32's radix_tree_next_hole, later kernels'
    /// page_cache_next_miss). Size 0 when the run is longer or the cache
    /// cannot be seen. mutex_ held.
    ReadaheadWindow interleaved(FileRaState& st, const ReadaheadRequest& r, pgoff_t req_pages);
    /// mmap read-around: the maximum, centred on the fault, a quarter of it
    /// asynchronous. mutex_ held.
    ReadaheadWindow readaround(FileRaState& st, const ReadaheadRequest& r);

    /// A WaitMutex: the cached() callback looks the page cache up under it,
    /// which on a modelled machine may let another task run (base/wait_queue.h).
    mutable WaitMutex mutex_;
    const pgoff_t ra_pages_;

private:
    std::unordered_map<FileId, FileRaState> states_;
};

} // namespace pcl
