// Cheap timestamps for lock statistics.
//
// Every instrumented acquisition reads the clock twice (lockstat's wait and
// hold times), so the clock is the time-stamp counter where there is one:
// a few nanoseconds instead of clock_gettime's twenty. Statistics are kept in
// ticks and converted to nanoseconds only when read.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace pcl::sync {

/// A monotonic tick count: the TSC on x86 (constant and non-stop on the
/// machines this runs on), nanoseconds of steady_clock elsewhere.
inline std::uint64_t ticks() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// Nanoseconds per tick, measured once against steady_clock on first use.
double ns_per_tick() noexcept;

inline std::uint64_t ticks_to_ns(std::uint64_t t) noexcept
{
    return static_cast<std::uint64_t>(static_cast<double>(t) * ns_per_tick());
}

/// Monotonic nanoseconds (steady_clock), for durations outside the lock path.
inline std::uint64_t now_ns() noexcept
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

} // namespace pcl::sync
