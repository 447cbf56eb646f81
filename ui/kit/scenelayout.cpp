// The one axis of a scene layout's view, clamped to its content.
#include "kit/scenelayout.h"

#include <algorithm>
#include <cmath>

namespace pcl::ui {

void SceneLayout::clampView(double first, double count, double total, double minCount, bool wholeFirst)
{
    if (total <= 0) {
        fit();
        return;
    }
    count = count <= 0 ? total : std::clamp(count, std::min(total, minCount), total);
    first_ = std::clamp(wholeFirst ? std::floor(first) : first, 0.0, total - count);
    count_ = count >= total ? 0 : count;
}

} // namespace pcl::ui
