// How a lesson writes a figure for a student: three significant digits, the
// thousands grouped ("14,201,502 faults/s"), and a unit that agrees with
// its count ("1 read", "2 reads"), the same in the verdicts, the report and
// the probe's table.
#pragma once

#include <string>

namespace pcl {

/// @v to three significant digits (lib/report.h's significant()), with
/// English thousands separators in its integer part: "14,201,502", "38.8",
/// "0.0412"; "0" for zero, "inf" for an unbounded value.
std::string readable_number(double v);

/// @unit as it reads after the number @v: its first word singular when @v
/// is exactly 1 ("1 read / million reads", "1 retry", "1 entry"), except
/// an abbreviation ("1 ns / lookup", "1 s"); unchanged otherwise.
std::string unit_for(double v, const std::string& unit);

/// readable_number(@v) and its unit ("1 read", "12.5 ns / lookup"), or the
/// number alone for a figure without a unit.
std::string figure_text(double v, const std::string& unit);

} // namespace pcl
