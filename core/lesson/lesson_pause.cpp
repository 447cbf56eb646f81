#include "lesson/lesson_pause.h"

#include "sim/debugfs.h"
#include "sim/engine.h"
#include "sync/lock_stats.h"

#include <algorithm>

namespace pcl {

bool pause_reached(const LessonPause& pause, Engine& engine, const sync::LockRegistry& registry, bool ended)
{
    switch (pause.kind) {
    case LessonPause::Kind::None:
        return false;
    case LessonPause::Kind::RunEnds:
        return ended;
    case LessonPause::Kind::TreeHeight: {
        // The tallest file's: a step watches "the tree" grow a level.
        const Debugfs fs(engine);
        int height = 0;
        for (FileId f : fs.files())
            if (const PageIndex* index = fs.index(f))
                height = std::max(height, index->shape().height);
        return height >= int(pause.count);
    }
    case LessonPause::Kind::LockContentions:
        for (const sync::LockStatRow& row : registry.classes())
            if (row.name == pause.lock)
                return row.contentions >= pause.count;
        return false;
    case LessonPause::Kind::ReadaheadWasted:
        return Debugfs(engine).page_cache().stats().wasted_readahead >= pause.count;
    }
    return false;
}

} // namespace pcl
