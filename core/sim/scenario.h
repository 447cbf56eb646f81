// A scenario: the whole description of a run, and its JSON file format
// (docs/scenario-format.md).
//
// Every field has a default, so `{"version": 1}` is a valid scenario. A file
// is checked field by field before anything runs: an unknown field, a value
// of the wrong type or out of range is a ScenarioError whose message starts
// with the field's path ("workload.file_pages: ...") and says what is
// allowed, so a user editing a file by hand can fix it without a manual.
#pragma once

#include "sim/engine.h"
#include "sim/json.h"

#include <cstdint>
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

struct Scenario {
    static constexpr int kVersion = 1; ///< the format version this build reads and writes

    // For the gallery and for reports.
    std::string title;       ///< "2002: one global hash vs a radix tree per file"
    int year = 0;            ///< year of the experiment it reproduces; 0 = none
    std::string source;      ///< where it comes from, e.g. "seed 000"
    std::string description; ///< two sentences: what it shows

    EngineConfig engine;
    /// Wall-clock limit of the running time; 0 = until every CPU has done
    /// its sequence (engine.workload.operations_per_cpu).
    double duration_seconds = 0;
    /// Interval of the metrics time series.
    std::uint64_t sample_interval_ms = 100;

    /// Checks every field (including engine.validate()); throws ScenarioError.
    void validate() const;
};

/// The scenario a document describes. Throws ScenarioError.
Scenario scenario_from_json(const json::Value& doc);
/// Every field, defaults included, so a saved file documents the whole run.
json::Value scenario_to_json(const Scenario& scenario);

/// Parses @text (the contents of @origin, a file name used in messages).
/// Throws ScenarioError; a JSON syntax error names origin:line:column.
Scenario parse_scenario(std::string_view text, const std::string& origin = "scenario");
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
