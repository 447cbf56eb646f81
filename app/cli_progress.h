// What a long command shows and how it stops: a progress bar on stderr
// when stderr is a terminal and the work has taken more than a second, and
// Ctrl+C turned into a clean stop (the run under way ends as "cancelled",
// what was finished is written, and the command says what was not).
#pragma once

#include "lib/progress_bar.h"
#include "sim/metrics.h"
#include "sim/scenario.h"

#include <atomic>
#include <iosfwd>
#include <string>

namespace pcl::cli {

/// What the first Ctrl+C does.
enum class Interrupt {
    Finish, ///< asks the command to stop and write what finished (interrupted())
    Abort,  ///< ends it at once, as the second Ctrl+C always does
};
/// Set by the first Ctrl+C (SIGINT) once install_interrupt_handler() ran,
/// which then says on stderr that the command is stopping. The second
/// Ctrl+C removes what was half written (lib/scratch_paths.h) and ends the
/// program at once with kInterruptedExit.
std::atomic<bool>& interrupted();
void install_interrupt_handler(Interrupt mode = Interrupt::Finish);
/// The exit code of a command stopped by Ctrl+C (128 + SIGINT, as a shell's).
inline constexpr int kInterruptedExit = 130;

/// How far @scenario's run is at @sample, 0 to 1: its running time against
/// its duration, or its operations against every CPU's sequence.
double run_fraction(const Scenario& scenario, const MetricsSample& sample, std::uint64_t operations_so_far);

/// The bar itself is the library's (lib/progress_bar.h), which the
/// benchmarks draw too.
using ProgressBar = pcl::ProgressBar;

} // namespace pcl::cli
