#include "base/clock.h"

#include <thread>
#include <utility>

namespace pcl {

namespace {

std::uint64_t steady_ns() noexcept
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

/// A steady_clock reading and the tick count at the same moment: the
/// reading bracketed by two tick reads, the tightest of several tries (a
/// thread preempted between the reads would skew the pair).
std::pair<std::uint64_t, std::uint64_t> clock_pair() noexcept
{
    std::uint64_t best_gap = ~std::uint64_t(0), ns = 0, at = 0;
    for (int i = 0; i < 16; ++i) {
        const std::uint64_t a = host_ticks();
        const std::uint64_t n = steady_ns();
        const std::uint64_t b = host_ticks();
        if (b >= a && b - a < best_gap) {
            best_gap = b - a;
            ns = n;
            at = a + (b - a) / 2;
        }
    }
    return { ns, at };
}

TickCalibration calibrate() noexcept
{
    TickCalibration c;
#if defined(__x86_64__) || defined(__i386__)
    // 20 ms against steady_clock, each end read as a tight pair, gives the
    // tick rate to about 0.01%, far below the noise of any timing here.
    const auto [n0, t0] = clock_pair();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto [n1, t1] = clock_pair();
    if (t1 > t0 && n1 > n0)
        c.ns_per_tick = static_cast<double>(n1 - n0) / static_cast<double>(t1 - t0);
    c.base_ticks = t1;
    c.base_ns = n1;
#else
    // host_ticks() is steady_clock's nanoseconds already.
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

} // namespace pcl
