#include "mm/page_cache_stats.h"

namespace pcl {

#define PCL_PAGE_CACHE_COUNTER_ROW(kind, member, name, group, label, unit, meaning)                                    \
    Counter<PageCacheStats> { name, &PageCacheStats::member, CounterKind::kind, #group, label, unit, meaning },
constexpr Counter<PageCacheStats> kPageCacheCounters[] { PCL_PAGE_CACHE_COUNTERS(PCL_PAGE_CACHE_COUNTER_ROW) };
#undef PCL_PAGE_CACHE_COUNTER_ROW

std::span<const Counter<PageCacheStats>> page_cache_counters() noexcept
{
    return kPageCacheCounters;
}

} // namespace pcl
