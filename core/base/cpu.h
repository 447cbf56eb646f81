// Simulated CPU identity of the calling thread.
//
// Locks count a *bounce* when they are acquired on a different CPU than the
// previous acquisition (lockstat's acq-bounces / con-bounces). In Page Cache
// Lab a "CPU" is simulated: the engine pins an id to each worker thread and
// may change it to model a task migrating between CPUs (the radix-tree pagecache thread: "limited to
// moving one lock over"). Threads the engine does not manage get a stable id
// of their own, so bounces are still meaningful in tests and benchmarks.
#pragma once

#include "base/task_local.h"

namespace pcl {

namespace detail {
// Constant-initialised, so reading them is a plain TLS access: both are read
// on every instrumented lock acquisition.
inline thread_local unsigned t_slot = ~0u;
inline thread_local int t_cpu = -1;
unsigned take_slot();
/// Slots from here on are a modelled machine's tasks' (kMachineSlots plus
/// the task's number on its machine), apart from the process's threads'.
inline constexpr unsigned kMachineSlots = 1u << 30;
/// Returns a slot a task of a modelled machine took, when the task ends.
void give_back_slot(unsigned& slot) noexcept;
// Each task of a modelled machine is a thread of its own here: its own CPU
// and its own slot (so its bounces and its counter shard are its own).
PCL_TASK_LOCAL_RELEASED(t_slot, give_back_slot);
PCL_TASK_LOCAL(t_cpu);
} // namespace detail

/// A small dense number for the calling thread, assigned on first use and
/// unique among live threads (a slot is reused after its thread exits).
/// Used to give each thread its own counter shard.
inline unsigned thread_slot() noexcept
{
    if (detail::t_slot == ~0u) [[unlikely]]
        detail::t_slot = detail::take_slot();
    return detail::t_slot;
}

/// The simulated CPU the calling thread runs on (>= 0).
inline int current_cpu() noexcept
{
    return detail::t_cpu >= 0 ? detail::t_cpu : static_cast<int>(thread_slot());
}

/// The simulated CPU the engine set for the calling thread, or -1 for a
/// thread it does not run as a CPU (a disk, a flusher, kswapd, a test):
/// what per-CPU structures are indexed by.
inline int simulated_cpu() noexcept
{
    return detail::t_cpu;
}

/// Sets the calling thread's simulated CPU; a negative id restores the
/// thread's own default id.
inline void set_current_cpu(int cpu) noexcept
{
    detail::t_cpu = cpu;
}

/// Sets the simulated CPU for the lifetime of a scope (tests, benchmarks).
class CpuScope {
public:
    explicit CpuScope(int cpu) noexcept { set_current_cpu(cpu); }
    ~CpuScope() { set_current_cpu(-1); }
    CpuScope(const CpuScope&) = delete;
    CpuScope& operator=(const CpuScope&) = delete;
};

} // namespace pcl
