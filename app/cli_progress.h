// What a long command shows and how it stops: a progress bar on stderr
// when stderr is a terminal and the work has taken more than a second, and
// Ctrl+C turned into a clean stop (the run under way ends as "cancelled",
// what was finished is written, and the command says what was not).
#pragma once

#include "sim/metrics.h"
#include "sim/scenario.h"

#include <atomic>
#include <chrono>
#include <iosfwd>
#include <mutex>
#include <string>

namespace pcl::cli {

/// Set by the first Ctrl+C (SIGINT) once install_interrupt_handler() ran;
/// a second Ctrl+C ends the program at once, as without the handler.
std::atomic<bool>& interrupted();
void install_interrupt_handler();
/// The exit code of a command stopped by Ctrl+C (128 + SIGINT, as a shell's).
inline constexpr int kInterruptedExit = 130;

/// How far @scenario's run is at @sample, 0 to 1: its running time against
/// its duration, or its operations against every CPU's sequence.
double run_fraction(const Scenario& scenario, const MetricsSample& sample, std::uint64_t operations_so_far);

class ProgressBar {
public:
    /// Draws on @err only if @enabled (by default: stderr is a terminal).
    explicit ProgressBar(std::ostream& err, bool enabled = stderr_is_terminal());
    ~ProgressBar();

    /// @fraction of the work done (0..1), @label says what is under way.
    /// Thread-safe; draws at most ten times a second, and not before the
    /// work has run for a second.
    void update(double fraction, const std::string& label);
    /// Clears the bar's line (before printing results).
    void finish();

    static bool stderr_is_terminal();

private:
    std::ostream& err_;
    bool enabled_;
    bool drawn_ = false;
    std::mutex mu_;
    std::chrono::steady_clock::time_point start_, last_;
};

} // namespace pcl::cli
