// Scenario files: reading, checking and writing (docs/scenario-format.md).
//
// Reading is two passes over the field tables of scenario_fields.h. The
// first walks the document and only checks what the JSON can get wrong by
// itself (unknown names, types, values that do not fit the C++ field); the
// second is Scenario::validate(), which runs the configs' own validate()
// functions. Both throw errors that carry the field's path, which become a
// ScenarioError naming it, so the range rules live in one place (beside the
// struct) and the file format only maps names.
#include "sim/scenario.h"

#include "lib/file_io.h"
#include "sim/scenario_fields.h"
#include "workload/trace_csv.h"
#include "workload/trace_strace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <sstream>

namespace pcl {

ScenarioError::ScenarioError(std::string field, const std::string& message)
    : std::invalid_argument(message)
    , field_(std::move(field))
{
}

namespace {

template <typename Names> std::string join(const Names& names)
{
    std::string s;
    for (const auto& name : names) {
        if (!s.empty())
            s += ", ";
        s += name;
    }
    return s;
}

std::string join_path(const std::string& prefix, std::string_view key)
{
    return prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
}

[[noreturn]] void field_error(const std::string& path, const std::string& what)
{
    throw ScenarioError(path, path + ": " + what);
}

/// The members the document itself may have: its own fields and its objects,
/// in the order scenario_to_json writes them.
std::vector<std::string_view> document_members()
{
    std::vector<std::string_view> names;
    for (const ScenarioSection& section : scenario_sections()) {
        if (!section.object.empty())
            names.push_back(section.object);
        else
            for (const FieldInfo* f : section.fields)
                names.push_back(f->name);
    }
    return names;
}

std::vector<std::string_view> object_members(const ScenarioSection& section)
{
    std::vector<std::string_view> names;
    for (const FieldInfo* f : section.fields)
        names.push_back(f->name);
    return names;
}

/// Refuses @v unless it is an object whose members are all in @allowed.
void check_object(const json::Value& v, const std::string& path, const std::vector<std::string_view>& allowed)
{
    if (!v.is_object()) {
        if (path.empty())
            throw ScenarioError(
                "", std::string("a scenario must be a JSON object, got ") + json::Value::type_name(v.type()));
        field_error(path, std::string("expected an object, got ") + json::Value::type_name(v.type()));
    }
    for (const auto& [key, value] : v.as_object())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            field_error(join_path(path, key), "unknown field; allowed: " + join(allowed));
}

} // namespace

void ScenarioTrace::validate() const
{
    // format and bad_lines are names from the table.
    for (const Field<ScenarioTrace>& f : trace_fields().fields) {
        if (f.choices.empty())
            continue;
        const std::string value = f.get(*this).as_string();
        if (std::find(f.choices.begin(), f.choices.end(), value) == f.choices.end())
            field_error("trace." + std::string(f.name), "'" + value + "' is not one of: " + join(f.choices));
    }
}

namespace {
ScenarioFileReader& file_reader()
{
    static ScenarioFileReader reader;
    return reader;
}
} // namespace

void set_scenario_file_reader(ScenarioFileReader reader)
{
    file_reader() = std::move(reader);
}

Trace load_trace(const ScenarioTrace& t, const std::string& base_dir)
{
    t.validate();
    const std::string path
        = t.path.empty() || t.path.front() == '/' || base_dir.empty() ? t.path : base_dir + "/" + t.path;
    std::string text;
    try {
        text = file_reader() ? file_reader()(path) : read_file(path);
    } catch (const std::runtime_error& e) {
        field_error("trace.path", e.what());
    }
    const bool csv = t.format == "csv" || (t.format == "auto" && path.size() >= 4 && path.ends_with(".csv"));
    const BadLines policy = t.bad_lines == "skip" ? BadLines::Skip : BadLines::Stop;
    std::istringstream in(text);
    try {
        Trace trace = csv ? parse_trace_csv(in, policy) : parse_trace_strace(in, policy);
        if (trace.threads.empty())
            field_error("trace.path",
                path + ": no accesses to replay (" + std::to_string(trace.skipped_lines) + " bad lines skipped)");
        return trace;
    } catch (const TraceError& e) {
        field_error("trace", path + ": " + e.what() + " (set trace.bad_lines to skip to replay the rest)");
    }
}

void Scenario::validate() const
{
    trace.validate();
    if (year != 0 && (year < 1990 || year > 2100))
        field_error("year", "must be 0 (none) or in [1990, 2100], got " + std::to_string(year));
    if (!(duration_seconds >= 0 && duration_seconds <= 86400))
        field_error("duration_seconds",
            "must be in [0, 86400] (0 = until every CPU is done), got " + json::write(json::Value(duration_seconds)));
    if (sample_interval_ms < 10 || sample_interval_ms > 60000)
        field_error("sample_interval_ms", "must be in [10, 60000], got " + std::to_string(sample_interval_ms));

    try {
        validate_within("workload", [&] { engine.workload.validate(); });
        validate_within("index", [&] { engine.index.validate(); });
        // The rest (memory, the device, pacing, events, the address-space
        // fit) and the workload and index again, as an Engine checks them.
        engine.validate();
    } catch (const FieldError& e) {
        field_error(e.field(), e.reason());
    } catch (const std::invalid_argument& e) {
        throw ScenarioError("", e.what());
    }
}

Scenario scenario_from_json(const json::Value& doc, const std::string& base_dir)
{
    check_object(doc, "", document_members());
    if (!doc.find("version"))
        throw ScenarioError("version",
            "version: missing; this build reads scenario files of version " + std::to_string(Scenario::kVersion)
                + " (add \"version\": " + std::to_string(Scenario::kVersion) + ")");

    Scenario s;
    try {
        for (const ScenarioSection& section : scenario_sections()) {
            if (section.object.empty()) {
                section.read(doc, s, "");
            } else if (const json::Value* v = doc.find(section.object)) {
                const std::string path(section.object);
                check_object(*v, path, object_members(section));
                section.read(*v, s, path);
            }
        }
    } catch (const FieldError& e) {
        field_error(e.field(), e.reason());
    }
    s.trace.validate();
    if (!s.trace.path.empty()) {
        // Kept resolved, so the scenario re-read from its JSON (a parameter
        // changed, a copy saved elsewhere) still finds its trace.
        if (s.trace.path.front() != '/' && !base_dir.empty())
            s.trace.path = std::filesystem::path(base_dir + "/" + s.trace.path).lexically_normal().string();
        auto plan = std::make_shared<TracePlan>(load_trace(s.trace));
        s.engine.workload.cpus = plan->threads();
        s.engine.trace = std::move(plan);
    }
    s.validate();
    return s;
}

json::Value scenario_to_json(const Scenario& s, bool every_field)
{
    json::Object doc;
    for (const ScenarioSection& section : scenario_sections()) {
        if (section.object.empty()) {
            section.write(s, doc, every_field);
        } else {
            json::Object members;
            section.write(s, members, every_field);
            doc.emplace_back(std::string(section.object), std::move(members));
        }
    }
    return doc;
}

Scenario parse_scenario(std::string_view text, const std::string& origin, const std::string* base_dir)
{
    json::Value doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        throw ScenarioError(
            "", origin + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
    }
    if (base_dir)
        return scenario_from_json(doc, *base_dir);
    const std::size_t slash = origin.find_last_of('/');
    return scenario_from_json(doc, slash == std::string::npos ? std::string() : origin.substr(0, slash));
}

Scenario load_scenario(const std::string& path)
{
    std::string text;
    try {
        text = read_file(path);
    } catch (const std::runtime_error& e) {
        throw ScenarioError("", e.what());
    }
    return parse_scenario(text, path);
}

void save_scenario(const std::string& path, const Scenario& scenario)
{
    write_file_atomically(path, json::write(scenario_to_json(scenario)) + "\n");
}

void apply_override(json::Value& doc, std::string_view assignment)
{
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw ScenarioError(
            "", "override '" + std::string(assignment) + "': expected path=value, e.g. workload.pattern=random");
    const std::string_view path = assignment.substr(0, eq);
    const std::string_view text = assignment.substr(eq + 1);

    std::vector<std::string> segments;
    for (std::size_t from = 0;;) {
        const std::size_t dot = path.find('.', from);
        segments.emplace_back(path.substr(from, dot == std::string_view::npos ? std::string_view::npos : dot - from));
        if (dot == std::string_view::npos)
            break;
        from = dot + 1;
    }

    // The schema is a default scenario written out: it has every field.
    const json::Value schema = scenario_to_json(Scenario {});
    const json::Value* level = &schema;
    std::string prefix;
    for (const std::string& segment : segments) {
        if (!level->is_object())
            field_error(prefix, "is a value, not an object: it has no field '" + segment + "'");
        const json::Value* next = level->find(segment);
        const std::string here = join_path(prefix, segment);
        if (!next) {
            std::vector<std::string> names;
            for (const auto& member : level->as_object())
                names.push_back(member.first);
            field_error(here, "unknown field; allowed: " + join(names));
        }
        level = next;
        prefix = here;
    }

    json::Value value;
    try {
        value = json::parse(text);
    } catch (const json::ParseError& e) {
        // A number too large for the reader is said to be one, not taken
        // for text and refused as "a string".
        if (level->is_number() && std::string_view(e.what()).find("out of range") != std::string_view::npos)
            field_error(prefix, std::string(e.what()) + ", got " + std::string(text));
        value = json::Value(std::string(text));
    }
    // A string field takes the text as written, so "--set title=2002" is a title, not a type error.
    if (level->is_string() && !value.is_string())
        value = json::Value(std::string(text));

    if (!doc.is_object())
        throw ScenarioError(
            "", std::string("a scenario must be a JSON object, got ") + json::Value::type_name(doc.type()));
    json::Value* cur = &doc;
    prefix.clear();
    for (std::size_t k = 0; k + 1 < segments.size(); ++k) {
        prefix = join_path(prefix, segments[k]);
        json::Value* child = cur->find(segments[k]);
        if (!child)
            child = &cur->set(segments[k], json::Object {});
        else if (!child->is_object())
            field_error(prefix, std::string("expected an object, got ") + json::Value::type_name(child->type()));
        cur = child;
    }
    cur->set(segments.back(), std::move(value));
}

} // namespace pcl
