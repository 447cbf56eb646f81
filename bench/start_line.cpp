#include "start_line.h"

#include <ctime>

namespace pcl::bench {

std::uint64_t thread_cpu_ns()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

} // namespace pcl::bench
