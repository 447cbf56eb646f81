// The scenarios of `pagecache-lab-cli`: a scenario file or a bundled
// preset named alike wherever a command takes a scenario (`run
// 2002-global-hash-lock` as well as `run my.json`), the presets listed
// (`presets`), and files checked without running them (`validate`), each
// problem reported with its field.
#pragma once

#include "lib/json.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "sim/scenario.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {
class ArgParser;
}

namespace pcl::cli {

/// A scenario as a command was given it.
struct ScenarioInput {
    std::string text;     ///< the JSON
    std::string origin;   ///< the file, or the preset's name, for messages
    std::string base_dir; ///< where a trace it names is read from
    bool preset = false;  ///< a bundled preset rather than a file
};

/// @operand as an existing file, else as the name of a bundled preset
/// (with or without ".json"). Throws std::runtime_error saying it is
/// neither and how to list the presets. Bundled traces are readable from
/// then on (a preset's trace is bundled with it).
ScenarioInput read_scenario_input(const std::string& operand);

/// What a run of @in is named in file names and legends: the preset's name,
/// or the file's name without its directory and extension.
std::string scenario_name(const ScenarioInput& in);

/// A scenario given to a command, read and parsed but not yet checked, so
/// that each run of a sweep can apply its own fields to it.
struct ScenarioSource {
    ScenarioInput input;
    json::Value doc;
};

/// Reads @operand (read_scenario_input) and parses it. Throws
/// std::runtime_error: "ORIGIN:LINE:COLUMN: what" for bad JSON.
ScenarioSource load_scenario_source(const std::string& operand);

/// @source with each of @overrides ("PATH=VALUE", as --set takes them)
/// applied in order, checked. Throws std::runtime_error "ORIGIN: field: what".
Scenario build_scenario(const ScenarioSource& source, const std::vector<std::string>& overrides);

/// Throws ArgError naming --@list unless each of its values is PATH=VALUE,
/// as --set takes them.
void check_overrides(const ArgParser& parser, const char* list = "set");

/// Creates @dir (with its parents) for a command's --out and checks that
/// @first_file can be written in it, so that an unwritable directory fails
/// before the runs, not after them. Throws ArgError naming --out.
void prepare_out_dir(const std::string& dir, const std::string& first_file);

// --format's table, json and csv and an output FILE of "-", as every
// command prints them (lib/output_format.h; a number as a cell: lib/report.h).
using pcl::check_format;
using pcl::csv_number;
using pcl::kFormats;
using pcl::notes_stream;
using pcl::output_name;
using pcl::print_table;
using pcl::write_output;

/// `presets [--format table|json|csv]`: the bundled scenarios, one line
/// each. Exit code 0, or 2 for bad usage.
int run_presets_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// `validate FILE|PRESET...`: every problem of each scenario or lesson
/// file, with its field. Exit code 0 when all are valid, 2 otherwise.
int run_validate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
