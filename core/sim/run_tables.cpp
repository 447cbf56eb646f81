#include "sim/run_tables.h"

#include "lib/json.h"
#include "lib/report.h"

#include <algorithm>

namespace pcl {

namespace {

std::vector<std::string> member_names(const json::Value& object)
{
    std::vector<std::string> names;
    for (const auto& [name, value] : object.as_object())
        names.push_back(name);
    return names;
}

/// A cell: a string as it is, anything else as JSON writes it.
std::string cell(const json::Value& v)
{
    return v.is_string() ? v.as_string() : json::write(v);
}

void add_object(Report& table, const json::Value& object)
{
    for (const auto& [name, value] : object.as_object())
        table.set(name, cell(value));
}

std::vector<sync::LockStatRow> by_contentions(std::vector<sync::LockStatRow> rows)
{
    std::stable_sort(rows.begin(), rows.end(),
        [](const sync::LockStatRow& a, const sync::LockStatRow& b) { return a.contentions > b.contentions; });
    return rows;
}

} // namespace

std::string series_csv(const RunResult& r)
{
    Report table(member_names(to_json(MetricsSample {})));
    for (const MetricsSample& s : r.series) {
        table.add_row();
        add_object(table, to_json(s));
    }
    return table.csv();
}

std::string locks_csv(const RunResult& r)
{
    std::vector<std::string> columns { "kind" };
    for (std::string& name : member_names(to_json(sync::LockStatRow {})))
        columns.push_back(std::move(name));
    Report table(columns);
    for (auto [kind, rows] : { std::pair { "lock", &r.locks }, std::pair { "class", &r.lock_classes } })
        for (const sync::LockStatRow& row : by_contentions(*rows)) {
            table.add_row();
            table.set("kind", std::string(kind));
            add_object(table, to_json(row));
        }
    return table.csv();
}

} // namespace pcl
