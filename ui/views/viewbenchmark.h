// Frame time of the structure views: each view filled with a real core
// structure of 1K, 100K and 1M pages (its benchmarkLoad), then painted
// offscreen frame after frame, as the live view paints once per tick.
// `pagecache-lab --benchmark-views` prints the table docs/benchmarks.md
// quotes; the target is 30 frames per second (33 ms) at 1M pages.
#pragma once

#include <QString>

#include <array>

#include <cstdint>
#include <vector>

namespace pcl::ui {

struct ViewFrameTime {
    QString view;            ///< "radix", "hash", ...
    std::uint64_t pages = 0; ///< pages in the structure
    double load_ms = 0;      ///< building the structure and taking its snapshot
    double refresh_ms = 0;   ///< median time of one live refresh (a new snapshot), 0 where the view has none
    double paint_median_ms = 0;
    double paint_max_ms = 0;
    int frames = 0;
};

/// The sizes the benchmark measures, in pages: 1K, 100K and 1M.
inline constexpr std::array<std::uint64_t, 3> kViewBenchmarkPages { 1000, 100000, 1000000 };

/// Times every view at each of @pages, @frames paints each, at 1280x720.
std::vector<ViewFrameTime> benchmarkViews(const std::vector<std::uint64_t>& pages, int frames);

} // namespace pcl::ui
