// Why a run ended, as a value code switches on rather than a word it
// compares. The words are what the result file's `ended_by` (run --out's
// summary.json), trace.json's metadata and a sweep's runs.csv have always
// held; only writing and reading meet them, through the one table below.
//
// A run ends by itself (every CPU did its sequence), at its deadline (the
// scenario's duration of running time), because it was asked to (Ctrl+C,
// the GUI's stop or a new run), or because the engine failed. A sweep adds
// two words of its own for the runs of its grid that have no result.
#pragma once

#include "base/enum_words.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pcl {

enum class RunEnd : std::uint8_t {
    None,      ///< "": the run goes on (RunLoop::ended_by until it ends)
    Finished,  ///< "finished": every CPU did its whole sequence
    Duration,  ///< "duration": the scenario's duration_seconds of running time ran out
    Cancelled, ///< "cancelled": the caller stopped it (Ctrl+C, RunOptions::cancel); what it did is kept
    Stopped,   ///< "stopped": the engine was stopped (the GUI's stop, or a new run replacing it)
    Failed,    ///< "failed": the engine failed (Engine::error says why), or the run could not start
    NotRun,    ///< "not run": a sweep's run that Ctrl+C stopped before it started
    Missing,   ///< "missing": a sweep's run whose result --collect could not read or that does not say
};

/// Every value, in the order of the enumeration.
inline constexpr std::array<RunEnd, 8> kRunEnds { RunEnd::None, RunEnd::Finished, RunEnd::Duration, RunEnd::Cancelled,
    RunEnd::Stopped, RunEnd::Failed, RunEnd::NotRun, RunEnd::Missing };
/// Their words, in the same order.
inline constexpr std::array<std::string_view, 8> kRunEndNames { "", "finished", "duration", "cancelled", "stopped",
    "failed", "not run", "missing" };

/// The word for @end; "?" for a value outside the enumeration.
constexpr std::string_view run_end_name(RunEnd end) noexcept
{
    return enum_word(kRunEndNames, end);
}

/// The value whose word is @name, or nothing for a word that is none of them.
constexpr std::optional<RunEnd> parse_run_end(std::string_view name) noexcept
{
    return parse_enum_word<RunEnd>(kRunEndNames, name);
}

/// Whether a run that ended so has its whole figures: it ran its sequences
/// or its duration to the end.
constexpr bool run_completed(RunEnd end) noexcept
{
    return end == RunEnd::Finished || end == RunEnd::Duration;
}

} // namespace pcl
