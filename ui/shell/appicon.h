// The application icon (resources/pagecache-lab.svg, compiled into pcl_ui).
#pragma once

#include <QIcon>
#include <QPixmap>
#include <QSize>

namespace pcl::ui {

/// The icon as a QIcon, for windows and dialogs. Registers pcl_ui's resources
/// on first use (a static library's resources are not registered by itself).
QIcon applicationIcon();

/// The icon rendered at @size device-independent pixels for a screen of
/// @devicePixelRatio, sharp at any scale (drawn from the SVG, not scaled).
/// Widgets pass QGuiApplication::devicePixelRatio(), the highest of all
/// screens, so the picture stays sharp on whichever screen shows it.
QPixmap applicationIconPixmap(const QSize& size, qreal devicePixelRatio = 1.0);

} // namespace pcl::ui
