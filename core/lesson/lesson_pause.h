// When a lesson's step pauses its run by itself: a condition on what the
// running machine shows (a tree's height, a lock class's contentions, the
// wasted readahead), read as the views read it, without changing anything.
#pragma once

#include "lesson/lesson.h"

#include <optional>

namespace pcl {

class Debugfs;
namespace sync {
class LockRegistry;
}

/// Whether @pause holds now for the run @fs shows, whose locks @registry
/// counts; @ended: the run has ended. A step without a condition never
/// pauses.
bool pause_reached(const LessonPause& pause, const Debugfs& fs, const sync::LockRegistry& registry, bool ended);

/// A step's pause as a class sees it: due once the condition has held for
/// its shown_seconds of running time. One watch per run of a step; the
/// conditions only ever become true as a run goes on (a tree's height, a
/// count), so the first moment one held is the moment it was first seen.
class PauseWatch {
public:
    explicit PauseWatch(LessonPause pause = {})
        : pause_(std::move(pause))
    {
    }
    const LessonPause& pause() const noexcept { return pause_; }
    /// Whether the run, at @running_s seconds of running time, should pause
    /// now. A run that ended is due at once for RunEnds and never otherwise.
    bool due(const Debugfs& fs, const sync::LockRegistry& registry, double running_s, bool ended);
    /// The running time at which the condition was first seen to hold.
    std::optional<double> held_since() const noexcept { return since_; }

private:
    LessonPause pause_;
    std::optional<double> since_;
};

} // namespace pcl
