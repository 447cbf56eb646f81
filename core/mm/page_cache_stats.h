// The page cache's counters, each declared once (lib/counter_table.h): the
// PageCacheStats struct, the atomics PageCache counts into, its stats()
// snapshot, the result's totals.page_cache, .reclaim and .writeback
// members, the run summary's lines, the report's rows and the checks of the
// schema and the documentation all come from the list below. Names follow
// /proc/vmstat where Linux counts the same thing (in the comments).
//
// To add a counter: one line here, then count it where it happens
// (count_.name.add in PageCache), and add it to
// docs/result.schema.json and docs/result-format.md, which
// tests/core/test_counter_tables.cpp holds to this list.
#pragma once

#include "lib/counter_table.h"
#include "sync/percpu_counter.h"

#include <atomic>
#include <cstdint>
#include <span>

// PCL_PAGE_CACHE_COUNTERS(X): X(Kind, member, "json name", group, "label",
// "unit", "meaning"), in the order the JSON writes them. Kind Count: an
// atomic of PageCache's, read when stats() is taken; Gauge: read from the
// PageCache accessor of the member's name.
// clang-format off
#define PCL_PAGE_CACHE_COUNTERS(X) \
    /* find_get_page calls, with those inside find_or_create_page and remove */ \
    X(Count, lookups, "lookups", page_cache, "lookups", "", \
        "Searches of the page index for a page.") \
    X(Count, hits, "hits", page_cache, "hits", "", \
        "Searches that found the page in the cache.") \
    X(Count, adds, "adds", page_cache, "pages added", "pages", \
        "Pages inserted into the page index.") \
    X(Count, insert_races, "insert_races", page_cache, "insert races", "", \
        "Adds that lost to another CPU inserting the same page at the same time.") \
    X(Count, removes, "removes", page_cache, "pages removed", "pages", \
        "Pages truncated out of the cache.") \
    X(Count, no_memory, "no_memory", page_cache, "adds refused", "", \
        "Adds refused: no page frame was free, or the index could not grow.") \
    X(Count, direct_reclaims, "direct_reclaims", reclaim, "direct reclaims", "", /* allocstall */ \
        "Times a CPU that needed a page frame had to reclaim memory itself.") \
    X(Count, scanned, "scanned", reclaim, "pages scanned", "pages", /* pgscan */ \
        "Pages on the inactive list that reclaim looked at.") \
    X(Count, evictions, "evictions", reclaim, "evictions", "pages", /* pgsteal */ \
        "Pages reclaim took out of the cache, their frames freed.") \
    X(Count, activations, "activations", reclaim, "activations", "pages", /* pgactivate */ \
        "Pages used twice that moved up to the active list.") \
    X(Count, deactivations, "deactivations", reclaim, "deactivations", "pages", /* pgdeactivate */ \
        "Pages that moved down from the active list to the inactive one.") \
    X(Count, rotated, "rotated", reclaim, "second chances", "pages", /* pgrotated */ \
        "Recently used pages reclaim passed over and sent round again.") \
    X(Count, refaults, "refaults", reclaim, "refaults", "pages", /* workingset_refault */ \
        "Evicted pages needed again while the cache still remembered them.") \
    X(Count, refault_activations, "refault_activations", reclaim, "refaults activated", "pages", /* workingset_activate */ \
        "Refaulted pages evicted so recently that they went straight to the active list.") \
    X(Count, wasted_readahead, "wasted_readahead", reclaim, "wasted readahead", "pages", \
        "Pages read ahead that were evicted before anyone used them.") \
    /* nr_dirty + nr_writeback of shrink_page_list */ \
    X(Count, dirty_skipped, "dirty_skipped", reclaim, "dirty skipped", "pages", \
        "Dirty pages reclaim met and left for writeback to clean first.") \
    X(Count, mapped_evictions, "mapped_evictions", reclaim, "mapped evictions", "pages", \
        "Evicted pages that were mapped and had to be unmapped first.") \
    X(Count, reclaim_throttled, "throttled", reclaim, "reclaimers throttled", "", /* too_many_isolated */ \
        "Times a reclaiming CPU waited because others held too many pages off the lists.") \
    X(Count, readahead_cut, "readahead_cut", reclaim, "readahead cut", "pages", \
        "Pages readahead left out because no page frame was free without waiting.") \
    X(Count, shadows_dropped, "shadows_dropped", reclaim, "shadows dropped", "", \
        "Memories of evicted pages forgotten, oldest first, to keep their number bounded.") \
    X(Gauge, nr_active, "nr_active", reclaim, "active pages", "pages", \
        "Pages on the active list at the end.") \
    X(Gauge, nr_inactive, "nr_inactive", reclaim, "inactive pages", "pages", \
        "Pages on the inactive list at the end.") \
    X(Count, dirtied, "dirtied", writeback, "pages dirtied", "pages", /* nr_dirtied */ \
        "Pages written to in memory, each counted when it went from clean to dirty.") \
    X(Count, written, "written", writeback, "pages written", "pages", /* nr_written */ \
        "Dirty pages whose write to the disk completed.") \
    X(Count, cancelled_dirty, "cancelled_dirty", writeback, "dirty truncated", "pages", /* cancel_dirty_page */ \
        "Dirty pages truncated before they were written: their data was dropped.") \
    X(Gauge, nr_dirty, "nr_dirty", writeback, "dirty at the end", "pages", \
        "Pages dirty at the end, not yet being written.") \
    X(Gauge, nr_writeback, "nr_writeback", writeback, "being written", "pages", \
        "Pages being written to the disk at the end.") \
    X(Count, reclaim_rotated_written, "reclaim_rotated_written", writeback, "written for reclaim", "pages", \
        "Pages reclaim wanted that were written and moved to the end of the inactive list.")
// clang-format on

namespace pcl {

/// Counters of a page cache, since it was created.
struct PageCacheStats {
#define PCL_PAGE_CACHE_STATS_MEMBER(kind, member, name, group, label, unit, meaning) std::uint64_t member = 0;
    PCL_PAGE_CACHE_COUNTERS(PCL_PAGE_CACHE_STATS_MEMBER)
#undef PCL_PAGE_CACHE_STATS_MEMBER
};

/// The counters PageCache counts into: one for each Count of the list, each
/// split per CPU as the kernel's vm_event_states are, so that the lookups
/// and hits every read counts do not bounce one cache line between the CPUs
/// (on two CPUs reading their own files it cost the engine half its speed).
struct PageCacheCounts {
#define PCL_PAGE_CACHE_ATOMIC_Count(member) sync::PercpuCounter member;
#define PCL_PAGE_CACHE_ATOMIC_Gauge(member)
#define PCL_PAGE_CACHE_ATOMIC(kind, member, name, group, label, unit, meaning) PCL_PAGE_CACHE_ATOMIC_##kind(member)
    PCL_PAGE_CACHE_COUNTERS(PCL_PAGE_CACHE_ATOMIC)
#undef PCL_PAGE_CACHE_ATOMIC
#undef PCL_PAGE_CACHE_ATOMIC_Gauge
#undef PCL_PAGE_CACHE_ATOMIC_Count
};

/// The table of PCL_PAGE_CACHE_COUNTERS, in its order.
std::span<const Counter<PageCacheStats>> page_cache_counters() noexcept;

} // namespace pcl
