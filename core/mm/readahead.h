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
//
// The caller describes each access with a ReadaheadRequest: whether it is a
// read(2) or an mmap fault (Linux takes different paths for them:
// do_generic_file_read versus filemap_fault's do_sync_mmap_readahead), the
// madvise hint of the mapping, and a way to ask whether a page of the file
// is cached (ondemand's context readahead and interleaved-stream detection
// scan the page cache). It also reports every page it obtained
// (on_access), hit or miss, because Linux updates file_ra_state.prev_pos and
// the mmap miss counter on hits too. The older on_miss/on_marker entry
// points are the same calls for a read(2) with no page-cache probe.
#pragma once

#include "base/page.h"
#include "mm/mmap_hint.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace pcl {

/// Which rule of the policy chose a window (for traces, tests and the UI).
enum class RaRule : std::uint8_t {
    None,         ///< no readahead: the pages asked for only (or nothing, size 0)
    Initial,      ///< a new stream: ondemand's initial window (get_init_ra_size)
    Sequential,   ///< a synchronous miss at the expected offset: the next window
    Marker,       ///< the PG_readahead marker at the expected offset: the next window, asynchronous
    Interleaved,  ///< a marker with stale state (another stream moved it): sized from the cached run after it
    Context,      ///< a miss preceded by cached history pages: sized from that history
    Random,       ///< a random miss: only the pages asked for, state untouched
    Readaround,   ///< an mmap fault with no hint: ra_pages centred on the fault
    MmapSeq,      ///< an mmap fault that looks sequential (hint or prev + 1): ondemand with ra_pages
    MmapRandom,   ///< an mmap fault under MADV_RANDOM: only the page
    LotsaMiss,    ///< more than MMAP_LOTSAMISS mmap misses: read-around given up, only the page
    MortonShrink, ///< Morton: the first window after a thrash shrank it
};
inline constexpr unsigned kRaRules = 12;

constexpr const char* ra_rule_name(RaRule rule) noexcept
{
    switch (rule) {
    case RaRule::None:
        return "none";
    case RaRule::Initial:
        return "initial";
    case RaRule::Sequential:
        return "sequential";
    case RaRule::Marker:
        return "marker";
    case RaRule::Interleaved:
        return "interleaved";
    case RaRule::Context:
        return "context";
    case RaRule::Random:
        return "random";
    case RaRule::Readaround:
        return "readaround";
    case RaRule::MmapSeq:
        return "mmap_seq";
    case RaRule::MmapRandom:
        return "mmap_random";
    case RaRule::LotsaMiss:
        return "lotsamiss";
    case RaRule::MortonShrink:
        return "morton_shrink";
    }
    return "?";
}

struct ReadaheadWindow {
    pgoff_t start = 0;          ///< first page of the window
    pgoff_t size = 0;           ///< pages in it (0: read nothing)
    pgoff_t async_size = 0;     ///< trailing pages whose first gets PG_readahead (0: no marker)
    RaRule rule = RaRule::None; ///< which rule chose it
};

/// How the page is being accessed.
enum class RaAccess : std::uint8_t { Read, MmapFault };

/// One access, as the caller describes it to the policy.
struct ReadaheadRequest {
    FileId file = 0;
    pgoff_t index = 0;      ///< the page accessed
    pgoff_t req_pages = 1;  ///< pages the caller still wants from @index on (read(2)); 1 for a fault
    pgoff_t file_pages = 0; ///< length of the file in pages
    RaAccess access = RaAccess::Read;
    MmapHint hint = MmapHint::Normal;
    /// Whether page i of the file is in the page cache (empty: unknown, the
    /// policy must not rely on the cache). Must not take or keep references.
    std::function<bool(pgoff_t)> cached;
};

class ReadaheadPolicy {
public:
    virtual ~ReadaheadPolicy() = default;
    /// page_cache_sync_readahead: a miss described by @r, by a request of
    /// @r.req_pages pages from @r.index on. The window must contain @r.index.
    virtual ReadaheadWindow sync_readahead(const ReadaheadRequest& r) = 0;
    /// page_cache_async_readahead: the PG_readahead marker at @r.index was
    /// reached; the next window, read asynchronously (size 0: none).
    virtual ReadaheadWindow async_readahead(const ReadaheadRequest& r) = 0;

    /// A read(2) miss at @index of @file (@file_pages long) by a request of
    /// @req_pages pages starting there: sync_readahead of that request.
    ReadaheadWindow on_miss(FileId file, pgoff_t index, pgoff_t req_pages, pgoff_t file_pages)
    {
        return sync_readahead({ file, index, req_pages, file_pages, RaAccess::Read, MmapHint::Normal, {} });
    }
    /// A read(2) reached the marker at @index: async_readahead of that read.
    ReadaheadWindow on_marker(FileId file, pgoff_t index, pgoff_t file_pages)
    {
        return async_readahead({ file, index, 1, file_pages, RaAccess::Read, MmapHint::Normal, {} });
    }
    /// The caller obtained page @r.index (@hit: it was cached), after any
    /// sync_readahead/async_readahead for it: Linux's prev_pos update and
    /// mmap_miss decrement.
    virtual void on_access(const ReadaheadRequest& r, bool hit)
    {
        (void)r;
        (void)hit;
    }
    /// Reclaim evicted a readahead page of @file that was never used
    /// (readahead thrashing). Only Morton's policy reacts.
    virtual void note_thrash(FileId file) { (void)file; }
    /// @file's current window (its file_ra_state: start, size, async_size;
    /// the rule is not kept), for the file's snapshot: what a view draws as
    /// the window the reader is in. Size 0: none yet, or a policy with no
    /// state. Safe from any thread.
    virtual ReadaheadWindow window_of(FileId file) const
    {
        (void)file;
        return {};
    }
};

/// No readahead: read the requested pages only.
class NoReadahead final : public ReadaheadPolicy {
public:
    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override
    {
        const pgoff_t end = std::min(r.file_pages, r.index + std::max<pgoff_t>(r.req_pages, 1));
        return { r.index, end > r.index ? end - r.index : 1, 0, RaRule::None };
    }
    ReadaheadWindow async_readahead(const ReadaheadRequest&) override { return {}; }
};

/// @w cut at the end of a file of @file_pages pages; the marker goes with
/// the pages it would have been on (none if they are beyond the end), as
/// __do_page_cache_readahead stops at end_index.
inline ReadaheadWindow clamp_window(ReadaheadWindow w, pgoff_t file_pages) noexcept
{
    if (w.start >= file_pages)
        return { w.start, 0, 0, w.rule };
    const pgoff_t end = std::min(file_pages, w.start + w.size);
    const pgoff_t marker = w.start + w.size - w.async_size;
    const pgoff_t async = w.async_size && marker < end ? end - marker : 0;
    return { w.start, end - w.start, async, w.rule };
}

} // namespace pcl
