// The project's own trace format: one access per line,
// `time_us,tid,op,file,offset,length` (docs/trace-format.md).
#pragma once

#include "workload/trace.h"

#include <iosfwd>

namespace pcl {

/// Parses a CSV trace. Empty lines and lines starting with '#' are ignored, as
/// is a first header line `time_us,tid,op,file,offset,length`. Events keep the
/// order of the lines. A bad line throws TraceError under BadLines::Stop and is
/// counted and skipped under BadLines::Skip.
Trace parse_trace_csv(std::istream& in, BadLines policy);

/// Writes @trace in the format parse_trace_csv reads, header first, so a
/// parsed strace can be kept as (and replayed from) a CSV.
void write_trace_csv(std::ostream& out, const Trace& trace);

} // namespace pcl
