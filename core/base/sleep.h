// Sleeping for a time: the kernel's fsleep() / schedule_timeout(), for the
// waits that have nothing to wait on but the clock (the engine's pacing,
// the runner's drain period, a poll of RCU frees).
//
// On the host the thread sleeps in the host kernel; on a modelled machine
// (base/machine.h) the task sleeps in virtual time, and the others run.
#pragma once

#include "base/clock.h"
#include "base/machine_calls.h"

#include <chrono>
#include <cstdint>
#include <thread>

namespace pcl {

/// Sleeps until now_ns() reaches @deadline_ns (at once if it has).
inline void sleep_until_ns(std::uint64_t deadline_ns)
{
    if (on_modelled_machine()) [[unlikely]] {
        detail::machine_sleep_until(deadline_ns);
        return;
    }
    // The host sleeps for what is left on now_ns()'s own clock: the
    // deadline was taken on it, and steady_clock drifts from it by the
    // calibration's error over a long run.
    const std::uint64_t now = host_now_ns();
    if (deadline_ns > now)
        std::this_thread::sleep_for(std::chrono::nanoseconds(deadline_ns - now));
}

/// Sleeps for @ns.
inline void sleep_for_ns(std::uint64_t ns)
{
    if (on_modelled_machine()) [[unlikely]] {
        detail::machine_sleep_until(detail::machine_now_ns() + ns);
        return;
    }
    std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

} // namespace pcl
