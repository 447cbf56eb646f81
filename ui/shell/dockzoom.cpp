#include "shell/dockzoom.h"

#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>

#include <algorithm>
#include <cmath>
#include <utility>

namespace pcl::ui {

namespace {

bool sideArea(Qt::DockWidgetArea area)
{
    return area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
}

/// What @docks (at @sizes, one a dock) take of the window across their
/// areas: the largest dock of each area, summed over the areas.
int areaTotal(const QMainWindow& window, const QList<QDockWidget*>& docks, const QList<int>& sizes)
{
    QMap<Qt::DockWidgetArea, int> byArea;
    for (int i = 0; i < docks.size(); ++i) {
        int& largest = byArea[window.dockWidgetArea(docks[i])];
        largest = std::max(largest, sizes[i]);
    }
    int total = 0;
    for (const int s : byArea)
        total += s;
    return total;
}

/// Scales @sizes down so that @docks take at most @room together (areaTotal),
/// never below @floor: what they took before a zoom in (a layout set wide by
/// hand stays as wide).
void fitInto(const QMainWindow& window, const QList<QDockWidget*>& docks, QList<int>& sizes, int room, int floor)
{
    const int total = areaTotal(window, docks, sizes);
    const int allowed = std::max(room, floor);
    if (total <= allowed || total <= 0)
        return;
    const double k = double(allowed) / double(total);
    for (int& s : sizes)
        s = int(std::floor(s * k));
}

} // namespace

DockZoom::DockZoom(QMainWindow& window, QList<QDockWidget*> docks, double scale)
    : window_(window)
    , docks_(std::move(docks))
    , scale_(scale)
{
    window_.installEventFilter(this);
}

void DockZoom::restoreAtSize(const Layout& layout, QSize size)
{
    pendingSize_ = size;
    restore(layout);
}

bool DockZoom::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == &window_ && event->type() == QEvent::Resize && pendingSize_
        && !(window_.windowState() & Qt::WindowFullScreen)) {
        if (window_.size() == *pendingSize_)
            pendingSize_.reset();
        apply(reference_);
    }
    return QObject::eventFilter(watched, event);
}

DockZoom::Layout DockZoom::current() const
{
    // The docks' geometry as the layout gives it now, even before the
    // window is first shown.
    window_.layout()->activate();
    Layout layout { window_.saveState(), scale_, {} };
    for (QDockWidget* dock : docks_) {
        const Qt::DockWidgetArea area = window_.dockWidgetArea(dock);
        // A tab behind another keeps the size it had when it was in front,
        // and the main window moves it out of its sight: the tab in front,
        // inside the window, has the group's size.
        if (dock->isHidden() || dock->isFloating() || area == Qt::NoDockWidgetArea
            || !window_.rect().contains(dock->geometry().center()))
            continue;
        // Named with its area: a dock moved to another is a new layout.
        layout.sizes[dock->objectName() + QLatin1Char('@') + QString::number(int(area))]
            = sideArea(area) ? dock->width() : dock->height();
    }
    return layout;
}

void DockZoom::takeReference()
{
    // The layout changed by hand: other docks in front, moved, or resized by
    // more than the few pixels the window's own settling after a zoom moves
    // them (a table's rows, grown a step later, raise a dock's minimum).
    const Layout now = current();
    bool same = !applied_.sizes.isEmpty() && now.sizes.keys() == applied_.sizes.keys();
    for (auto it = now.sizes.begin(); same && it != now.sizes.end(); ++it) {
        const int then = applied_.sizes.value(it.key());
        same = std::abs(*it - then) <= std::max(6, then / 30);
    }
    if (!same)
        reference_ = now;
}

void DockZoom::aboutToChangeScale()
{
    if (referenceHeld_)
        return;
    takeReference();
    referenceHeld_ = true;
}

void DockZoom::setScale(double scale)
{
    // Zoomed twice before the docks followed the first (keys pressed in
    // quick succession, a loaded machine): the layout now has the new
    // font's minimums in it, at the old scale, and taken as the reference
    // the docks would grow by both.
    const bool held = std::exchange(referenceHeld_, false);
    if (scale == scale_)
        return;
    pendingSize_.reset();
    if (!held)
        takeReference();
    scale_ = scale;
    apply(reference_);
}

void DockZoom::restore(const Layout& layout)
{
    reference_ = layout;
    apply(layout);
    // A state read from the settings has no sizes: they are the ones it
    // gives, measured now.
    if (layout.sizes.isEmpty())
        reference_ = applied_;
}

void DockZoom::apply(const Layout& reference)
{
    window_.restoreState(reference.state);
    if (reference.scale > 0 && std::abs(scale_ / reference.scale - 1.0) > 1e-6) {
        const double k = scale_ / reference.scale;
        QList<QDockWidget*> across, down;
        QList<int> wide, high, wideBefore, highBefore;
        for (QDockWidget* dock : docks_) {
            const auto it = reference.sizes.find(
                dock->objectName() + QLatin1Char('@') + QString::number(int(window_.dockWidgetArea(dock))));
            if (it == reference.sizes.end() || window_.dockWidgetArea(dock) == Qt::NoDockWidgetArea)
                continue;
            const bool side = sideArea(window_.dockWidgetArea(dock));
            (side ? across : down).append(dock);
            (side ? wide : high).append(int(std::lround(*it * k)));
            (side ? wideBefore : highBefore).append(*it);
        }
        const bool in = k > 1;
        fitInto(
            window_, across, wide, int(window_.width() * kSideShare), in ? areaTotal(window_, across, wideBefore) : 0);
        fitInto(
            window_, down, high, int(window_.height() * kBottomShare), in ? areaTotal(window_, down, highBefore) : 0);
        resizeExactly(across, wide, Qt::Horizontal);
        resizeExactly(down, high, Qt::Vertical);
    }
    applied_ = current();
}

void DockZoom::resize(const QList<QDockWidget*>& docks, const QList<int>& sizes)
{
    QList<QDockWidget*> across, down;
    QList<int> wide, high;
    for (int i = 0; i < docks.size() && i < sizes.size(); ++i) {
        const bool side = sideArea(window_.dockWidgetArea(docks[i]));
        (side ? across : down).append(docks[i]);
        (side ? wide : high).append(int(std::lround(sizes[i] * scale_)));
    }
    fitInto(window_, across, wide, int(window_.width() * kSideShare), 0);
    fitInto(window_, down, high, int(window_.height() * kBottomShare), 0);
    resizeExactly(across, wide, Qt::Horizontal);
    resizeExactly(down, high, Qt::Vertical);
}

void DockZoom::resizeExactly(const QList<QDockWidget*>& docks, const QList<int>& sizes, Qt::Orientation o)
{
    if (docks.isEmpty())
        return;
    // resizeDocks sizes a tab group with its tab bar (under the docks at the
    // bottom): the dock comes out that much smaller, so it is asked again
    // for what it missed.
    window_.resizeDocks(docks, sizes, o);
    window_.layout()->activate();
    QList<int> again = sizes;
    bool short_ = false;
    for (int i = 0; i < docks.size(); ++i) {
        const int got = o == Qt::Horizontal ? docks[i]->width() : docks[i]->height();
        again[i] += sizes[i] - got;
        short_ = short_ || got != sizes[i];
    }
    if (short_)
        window_.resizeDocks(docks, again, o);
}

} // namespace pcl::ui
