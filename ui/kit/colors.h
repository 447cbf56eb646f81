// The colours every view shares, so that one meaning has one colour across
// the locks table, the CPU timeline, the charts and the structure views,
// and the legend a teacher points at once holds everywhere.
//
// Locks follow Tracy (held green, held and wanted yellow, blocked red); CPU
// states extend that: a CPU spinning on a lock is yellow, one sleeping on a
// lock red, one waiting for a page under I/O violet, one whose own read is
// in flight blue. Chosen to stay distinct on a projector and for the common
// red-green colour deficiency (the states also differ in lightness).
#pragma once

#include "kit/colormix.h"

#include <QColor>
#include <QPalette>

namespace pcl::ui::colors {

// Locks (Tracy).
inline QColor lockHeld()
{
    return QColor(0x3f, 0xb9, 0x50);
}
inline QColor lockWanted()
{
    return QColor(0xe3, 0xb3, 0x41);
}
inline QColor lockBlocked()
{
    return QColor(0xe0, 0x4f, 0x4f);
}

// CPU states on the timeline.
inline QColor cpuRunning()
{
    return QColor(0x4c, 0x9a, 0xe6).lighter(125);
}
inline QColor cpuSpinning()
{
    return lockWanted();
}
inline QColor cpuBlocked()
{
    return lockBlocked();
}
inline QColor cpuPageWait()
{
    return QColor(0x9b, 0x6b, 0xd6);
}
inline QColor cpuInIo()
{
    return QColor(0x2f, 0x6f, 0xb5);
}
inline QColor cpuIdle(const QPalette& p)
{
    return p.color(QPalette::Window).darker(108);
}

// Series of the charts, in the order a chart adds them.
inline QColor series(int i)
{
    static const QColor kSeries[]
        = { QColor(0x2f, 0x6f, 0xb5), QColor(0xe0, 0x7b, 0x39), QColor(0x3f, 0xb9, 0x50), QColor(0xc8, 0x3e, 0x8c),
              QColor(0x8a, 0x6d, 0x3b), QColor(0x5b, 0xa8, 0xa0), QColor(0x9b, 0x6b, 0xd6), QColor(0x7f, 0x7f, 0x7f) };
    return kSeries[i % 8];
}

/// Whether @p is a dark theme (light text on a dark base).
inline bool isDark(const QPalette& p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

/// Heat: @t in [0, 1] from the background (cold) through yellow to red, for
/// rows and cells shaded by contention or occupancy.
inline QColor heat(double t, const QPalette& p)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const QColor base = p.color(QPalette::Base);
    const QColor mid = lockWanted();
    const QColor hot = lockBlocked();
    // Never fully saturated: the text on it must stay readable.
    return t < 0.5 ? mix(base, mid, t * 2 * 0.55) : mix(mix(base, mid, 0.55), hot, (t - 0.5) * 2 * 0.7);
}

} // namespace pcl::ui::colors
