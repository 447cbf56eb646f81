#include "kit/resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initPclResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace pcl::ui {

void registerResources()
{
    [[maybe_unused]] static const bool registered = [] {
        initPclResources();
        return true;
    }();
}

} // namespace pcl::ui
