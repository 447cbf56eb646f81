// A finished run in words: the summary and the lockstat-style lock tables
// that `pagecache-lab-cli run` prints, and `pagecache-lab` without a display.
#pragma once

#include "sim/run_result.h"
#include "sync/lock_stats.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {

/// A lockstat-style table (the columns of /proc/lock_stat, times in us),
/// rows sorted by contentions, then acquisitions; rows never acquired are
/// left out. @classes: rows are lock classes (with their lock count).
void print_lock_table(std::ostream& out, std::vector<sync::LockStatRow> rows, bool classes);

/// Whether reclaim took anything out of the cache, or a page came back:
/// the summary and the report show the reclaim counters only then (the LRU
/// lists move without memory pressure too).
inline bool reclaim_evicted(const PageCacheStats& s) noexcept
{
    return s.evictions || s.refaults;
}

/// The run's summary (state, operations, faults, page cache, page table,
/// page locks, I/O, frames, events), then its lock tables per lock and per
/// class. @path names the scenario when it has no title.
void print_run_summary(std::ostream& out, const RunResult& result, const std::string& path);

} // namespace pcl
