// Output of the benchmarks: a table for people and CSV for tools.
//
// A Report is a list of rows with named columns. It prints as an aligned
// text table and writes CSV atomically (to a temporary file beside the
// target, then renamed), so an interrupted run never leaves half a file.
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
    void set(const std::string& column, const std::string& value);
    void set(const std::string& column, double value, int precision = 1);
    void set(const std::string& column, std::uint64_t value);

    const std::vector<std::string>& columns() const { return columns_; }
    const std::vector<std::vector<std::string>>& rows() const { return rows_; }

    /// An aligned table with a header line; numbers right-aligned.
    void print(std::ostream& out) const;
    /// CSV with a header line (RFC 4180 quoting where needed).
    std::string csv() const;

private:
    std::size_t column(const std::string& name) const;
    std::vector<std::string> columns_;
    std::vector<std::vector<std::string>> rows_;
};

/// @v with @precision digits after the point ("12.35").
std::string fixed(double v, int precision);
/// @v to three significant digits, without an exponent below 10^9 and
/// without trailing zeros ("812", "35.2", "0.0412", "1.5", "10"); "0" for
/// zero, "inf" for an unbounded value.
std::string significant(double v);

/// The median of @v (the mean of the two middle values for an even count;
/// 0 for none).
double median(std::vector<double> v);

} // namespace pcl
