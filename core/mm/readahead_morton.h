// Morton's 2002 unified readahead (Morton's multipage I/O and readahead patches,
// linux-kernel, March 2002), as modelled
// here.
//
// One policy for read(2) and mmap faults alike ("one readahead
// implementation for read(2), mmap faults and sys_readahead"): the access
// kind is ignored. Per file: the current window (start, size, async_size),
// the last page accessed, and `window`, the size the stream has earned.
//
//  - Aggressive growth: each window reached sequentially (its marker, or a
//    miss at its end) doubles `window`, up to ra_pages.
//  - Start-of-file heuristic: a stream that begins at page 0 starts at
//    ra_pages/2 (a reader at offset 0 usually reads the whole file);
//    elsewhere a new stream (a miss at prev + 1) starts at kMinWindow.
//  - Conservative teardown: a non-sequential miss reads only the pages asked
//    for and takes 2 pages off `window` (not below kMinWindow), instead of
//    forgetting the stream: a reader that seeks and resumes (prev + 1) keeps
//    most of its window.
//  - Thrashing: note_thrash() (reclaim evicted a readahead page before it was
//    used) halves `window`, never below kMinWindow; the next window has
//    exactly that size (rule MortonShrink), and from then on the file grows
//    by only 2 pages a window (additive increase, multiplicative decrease),
//    so the window settles at a size the memory can hold instead of
//    oscillating back into the thrash, which is the point of the 2002 shrink.
//    Slow growth lasts until a new stream starts at page 0.
#pragma once

#include "mm/readahead.h"

#include <mutex>
#include <unordered_map>

namespace pcl {

class MortonReadahead final : public ReadaheadPolicy {
public:
    static constexpr pgoff_t kDefaultRaPages = 32;
    static constexpr pgoff_t kMinWindow = 4;
    static constexpr pgoff_t kSlowGrowth = 2;

    struct State {
        pgoff_t start = 0;
        pgoff_t size = 0;
        pgoff_t async_size = 0;
        pgoff_t prev = ~pgoff_t(0);
        pgoff_t window = 0;  ///< size of the next window (0: no stream yet)
        bool slow = false;   ///< thrashed: grow additively
        bool shrunk = false; ///< the next window is the halved one, not grown
    };

    explicit MortonReadahead(pgoff_t ra_pages = kDefaultRaPages);

    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override;
    ReadaheadWindow async_readahead(const ReadaheadRequest& r) override;
    void on_access(const ReadaheadRequest& r, bool hit) override;
    void note_thrash(FileId file) override;

    State state(FileId file) const;
    ReadaheadWindow window_of(FileId file) const override;
    pgoff_t ra_pages() const noexcept { return ra_pages_; }

private:
    /// The next window after @st's current one, for a request of @req pages
    /// (@async: reached through the marker).
    ReadaheadWindow advance(State& st, pgoff_t file_pages, pgoff_t req, bool async);
    pgoff_t grow(const State& st) const noexcept;

    mutable std::mutex mutex_;
    const pgoff_t ra_pages_;
    const pgoff_t min_;
    std::unordered_map<FileId, State> states_;
};

} // namespace pcl
