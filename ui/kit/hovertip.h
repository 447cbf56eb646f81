// The views' hover text: a widget that knows what is under a point answers
// QEvent::ToolTip with it, or hides the tip where there is nothing to say.
#pragma once

#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace pcl::ui {

/// Handles @e for @widget if it is a tooltip request, showing
/// @widget->toolTipAt(pos) (empty: no tip); returns whether it was one.
template <class View> bool showHoverTip(View* widget, QEvent* e)
{
    if (e->type() != QEvent::ToolTip)
        return false;
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = widget->toolTipAt(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, widget);
    return true;
}

} // namespace pcl::ui
