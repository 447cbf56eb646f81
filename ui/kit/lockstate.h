// A lock's state in words and in colour, as every structure view shows it:
// "free", "held by CPU 3, 2 waiting"; Tracy's colours (held green, held and
// wanted yellow). One place, so the radix tree's node locks, the hash's
// bucket locks, the skip list's node locks and the page table's PTE locks
// say and show a state the same way.
#pragma once

#include "sync/instrumented_lock.h"

#include <QColor>
#include <QString>

#include <string>

namespace pcl::ui {

/// "free", "held", "held by CPU n", "held by n readers", each with ", n waiting" when CPUs wait.
QString lockText(const sync::LockState& state);
/// "@name: " and lockText(@state).
QString lockText(const std::string& name, const sync::LockState& state);

/// Held and wanted (or just released with waiters still queued): the
/// "wanted" colour; held: the "held" colour; otherwise @free.
QColor lockColor(const sync::LockState& state, const QColor& free);

} // namespace pcl::ui
