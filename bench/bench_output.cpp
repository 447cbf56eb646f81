#include "bench_output.h"

#include "lib/arg_parser.h"
#include "lib/json.h"
#include "lib/output_format.h"

#include <exception>
#include <ostream>

namespace pcl::bench {

void add_format_option(ArgParser& p, const std::string& tables, const std::string& csv_table)
{
    p.add_string("format", "table", "F",
        "what is printed: table (the tables and what they measured), json (the data alone: one object whose "
        "members are the tables, "
            + tables + ", each an array of rows) or csv (" + csv_table
            + "); json and csv give every number at full precision and a figure that does not exist as null or "
              "an empty cell, and say the rest on stderr");
}

BenchOutput::BenchOutput(const ArgParser& p, std::ostream& out, std::ostream& err, std::string csv_table)
    : command_(p.command())
    , format_(p.get_string("format"))
    , csv_path_(p.get_string("csv"))
    , csv_table_(std::move(csv_table))
    , out_(out)
    , err_(err)
    , shown_(csv_path_ == kStdoutPath ? err : out)
    , notes_(notes_stream(format_, shown_, err))
{
}

void BenchOutput::table(const std::string& name, const Report& table)
{
    if (format_ == "table")
        table.print(shown_);
    else
        tables_.emplace_back(name, table);
}

void BenchOutput::data(const std::string& name, const Report& table)
{
    if (format_ != "table")
        tables_.emplace_back(name, table);
}

bool BenchOutput::write_csv(const std::string& text, const std::string& indent)
{
    if (csv_path_.empty())
        return true;
    try {
        write_output(csv_path_, text, out_);
    } catch (const std::exception& e) {
        err_ << kProgram << ' ' << command_ << ": " << e.what() << '\n';
        return false;
    }
    notes_ << indent << "wrote " << output_name(csv_path_) << '\n';
    return true;
}

void BenchOutput::finish()
{
    if (format_ == "json") {
        json::Object doc;
        for (const auto& [name, table] : tables_)
            doc.emplace_back(name, table_json(table));
        shown_ << json::write(json::Value(std::move(doc))) << '\n';
        return;
    }
    if (format_ == "csv")
        for (const auto& [name, table] : tables_)
            if (name == csv_table_) {
                print_table(shown_, table, format_);
                return;
            }
}

} // namespace pcl::bench
