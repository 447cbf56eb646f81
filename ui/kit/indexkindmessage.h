// Why a view of one kind of index (the hash or the skip list) has nothing
// to show: there is no run, or the run indexes its pages with another kind.
// Said once so that every such view words it the same way.
#pragma once

#include "index/index_kind.h"

#include <QString>

namespace pcl::ui {

class StructureSource;

/// What the view of @shown's index says for @source's run: how to get a
/// run of it when there is none, which index the run has instead when it
/// is another, empty when the run's index is @shown. @structure names it in
/// a sentence ("the page hash"), @view names the view ("hash").
QString indexKindMessage(const StructureSource& source, IndexKind shown, const QString& structure, const QString& view);

} // namespace pcl::ui
