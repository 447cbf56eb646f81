#include "lesson/lesson_pause.h"

#include "mm/page_cache.h"
#include "sim/debugfs.h"
#include "sync/lock_stats.h"

#include <algorithm>

namespace pcl {

bool pause_reached(const LessonPause& pause, const Debugfs& fs, const sync::LockRegistry& registry, bool ended)
{
    switch (pause.kind) {
    case LessonPause::Kind::None:
        return false;
    case LessonPause::Kind::RunEnds:
        return ended;
    case LessonPause::Kind::TreeHeight: {
        // The tallest file's: a step watches "the tree" grow a level.
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
        return fs.page_cache().stats().wasted_readahead >= pause.count;
    }
    return false;
}

bool PauseWatch::due(const Debugfs& fs, const sync::LockRegistry& registry, double running_s, bool ended)
{
    if (pause_.kind == LessonPause::Kind::None)
        return false;
    if (pause_.kind == LessonPause::Kind::RunEnds)
        return ended;
    if (!since_ && pause_reached(pause_, fs, registry, ended))
        since_ = running_s;
    return since_ && running_s - *since_ >= pause_.shown_seconds;
}

} // namespace pcl
