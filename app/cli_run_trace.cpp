#include "cli_run_trace.h"

#include "lib/report.h"

#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <string_view>

namespace pcl::cli {

namespace {

[[noreturn]] void not_a_window(const std::string& given)
{
    throw ArgError("--trace-window: expected FROM:TO, seconds of run time (e.g. 0.5:1.2), got '" + given + "'");
}

/// One end of --trace-window (@given): seconds of run time, a finite number.
double window_end(std::string_view text, const std::string& given)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
        not_a_window(given);
    return v;
}

/// "0.5" for 0.5, "2" for 2: as the user would write it.
std::string seconds(double s)
{
    std::string text = fixed(s, 6);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.')
        text.pop_back();
    return text;
}

} // namespace

void add_trace_options(ArgParser& parser)
{
    parser.add_string("trace-limit", std::to_string(ChromeTrace::kDefaultMaxEvents), "N|none",
        "with --out, the most events trace.json keeps, the first ones (about 60 MB of JSON, what Perfetto's UI "
        "opens without a wait); none keeps every one; when the limit cuts the trace, stderr says where");
    parser.add_string("trace-window", "", "FROM:TO",
        "with --out, keep in trace.json only the events from FROM to TO seconds of run time, e.g. 0.5:1.2 (the "
        "limit still applies); its counters too");
    parser.add_flag("no-trace",
        "with --out, write no trace.json (a sweep's --jobs lines use it: a run's trace is megabytes, its results "
        "kilobytes)");
}

TraceRequest trace_request(const ArgParser& parser)
{
    TraceRequest request;
    request.write = !parser.get_flag("no-trace");
    for (const char* option : { "trace-limit", "trace-window" }) {
        if (!parser.given(option))
            continue;
        if (parser.get_string("out").empty())
            throw ArgError(std::string("--") + option + " needs --out DIR: trace.json is one of the files it writes");
        if (!request.write)
            throw ArgError(std::string("--") + option + " chooses what trace.json keeps, and --no-trace writes none");
    }
    if (const std::string& limit = parser.get_string("trace-limit"); limit == "none") {
        request.max_events = ChromeTrace::kNoLimit;
    } else {
        std::uint64_t n = 0;
        try {
            n = parse_uint(limit, "--trace-limit");
        } catch (const ArgError&) {
            throw ArgError("--trace-limit: expected N, a number of events (500000, 1M), or none, got '" + limit + "'");
        }
        if (n == 0)
            throw ArgError("--trace-limit: 0 keeps no event: give 1 or more, none for every event, or --no-trace");
        request.max_events = static_cast<std::size_t>(n);
    }
    if (const std::string& window = parser.get_string("trace-window"); !window.empty()) {
        const std::size_t colon = window.find(':');
        if (colon == std::string::npos)
            not_a_window(window);
        const double from = window_end(std::string_view(window).substr(0, colon), window);
        const double to = window_end(std::string_view(window).substr(colon + 1), window);
        if (from < 0 || to < 0)
            throw ArgError(
                "--trace-window: FROM and TO are seconds from the run's start, 0 or more: got '" + window + "'");
        if (from >= to)
            throw ArgError("--trace-window: FROM (" + seconds(from) + ") must be less than TO (" + seconds(to) + ")");
        request.window = ChromeTrace::Window { .from_s = from, .to_s = to };
    }
    return request;
}

void note_trace_cut(std::ostream& err, const ChromeTrace& trace, const RunResult& result)
{
    const auto& window = trace.window();
    if (const std::string cut = trace.cut_note(result); !cut.empty()) {
        err << kProgram << " run: trace.json was cut at its size limit: it holds " << cut
            << "; --trace-limit none keeps every event" << (window ? " of the window" : "")
            << " (a larger file), --trace-limit N the first N, --trace-window FROM:TO "
            << (window ? "a narrower span" : "the events of a span of the run") << '\n';
    } else if (window && trace.events_kept() == 0) {
        err << kProgram << " run: trace.json holds no event: none was recorded from " << seconds(window->from_s)
            << " s to " << seconds(window->to_s) << " s of the run, which ran " << fixed(result.wall_seconds, 3)
            << " s\n";
    }
}

} // namespace pcl::cli
