// A picture of a widget as it is on screen, for a report or a slide: PNG
// (its pixels, at the screen's pixel ratio) or SVG (what it paints, drawn
// again as vector shapes and text), chosen by the file's extension. A
// structure view's own buttons (Fit, Follow) are left out.
#pragma once

#include <QString>

class QWidget;

namespace pcl::ui {

/// Writes @widget, its children included, to @path as PNG or SVG (by the
/// extension) atomically. False, with @error saying why, for another
/// extension, a widget with nothing to show, or a file that cannot be
/// written (which is then left as it was).
bool saveWidgetPicture(QWidget* widget, const QString& path, QString* error);

} // namespace pcl::ui
