// A view's scene, built from its layout when something changed (snapshot,
// range, size, palette) and reused by every paint and hit test until then:
// the tooltip of a still frame costs a lookup, not a layout.
#pragma once

#include <utility>

namespace pcl::ui {

template <class Scene> class SceneCache {
public:
    /// The scene, built by @build first if it is out of date.
    template <class Build> const Scene& get(Build&& build) const
    {
        if (dirty_) {
            scene_ = std::forward<Build>(build)();
            dirty_ = false;
        }
        return scene_;
    }
    void invalidate() { dirty_ = true; }

private:
    mutable Scene scene_;
    mutable bool dirty_ = true;
};

} // namespace pcl::ui
