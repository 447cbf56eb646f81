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

/// A colour fixed in every scheme, as 0xRRGGBB, read as a QColor by a call.
struct Fixed {
    QRgb rgb;
    QColor operator()() const { return QColor(rgb); }
};

/// A colour of both schemes: the standard one and the colour-blind-safe
/// one, chosen on each call.
struct Schemed {
    QRgb standard;
    Fixed colorBlindSafe;
    QColor operator()() const { return safe() ? colorBlindSafe() : QColor(standard); }
};

// Okabe and Ito's eight colours.
namespace okabeIto {
inline constexpr Fixed orange { 0xe69f00 };
inline constexpr Fixed skyBlue { 0x56b4e9 };
inline constexpr Fixed bluishGreen { 0x009e73 };
inline constexpr Fixed yellow { 0xf0e442 };
inline constexpr Fixed blue { 0x0072b2 };
inline constexpr Fixed vermillion { 0xd55e00 };
inline constexpr Fixed reddishPurple { 0xcc79a7 };
/// Their black, as a grey that shows on a dark theme too.
inline constexpr Fixed grey { 0x808080 };
} // namespace okabeIto

// Locks (Tracy).
inline constexpr Schemed lockHeld { 0x3fb950, okabeIto::bluishGreen };
inline constexpr Schemed lockWanted { 0xe3b341, okabeIto::yellow };
inline constexpr Schemed lockBlocked { 0xe04f4f, okabeIto::vermillion };

// CPU states on the timeline.
inline QColor cpuRunning()
{
    return safe() ? okabeIto::skyBlue() : QColor(0x4c, 0x9a, 0xe6).lighter(125);
}
inline constexpr Schemed cpuSpinning = lockWanted;
inline constexpr Schemed cpuBlocked = lockBlocked;
inline constexpr Schemed cpuPageWait { 0x9b6bd6, okabeIto::reddishPurple };
inline constexpr Schemed cpuInIo { 0x2f6fb5, okabeIto::blue };
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
inline constexpr Schemed cached { 0x4c9ae6, okabeIto::skyBlue };
/// A page that was in the cache and was evicted.
inline constexpr Schemed evicted { 0x9a865c, okabeIto::grey };

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
