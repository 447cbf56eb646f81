// A thread of core's own: a simulated CPU of the engine, a disk, kswapd, a
// flusher.
//
// On the host it is a host thread (std::thread). On a modelled machine
// (base/machine.h) it is a task of the machine of the task that starts it,
// run by the machine's scheduler in virtual time. It is a TaskThread, not a
// "kthread": the engine's CPUs run user work (faults, reads, writes), and
// what the two kinds have in common is only that the machine schedules
// them as its tasks. Like std::thread it must be joined before it goes.
#pragma once

#include "base/machine_calls.h"

#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <utility>

namespace pcl {

class TaskThread {
public:
    TaskThread() noexcept = default;
    /// Starts @fn. @name names the task on a modelled machine (its event
    /// stream, a report of tasks that never ended).
    TaskThread(std::string name, std::function<void()> fn)
    {
        if (on_modelled_machine()) [[unlikely]] {
            machine_ = detail::t_machine;
            task_ = detail::machine_spawn(std::move(name), std::move(fn));
        } else {
            thread_ = std::thread(std::move(fn));
        }
    }
    TaskThread(TaskThread&& other) noexcept
        : thread_(std::move(other.thread_))
        , machine_(std::exchange(other.machine_, nullptr))
        , task_(std::exchange(other.task_, TaskRef {}))
    {
    }
    TaskThread& operator=(TaskThread&& other) noexcept
    {
        if (joinable())
            std::terminate(); // as std::thread's: a running thread cannot be dropped
        thread_ = std::move(other.thread_);
        machine_ = std::exchange(other.machine_, nullptr);
        task_ = std::exchange(other.task_, TaskRef {});
        return *this;
    }
    ~TaskThread()
    {
        if (joinable())
            std::terminate();
    }
    TaskThread(const TaskThread&) = delete;
    TaskThread& operator=(const TaskThread&) = delete;

    /// Started and not joined yet.
    bool joinable() const noexcept { return machine_ ? task_.valid() : thread_.joinable(); }

    /// Waits until the thread has returned: on a modelled machine parked,
    /// from a task of the same machine.
    void join()
    {
        if (machine_) {
            detail::machine_join(machine_, task_);
            task_ = TaskRef {};
            machine_ = nullptr;
            return;
        }
        thread_.join();
    }

private:
    std::thread thread_;
    void* machine_ = nullptr; ///< the Machine it is a task of, or nullptr: a host thread
    TaskRef task_;
};

} // namespace pcl
