// Mixing two colours, the way every view shades between a background and a
// meaning (occupancy, share, a node mid-change): channel by channel in RGB,
// so a mix with the window colour reads the same in a light and a dark theme.
#pragma once

#include <QColor>

namespace pcl::ui::colors {

/// @a at k = 0, @b at k = 1, linear in between; the result is opaque.
inline QColor mix(const QColor& a, const QColor& b, double k)
{
    return QColor::fromRgbF(float(a.redF() * (1 - k) + b.redF() * k), float(a.greenF() * (1 - k) + b.greenF() * k),
        float(a.blueF() * (1 - k) + b.blueF() * k));
}

} // namespace pcl::ui::colors
