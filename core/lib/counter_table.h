// The counters of a stats struct, in one table: for each, its name in the
// result JSON, its member, how its values combine, the object of the
// result's totals it belongs to, the words a summary and the report say it
// with, its unit and its meaning. A subsystem declares its counters once,
// in a list beside its struct (mm/page_cache_stats.h, mm/kswapd.h), and
// the struct, the atomics it is read from, the JSON, the run summary, the
// report and the checks of the schema and the documentation all follow
// from the list, as /proc/vmstat's names follow from vm_event_item.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace pcl {

/// How a counter's readings combine.
enum class CounterKind : std::uint8_t {
    Count, ///< only grows: an interval's share is a difference, two intervals' a sum
    Gauge, ///< a value now (pages on a list): a later reading replaces an earlier one
};

template <class Stats> struct Counter {
    std::string_view name {}; ///< JSON member name
    std::uint64_t Stats::*member = nullptr;
    CounterKind kind = CounterKind::Count;
    std::string_view group {};   ///< the object of the result's totals that holds it
    std::string_view label {};   ///< a few words: "insert races"
    std::string_view unit {};    ///< "pages", or empty for a number of times
    std::string_view meaning {}; ///< one sentence a student reads
};

/// The counters of @table in @group, in the table's order.
template <class Stats, class Visit>
void for_each_counter(std::span<const Counter<Stats>> table, std::string_view group, Visit&& visit)
{
    for (const Counter<Stats>& c : table)
        if (c.group == group)
            visit(c);
}

/// Whether anything of @group happened in @s: a count of it is non-zero
/// (a gauge may hold a value when nothing happened: pages on a list).
template <class Stats> bool any_count(std::span<const Counter<Stats>> table, std::string_view group, const Stats& s)
{
    for (const Counter<Stats>& c : table)
        if (c.group == group && c.kind == CounterKind::Count && s.*c.member)
            return true;
    return false;
}

} // namespace pcl
