// What part of its content a view shows: along each axis a range of the
// content's own units (page indexes, buckets, nodes, nanoseconds, pixels of
// a laid-out scene) spread over a strip of the widget. Every structure view
// zooms, pans and fits through this one piece of arithmetic, so a wheel
// notch, a drag and a double-click do the same in each of them.
#pragma once

#include <QPointF>

#include <limits>

namespace pcl::ui {

/// One axis: [first, first + span) of the content shown across @pixels
/// widget pixels from @origin, kept within [lo, hi] and no narrower than
/// @minSpan nor wider than @maxSpan. An axis with no pixels does not move.
struct ViewAxis {
    static constexpr double kUnbounded = std::numeric_limits<double>::infinity();

    double first = 0;
    double span = 0;
    double lo = -kUnbounded;
    double hi = kUnbounded;
    double minSpan = 0;
    double maxSpan = kUnbounded;
    double origin = 0;
    double pixels = 0;

    bool moves() const { return pixels > 0 && span > 0; }
    double unitsPerPixel() const { return pixels > 0 ? span / pixels : 0; }
    /// The content coordinate under widget coordinate @px.
    double at(double px) const { return first + (px - origin) * unitsPerPixel(); }
    /// @span clamped to the limits, then @first to the bounds.
    void clamp();
};

class Viewport {
public:
    /// How much one wheel notch (120 eighths of a degree) towards the user
    /// narrows the range; away from the user widens it by the inverse.
    static constexpr double kZoomPerNotch = 0.8;

    ViewAxis x;
    ViewAxis y;

    /// Zooms by @notches around @cursor: the content under the cursor
    /// stays under it along every axis that moves.
    void zoomAround(QPointF cursor, double notches);
    /// Moves the content by @pixels, as a drag by that much: the content
    /// under the press point follows the pointer.
    void pan(QPointF pixels);
    /// The whole content along every bounded axis.
    void fit();
};

} // namespace pcl::ui
