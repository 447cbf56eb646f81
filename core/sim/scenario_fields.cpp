#include "sim/scenario_fields.h"

#include "index/index_fields.h"
#include "mm/block_device_fields.h"
#include "mm/fault_fields.h"
#include "mm/reclaim_fields.h"
#include "mm/writeback_fields.h"
#include "sim/engine_fields.h"
#include "workload/workload_fields.h"

#include <utility>

namespace pcl {

namespace {

constexpr std::string_view kTraceFormats[] = { "auto", "csv", "strace" };
constexpr std::string_view kBadLines[] = { "stop", "skip" };

json::Value get_version(const Scenario&)
{
    return Scenario::kVersion;
}

void set_version(Scenario&, const json::Value& v, const std::string& path)
{
    if (!v.is_integer() || v.as_double() != Scenario::kVersion)
        throw_field_error(
            path, "this build reads version " + std::to_string(Scenario::kVersion) + " only, got " + shown_value(v));
}

FieldTable<Scenario> build_own()
{
    using S = Scenario;
    // clang-format off
    return { "", {
        custom_field<S>({ .name = "version", .label = "Format version", .allowed = "`1`",
            .meaning = "Format version; this build reads and writes version 1.",
            .type = FieldType::Integer, .apply = FieldApply::Fixed,
            .min_int = S::kVersion, .max_int = S::kVersion },
            get_version, set_version),
        field<&S::title>({ .name = "title", .label = "Title", .allowed = "any",
            .meaning = "Shown in the gallery and in reports, e.g. \"2002: one global hash vs a radix tree per file\"." }),
        field<&S::year>({ .name = "year", .label = "Year", .allowed = "`0` or 1990..2100",
            .meaning = "Year of the experiment it reproduces; 0 = none.", .min_int = 0, .max_int = 2100 }),
        field<&S::source>({ .name = "source", .label = "Source", .allowed = "any",
            .meaning = "Where it comes from, e.g. \"radix-tree pagecache (2002)\"." }),
        field<&S::description>({ .name = "description", .label = "Description", .allowed = "any",
            .meaning = "Two sentences: what the run shows." }),
        field<&S::duration_seconds>({ .name = "duration_seconds", .label = "Time limit", .unit = "s",
            .allowed = "0..86400",
            .meaning = "Wall-clock limit of the run; 0 = until every CPU has done its operations.",
            .min_real = 0, .max_real = 86400 }),
        field<&S::sample_interval_ms>({ .name = "sample_interval_ms", .label = "Sample interval", .unit = "ms",
            .allowed = "10..60000", .meaning = "Interval of the metrics time series.",
            .min_int = 10, .max_int = 60000 }),
    } };
    // clang-format on
}

FieldTable<ScenarioTrace> build_trace()
{
    using T = ScenarioTrace;
    // clang-format off
    return { "trace", {
        field<&T::path>({ .name = "path", .label = "Trace file", .allowed = "a file, or `\"\"` (none)",
            .meaning = "A recorded trace (CSV, or strace -f -tt output) to replay instead of the pattern: one CPU per traced thread. Empty: none." }),
        field<&T::format>({ .name = "format", .label = "Format",
            .meaning = "auto reads a .csv file as CSV and anything else as strace output.", .choices = kTraceFormats }),
        field<&T::bad_lines>({ .name = "bad_lines", .label = "Bad lines",
            .meaning = "stop: a line that cannot be parsed is an error naming it; skip: count it, replay the rest.",
            .choices = kBadLines }),
    } };
    // clang-format on
}

template <typename S> std::vector<const FieldInfo*> infos(const FieldTable<S>& table)
{
    std::vector<const FieldInfo*> out;
    for (const Field<S>& f : table.fields)
        out.push_back(&f);
    return out;
}

/// The section of @table, whose struct @part finds in a Scenario.
template <typename S, typename Part> ScenarioSection section(const FieldTable<S>& table, Part part)
{
    return { table.object, infos(table),
        [&table, part](
            const json::Value& members, Scenario& s, const std::string& path) { table.read(members, part(s), path); },
        [&table, part](const Scenario& s, json::Object& out, bool) { table.write(part(s), out); } };
}

/// The device: its model's preset first, then whatever the file sets over
/// it; written as the model and what differs from the model's preset, so a
/// file that says "hdd" stays an HDD when the preset is refined. "custom"
/// (or every_field) writes every figure; ra_pages and time_scale are always
/// written.
ScenarioSection device_section()
{
    const FieldTable<BlockDeviceConfig>& table = block_device_fields();
    ScenarioSection device = section(
        table, [](auto& s) -> auto& { return s.engine.device; });
    device.read = [&table](const json::Value& members, Scenario& sc, const std::string& path) {
        if (const json::Value* v = members.find("model"))
            table.find("model")->set(sc.engine.device, *v, path + ".model");
        else
            sc.engine.device.model = "custom";
        validate_within("device", [&] { sc.engine.device = BlockDeviceConfig::preset(sc.engine.device.model); });
        table.read(members, sc.engine.device, path);
    };
    device.write = [&table](const Scenario& sc, json::Object& out, bool every_field) {
        const BlockDeviceConfig& d = sc.engine.device;
        const BlockDeviceConfig p = BlockDeviceConfig::preset(d.model);
        const bool all = every_field || d.model == "custom";
        for (const Field<BlockDeviceConfig>& f : table.fields) {
            const bool always = f.name == "model" || f.name == "time_scale" || f.name == "ra_pages";
            if (all || always || f.get(d) != f.get(p))
                out.emplace_back(std::string(f.name), f.get(d));
        }
    };
    return device;
}

std::vector<ScenarioSection> build_sections()
{
    std::vector<ScenarioSection> out;
    out.push_back(section(
        scenario_own_fields(), [](auto& s) -> auto& { return s; }));
    out.push_back(section(
        machine_fields(), [](auto& s) -> auto& { return s.engine.machine; }));
    out.push_back(section(
        workload_fields(), [](auto& s) -> auto& { return s.engine.workload; }));
    out.push_back(section(
        index_fields(), [](auto& s) -> auto& { return s.engine.index; }));
    out.push_back(section(
        engine_fields(), [](auto& s) -> auto& { return s.engine; }));
    out.push_back(device_section());
    out.push_back(section(
        fault_fields(), [](auto& s) -> auto& { return s.engine.fault; }));
    out.push_back(section(
        writeback_fields(), [](auto& s) -> auto& { return s.engine.writeback; }));
    out.push_back(section(
        reclaim_fields(), [](auto& s) -> auto& { return s.engine.reclaim; }));
    out.push_back(section(
        pacing_fields(), [](auto& s) -> auto& { return s.engine; }));
    out.push_back(section(
        event_fields(), [](auto& s) -> auto& { return s.engine; }));
    out.push_back(section(
        trace_fields(), [](auto& s) -> auto& { return s.trace; }));
    return out;
}

std::vector<ScenarioField> build_fields()
{
    std::vector<ScenarioField> out;
    const Scenario defaults;
    for (const ScenarioSection& section : scenario_sections()) {
        json::Object values;
        section.write(defaults, values, true);
        for (std::size_t k = 0; k < section.fields.size(); ++k) {
            const FieldInfo* info = section.fields[k];
            const std::string name(info->name);
            out.push_back({ section.object.empty() ? name : std::string(section.object) + "." + name, section.object,
                info, values[k].second });
        }
    }
    return out;
}

} // namespace

const FieldTable<Scenario>& scenario_own_fields()
{
    static const FieldTable<Scenario> table = build_own();
    return table;
}

const FieldTable<ScenarioTrace>& trace_fields()
{
    static const FieldTable<ScenarioTrace> table = build_trace();
    return table;
}

const std::vector<ScenarioSection>& scenario_sections()
{
    static const std::vector<ScenarioSection> sections = build_sections();
    return sections;
}

const std::vector<ScenarioField>& scenario_fields()
{
    static const std::vector<ScenarioField> fields = build_fields();
    return fields;
}

} // namespace pcl
