// The readahead log: every readahead window of a run (or of the host kernel,
// measured by `pagecache-lab-cli probe readahead`) as CSV, one window a line:
//
//     time_us,cpu,file,start,size,async_size,kind,rule
//
// time in microseconds from the first record of its source; start, size and
// async_size in pages (async_size: the pages from the PG_readahead marker to
// the window's end, as struct file_ra_state has it); kind `sync` (opened on a
// miss) or `async` (the marker was hit); rule the RaRule that chose it
// (ra_rule_name), or `host` for a window measured on the running kernel.
// `run --readahead-log` and the probe write it, the readahead view reads it:
// this file is the one definition of the format for all three.
#pragma once

#include "base/page.h"
#include "events/event.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

inline constexpr std::string_view kReadaheadLogHeader = "time_us,cpu,file,start,size,async_size,kind,rule";

/// One line of the log.
struct ReadaheadLogRow {
    std::uint64_t time_us = 0;    ///< since the first record of its source
    std::uint32_t cpu = 0;        ///< simulated CPU that opened it (0 for the host)
    FileId file = 0;              ///< the file (0 for the host's scratch file)
    pgoff_t start = 0;            ///< first page of the window
    std::uint64_t size = 0;       ///< pages in the window
    std::uint64_t async_size = 0; ///< pages from the marker to the end (<= size)
    bool async = false;           ///< opened at the marker (async) or on a miss (sync)
    std::string rule;             ///< ra_rule_name of the rule that chose it, or "host"

    friend bool operator==(const ReadaheadLogRow&, const ReadaheadLogRow&) = default;
};

/// The row of a ReadaheadWindow record @e (see EventKind), timed from
/// @origin_ns (a record older than that is at time 0).
ReadaheadLogRow readahead_log_row(const Event& e, std::uint64_t origin_ns);

/// @row as one CSV line, with its newline.
std::string readahead_log_line(const ReadaheadLogRow& row);

/// The header line and @rows.
std::string readahead_log_csv(const std::vector<ReadaheadLogRow>& rows);

/// Parses a log. Returns an empty string and fills @out, or a message naming
/// the bad line ("line 4: size is not a non-negative integer: 'x'") and
/// leaves @out empty. Blank lines are skipped; a line may end in CR.
std::string parse_readahead_log(std::string_view text, std::vector<ReadaheadLogRow>& out);

} // namespace pcl
