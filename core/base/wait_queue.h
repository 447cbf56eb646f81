// A wait queue: where a task sleeps until another wakes it (the kernel's
// wait_queue_head_t, wait_event_timeout() and wake_up()).
//
// On the host it is a condition variable and the sleeper blocks in the host
// kernel. On a modelled machine the sleeper parks in the machine's scheduler
// and its time passes in virtual time; the mutex is given up while it is
// parked, as the condition variable gives it up.
#pragma once

#include "base/clock.h"
#include "base/machine_calls.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace pcl {

class WaitMutex;

class WaitQueue {
public:
    /// No deadline.
    static constexpr std::uint64_t kForever = ~std::uint64_t(0);

    WaitQueue() = default;
    WaitQueue(const WaitQueue&) = delete;
    WaitQueue& operator=(const WaitQueue&) = delete;

    /// Sleeps, @lock released, until @done() holds (checked with @lock held).
    template <class Done> void wait(std::unique_lock<WaitMutex>& lock, Done done)
    {
        wait_until_ns(lock, kForever, done);
    }

    /// As wait(), until @done() holds or the clock (now_ns(), the machine's
    /// when there is one) reaches @deadline_ns. Returns done().
    template <class Done> bool wait_until_ns(std::unique_lock<WaitMutex>& lock, std::uint64_t deadline_ns, Done done);

    /// Wakes one sleeper (wake_up_nr(1)) or every sleeper (wake_up_all).
    void wake_one() noexcept
    {
        if (on_modelled_machine()) [[unlikely]]
            detail::machine_unpark_one(*this);
        else
            cv_.notify_one();
    }
    void wake_all() noexcept
    {
        if (on_modelled_machine()) [[unlikely]]
            detail::machine_unpark_all(*this);
        else
            cv_.notify_all();
    }

    /// The machine's list of tasks parked here; only the machine reads or
    /// writes it.
    void* parked_first = nullptr;
    void* parked_last = nullptr;

private:
    std::condition_variable cv_;
};

/// A sleeping mutex for the state a WaitQueue's sleepers wait on.
class WaitMutex {
public:
    void lock()
    {
        if (on_modelled_machine()) [[unlikely]] {
            while (!m_.try_lock())
                detail::machine_park(waiters_, WaitQueue::kForever);
            return;
        }
        m_.lock();
    }
    bool try_lock() noexcept { return m_.try_lock(); }
    void unlock() noexcept
    {
        m_.unlock();
        if (on_modelled_machine()) [[unlikely]]
            detail::machine_unpark_one(waiters_);
    }
    /// The host mutex, for the host's condition variable.
    std::mutex& native() noexcept { return m_; }

private:
    std::mutex m_;
    WaitQueue waiters_; ///< tasks of a modelled machine waiting for it
};

template <class Done>
bool WaitQueue::wait_until_ns(std::unique_lock<WaitMutex>& lock, std::uint64_t deadline_ns, Done done)
{
    if (on_modelled_machine()) [[unlikely]] {
        // Nothing runs between the unlock and the park (one task runs at a
        // time), so a wake-up cannot be lost in between.
        while (!done()) {
            if (deadline_ns != kForever && detail::machine_now_ns() >= deadline_ns)
                return false;
            lock.unlock();
            detail::machine_park(*this, deadline_ns);
            lock.lock();
        }
        return true;
    }
    // The host: the condition variable on the WaitMutex's host mutex, which
    // the caller's lock holds. A deadline is what is left of it on
    // now_ns()'s own clock, the one it was taken on: read as a steady_clock
    // time point it would be off by the calibration's drift, which over an
    // hour's run is longer than the waits' timeouts.
    std::unique_lock<std::mutex> host(lock.mutex()->native(), std::adopt_lock);
    bool ok = true;
    if (deadline_ns == kForever) {
        cv_.wait(host, done);
    } else {
        const std::uint64_t now = host_now_ns();
        ok = deadline_ns > now ? cv_.wait_for(host, std::chrono::nanoseconds(deadline_ns - now), done) : done();
    }
    host.release();
    return ok;
}

} // namespace pcl
