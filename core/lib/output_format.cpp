#include "lib/output_format.h"

#include "lib/arg_parser.h"
#include "lib/file_io.h"

#include <ostream>

namespace pcl {

void check_format(const std::string& format)
{
    if (format != "table" && format != "json" && format != "csv")
        throw ArgError("--format: '" + format + "' is not one of: " + kFormats);
}

void check_format_option(const ArgParser& parser)
{
    check_format(parser.get_string("format"));
}

std::ostream& notes_stream(const std::string& format, std::ostream& out, std::ostream& err)
{
    return format == "table" ? out : err;
}

void write_output(const std::string& path, const std::string& text, std::ostream& out)
{
    if (path == kStdoutPath)
        out << text << std::flush;
    else
        write_file_atomically(path, text);
}

std::string output_name(const std::string& path)
{
    return path == kStdoutPath ? "stdout" : path;
}

json::Value table_json(const Report& table)
{
    const Report data = table.data();
    json::Array rows;
    for (const std::vector<std::string>& row : data.rows()) {
        json::Object o;
        for (std::size_t i = 0; i < row.size() && i < data.columns().size(); ++i) {
            // A cell that is a JSON number is written as one; an empty cell
            // (a ratio over zero, a figure a run does not have) is null, as a
            // reader expects of a value that does not exist.
            json::Value v = row[i].empty() ? json::Value(nullptr) : json::Value(row[i]);
            try {
                if (const json::Value n = json::parse(row[i]); n.is_number())
                    v = n;
            } catch (const json::ParseError&) {
            }
            o.emplace_back(data.columns()[i], std::move(v));
        }
        rows.push_back(std::move(o));
    }
    return json::Value(std::move(rows));
}

void print_table(std::ostream& out, const Report& table, const std::string& format)
{
    if (format == "csv")
        out << table.data().csv();
    else if (format == "json")
        out << json::write(table_json(table)) << '\n';
    else
        table.print(out);
}

} // namespace pcl
