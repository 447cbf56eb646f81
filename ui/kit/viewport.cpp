#include "kit/viewport.h"

#include <algorithm>
#include <cmath>

namespace pcl::ui {

void ViewAxis::clamp()
{
    const double widest = std::min(maxSpan, hi - lo);
    span = std::clamp(span, std::min(minSpan, widest), widest);
    if (std::isfinite(lo) && first < lo)
        first = lo;
    if (std::isfinite(hi) && first + span > hi)
        first = std::max(lo, hi - span);
}

namespace {

void zoomAxis(ViewAxis& a, double cursor, double factor)
{
    if (!a.moves())
        return;
    const double frac = std::clamp((cursor - a.origin) / a.pixels, 0.0, 1.0);
    const double anchor = a.first + frac * a.span;
    a.span *= factor;
    a.clamp();
    a.first = anchor - frac * a.span;
    a.clamp();
}

void panAxis(ViewAxis& a, double pixels)
{
    if (!a.moves())
        return;
    a.first -= pixels * a.unitsPerPixel();
    a.clamp();
}

void fitAxis(ViewAxis& a)
{
    if (std::isfinite(a.lo) && std::isfinite(a.hi)) {
        a.first = a.lo;
        a.span = a.hi - a.lo;
    }
    a.clamp();
}

} // namespace

void Viewport::zoomAround(QPointF cursor, double notches)
{
    const double factor = std::pow(kZoomPerNotch, notches);
    zoomAxis(x, cursor.x(), factor);
    zoomAxis(y, cursor.y(), factor);
}

void Viewport::pan(QPointF pixels)
{
    panAxis(x, pixels.x());
    panAxis(y, pixels.y());
}

void Viewport::fit()
{
    fitAxis(x);
    fitAxis(y);
}

} // namespace pcl::ui
