// The page sets that index measurements run on: which offsets of a file are
// cached (dense or sparse), which nearby offsets are not, and a shuffled
// order to visit them in. The index benchmark and the lesson probes use the
// same sets, so a figure of one can be read beside the other.
//
//   dense   offsets 0..n-1: a file read from its start, as readahead fills
//           it; an absent offset is one past the cached end (n..2n-1)
//   sparse  one page in every kSparseStride offsets, at a seeded place in
//           its block (page i at i * 64 + jitter): about one page per
//           64-slot radix node, the layout behind the worst case of the
//           radix-tree pagecache (2002) thread, "a few cached pages with
//           offsets uniformly distributed across the whole file"; an absent
//           offset lies in the same block, half a block away from the page
#pragma once

#include "base/enum_words.h"
#include "base/page.h"
#include "base/splitmix64.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pcl {

enum class PageLayout : std::uint8_t {
    Dense,  ///< offsets 0..n-1
    Sparse, ///< one page per kSparseStride offsets
};

/// The layouts' names, in the order of the enumeration.
inline constexpr std::array<std::string_view, 2> kPageLayoutNames { "dense", "sparse" };
/// Offsets per page of the sparse layout.
inline constexpr pgoff_t kSparseStride = 64;

/// "dense" or "sparse"; "?" for a value outside the enumeration.
constexpr std::string_view page_layout_name(PageLayout layout) noexcept
{
    return enum_word(kPageLayoutNames, layout);
}

/// The layout named @name, or nothing.
constexpr std::optional<PageLayout> parse_page_layout(std::string_view name) noexcept
{
    return parse_enum_word<PageLayout>(kPageLayoutNames, name);
}

/// One file's cached offsets under a layout, and as many offsets that are
/// not cached.
struct LayoutOffsets {
    std::vector<pgoff_t> present; ///< ascending; present[i] is page i's offset
    std::vector<pgoff_t> absent;  ///< absent[i]: an uncached offset beside present[i] (see the file comment)
};

/// The @n offsets of one file under @layout; the sparse layout's jitter is
/// drawn from @rng (the dense one draws nothing).
LayoutOffsets layout_offsets(PageLayout layout, std::uint64_t n, SplitMix64& rng);

/// A uniform permutation of 0..n-1 (Fisher-Yates over @rng): an order of
/// visits that the CPU's prefetcher cannot follow, so that a lookup that
/// misses the cache is measured as one.
std::vector<std::uint64_t> shuffled_order(std::uint64_t n, SplitMix64& rng);

} // namespace pcl
