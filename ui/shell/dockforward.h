// Bringing a dock's tab to the front of its tab group, whenever it is
// asked: before the window is shown, and when the dock is already the
// last one raised.
#pragma once

class QDockWidget;

namespace pcl::ui {

/// Shows @dock and makes it the current tab of its group (a floating or
/// untabbed dock is only shown and raised).
///
/// QDockWidget::raise() alone does not always do it. The main window picks
/// a group's tab when the dock tells it that it went on top of its
/// siblings, and QWidget::raise() says so only if the dock was not on top
/// already: a step that raised it once (say while the lesson opened, before
/// the run was shown) leaves every later raise without effect, whatever
/// another dock's tab was chosen in between. And the group's tab bar is
/// rebuilt only when the window lays out again: a dock shown while the
/// window is hidden has no tab yet to pick. So the layout is brought up to
/// date first, and the dock goes under its siblings before it is raised.
void bringForward(QDockWidget* dock);

} // namespace pcl::ui
