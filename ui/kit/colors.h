// The colours every view shares, so that one meaning has one colour across
// the locks table, the CPU timeline, the charts and the structure views,
// and the legend a teacher points at once holds everywhere.
//
// Locks follow Tracy (held green, held and wanted yellow, blocked red); CPU
// states extend that: a CPU spinning on a lock is yellow, one sleeping on a
// lock red, one waiting for a page under I/O violet, one whose own read is
// in flight blue. Every colour has a second value in the colour-blind-safe
// scheme (colorscheme.h), read on each call: Okabe and Ito's colours, the
// same meanings (held bluish green, wanted yellow, blocked vermillion, page
// wait reddish purple, own read blue, running sky blue), chosen so that the
// five CPU states stay apart under protanopia and deuteranopia and differ
// in lightness as well.
#pragma once

#include "kit/colormix.h"
#include "kit/colorscheme.h"

#include <QColor>
#include <QPalette>

namespace pcl::ui::colors {

/// Whether the colour-blind-safe scheme is in use.
inline bool safe()
{
    return colorScheme() == ColorScheme::ColorBlindSafe;
}

// Okabe and Ito's eight colours.
namespace okabeIto {
inline QColor orange()
{
    return QColor(0xe6, 0x9f, 0x00);
}
inline QColor skyBlue()
{
    return QColor(0x56, 0xb4, 0xe9);
}
inline QColor bluishGreen()
{
    return QColor(0x00, 0x9e, 0x73);
}
inline QColor yellow()
{
    return QColor(0xf0, 0xe4, 0x42);
}
inline QColor blue()
{
    return QColor(0x00, 0x72, 0xb2);
}
inline QColor vermillion()
{
    return QColor(0xd5, 0x5e, 0x00);
}
inline QColor reddishPurple()
{
    return QColor(0xcc, 0x79, 0xa7);
}
/// Their black, as a grey that shows on a dark theme too.
inline QColor grey()
{
    return QColor(0x80, 0x80, 0x80);
}
} // namespace okabeIto

// Locks (Tracy).
inline QColor lockHeld()
{
    return safe() ? okabeIto::bluishGreen() : QColor(0x3f, 0xb9, 0x50);
}
inline QColor lockWanted()
{
    return safe() ? okabeIto::yellow() : QColor(0xe3, 0xb3, 0x41);
}
inline QColor lockBlocked()
{
    return safe() ? okabeIto::vermillion() : QColor(0xe0, 0x4f, 0x4f);
}

// CPU states on the timeline.
inline QColor cpuRunning()
{
    return safe() ? okabeIto::skyBlue() : QColor(0x4c, 0x9a, 0xe6).lighter(125);
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
    return safe() ? okabeIto::reddishPurple() : QColor(0x9b, 0x6b, 0xd6);
}
inline QColor cpuInIo()
{
    return safe() ? okabeIto::blue() : QColor(0x2f, 0x6f, 0xb5);
}
inline QColor cpuIdle(const QPalette& p)
{
    return p.color(QPalette::Window).darker(108);
}

/// Whether @p is a dark theme (light text on a dark base).
inline bool isDark(const QPalette& p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

/// What the timeline outlines: the lane of the CPU a step names, the waits
/// for the lock selected. The standard scheme keeps the desktop's selection
/// colour. Okabe and Ito's palette has no hue left that stays apart from the
/// five states' under protanopia and deuteranopia (their orange reads as
/// the spinning yellow, and as the standard scheme's), so the outline is
/// their black, which every state is far lighter than: it differs in
/// lightness, what every colour-vision deficiency and a grey projector keep.
/// On a dark theme, where black would vanish into the background, white.
inline QColor highlight(const QPalette& p)
{
    if (!safe())
        return p.color(QPalette::Highlight);
    return isDark(p) ? QColor(Qt::white) : QColor(Qt::black);
}

// Pages and entries.
/// A page in the cache, a page-table entry set: present, nothing happening.
inline QColor cached()
{
    return safe() ? okabeIto::skyBlue() : QColor(0x4c, 0x9a, 0xe6);
}
/// A page that was in the cache and was evicted.
inline QColor evicted()
{
    return safe() ? okabeIto::grey() : QColor(0x9a, 0x86, 0x5c);
}

// Series of the charts, in the order a chart adds them.
inline QColor series(int i)
{
    static const QColor kStandard[]
        = { QColor(0x2f, 0x6f, 0xb5), QColor(0xe0, 0x7b, 0x39), QColor(0x3f, 0xb9, 0x50), QColor(0xc8, 0x3e, 0x8c),
              QColor(0x8a, 0x6d, 0x3b), QColor(0x5b, 0xa8, 0xa0), QColor(0x9b, 0x6b, 0xd6), QColor(0x7f, 0x7f, 0x7f) };
    // Okabe and Ito's, the yellow last: a thin yellow line is faint on white.
    static const QColor kSafe[] = { okabeIto::blue(), okabeIto::orange(), okabeIto::bluishGreen(),
        okabeIto::reddishPurple(), okabeIto::vermillion(), okabeIto::skyBlue(), okabeIto::grey(), okabeIto::yellow() };
    return (safe() ? kSafe : kStandard)[i % 8];
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
