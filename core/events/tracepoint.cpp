#include "events/tracepoint.h"

namespace pcl::trace {

void set_all(bool all) noexcept
{
    detail::t_all = all;
}

ThreadTrace::ThreadTrace(EventRing* ring, int cpu, bool all) noexcept
{
    detail::t_ring = ring;
    detail::t_cpu = cpu;
    detail::t_all = all;
    detail::t_deferred = false;
}

ThreadTrace::~ThreadTrace()
{
    detail::t_ring = nullptr;
    detail::t_cpu = -1;
    detail::t_all = false;
    detail::t_deferred = false;
}

} // namespace pcl::trace
