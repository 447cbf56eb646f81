// Why a view of one kind of index (the radix tree, the hash table, the skip
// list) has nothing to show: there is no run, or the run indexes its pages
// with another kind. Said once, in words for a student, so that a view's
// message and its tab's tooltip say the same thing.
#pragma once

#include "index/index_kind.h"

#include <QString>

#include <optional>

namespace pcl::ui {

class StructureSource;

/// Why the view of @shown's index does not apply to a run that indexes
/// pages with @used (nothing: the run has no file, only anonymous memory):
/// which index the run has, and what to choose to see @shown. Empty when
/// @used is @shown.
QString indexNotInUse(std::optional<IndexKind> used, IndexKind shown);

/// What the view of @shown's index says for @source's run: what to choose
/// when there is no run, indexNotInUse() when the run has another index,
/// empty when the run's index is @shown.
QString indexKindMessage(const StructureSource& source, IndexKind shown);

} // namespace pcl::ui
