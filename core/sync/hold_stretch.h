// The demo's critical-section stretch.
//
// The stretch holds every exclusive acquisition of the thread for an extra
// time before release, so that at demo speed a lock is held long enough for
// contention to become visible to a person (the engine's "critical-section
// stretch", set per scenario). It is per thread so the engine's CPUs are
// stretched and the GUI's readers are not.
#pragma once

#include "base/clock.h"
#include "base/machine_calls.h"
#include "base/task_local.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace pcl::sync {

namespace detail {
inline thread_local std::uint64_t t_hold_stretch_ticks = 0;
inline thread_local const std::atomic<bool>* t_hold_stretch_cut = nullptr;
PCL_TASK_LOCAL(t_hold_stretch_ticks);
PCL_TASK_LOCAL(t_hold_stretch_cut);
} // namespace detail

/// Sets the calling thread's critical-section stretch (0: none), in its
/// own ticks (a modelled machine's are nanoseconds). While @cut is true a
/// stretch ends early: the engine sets it to pause or stop without waiting
/// out stretched holds.
inline void set_hold_stretch_ns(std::uint64_t ns, const std::atomic<bool>* cut = nullptr) noexcept
{
    detail::t_hold_stretch_ticks = ns ? ns_to_ticks(ns) : 0;
    detail::t_hold_stretch_cut = cut;
}

namespace detail {
/// hold_stretch() once there is a stretch: out of line, so that the test
/// every release makes stays a load and a branch inlined into the lock.
[[gnu::noinline]] inline void hold_stretch_wait(std::uint64_t since, std::uint64_t stretch) noexcept
{
    const std::uint64_t until = since + stretch;
    const std::atomic<bool>* cut = t_hold_stretch_cut;
    if (on_modelled_machine()) [[unlikely]] {
        const std::uint64_t now = pcl::detail::machine_now_ns();
        if (now < until && !(cut && cut->load(std::memory_order_relaxed)))
            pcl::detail::machine_charge(until - now);
        return;
    }
    const double spin_limit_ticks = 50'000.0 / ns_per_tick();
    for (std::uint64_t now = host_ticks(); now < until; now = host_ticks()) {
        if (cut && cut->load(std::memory_order_relaxed))
            return;
        const std::uint64_t left = until - now;
        if (static_cast<double>(left) > spin_limit_ticks)
            std::this_thread::sleep_for(
                std::chrono::nanoseconds(std::min<std::uint64_t>(ticks_to_ns(left, TickUnit::host), 10'000'000)));
    }
}
} // namespace detail

/// Holds the lock for the thread's stretch, from hold start @since (ticks).
/// Short stretches spin, as a critical section that does work would; long
/// ones (beyond 50 us) sleep, in slices of at most 10 ms so that a cut is
/// seen promptly, so a demo run does not burn the CPUs of the machine it
/// runs on while the holder "works". On a modelled machine the holder is
/// charged the rest of the stretch: work in virtual time, during which the
/// other tasks run (and the ones that want the lock wait in virtual time).
inline void hold_stretch(std::uint64_t since) noexcept
{
    const std::uint64_t stretch = detail::t_hold_stretch_ticks;
    if (stretch == 0) [[likely]]
        return;
    detail::hold_stretch_wait(since, stretch);
}

} // namespace pcl::sync
