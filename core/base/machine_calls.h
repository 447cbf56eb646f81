// What core's inline paths ask of the machine (base/machine.h), without
// naming its class.
//
// The clock, the locks, the wait queues and the threads are in headers that
// nearly every file of core and its tests includes; a test may well have a
// `Machine` of its own (a rig of frames, page cache and disk), so those
// headers declare no pcl::Machine. They test on_modelled_machine() (one
// thread-local load) and, on a modelled machine only, call these functions,
// which base/machine.cpp forwards to current_machine().
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace pcl {

class WaitQueue;

/// A task of a modelled machine, as its spawner holds it (to join it).
struct TaskRef {
    unsigned id = ~0u;
    bool valid() const noexcept { return id != ~0u; }
};

namespace detail {
// The calling thread's Machine (base/machine.h), nullptr on the host.
// Constant-initialised: the host's test of it is a plain TLS load. One host
// thread runs every task of a modelled machine, so it is the tasks' machine.
inline thread_local void* t_machine = nullptr;

// The current machine's calls (base/machine.h says what each does); only
// while on_modelled_machine().
std::uint64_t machine_now_ns() noexcept;
void machine_charge(std::uint64_t ns) noexcept;
void machine_relax() noexcept;
void machine_sleep_until(std::uint64_t deadline_ns) noexcept;
bool machine_park(WaitQueue& queue, std::uint64_t deadline_ns) noexcept;
void machine_unpark_one(WaitQueue& queue) noexcept;
void machine_unpark_all(WaitQueue& queue) noexcept;
TaskRef machine_spawn(std::string name, std::function<void()> fn);
/// Joins @task, a task of @machine (the t_machine it was spawned on).
void machine_join(void* machine, TaskRef task) noexcept;
} // namespace detail

/// Whether the calling thread (or task) runs on a modelled machine.
inline bool on_modelled_machine() noexcept
{
    return detail::t_machine != nullptr;
}

} // namespace pcl
