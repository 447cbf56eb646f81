// What a benchmark prints, in the format its --format names
// (lib/output_format.h). As a table: its tables, each after the lines that
// say what it measured, as they always read. As json: the data alone, an
// object with a member per table, each an array of rows; as csv: one of
// its tables (its --help says which). Either way every number at full
// precision (Report::data), and the lines besides the data on stderr. The
// file of --csv FILE is written here too: "-" takes stdout for itself, and
// what would be printed there goes to stderr.
#pragma once

#include "lib/report.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace pcl {
class ArgParser;
}

namespace pcl::bench {

/// Declares --format on @p: @tables lists the members of its json ("minor_faults, pft"), @csv_table says
/// which table csv prints ("the pft table").
void add_format_option(ArgParser& p, const std::string& tables, const std::string& csv_table);

class BenchOutput {
public:
    /// For the benchmark @p parsed (its --format and --csv), on @out and
    /// @err; csv prints the table named @csv_table.
    BenchOutput(const ArgParser& p, std::ostream& out, std::ostream& err, std::string csv_table);

    /// Where the lines about the data go: beside a table, else stderr.
    std::ostream& notes() { return notes_; }
    /// A table the benchmark shows: printed now as a table; with json or
    /// csv kept for finish() as @name.
    void table(const std::string& name, const Report& table);
    /// A table of the data only (the rows --csv writes, say), not shown as
    /// a table: kept for finish() as @name.
    void data(const std::string& name, const Report& table);
    /// Writes @text as --csv's FILE (onto stdout for "-") and says so in
    /// the notes, after @indent. False, having said why on stderr, when it
    /// cannot be written.
    bool write_csv(const std::string& text, const std::string& indent = "");
    /// With json or csv, prints the data: every table kept, or the csv one.
    void finish();

private:
    std::string command_, format_, csv_path_, csv_table_;
    std::ostream& out_;
    std::ostream& err_;
    std::ostream& shown_; ///< stdout, or stderr when --csv - takes stdout
    std::ostream& notes_;
    std::vector<std::pair<std::string, Report>> tables_;
};

} // namespace pcl::bench
