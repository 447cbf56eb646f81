// Output of the benchmarks: a table for people and CSV for tools.
//
// A Report is a list of rows with named columns. It prints as an aligned
// text table and writes CSV atomically (to a temporary file beside the
// target, then renamed), so an interrupted run never leaves half a file.
// Each cell has two texts: what the table shows (a figure rounded for
// reading, "1.23x", "-") and what a script reads (data(): the number at
// full precision, or an empty cell for one that does not exist).
#pragma once

#include "lib/file_io.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace pcl {

class Report {
public:
    explicit Report(std::vector<std::string> columns);

    /// Starts a new row; fill it with set() in any order.
    void add_row();
    /// Adds a row of text, shown and read alike, a cell per column in
    /// their order (the columns past @cells empty).
    void add_row(const std::vector<std::string>& cells);
    /// Text, shown and read alike.
    void set(const std::string& column, const std::string& value);
    /// @value shown with @precision digits after the point, read at full
    /// precision.
    void set(const std::string& column, double value, int precision = 1);
    void set(const std::string& column, std::uint64_t value);
    /// @shown in the table ("2.31x"), @value in the data; a value that is
    /// not finite (a ratio over zero, a figure not measured) is an empty
    /// cell there.
    void set(const std::string& column, const std::string& shown, double value);
    /// A figure that does not exist: @shown in the table, an empty cell in
    /// the data.
    void set_missing(const std::string& column, const std::string& shown = "-");

    const std::vector<std::string>& columns() const { return columns_; }
    const std::vector<std::vector<std::string>>& rows() const { return rows_; }

    /// An aligned table with a header line; numbers right-aligned.
    void print(std::ostream& out) const;
    /// CSV with a header line (RFC 4180 quoting where needed).
    std::string csv() const;
    /// The same table with the cells a script reads: every number at full
    /// precision, a figure that does not exist empty.
    Report data() const;

private:
    std::size_t column(const std::string& name) const;
    /// Sets the current row's cell of @col: @shown in rows_, @read in data_.
    void put(const std::string& col, std::string shown, std::string read);
    std::vector<std::string> columns_;
    std::vector<std::vector<std::string>> rows_;
    std::vector<std::vector<std::string>> data_; ///< the cells of data(), row by row
};

/// @v with @precision digits after the point ("12.35").
std::string fixed(double v, int precision);
/// @v as a CSV or JSON cell: a count as an integer, anything else in the
/// fewest digits that read back; "" for a value that is not finite.
std::string csv_number(double v);
/// @v as a message quotes it: the fewest digits that read back ("-1",
/// "0.25"), "inf", "-inf" or "nan" for a value that is not finite.
std::string shown_number(double v);
/// @v to three significant digits, without an exponent below 10^9 and
/// without trailing zeros ("812", "35.2", "0.0412", "1.5", "10"); "0" for
/// zero, "inf" for an unbounded value.
std::string significant(double v);

/// The median of @v (the mean of the two middle values for an even count;
/// 0 for none).
double median(std::vector<double> v);

} // namespace pcl
