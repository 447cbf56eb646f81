#include "sync/clock.h"

#include <thread>

namespace pcl::sync {

namespace {

std::uint64_t steady_ns() noexcept
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

TickCalibration calibrate() noexcept
{
    TickCalibration c;
#if defined(__x86_64__) || defined(__i386__)
    // 20 ms against steady_clock gives the tick rate to better than 0.1%,
    // which is far below the noise of any lock timing.
    const std::uint64_t n0 = steady_ns();
    const std::uint64_t t0 = ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::uint64_t n1 = steady_ns();
    const std::uint64_t t1 = ticks();
    if (t1 > t0)
        c.ns_per_tick = static_cast<double>(n1 - n0) / static_cast<double>(t1 - t0);
    c.base_ticks = t1;
    c.base_ns = n1;
#else
    // ticks() is steady_clock's nanoseconds already.
    c.base_ticks = c.base_ns = steady_ns();
#endif
    return c;
}

} // namespace

const TickCalibration& tick_calibration() noexcept
{
    static const TickCalibration calibration = calibrate();
    return calibration;
}

} // namespace pcl::sync
