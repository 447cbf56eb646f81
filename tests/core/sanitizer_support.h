// Test support: whether this build runs under a sanitizer (GCC defines
// __SANITIZE_THREAD__ and __SANITIZE_ADDRESS__), so that stress tests can
// do fewer repetitions where every memory access costs ten times as much.
// The races and orders they look for stay the same; only the count drops.
#pragma once

namespace pcl::test {

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace pcl::test
