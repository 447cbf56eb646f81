// The checkpoints of the modelled run on screen, with what the window had
// shown of the run at each: taking the run back to a moment restores the
// nearest checkpoint before it (sim/modelled_run.h) and re-executes only
// from there, so that going back costs at most the time between two
// checkpoints, wherever the moment lies.
//
// A checkpoint is taken whenever a quarter of a second of this computer's
// time has gone into computing the run since the last one: a rewind then
// re-executes at most that much, whatever the machine's speed. They are
// kept up to kMax; past it, the one whose two neighbours are closest goes,
// so that they stay spread over the whole run.
#pragma once

#include "events/event.h"
#include "sim/chrome_trace.h"
#include "sim/modelled_run.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pcl::ui {

class RunCheckpoints {
public:
    /// This computer's time spent computing the run between two checkpoints.
    static constexpr std::uint64_t kEveryHostNs = 250'000'000;
    /// Checkpoints kept at most.
    static constexpr std::size_t kMax = 256;

    struct Entry {
        std::unique_ptr<ModelledRun::Checkpoint> run;
        std::size_t changes = 0;   ///< the run's changes made before it
        ChromeTrace::Mark trace;   ///< the trace as it stood
        std::vector<Event> recent; ///< the newest events drained before it
        std::uint64_t notShown = 0;
        std::uint64_t runningNs() const noexcept { return run->running_ns(); }
    };

    /// How much of this computer's time between two (kEveryHostNs; 0: at
    /// every chance, for a test).
    void setEveryHostNs(std::uint64_t ns) noexcept { everyNs_ = ns; }
    /// Forgets every checkpoint (a new run); taking them is allowed again.
    void clear();
    /// No more checkpoints for this run (the host refused one).
    void disable();
    bool enabled() const noexcept { return enabled_; }

    /// @hostNs more of this computer's time went into computing the run.
    void spent(std::uint64_t hostNs) noexcept { spentNs_ += hostNs; }
    /// Whether a checkpoint is due where the run now stands: a quarter of a
    /// second of computing since the last, and this computer not short of
    /// memory (the checkpoints' processes keep the pages the run has
    /// written since; below 15 % of its memory available, none is taken).
    bool due(std::uint64_t runningNs) const;
    /// The share of this computer's memory available (/proc/meminfo's
    /// MemAvailable over MemTotal; 1 where it cannot be read).
    static double memoryAvailable();
    /// Keeps @e, in order of running time (one at the same moment is
    /// replaced: the newer has the changes made there), and thins them.
    void add(Entry e);
    /// The latest at or before @runningNs (nullptr: none).
    const Entry* latestAtOrBefore(std::uint64_t runningNs) const noexcept;
    /// Forgets those after @runningNs: the run changed there, and what they
    /// hold is another course's.
    void dropAfter(std::uint64_t runningNs);

    std::size_t size() const noexcept { return entries_.size(); }
    /// The machine's memory they hold, in bytes at their moments (shared
    /// with the run until it writes over it).
    std::size_t bytes() const noexcept;

private:
    std::vector<Entry> entries_;
    std::uint64_t spentNs_ = 0;
    std::uint64_t everyNs_ = kEveryHostNs;
    bool enabled_ = true;
};

} // namespace pcl::ui
