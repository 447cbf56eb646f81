#include "index/page_layout.h"

#include <utility>

namespace pcl {

LayoutOffsets layout_offsets(PageLayout layout, std::uint64_t n, SplitMix64& rng)
{
    LayoutOffsets o;
    o.present.resize(n);
    o.absent.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (layout == PageLayout::Dense) {
            // No holes inside a dense file: a miss is a read past the cached end.
            o.present[i] = i;
            o.absent[i] = n + i;
        } else {
            // The absent offset shares the page's block, so a radix tree with
            // 64 or more slots per node walks down to the page's leaf and a
            // hash searches a chain, rather than both stopping at once.
            const pgoff_t jitter = rng.below(kSparseStride);
            o.present[i] = i * kSparseStride + jitter;
            o.absent[i] = i * kSparseStride + (jitter + kSparseStride / 2) % kSparseStride;
        }
    }
    return o;
}

std::vector<std::uint64_t> shuffled_order(std::uint64_t n, SplitMix64& rng)
{
    std::vector<std::uint64_t> order(n);
    for (std::uint64_t i = 0; i < n; ++i)
        order[i] = i;
    for (std::uint64_t i = n; i > 1; --i)
        std::swap(order[i - 1], order[rng.below(i)]);
    return order;
}

} // namespace pcl
