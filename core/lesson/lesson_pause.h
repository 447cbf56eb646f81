// When a lesson's step pauses its run by itself: a condition on what the
// running machine shows (a tree's height, a lock class's contentions, the
// wasted readahead), read as the views read it, without changing anything.
#pragma once

#include "lesson/lesson.h"

namespace pcl {

class Engine;
namespace sync {
class LockRegistry;
}

/// Whether @pause holds now for the run of @engine, whose locks @registry
/// counts; @ended: the run has ended. A step without a condition never
/// pauses.
bool pause_reached(const LessonPause& pause, Engine& engine, const sync::LockRegistry& registry, bool ended);

} // namespace pcl
