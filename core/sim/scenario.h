// A scenario: the whole description of a run, and its JSON file format
// (docs/scenario-format.md).
//
// Every field has a default, so `{"version": 1}` is a valid scenario. A file
// is checked field by field before anything runs: an unknown field, a value
// of the wrong type or out of range is a ScenarioError whose message starts
// with the field's path ("workload.file_pages: ...") and says what is
// allowed, so a user editing a file by hand can fix it without a manual.
#pragma once

#include "lib/json.h"
#include "sim/engine.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pcl {

/// A bad scenario: field() is the JSON path of the offending field ("" when
/// the document itself is not JSON), what() the whole message.
class ScenarioError : public std::invalid_argument {
public:
    ScenarioError(std::string field, const std::string& message);
    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

/// A trace to replay (docs/trace-format.md) instead of the workload's
/// pattern: JSON object "trace".
struct ScenarioTrace {
    std::string path;               ///< the trace file; relative to the scenario file's directory; "" = none
    std::string format = "auto";    ///< "csv", "strace", or "auto": csv if the name ends in .csv, else strace
    std::string bad_lines = "stop"; ///< "stop": a bad line is an error; "skip": count and skip it

    /// Throws ScenarioError naming trace.format or trace.bad_lines.
    void validate() const;
};

/// Reads and parses @trace's file (@base_dir: where a relative path starts).
/// Throws ScenarioError naming trace.path for an unreadable file, and, under
/// "stop", for the first bad line (its number, the reason and the line).
Trace load_trace(const ScenarioTrace& trace, const std::string& base_dir = "");

struct Scenario {
    static constexpr int kVersion = 1; ///< the format version this build reads and writes

    // For the gallery and for reports.
    std::string title;       ///< "2002: one global hash vs a radix tree per file"
    int year = 0;            ///< year of the experiment it reproduces; 0 = none
    std::string source;      ///< where it comes from, e.g. "radix-tree pagecache (2002)"
    std::string description; ///< two sentences: what it shows

    EngineConfig engine;
    ScenarioTrace trace; ///< when its path is set, engine.trace is the parsed trace
    /// Wall-clock limit of the running time; 0 = until every CPU has done
    /// its sequence (engine.workload.operations_per_cpu).
    double duration_seconds = 0;
    /// Interval of the metrics time series.
    std::uint64_t sample_interval_ms = 100;

    /// Checks every field (including engine.validate()); throws ScenarioError.
    void validate() const;
};

/// The scenario a document describes; a trace path is relative to
/// @base_dir. Throws ScenarioError.
Scenario scenario_from_json(const json::Value& doc, const std::string& base_dir = "");
/// Every field, defaults included, so a saved file documents the whole run;
/// a device of a preset model is written as the model and the figures that
/// differ from its preset, unless @every_field (an editor showing every
/// figure wants them all).
json::Value scenario_to_json(const Scenario& scenario, bool every_field = false);

/// Parses @text (the contents of @origin, a file name used in messages; a
/// trace path is relative to @base_dir, by default @origin's directory).
/// Throws ScenarioError; a JSON syntax error names origin:line:column.
Scenario parse_scenario(
    std::string_view text, const std::string& origin = "scenario", const std::string* base_dir = nullptr);

/// Reads a file a scenario names (its trace): by default from the file
/// system; the GUI adds its bundled resources. Throws std::runtime_error
/// with a message naming the file.
using ScenarioFileReader = std::function<std::string(const std::string& path)>;
/// Replaces the reader (null: the file system again). Set before scenarios
/// are parsed concurrently.
void set_scenario_file_reader(ScenarioFileReader reader);
/// Reads and parses a file. Throws ScenarioError (also for an unreadable file).
Scenario load_scenario(const std::string& path);
/// Writes every field to @path atomically (a reader never sees half a file).
void save_scenario(const std::string& path, const Scenario& scenario);

/// Applies a command-line override "path=value" to a scenario document:
/// path is a dotted field path ("workload.pattern", "cpus"); value is parsed
/// as JSON if it is JSON (4, true, 0.5, "x") and taken as a string
/// otherwise (random). Throws ScenarioError for a malformed assignment or a
/// path that names no field; the value itself is checked when the document
/// is parsed, like any other.
void apply_override(json::Value& doc, std::string_view assignment);

} // namespace pcl
