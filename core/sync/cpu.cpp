#include "sync/cpu.h"

#include <atomic>

namespace pcl::sync {

namespace {
std::atomic<unsigned> g_next_slot { 0 };
thread_local unsigned t_slot = ~0u;
thread_local int t_cpu = -1;
} // namespace

unsigned thread_slot() noexcept
{
    if (t_slot == ~0u) t_slot = g_next_slot.fetch_add(1, std::memory_order_relaxed);
    return t_slot;
}

int current_cpu() noexcept
{
    return t_cpu >= 0 ? t_cpu : static_cast<int>(thread_slot());
}

void set_current_cpu(int cpu) noexcept
{
    t_cpu = cpu;
}

} // namespace pcl::sync
