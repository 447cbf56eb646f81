// The size of a cache line on the CPUs the engine runs on (x86-64, and the
// 64-byte lines of current ARM64 cores): what a structure is aligned and
// padded to so that data two CPUs write apart never share a line (false
// sharing), as the kernel's ____cacheline_aligned_in_smp does. The modelled
// machines' lines are named, not addressed (sched/cache_lines.h), and do
// not depend on it.
#pragma once

#include <cstddef>

namespace pcl {

inline constexpr std::size_t kCacheLine = 64;

} // namespace pcl
