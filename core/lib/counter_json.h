// A counter table's members as JSON (lib/counter_table.h): the counters of
// one group, in the table's order, under their JSON names.
#pragma once

#include "lib/counter_table.h"
#include "lib/json.h"

#include <string>
#include <utility>

namespace pcl {

/// The counters of @table in @group, with their values in @s.
template <class Stats>
json::Object counters_json(std::span<const Counter<Stats>> table, std::string_view group, const Stats& s)
{
    json::Object object;
    for_each_counter(table, group,
        [&](const Counter<Stats>& c) { object.emplace_back(std::string(c.name), json::Value(s.*c.member)); });
    return object;
}

/// Puts @members into @object right after its member @name, or at the end
/// if it has none: a figure derived from counters beside the counters it
/// comes from.
inline void insert_after(json::Object& object, std::string_view name, json::Object members)
{
    auto at = object.begin();
    while (at != object.end() && at->first != name)
        ++at;
    if (at != object.end())
        ++at;
    object.insert(at, std::make_move_iterator(members.begin()), std::make_move_iterator(members.end()));
}

/// Puts @members at the end of @object.
inline void append(json::Object& object, json::Object members)
{
    object.insert(object.end(), std::make_move_iterator(members.begin()), std::make_move_iterator(members.end()));
}

} // namespace pcl
