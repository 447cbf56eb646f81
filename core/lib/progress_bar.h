// A progress bar on stderr for work that takes a while (a run, a sweep, a
// benchmark): drawn only when stderr is a terminal and the work has taken
// more than a second, so that logs and pipes get no control characters and
// short commands no flicker.
#pragma once

#include <chrono>
#include <iosfwd>
#include <mutex>
#include <string>

namespace pcl {

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

    /// Whether it draws at all.
    bool enabled() const { return enabled_; }

    static bool stderr_is_terminal();

private:
    std::ostream& err_;
    bool enabled_;
    bool drawn_ = false;
    std::mutex mu_;
    /// The host's clock, also for a run on a modelled machine: the person
    /// at the terminal waits in host time.
    using HostWallClock = std::chrono::steady_clock;
    HostWallClock::time_point start_, last_;
};

} // namespace pcl
