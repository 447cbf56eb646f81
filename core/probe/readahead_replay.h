// The accesses of a readahead probe replayed in the simulator: the same
// pages, in the same order, through the same path (read(2) or mmap faults),
// on one file as long as the probed one and a device with the host's
// read_ahead_kb, under one readahead policy. The windows are found the way
// the probe finds the host's - from the file's residency before and after
// each access (windows_of_read) - so the two can be set side by side.
#pragma once

#include "probe/host_windows.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace pcl {

struct ReplayResult {
    std::vector<HostWindow> windows; ///< as the probe infers them (async_size estimated the same way)
    std::uint64_t pages_read = 0;    ///< pages the simulated disk read
    std::uint64_t misses = 0;        ///< accesses that found their page uncached
};

/// Replays @pages of a file of @file_pages pages under @policy (a name of
/// readahead_factory.h) with a maximum window of @ra_pages, through read(2)
/// or, @mmap, through faults on a shared mapping with no madvise hint. The
/// disk is instant and memory holds the whole file. Throws
/// std::invalid_argument for an unknown policy.
ReplayResult replay_readahead(std::string_view policy, std::uint64_t file_pages, std::uint64_t ra_pages,
    const std::vector<std::uint64_t>& pages, bool mmap);

} // namespace pcl
