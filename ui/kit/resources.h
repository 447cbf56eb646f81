// The library's compiled-in resources (the icon, the bundled scenarios, the
// user guide): a static library's resources are not registered on their
// own, so everything that reads ":/pagecache-lab/..." calls this first.
#pragma once

namespace pcl::ui {

/// Registers the resources once; cheap after the first call.
void registerResources();

} // namespace pcl::ui
