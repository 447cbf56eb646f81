// What a command prints, in the format its --format names: a table for
// people, or the data alone for a script, as JSON or CSV. With json or csv,
// what the command says besides the data (its notes, the files it wrote)
// goes to stderr, so that a script's JSON or CSV reader takes stdout whole.
#pragma once

#include "lib/json.h"
#include "lib/report.h"

#include <iosfwd>
#include <string>

namespace pcl {

class ArgParser;

/// The output formats of --format.
inline constexpr const char* kFormats = "table, json, csv";
/// Throws ArgError unless @format is one of kFormats.
void check_format(const std::string& format);
/// check_format on the --format option of @parser, as a parse_command
/// check of a command that has no other.
void check_format_option(const ArgParser& parser);
/// Where a command says what it wrote and what it collected: beside a table
/// on stdout; with json or csv on stderr, so that stdout is the data alone
/// and a script's JSON or CSV reader takes it whole.
std::ostream& notes_stream(const std::string& format, std::ostream& out, std::ostream& err);
/// Writes @text into the file @path whole or not at all, or onto @out
/// when @path is "-" (kStdoutPath).
void write_output(const std::string& path, const std::string& text, std::ostream& out);
/// @path as a note names it: "stdout" for "-".
std::string output_name(const std::string& path);
/// The data of @table (Report::data) as a JSON array of objects, a member
/// per column: a number as a number, an empty cell (a figure that does not
/// exist) as null, other text as a string.
json::Value table_json(const Report& table);
/// @table in @format: aligned columns as they are shown, or its data as a
/// JSON array of objects (table_json) or as CSV.
void print_table(std::ostream& out, const Report& table, const std::string& format);

} // namespace pcl
