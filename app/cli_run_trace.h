// `run --out`'s trace.json: the options that choose what it keeps
// (--trace-limit N|none, --trace-window FROM:TO, --no-trace), read and
// checked, and the note on stderr when the size limit cut it, which the
// file's metadata alone would keep from whoever does not open it.
#pragma once

#include "lib/arg_parser.h"
#include "sim/chrome_trace.h"
#include "sim/run_result.h"

#include <cstddef>
#include <iosfwd>
#include <optional>

namespace pcl::cli {

/// Declares --trace-limit, --trace-window and --no-trace on `run`'s parser.
void add_trace_options(ArgParser& parser);

/// What the options ask of trace.json.
struct TraceRequest {
    bool write = true; ///< false: --no-trace
    std::size_t max_events = ChromeTrace::kDefaultMaxEvents;
    std::optional<ChromeTrace::Window> window;
};

/// Reads the options of add_trace_options. Throws ArgError naming the
/// option: a value that is not N or none, not FROM:TO seconds with 0 <=
/// FROM < TO, a --trace-limit or --trace-window without --out or with
/// --no-trace.
TraceRequest trace_request(const ArgParser& parser);

/// When the size limit cut @trace (written as trace.json), says on @err how
/// many events it kept, up to what run time, out of how many, and which
/// option keeps more; when a window held no event, says so. Nothing
/// otherwise.
void note_trace_cut(std::ostream& err, const ChromeTrace& trace, const RunResult& result);

} // namespace pcl::cli
