// The field tables: docs/scenario-format.md documents exactly the fields
// they declare, with the same type, unit, default and allowed values, and
// the ranges they declare are the ones validate() enforces.
#include "lib/file_io.h"
#include "sim/scenario_fields.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace pcl;

namespace {

std::string trim_cell(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return std::string(s);
}

/// @s without one pair of enclosing backticks.
std::string unquoted(const std::string& s)
{
    return s.size() >= 2 && s.front() == '`' && s.back() == '`' ? s.substr(1, s.size() - 2) : s;
}

/// One row of a fields table of the format's documentation.
struct DocRow {
    std::string object; ///< "" for the top level
    std::string field, type, unit, default_value, allowed;
};

/// The rows of every table under "## Fields", each with the object its
/// "### `object`" heading names.
std::vector<DocRow> documented_fields()
{
    // This file is tests/core/ of the source tree (the build names sources by their full path).
    const std::filesystem::path source_dir = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
    const std::string text = read_file((source_dir / "docs" / "scenario-format.md").string());
    std::vector<DocRow> rows;
    bool in_fields = false;
    std::string object;
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t end = text.find('\n', from);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(from, end - from);
        from = end + 1;
        if (line.rfind("## ", 0) == 0) {
            in_fields = line == "## Fields";
            continue;
        }
        if (!in_fields)
            continue;
        if (line.rfind("### ", 0) == 0) {
            const std::string heading = line.substr(4);
            object = heading == "Top level" ? "" : unquoted(heading);
            continue;
        }
        if (line.rfind("| `", 0) != 0)
            continue;
        std::vector<std::string> cells;
        std::size_t at = 1;
        while (at < line.size()) {
            const std::size_t bar = line.find('|', at);
            if (bar == std::string::npos)
                break;
            cells.push_back(trim_cell(std::string_view(line).substr(at, bar - at)));
            at = bar + 1;
        }
        REQUIRE(cells.size() == 6);
        rows.push_back({ object, unquoted(cells[0]), cells[1], cells[2], cells[3], cells[4] });
    }
    return rows;
}

/// A number as the documentation writes one: 1024, 2^40, 2^64-1, 10^9.
std::optional<double> doc_number(const std::string& s)
{
    if (s.empty())
        return std::nullopt;
    const std::size_t caret = s.find('^');
    try {
        if (caret == std::string::npos) {
            std::size_t used = 0;
            const double v = std::stod(s, &used);
            return used == s.size() ? std::optional(v) : std::nullopt;
        }
        std::string exponent = s.substr(caret + 1);
        double minus = 0;
        if (exponent.ends_with("-1")) {
            minus = 1;
            exponent.resize(exponent.size() - 2);
        }
        return std::pow(std::stod(s.substr(0, caret)), std::stod(exponent)) - minus;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

/// The words after the numbers of a range: "4096..2^36 (when ...)" ends at the space.
std::string first_word(const std::string& s)
{
    const std::size_t space = s.find(' ');
    return space == std::string::npos ? s : s.substr(0, space);
}

std::string choice_list(const FieldInfo& f)
{
    std::string s;
    for (std::string_view c : f.choices)
        s += (s.empty() ? "`" : ", `") + std::string(c) + "`";
    return s;
}

/// The field at @path in a scenario.
const ScenarioField* find_field(const std::string& path)
{
    for (const ScenarioField& f : scenario_fields())
        if (f.path == path)
            return &f;
    return nullptr;
}

} // namespace

TEST_CASE("field tables: the format's documentation lists every field as the tables declare it", "[fields][docs]")
{
    const std::vector<DocRow> rows = documented_fields();
    REQUIRE(rows.size() > 40);

    std::vector<std::string> objects;
    for (const ScenarioSection& section : scenario_sections())
        if (!section.object.empty())
            objects.emplace_back(section.object);

    std::map<std::string, int> documented;
    for (const DocRow& row : rows) {
        const std::string path = row.object.empty() ? row.field : row.object + "." + row.field;
        INFO("documented field " << path);
        if (row.type == "object") {
            CHECK(row.object.empty());
            CHECK(std::find(objects.begin(), objects.end(), row.field) != objects.end());
            continue;
        }
        ++documented[path];
        const ScenarioField* f = find_field(path);
        REQUIRE(f);
        const FieldInfo& info = *f->info;
        CHECK(row.type == field_type_name(info.type));
        CHECK(row.unit == info.unit);
        if (info.apply == FieldApply::Fixed) {
            CHECK(row.default_value == "required");
        } else {
            const json::Value documented_default = json::parse(unquoted(row.default_value));
            if (f->default_value.is_number()) {
                REQUIRE(documented_default.is_number());
                CHECK(documented_default.as_double() == f->default_value.as_double());
            } else {
                CHECK(documented_default == f->default_value);
            }
        }
        if (!info.choices.empty())
            CHECK(row.allowed == choice_list(info));
        else
            CHECK(row.allowed == info.allowed);

        // A range "lo..hi" is the table's numbers.
        const std::string allowed(info.allowed);
        const std::size_t dots = allowed.find("..");
        if (dots != std::string::npos && (info.type == FieldType::Integer || info.type == FieldType::Number)) {
            const bool whole = allowed.find(' ') == std::string::npos || allowed.find(' ') > dots;
            const std::optional<double> lo = whole ? doc_number(allowed.substr(0, dots)) : std::nullopt;
            const std::optional<double> hi = doc_number(first_word(allowed.substr(dots + 2)));
            const double min = info.type == FieldType::Integer ? double(info.min_int) : info.min_real;
            const double max = info.type == FieldType::Integer ? double(info.max_int) : info.max_real;
            if (lo)
                CHECK(*lo == min);
            if (hi)
                CHECK(*hi == max);
        }
        // An open range "(lo, hi)".
        if (allowed.starts_with("(") && allowed.ends_with(")") && info.type == FieldType::Number) {
            const std::size_t comma = allowed.find(", ");
            REQUIRE(comma != std::string::npos);
            CHECK(info.open);
            CHECK(doc_number(allowed.substr(1, comma - 1)) == info.min_real);
            CHECK(doc_number(allowed.substr(comma + 2, allowed.size() - comma - 3)) == info.max_real);
        }
    }

    // Nothing in the tables goes undocumented, nothing twice.
    for (const ScenarioField& f : scenario_fields()) {
        INFO("field " << f.path);
        CHECK(documented[f.path] == 1);
    }
    CHECK(documented.size() == scenario_fields().size());
}

TEST_CASE("field tables: every leaf a scenario writes has exactly one table entry", "[fields]")
{
    const json::Value doc = scenario_to_json(Scenario {}, true);
    std::vector<std::string> written;
    for (const auto& [key, value] : doc.as_object()) {
        if (value.is_object())
            for (const auto& member : value.as_object())
                written.push_back(key + "." + member.first);
        else
            written.push_back(key);
    }
    std::vector<std::string> declared;
    for (const ScenarioField& f : scenario_fields())
        declared.push_back(f.path);
    CHECK(written == declared);
    for (const ScenarioField& f : scenario_fields()) {
        INFO(f.path);
        CHECK_FALSE(f.info->label.empty());
        CHECK_FALSE(f.info->meaning.empty());
        CHECK((f.info->type == FieldType::Boolean || f.info->type == FieldType::Choice || !f.info->allowed.empty()));
        const json::Value* object = f.object.empty() ? &doc : doc.find(f.object);
        REQUIRE(object);
        CHECK(*object->find(f.info->name) == f.default_value);
    }
}

namespace {

/// A document in which @path's own rules apply: the fields it depends on set
/// so that only its range can refuse it.
json::Value context_for(const std::string& path)
{
    json::Value doc = json::Object { { "version", 1 } };
    const auto set = [&](const std::string& p, json::Value v) { apply_override(doc, p + "=" + json::write(v, -1)); };
    if (path == "workload.stride") {
        set("workload.pattern", "strided");
        set("workload.file_pages", std::uint64_t(1) << 40);
    } else if (path == "workload.request_pages") {
        set("workload.file_pages", std::uint64_t(1) << 40);
    } else if (path == "workload.nfiles" || path == "workload.stream_pages") {
        set("workload.pattern", "morton");
        set("workload.cpus", 2);
    } else if (path == "index.hash_locks") {
        set("index.kind", "hash");
        set("index.scheme", "hashed");
        set("index.hash_buckets", std::uint64_t(1) << 24);
    } else if (path == "pacing.migrate_every") {
        set("workload.cpus", 2);
    } else if (path == "reclaim.min_free_kbytes") {
        set("memory_pages", std::uint64_t(1) << 32); // a quarter of the largest memory is the range's top
    } else if (path == "events.ring_capacity") {
        set("events.enabled", false);
    } else if (path == "machine.schedule" || path == "machine.latency_scale" || path == "machine.schedule_seed") {
        // Exploring, a latency's scale and a schedule's seed are a modelled machine's.
        set("machine.profile", "epyc-2026");
    }
    return doc;
}

/// The field a document is refused for, or "" when it is accepted.
std::string refused_field(json::Value doc, const std::string& path, json::Value value)
{
    apply_override(doc, path + "=" + json::write(value, -1));
    try {
        scenario_from_json(doc);
        return "";
    } catch (const ScenarioError& e) {
        return e.field().empty() ? std::string("(") + e.what() + ")" : e.field();
    }
}

} // namespace

TEST_CASE("field tables: the declared ranges are the ones validate() enforces", "[fields]")
{
    for (const ScenarioField& f : scenario_fields()) {
        const FieldInfo& info = *f.info;
        if (info.apply == FieldApply::Fixed || info.power_of_two)
            continue;
        INFO("field " << f.path << " allowed " << info.allowed);
        const json::Value doc = context_for(f.path);
        if (info.type == FieldType::Integer) {
            // Inside the range the field itself is never the reason (a
            // rule of another field, the address space, may still be).
            CHECK(refused_field(doc, f.path, info.min_int) != f.path);
            // The largest file does not fit the address space on its own:
            // refused, as it is documented, by the rule of the whole run.
            if (f.path != "workload.file_pages")
                CHECK(refused_field(doc, f.path, info.max_int) != f.path);
            if (info.min_int > 0 && f.path != "year")
                CHECK(refused_field(doc, f.path, info.min_int - 1) == f.path);
            if (info.max_int < std::numeric_limits<std::uint64_t>::max())
                CHECK(refused_field(doc, f.path, info.max_int + 1) == f.path);
        } else if (info.type == FieldType::Number) {
            const double step = (info.max_real - info.min_real) / 1000;
            CHECK(refused_field(doc, f.path, info.open ? info.min_real + step : info.min_real) != f.path);
            CHECK(refused_field(doc, f.path, info.open ? info.max_real - step : info.max_real) != f.path);
            CHECK(refused_field(doc, f.path, info.min_real - step) == f.path);
            CHECK(refused_field(doc, f.path, info.max_real + step) == f.path);
            if (info.open) {
                CHECK(refused_field(doc, f.path, info.min_real) == f.path);
                CHECK(refused_field(doc, f.path, info.max_real) == f.path);
            }
        } else if (info.type == FieldType::Choice) {
            for (std::string_view c : info.choices)
                CHECK(refused_field(doc, f.path, std::string(c)) != f.path);
            if (!info.choices.empty())
                CHECK(refused_field(doc, f.path, "no such name") == f.path);
        }
    }
}

TEST_CASE("field tables: a config's validate() names the field by its path", "[fields]")
{
    EngineConfig c;
    c.ops_per_second = -1;
    try {
        c.validate();
        FAIL("accepted");
    } catch (const FieldError& e) {
        CHECK(e.field() == "pacing.ops_per_second");
        CHECK(std::string(e.what()).rfind("ops_per_second must be between 0", 0) == 0);
    }
    c = {};
    c.workload.cpus = 0;
    try {
        c.validate();
        FAIL("accepted");
    } catch (const FieldError& e) {
        CHECK(e.field() == "workload.cpus");
        CHECK(e.reason() == "must be in [1, 1024], got 0");
    }
    c = {};
    c.device.queue_depth = 0;
    CHECK_THROWS_MATCHES(c.validate(), FieldError,
        Catch::Predicate<FieldError>([](const FieldError& e) { return e.field() == "device.queue_depth"; }));
    IndexSpec spec;
    spec.radix_shift = 9;
    CHECK_THROWS_MATCHES(spec.validate(), FieldError,
        Catch::Predicate<FieldError>([](const FieldError& e) { return e.field() == "radix_shift"; }));
}
