// The readahead windows of the host kernel, inferred from the residency of
// a file before and after each one-page read: the pure part of the
// readahead probe (probe/readahead_probe.h), which the simulator's replay
// (probe/readahead_replay.h) applies to its own page cache, so that the two
// are found the same way.
//
// What residency cannot tell: where the PG_readahead marker sits (async_size
// is inferred afterwards from which later read started the next window, see
// estimate_async_sizes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pcl {

/// Sorted page numbers (offsets in pages into the file).
using PageSet = std::vector<std::uint64_t>;

/// One readahead window inferred from residency, in the simulator's terms.
struct HostWindow {
    std::uint64_t read_index = 0; ///< which read (0-based) brought it in
    std::uint64_t page = 0;       ///< the page that read asked for
    std::uint64_t time_us = 0;    ///< since the probe started
    std::uint64_t start = 0;      ///< first page of the window
    std::uint64_t size = 0;       ///< pages in the window
    std::uint64_t async_size = 0; ///< trailing pages from the PG_readahead marker (0: not observed)
    bool async = false;           ///< the read hit a cached page (async readahead) rather than missed (sync)

    bool operator==(const HostWindow&) const = default;
};

/// The windows one read of @page opened, from the residency @before and
/// @after it (both sorted). Each maximal run of consecutive pages in
/// after \ before is a window, except a run that is just @page itself: that
/// is the demand read, not readahead. The windows are `async` when @page was
/// already in @before (a cached page, so only a PG_readahead marker can
/// have started I/O, as in page_cache_async_ra), `sync` otherwise (the read
/// missed; page_cache_sync_ra). async_size is left 0 here.
std::vector<HostWindow> windows_of_read(
    std::uint64_t read_index, std::uint64_t page, const PageSet& before, const PageSet& after);

/// Fills in async_size where the probe saw it: when an async window was
/// started by a read of page p inside an earlier window W, the marker was at
/// p, so W's async part is W.start + W.size - p (Linux sets PG_readahead on
/// page start + size - async_size). The earliest such read counts, since the
/// kernel clears the marker once it fires. Windows whose marker no read hit
/// keep 0.
void estimate_async_sizes(std::vector<HostWindow>& windows);

/// The windows as the readahead log (mm/readahead_log.h) with cpu 0, file 0
/// and rule "host".
std::string host_windows_csv(const std::vector<HostWindow>& windows);

} // namespace pcl
