// Cheap timestamps for lock statistics, and the simulator's clock.
//
// Every instrumented acquisition reads the clock twice (lockstat's wait and
// hold times), so the clock is the time-stamp counter where there is one:
// a few nanoseconds instead of clock_gettime's twenty. Statistics are kept in
// ticks and converted to nanoseconds only when read.
//
// On a modelled machine (base/machine.h) both clocks are the machine's
// virtual time and a tick IS a nanosecond: a modelled run must give the same
// figures on every host, and the host's tick rate (its TSC frequency,
// calibrated per process) is not the same on every host, nor exactly the
// same twice on one. So the calibration is never applied to a modelled
// tick: ticks_to_ns() on a task of a modelled machine is the identity, and a
// statistic read later (on another thread) is converted by the unit of the
// clock it was taken with (TickUnit, which a lock registry carries).
#pragma once

#include "base/machine_calls.h"

#include <chrono>
#include <cstdint>

namespace pcl {

/// The host's monotonic tick count: the TSC on x86 (constant and non-stop
/// on the machines this runs on), nanoseconds of steady_clock elsewhere.
/// Host time always, also on a task of a modelled machine: for what is
/// genuinely host time (the clock's own calibration, host measurements).
inline std::uint64_t host_ticks() noexcept
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

/// What a tick count was taken with: the host's tick counter (converted by
/// the calibration) or a modelled machine's clock (nanoseconds already).
enum class TickUnit : unsigned char { host, virtual_ns };

/// The unit of ticks() on the calling thread (or task).
inline TickUnit current_tick_unit() noexcept
{
    return on_modelled_machine() ? TickUnit::virtual_ns : TickUnit::host;
}

/// A monotonic tick count for short intervals (lock wait and hold times):
/// host_ticks() on the host, the machine's virtual nanoseconds on a
/// modelled machine. The host's cost is one TLS load and a branch more than
/// the bare counter.
inline std::uint64_t ticks() noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        return detail::machine_now_ns();
    return host_ticks();
}

/// Nanoseconds per host tick.
inline double ns_per_tick() noexcept
{
    return tick_calibration().ns_per_tick;
}

/// Converts a count of @unit ticks to nanoseconds.
inline std::uint64_t ticks_to_ns(std::uint64_t t, TickUnit unit) noexcept
{
    if (unit == TickUnit::virtual_ns) [[unlikely]]
        return t;
    return static_cast<std::uint64_t>(static_cast<double>(t) * ns_per_tick());
}

/// Converts a count of ticks() taken on the calling thread (or task).
inline std::uint64_t ticks_to_ns(std::uint64_t t) noexcept
{
    return ticks_to_ns(t, current_tick_unit());
}

/// Converts nanoseconds to ticks() of the calling thread (or task).
inline std::uint64_t ns_to_ticks(std::uint64_t ns) noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        return ns;
    return static_cast<std::uint64_t>(static_cast<double>(ns) / ns_per_tick());
}

/// The host's monotonic nanoseconds: the tick count converted, on the
/// steady_clock origin. Host time always: for what is genuinely host time
/// (how long a run took on the wall clock, a host measurement).
inline std::uint64_t host_now_ns() noexcept
{
    const TickCalibration& c = tick_calibration();
    // Signed, so that a reading a few ticks behind the origin on another
    // core cannot wrap around.
    const auto since = static_cast<std::int64_t>(host_ticks() - c.base_ticks);
    return c.base_ns
        + static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<double>(since) * c.ns_per_tick));
}

/// Monotonic nanoseconds: on the host host_now_ns(), on a modelled machine
/// its virtual time. Every timestamp and duration of the simulator is taken
/// with it: on a virtual machine clock_gettime can cost 25 ns or more,
/// several times a minor fault's bookkeeping, while the TSC costs a few. The
/// host's conversion is exact to the calibration's precision (about 0.1%),
/// the same for every reading, so times taken with it are consistent with
/// one another.
inline std::uint64_t now_ns() noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        return detail::machine_now_ns();
    return host_now_ns();
}

} // namespace pcl
