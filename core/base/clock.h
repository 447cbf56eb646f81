// Cheap timestamps for lock statistics.
//
// Every instrumented acquisition reads the clock twice (lockstat's wait and
// hold times), so the clock is the time-stamp counter where there is one:
// a few nanoseconds instead of clock_gettime's twenty. Statistics are kept in
// ticks and converted to nanoseconds only when read.
#pragma once

#include <chrono>
#include <cstdint>

namespace pcl {

/// A monotonic tick count: the TSC on x86 (constant and non-stop on the
/// machines this runs on), nanoseconds of steady_clock elsewhere.
inline std::uint64_t ticks() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    // The compiler's builtin, not <x86intrin.h>: that header declares every
    // vector intrinsic (about 50,000 lines) and this one is included almost
    // everywhere.
    return __builtin_ia32_rdtsc();
#else
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

/// The clock's calibration: the tick rate measured once against
/// steady_clock, and a common origin.
struct TickCalibration {
    double ns_per_tick = 1.0;
    std::uint64_t base_ticks = 0;
    std::uint64_t base_ns = 0; ///< steady_clock nanoseconds at base_ticks
};
/// Measured on first use (20 ms), then constant.
const TickCalibration& tick_calibration() noexcept;

/// Nanoseconds per tick.
inline double ns_per_tick() noexcept
{
    return tick_calibration().ns_per_tick;
}

inline std::uint64_t ticks_to_ns(std::uint64_t t) noexcept
{
    return static_cast<std::uint64_t>(static_cast<double>(t) * ns_per_tick());
}

/// Monotonic nanoseconds: the tick count converted, on the steady_clock
/// origin. Every timestamp and duration of the simulator is taken with it:
/// on a virtual machine clock_gettime can cost 25 ns or more, several times
/// a minor fault's bookkeeping, while the TSC costs a few. The conversion
/// is exact to the calibration's precision (about 0.1%), the same for every
/// reading, so times taken with it are consistent with one another.
inline std::uint64_t now_ns() noexcept
{
    const TickCalibration& c = tick_calibration();
    // Signed, so that a reading a few ticks behind the origin on another
    // core cannot wrap around.
    const auto since = static_cast<std::int64_t>(ticks() - c.base_ticks);
    return c.base_ns
        + static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<double>(since) * c.ns_per_tick));
}

} // namespace pcl
