// A run's tables as CSV, for spreadsheets and plotting tools: the metrics
// time series (one row per sample, one column per figure of the result
// JSON's "series") and the lock table (one row per named lock and per lock
// class, the columns of the JSON's "locks"). The columns are the JSON's
// member names, so both forms read alike (docs/result-format.md).
#pragma once

#include "sim/run_result.h"

#include <string>

namespace pcl {

/// One header line, then one row per sample of @r.series.
std::string series_csv(const RunResult& r);
/// One header line ("kind" first: lock or class), then a row per named lock
/// and per lock class, each sorted by contentions as the summary prints them.
std::string locks_csv(const RunResult& r);

} // namespace pcl
