// The View menu's choice of colours: standard, or colour-blind safe
// (colorscheme.h), remembered from one session to the next.
#pragma once

class QMenu;

namespace pcl::ui {

/// Adds the "Colours" submenu to @menu, applies the scheme last chosen (the
/// settings' "View/colours"), and remembers each new choice there. Returns
/// the submenu.
QMenu* addColorSchemeMenu(QMenu* menu);

} // namespace pcl::ui
