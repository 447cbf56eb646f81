// Scenario files: reading, checking and writing (docs/scenario-format.md).
//
// Reading is two passes. The first walks the document and only checks what
// the JSON can get wrong by itself (unknown names, types, values that do not
// fit the C++ field); the second is Scenario::validate(), which runs the
// configs' own validate() functions and turns their std::invalid_argument
// into a ScenarioError naming the JSON path, so the range rules live in one
// place (beside the struct) and the file format only maps names.
#include "sim/scenario.h"

#include "index/hash_index.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"
#include "lib/file_io.h"
#include "workload/trace_csv.h"
#include "workload/trace_strace.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>

namespace pcl {

ScenarioError::ScenarioError(std::string field, const std::string& message)
    : std::invalid_argument(message)
    , field_(std::move(field))
{
}

namespace {

// Allowed member names of each object, in the order scenario_to_json writes them.
constexpr std::string_view kTopFields[]
    = { "version", "title", "year", "source", "description", "duration_seconds", "sample_interval_ms", "workload",
          "index", "page_table_lock", "memory_pages", "readahead", "device", "fault", "pacing", "events", "trace" };
constexpr std::string_view kWorkloadFields[] = { "pattern", "access", "files", "file_pages", "stride", "request_pages",
    "read_fraction", "cpus", "seed", "operations_per_cpu", "madvise", "nfiles", "stream_pages" };
constexpr std::string_view kTraceFields[] = { "path", "format", "bad_lines" };
constexpr std::string_view kIndexFields[] = { "kind", "scheme", "radix_shift", "hash_buckets", "hash_memory_bytes",
    "hash_order9_cap", "hash_function", "hash_locks", "skiplist_p", "skiplist_max_level", "skiplist_seed" };
constexpr std::string_view kDeviceFields[] = { "model", "request_ns", "page_ns", "seek_ns", "rotation_ns",
    "queue_depth", "max_request_pages", "nomerges", "time_scale", "ra_pages" };
constexpr std::string_view kFaultFields[] = { "fault_around", "fault_around_pages" };
constexpr std::string_view kPacingFields[] = { "ops_per_second", "hold_stretch_ns", "migrate_every" };
constexpr std::string_view kEventsFields[] = { "enabled", "ring_capacity" };

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

/// @v as it appears in a file, shortened for a message.
std::string shown(const json::Value& v)
{
    std::string s = json::write(v, -1);
    if (s.size() > 60)
        s = s.substr(0, 57) + "...";
    return s;
}

/// Reads the members of one JSON object into C++ fields, checking names and types.
class ObjectReader {
public:
    template <std::size_t N>
    ObjectReader(const json::Value& v, std::string path, const std::string_view (&allowed)[N])
        : v_(v)
        , path_(std::move(path))
    {
        if (!v.is_object()) {
            if (path_.empty())
                throw ScenarioError(
                    "", std::string("a scenario must be a JSON object, got ") + json::Value::type_name(v.type()));
            field_error(path_, std::string("expected an object, got ") + json::Value::type_name(v.type()));
        }
        for (const auto& [key, value] : v.as_object())
            if (std::find(std::begin(allowed), std::end(allowed), key) == std::end(allowed))
                field_error(join_path(path_, key), "unknown field; allowed: " + join(allowed));
    }

    const json::Value* find(std::string_view key) const { return v_.find(key); }
    std::string path(std::string_view key) const { return join_path(path_, key); }

    void read(std::string_view key, std::string& out) const
    {
        if (const json::Value* v = find(key)) {
            if (!v->is_string())
                type_error(key, "a string", *v);
            out = v->as_string();
        }
    }

    void read(std::string_view key, bool& out) const
    {
        if (const json::Value* v = find(key)) {
            if (!v->is_bool())
                type_error(key, "a boolean", *v);
            out = v->as_bool();
        }
    }

    void read(std::string_view key, double& out) const
    {
        if (const json::Value* v = find(key)) {
            if (!v->is_number())
                type_error(key, "a number", *v);
            out = v->as_double();
        }
    }

    /// Any integer type: the value must be an integer that fits it.
    template <typename T>
    requires std::is_integral_v<T>
    void read(std::string_view key, T& out) const
    {
        const json::Value* v = find(key);
        if (!v)
            return;
        if (!v->is_number())
            type_error(key, "an integer", *v);
        constexpr auto lo = std::numeric_limits<T>::min();
        constexpr auto hi = std::numeric_limits<T>::max();
        const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
        if (!v->is_integer())
            field_error(path(key), "expected an integer in " + range + ", got " + shown(*v));
        bool fits;
        if (v->type() == json::Value::Type::Uint)
            fits = v->as_uint() <= std::uint64_t(hi);
        else if constexpr (std::is_signed_v<T>)
            fits = v->as_int() >= std::int64_t(lo) && v->as_int() <= std::int64_t(hi);
        else
            fits = v->as_int() >= 0 && std::uint64_t(v->as_int()) <= std::uint64_t(hi);
        if (!fits)
            field_error(path(key), "must be in " + range + ", got " + shown(*v));
        out = v->type() == json::Value::Type::Uint ? T(v->as_uint()) : T(v->as_int());
    }

private:
    [[noreturn]] void type_error(std::string_view key, const char* want, const json::Value& v) const
    {
        field_error(path(key), std::string("expected ") + want + ", got " + json::Value::type_name(v.type()));
    }

    const json::Value& v_;
    std::string path_;
};

// How the configs' validate() messages name fields, and the JSON path of
// each. Messages start with a C++ member name ("memory_pages must be ..."),
// a dotted path ("device.time_scale must ...") or a family word and a name
// ("workload pattern 'x' ...", "radix scheme 'x' ...").
constexpr std::pair<std::string_view, std::string_view> kMessageNames[] = {
    { "memory_pages", "memory_pages" },
    { "page_table_lock", "page_table_lock" },
    { "ops_per_second", "pacing.ops_per_second" },
    { "hold_stretch_ns", "pacing.hold_stretch_ns" },
    { "migrate_every", "pacing.migrate_every" },
    { "event_ring_capacity", "events.ring_capacity" },
    { "events", "events.enabled" },
    { "kind", "index.kind" },
    { "scheme", "index.scheme" },
    { "radix_shift", "index.radix_shift" },
    { "hash_buckets", "index.hash_buckets" },
    { "hash_memory_bytes", "index.hash_memory_bytes" },
    { "hash_order9_cap", "index.hash_order9_cap" },
    { "hash_function", "index.hash_function" },
    { "hash_locks", "index.hash_locks" },
    { "skiplist_p", "index.skiplist_p" },
    { "skiplist_max_level", "index.skiplist_max_level" },
    { "skiplist_seed", "index.skiplist_seed" },
    { "request_ns", "device.request_ns" },
    { "page_ns", "device.page_ns" },
    { "time_scale", "device.time_scale" },
    { "ra_pages", "device.ra_pages" },
    { "readahead", "readahead" },
    { "fault_around", "fault.fault_around" },
    { "fault_around_pages", "fault.fault_around_pages" },
};

/// Every leaf path of the format ("workload.cpus", "version", ...).
std::vector<std::string> leaf_paths()
{
    std::vector<std::string> paths;
    const json::Value schema = scenario_to_json(Scenario {});
    for (const auto& [key, value] : schema.as_object()) {
        if (value.is_object())
            for (const auto& member : value.as_object())
                paths.push_back(key + "." + member.first);
        else
            paths.push_back(key);
    }
    return paths;
}

/// Rethrows a config's std::invalid_argument as a ScenarioError naming the
/// JSON path its message is about, or @fallback when it names none.
[[noreturn]] void rethrow_at_path(const std::invalid_argument& e, const std::string& fallback)
{
    const std::string message = e.what();
    const auto word_end = [&](std::size_t from) {
        const std::size_t end = message.find(' ', from);
        return end == std::string::npos ? message.size() : end;
    };
    const std::size_t end0 = word_end(0);
    const std::string w0 = message.substr(0, end0);
    const std::size_t end1 = end0 < message.size() ? word_end(end0 + 1) : end0;
    const std::string w1 = end0 < message.size() ? message.substr(end0 + 1, end1 - end0 - 1) : "";

    std::string path;
    std::size_t consumed = 0;
    const std::vector<std::string> leaves = leaf_paths();
    const auto is_leaf
        = [&](const std::string& p) { return std::find(leaves.begin(), leaves.end(), p) != leaves.end(); };
    if (is_leaf(w0)) {
        path = w0;
        consumed = end0;
    } else if (const auto* alias = std::find_if(
                   std::begin(kMessageNames), std::end(kMessageNames), [&](const auto& n) { return n.first == w0; });
               alias != std::end(kMessageNames)) {
        path = alias->second;
        consumed = end0;
    } else if (w0 == "workload" && is_leaf("workload." + w1)) {
        path = "workload." + w1;
        consumed = end1;
    } else if ((w0 == "index" || w0 == "radix" || w0 == "hash" || w0 == "skiplist") && is_leaf("index." + w1)) {
        path = "index." + w1;
        consumed = end1;
    }
    if (path.empty()) {
        if (fallback.empty())
            throw ScenarioError("", message);
        field_error(fallback, message);
    }
    std::string rest = consumed < message.size() ? message.substr(consumed + 1) : "";
    // Keep the whole message when what follows the name is not a sentence about it.
    if (!(rest.starts_with("must") || rest.starts_with("'") || rest.starts_with("is ")))
        rest = message;
    field_error(path, rest);
}

std::string quoted_list(const std::vector<std::string>& names)
{
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

void validate_index(const IndexSpec& spec)
{
    std::vector<std::string> schemes;
    try {
        schemes = index_schemes(spec.kind);
    } catch (const std::invalid_argument& e) {
        rethrow_at_path(e, "index.kind");
    }
    if (!spec.scheme.empty() && std::find(schemes.begin(), schemes.end(), spec.scheme) == schemes.end())
        field_error("index.scheme",
            "'" + spec.scheme + "' is not a scheme of the " + spec.kind + " index; allowed: " + quoted_list(schemes)
                + ", or \"\" for its default");
    // Every family's parameters are checked whichever kind runs, so that a
    // value is never silently accepted only to fail when the kind changes.
    try {
        RadixTree::Config radix;
        radix.shift = spec.radix_shift;
        radix.validate();
        IndexSpec hash = spec;
        if (spec.kind != "hash")
            hash.scheme = "global";
        HashConfig::from_spec(hash).validate();
        IndexSpec skiplist = spec;
        if (spec.kind != "skiplist")
            skiplist.scheme.clear();
        SkipListConfig::from_spec(skiplist).validate();
    } catch (const std::invalid_argument& e) {
        rethrow_at_path(e, "index");
    }
}

} // namespace

void ScenarioTrace::validate() const
{
    if (format != "auto" && format != "csv" && format != "strace")
        field_error("trace.format", "'" + format + "' is not one of: auto, csv, strace");
    if (bad_lines != "stop" && bad_lines != "skip")
        field_error("trace.bad_lines", "'" + bad_lines + "' is not one of: stop, skip");
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

    const EngineConfig& e = engine;
    try {
        e.workload.validate();
    } catch (const std::invalid_argument& x) {
        rethrow_at_path(x, "workload");
    }
    validate_index(e.index);
    if (e.page_table_lock != PageTable::Scheme::Single && e.page_table_lock != PageTable::Scheme::Split)
        field_error("page_table_lock", "must be one of: single, split");
    try {
        e.device.validate();
    } catch (const std::invalid_argument& x) {
        rethrow_at_path(x, "device");
    }
    try {
        e.fault.validate();
    } catch (const std::invalid_argument& x) {
        rethrow_at_path(x, "fault");
    }
    if (e.hold_stretch_ns > EngineConfig::kMaxHoldStretchNs)
        field_error("pacing.hold_stretch_ns",
            "must be in [0, " + std::to_string(EngineConfig::kMaxHoldStretchNs) + "] (0 = none), got "
                + std::to_string(e.hold_stretch_ns));
    if (e.event_ring_capacity < 2 || e.event_ring_capacity > EngineConfig::kMaxEventRingCapacity)
        field_error("events.ring_capacity",
            "must be in [2, " + std::to_string(EngineConfig::kMaxEventRingCapacity) + "], got "
                + std::to_string(e.event_ring_capacity));
    // The rest (memory, pacing, the address-space fit) and whatever the
    // engine checks besides.
    try {
        e.validate();
    } catch (const std::invalid_argument& x) {
        rethrow_at_path(x, "");
    }
}

Scenario scenario_from_json(const json::Value& doc, const std::string& base_dir)
{
    ObjectReader top(doc, "", kTopFields);
    const json::Value* version = top.find("version");
    if (!version)
        throw ScenarioError("version",
            "version: missing; this build reads scenario files of version " + std::to_string(Scenario::kVersion)
                + " (add \"version\": " + std::to_string(Scenario::kVersion) + ")");
    if (!version->is_integer() || version->as_double() != Scenario::kVersion)
        field_error("version",
            "this build reads version " + std::to_string(Scenario::kVersion) + " only, got " + shown(*version));

    Scenario s;
    top.read("title", s.title);
    top.read("year", s.year);
    top.read("source", s.source);
    top.read("description", s.description);
    top.read("duration_seconds", s.duration_seconds);
    top.read("sample_interval_ms", s.sample_interval_ms);

    EngineConfig& e = s.engine;
    if (const json::Value* v = top.find("workload")) {
        ObjectReader r(*v, "workload", kWorkloadFields);
        WorkloadSpec& w = e.workload;
        r.read("pattern", w.pattern);
        r.read("access", w.access);
        r.read("files", w.files);
        r.read("file_pages", w.file_pages);
        r.read("stride", w.stride);
        r.read("request_pages", w.request_pages);
        r.read("read_fraction", w.read_fraction);
        r.read("cpus", w.cpus);
        r.read("seed", w.seed);
        r.read("operations_per_cpu", w.operations_per_cpu);
        r.read("madvise", w.madvise);
        r.read("nfiles", w.nfiles);
        r.read("stream_pages", w.stream_pages);
    }
    if (const json::Value* v = top.find("trace")) {
        ObjectReader r(*v, "trace", kTraceFields);
        r.read("path", s.trace.path);
        r.read("format", s.trace.format);
        r.read("bad_lines", s.trace.bad_lines);
    }
    if (const json::Value* v = top.find("index")) {
        ObjectReader r(*v, "index", kIndexFields);
        IndexSpec& i = e.index;
        r.read("kind", i.kind);
        r.read("scheme", i.scheme);
        r.read("radix_shift", i.radix_shift);
        r.read("hash_buckets", i.hash_buckets);
        r.read("hash_memory_bytes", i.hash_memory_bytes);
        r.read("hash_order9_cap", i.hash_order9_cap);
        r.read("hash_function", i.hash_function);
        r.read("hash_locks", i.hash_locks);
        r.read("skiplist_p", i.skiplist_p);
        r.read("skiplist_max_level", i.skiplist_max_level);
        r.read("skiplist_seed", i.skiplist_seed);
    }
    if (const json::Value* v = top.find("page_table_lock")) {
        if (!v->is_string())
            field_error("page_table_lock", std::string("expected a string, got ") + json::Value::type_name(v->type()));
        try {
            e.page_table_lock = PageTable::parse_scheme(v->as_string());
        } catch (const std::invalid_argument&) {
            field_error("page_table_lock", "'" + v->as_string() + "' is not one of: single, split");
        }
    }
    top.read("memory_pages", e.memory_pages);
    top.read("readahead", e.readahead);
    if (const json::Value* v = top.find("device")) {
        ObjectReader r(*v, "device", kDeviceFields);
        // The model's preset first, then whatever the file sets over it.
        std::string model = "custom";
        r.read("model", model);
        try {
            e.device = BlockDeviceConfig::preset(model);
        } catch (const std::invalid_argument& x) {
            rethrow_at_path(x, "device.model");
        }
        r.read("request_ns", e.device.request_ns);
        r.read("page_ns", e.device.page_ns);
        r.read("seek_ns", e.device.seek_ns);
        r.read("rotation_ns", e.device.rotation_ns);
        r.read("queue_depth", e.device.queue_depth);
        r.read("max_request_pages", e.device.max_request_pages);
        r.read("nomerges", e.device.nomerges);
        r.read("time_scale", e.device.time_scale);
        r.read("ra_pages", e.device.ra_pages);
    }
    if (const json::Value* v = top.find("fault")) {
        ObjectReader r(*v, "fault", kFaultFields);
        r.read("fault_around", e.fault.fault_around);
        r.read("fault_around_pages", e.fault.fault_around_pages);
    }
    if (const json::Value* v = top.find("pacing")) {
        ObjectReader r(*v, "pacing", kPacingFields);
        r.read("ops_per_second", e.ops_per_second);
        r.read("hold_stretch_ns", e.hold_stretch_ns);
        r.read("migrate_every", e.migrate_every);
    }
    if (const json::Value* v = top.find("events")) {
        ObjectReader r(*v, "events", kEventsFields);
        r.read("enabled", e.events);
        r.read("ring_capacity", e.event_ring_capacity);
    }
    s.trace.validate();
    if (!s.trace.path.empty()) {
        // Kept resolved, so the scenario re-read from its JSON (a parameter
        // changed, a copy saved elsewhere) still finds its trace.
        if (s.trace.path.front() != '/' && !base_dir.empty())
            s.trace.path = std::filesystem::path(base_dir + "/" + s.trace.path).lexically_normal().string();
        auto plan = std::make_shared<TracePlan>(load_trace(s.trace));
        e.workload.cpus = plan->threads();
        e.trace = std::move(plan);
    }
    s.validate();
    return s;
}

namespace {

/// The device as its model and what differs from the model's preset, so a
/// file that says "hdd" stays an HDD when the preset is refined; "custom"
/// writes every figure. ra_pages and time_scale are always written.
json::Value device_to_json(const BlockDeviceConfig& d, bool every_field)
{
    const BlockDeviceConfig p = BlockDeviceConfig::preset(d.model);
    const bool all = every_field || d.model == "custom";
    json::Object o { { "model", d.model } };
    if (all || d.request_ns != p.request_ns)
        o.emplace_back("request_ns", d.request_ns);
    if (all || d.page_ns != p.page_ns)
        o.emplace_back("page_ns", d.page_ns);
    if (all || d.seek_ns != p.seek_ns)
        o.emplace_back("seek_ns", d.seek_ns);
    if (all || d.rotation_ns != p.rotation_ns)
        o.emplace_back("rotation_ns", d.rotation_ns);
    if (all || d.queue_depth != p.queue_depth)
        o.emplace_back("queue_depth", d.queue_depth);
    if (all || d.max_request_pages != p.max_request_pages)
        o.emplace_back("max_request_pages", d.max_request_pages);
    if (all || d.nomerges != p.nomerges)
        o.emplace_back("nomerges", d.nomerges);
    o.emplace_back("time_scale", d.time_scale);
    o.emplace_back("ra_pages", d.ra_pages);
    return o;
}

} // namespace

json::Value scenario_to_json(const Scenario& s, bool every_field)
{
    const EngineConfig& e = s.engine;
    const WorkloadSpec& w = e.workload;
    const IndexSpec& i = e.index;
    return json::Object {
        { "version", Scenario::kVersion },
        { "title", s.title },
        { "year", s.year },
        { "source", s.source },
        { "description", s.description },
        { "duration_seconds", s.duration_seconds },
        { "sample_interval_ms", s.sample_interval_ms },
        { "workload",
            json::Object {
                { "pattern", w.pattern },
                { "access", w.access },
                { "files", w.files },
                { "file_pages", w.file_pages },
                { "stride", w.stride },
                { "request_pages", w.request_pages },
                { "read_fraction", w.read_fraction },
                { "cpus", w.cpus },
                { "seed", w.seed },
                { "operations_per_cpu", w.operations_per_cpu },
                { "madvise", w.madvise },
                { "nfiles", w.nfiles },
                { "stream_pages", w.stream_pages },
            } },
        { "index",
            json::Object {
                { "kind", i.kind },
                { "scheme", i.scheme },
                { "radix_shift", i.radix_shift },
                { "hash_buckets", i.hash_buckets },
                { "hash_memory_bytes", i.hash_memory_bytes },
                { "hash_order9_cap", i.hash_order9_cap },
                { "hash_function", i.hash_function },
                { "hash_locks", i.hash_locks },
                { "skiplist_p", i.skiplist_p },
                { "skiplist_max_level", i.skiplist_max_level },
                { "skiplist_seed", i.skiplist_seed },
            } },
        { "page_table_lock", std::string(PageTable::scheme_name(e.page_table_lock)) },
        { "memory_pages", e.memory_pages },
        { "readahead", e.readahead },
        { "device", device_to_json(e.device, every_field) },
        { "fault",
            json::Object {
                { "fault_around", e.fault.fault_around },
                { "fault_around_pages", e.fault.fault_around_pages },
            } },
        { "pacing",
            json::Object {
                { "ops_per_second", e.ops_per_second },
                { "hold_stretch_ns", e.hold_stretch_ns },
                { "migrate_every", e.migrate_every },
            } },
        { "events",
            json::Object {
                { "enabled", e.events },
                { "ring_capacity", e.event_ring_capacity },
            } },
        { "trace",
            json::Object {
                { "path", s.trace.path },
                { "format", s.trace.format },
                { "bad_lines", s.trace.bad_lines },
            } },
    };
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
            field_error(here, "unknown field; allowed: " + quoted_list(names));
        }
        level = next;
        prefix = here;
    }

    json::Value value;
    try {
        value = json::parse(text);
    } catch (const json::ParseError&) {
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
