// The counter tables (lib/counter_table.h, mm/page_cache_stats.h,
// mm/kswapd.h, sim/metrics.h's series columns) against everything derived
// from them or written by hand beside them: every counter, found by walking
// its table, is in the result JSON with its value, in the schema, in the
// documentation, in the run summary; every series column is in the JSON in
// the table's order, in the CSV header and in the schema, and merges as its
// kind says.
#include "lib/counter_json.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/json_path.h"
#include "mm/kswapd.h"
#include "mm/page_cache_stats.h"
#include "sim/metrics.h"
#include "sim/run_result.h"
#include "sim/run_summary.h"
#include "sim/run_tables.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace pcl;

namespace {

json::Value documented_schema()
{
    return json::parse(read_file(std::string(PCL_SOURCE_DIR) + "/docs/result.schema.json"));
}

std::string result_format()
{
    return read_file(std::string(PCL_SOURCE_DIR) + "/docs/result-format.md");
}

/// The schema of the member at @path ("totals.reclaim.kswapd"), and
/// whether its object requires @name.
const json::Value* schema_of(const json::Value& schema, const std::string& path)
{
    const json::Value* at = &schema;
    std::string rest = path;
    while (at && !rest.empty()) {
        const std::size_t dot = rest.find('.');
        const std::string name = rest.substr(0, dot);
        rest = dot == std::string::npos ? std::string() : rest.substr(dot + 1);
        const json::Value* properties = at->find("properties");
        at = properties ? properties->find(name) : nullptr;
        if (at && !at->find("properties") && at->find("items"))
            at = at->find("items");
    }
    return at;
}

bool required_in(const json::Value& object_schema, const std::string& name)
{
    if (const json::Value* required = object_schema.find("required"))
        for (const json::Value& r : required->as_array())
            if (r.as_string() == name)
                return true;
    return false;
}

/// Every counter of @table set to a value of its own (1001, 1002...), which
/// no other counter and no derived figure of the tests below shares.
template <class Stats> Stats numbered(std::span<const Counter<Stats>> table, std::uint64_t first)
{
    Stats s;
    for (const Counter<Stats>& c : table)
        s.*c.member = first++;
    return s;
}

RunResult numbered_result()
{
    RunResult r;
    r.page_cache = numbered(page_cache_counters(), 1001);
    r.kswapd_on = true;
    r.kswapd = numbered(kswapd_counters(), 2001);
    return r;
}

/// @v as the summary writes a count: 1,001.
std::string grouped(std::uint64_t v)
{
    std::string digits = std::to_string(v);
    for (int at = int(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(std::size_t(at), ",");
    return digits;
}

/// Where in the result each counter of @table is: "totals.<group>.<name>",
/// kswapd's under totals.reclaim.
template <class Stats> std::string path_of(const Counter<Stats>& c)
{
    const std::string group = c.group == "kswapd" ? "reclaim.kswapd" : std::string(c.group);
    return "totals." + group + "." + std::string(c.name);
}

/// Whether the documentation's totals table names @c: its row starts with
/// the group (`reclaim.scanned`, `.deactivations` in a `reclaim.` row, or
/// `wakeups` in the `reclaim.kswapd` row).
template <class Stats> bool documented(const std::string& doc, const Counter<Stats>& c)
{
    const std::string group = c.group == "kswapd" ? "reclaim.kswapd" : std::string(c.group);
    std::istringstream in(doc);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| `" + group + (c.group == "kswapd" ? "`" : "."), 0) != 0)
            continue;
        const std::string name(c.name);
        if (line.find("`" + group + "." + name + "`") != std::string::npos
            || line.find("`." + name + "`") != std::string::npos
            || (c.group == "kswapd" && line.find("`" + name + "`") != std::string::npos))
            return true;
    }
    return false;
}

template <class Stats>
void check_table(std::span<const Counter<Stats>> table, const Stats& values, const json::Value& result,
    const json::Value& sch, const std::string& doc, const std::string& summary)
{
    for (const Counter<Stats>& c : table) {
        const std::string path = path_of(c);
        INFO(path);
        const json::Value* v = json::find_path(result, path);
        REQUIRE(v);
        CHECK(v->as_uint() == values.*c.member);
        const json::Value* member = schema_of(sch, path);
        REQUIRE(member);
        CHECK(member->find("type")->as_string() == "integer");
        const json::Value* object = schema_of(sch, path.substr(0, path.rfind('.')));
        REQUIRE(object);
        CHECK(required_in(*object, std::string(c.name)));
        CHECK(documented(doc, c));
        CHECK(summary.find(std::string(c.label) + " " + grouped(values.*c.member)) != std::string::npos);
        CHECK(!c.meaning.empty());
    }
}

} // namespace

TEST_CASE("every counter is in the result JSON, the schema, the documentation and the summary", "[sim][result]")
{
    const RunResult r = numbered_result();
    const json::Value result = to_json(r);
    const json::Value sch = documented_schema();
    const std::string doc = result_format();
    std::ostringstream summary;
    print_run_summary(summary, r, "test");
    INFO(summary.str());
    check_table(page_cache_counters(), r.page_cache, result, sch, doc, summary.str());
    check_table(kswapd_counters(), r.kswapd, result, sch, doc, summary.str());
}

TEST_CASE("a counter table's names are unique within each object", "[sim][result]")
{
    std::vector<std::string> paths;
    for (const auto& c : page_cache_counters())
        paths.push_back(path_of(c));
    for (const auto& c : kswapd_counters())
        paths.push_back(path_of(c));
    std::sort(paths.begin(), paths.end());
    CHECK(std::adjacent_find(paths.begin(), paths.end()) == paths.end());
    CHECK(paths.size() == page_cache_counters().size() + kswapd_counters().size());
}

TEST_CASE("every series column is in the JSON in the table's order, the CSV header and the schema", "[sim][result]")
{
    const json::Value sample = to_json(MetricsSample {});
    const json::Object& members = sample.as_object();
    const std::span columns = sample_columns();
    REQUIRE(members.size() == columns.size());
    // Every member of MetricsSample but clock_ns (not written) is a column:
    // all are 8 bytes but index_height, an int the struct pads to 8.
    CHECK(sizeof(MetricsSample) == 8 * (columns.size() + 1));
    std::string header;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        CHECK(members[i].first == columns[i].name);
        header += (i ? "," : "") + std::string(columns[i].name);
    }
    RunResult r;
    r.series = { MetricsSample {} };
    const std::string csv = series_csv(r);
    CHECK(csv.substr(0, csv.find('\n')) == header);

    const json::Value sch = documented_schema();
    const json::Value* item = schema_of(sch, "series");
    REQUIRE(item);
    for (const SampleColumn& c : columns) {
        INFO(c.name);
        const json::Value* member = schema_of(sch, "series." + std::string(c.name));
        REQUIRE(member);
        CHECK(required_in(*item, std::string(c.name)));
        // A column is one of its members, of the kind's type.
        CHECK(int(c.count != nullptr) + int(c.real != nullptr) + int(c.integer != nullptr) == 1);
        const bool real_kind = c.kind == SampleKind::Time || c.kind == SampleKind::Rate || c.kind == SampleKind::Share;
        CHECK((c.real != nullptr) == real_kind);
        if (c.per_s || c.cache_total)
            CHECK(c.kind == SampleKind::Count);
    }
}

TEST_CASE("merging two samples combines each column as its kind says", "[sim][metrics]")
{
    MetricsSample a, b;
    a.interval_s = 1;
    b.interval_s = 3;
    std::uint64_t n = 1;
    for (const SampleColumn& c : sample_columns()) {
        if (c.count) {
            a.*c.count = n;
            b.*c.count = 100 * n;
        } else if (c.kind == SampleKind::Share) {
            a.*c.real = 0.5;
            b.*c.real = 0.1;
        } else if (c.integer) {
            a.*c.integer = 2;
            b.*c.integer = 5;
        }
        ++n;
    }
    const MetricsSample m = MetricsSampler::merge(a, b);
    for (const SampleColumn& c : sample_columns()) {
        INFO(c.name);
        switch (c.kind) {
        case SampleKind::Count:
            CHECK(m.*c.count == a.*c.count + b.*c.count);
            if (c.per_s)
                CHECK(m.*c.per_s == Approx(double(m.*c.count) / 4.0));
            break;
        case SampleKind::Share:
            CHECK(m.*c.real == Approx((0.5 * 1 + 0.1 * 3) / 4));
            break;
        case SampleKind::Gauge:
            if (c.count)
                CHECK(m.*c.count == b.*c.count);
            else
                CHECK(m.*c.integer == 5);
            break;
        case SampleKind::Time:
        case SampleKind::Rate:
            break; // the interval and the rates: the metrics tests check them by name
        }
    }
}
