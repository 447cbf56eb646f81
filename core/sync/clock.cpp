#include "sync/clock.h"

#include <thread>

namespace pcl::sync {

namespace {
double calibrate() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    // 20 ms against steady_clock gives the tick rate to better than 0.1%,
    // which is far below the noise of any lock timing.
    const std::uint64_t n0 = now_ns();
    const std::uint64_t t0 = ticks();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const std::uint64_t n1 = now_ns();
    const std::uint64_t t1 = ticks();
    if (t1 <= t0)
        return 1.0;
    return static_cast<double>(n1 - n0) / static_cast<double>(t1 - t0);
#else
    return 1.0;
#endif
}
} // namespace

double ns_per_tick() noexcept
{
    static const double ratio = calibrate();
    return ratio;
}

} // namespace pcl::sync
