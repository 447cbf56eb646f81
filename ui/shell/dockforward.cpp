#include "shell/dockforward.h"

#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>

namespace pcl::ui {

void bringForward(QDockWidget* dock)
{
    dock->show();
    if (auto* window = qobject_cast<QMainWindow*>(dock->parentWidget()); window && !dock->isFloating()) {
        // The tab bars as the docks shown now make them.
        window->layout()->activate();
        dock->lower();
    }
    dock->raise();
}

} // namespace pcl::ui
