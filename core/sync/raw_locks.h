// Bare lock algorithms, without statistics. The instrumented lock types in
// spinlock.h, ticket_lock.h, mutex.h, rwlock.h and seqlock.h wrap these; the
// lock benchmark compares each wrapper against its bare algorithm to measure
// what the instrumentation costs.
//
// On a modelled machine (base/machine.h) no lock spins or blocks on the
// host: a spinning waiter's every round is one relax() of the machine
// (through Backoff, or explicitly where a library would spin), and a
// sleeping waiter parks.
//
// lock(touch) says which accesses of the lock word a modelled machine
// charges: touch(true) before each read-modify-write (an exchange, a
// fetch_add, a compare-exchange: the CPU takes the line for itself),
// touch(false) before each re-read of a spin, and touch.spin(backoff) for
// a spin's wait between two reads. Waiters re-reading a line that each
// handoff invalidates is why a contended spinlock's handoff grows with the
// number of waiters (sched/cache_lines.h). On the host the touch is
// NoTouch and the code is lock()'s.
#pragma once

#include "base/machine_calls.h"
#include "base/wait_queue.h"
#include "sync/cpu_relax.h"
#include "sync/line_touch.h"

#include <atomic>
#include <cstdint>
#include <mutex>

#include <oneapi/tbb/spin_rw_mutex.h>

namespace pcl::sync {

/// Test-and-test-and-set spinlock, a pause between reads (cpu_relax.h): spins reading the
/// lock word (a shared cache line) and only writes when it looks free, so
/// waiters do not bounce the line while the holder works. Unfair. On a
/// modelled machine the wait after the first failed exchange is the
/// machine's take_spinning (base/machine.h): the same loop, whose steps the
/// scheduler makes without switching to the waiter for each.
class RawSpinLock {
public:
    bool try_lock() noexcept
    {
        return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
    }
    void lock() noexcept { lock(NoTouch {}); }
    template <class Touch> void lock(Touch touch) noexcept
    {
        Backoff backoff;
        touch(true);
        while (locked_.exchange(true, std::memory_order_acquire)) {
            if constexpr (requires { touch.take_spinning(locked_); }) {
                touch.take_spinning(locked_); // the rest of this loop, on a modelled machine
                return;
            }
            do {
                touch.spin(backoff);
                touch(false);
            } while (locked_.load(std::memory_order_relaxed));
            touch(true);
        }
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }
    bool is_locked() const noexcept { return locked_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> locked_ { false };
};

/// Ticket spinlock (Linux x86 2.6.25 to 4.2): each arrival takes the next
/// ticket and waits until `owner` reaches it, so the lock is granted in FIFO
/// order. Fair, but every waiter spins on the same line and a preempted
/// waiter stalls everyone queued behind it.
class RawTicketLock {
public:
    bool try_lock() noexcept
    {
        std::uint32_t n = next_.load(std::memory_order_relaxed);
        // Acquire on owner_: the previous holder's release is its store to owner_.
        if (owner_.load(std::memory_order_acquire) != n)
            return false;
        // Nobody held a ticket when owner == next; if next is still n nobody
        // took one since, so ticket n is served at once.
        return next_.compare_exchange_strong(n, n + 1, std::memory_order_acquire, std::memory_order_relaxed);
    }
    void lock() noexcept { lock(NoTouch {}); }
    template <class Touch> void lock(Touch touch) noexcept
    {
        touch(true);
        const std::uint32_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
        Backoff backoff;
        while (owner_.load(std::memory_order_acquire) != ticket) {
            touch.spin(backoff);
            touch(false);
        }
    }
    void unlock() noexcept
    {
        // Only the holder writes owner_.
        owner_.store(owner_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    bool is_locked() const noexcept
    {
        return owner_.load(std::memory_order_relaxed) != next_.load(std::memory_order_relaxed);
    }
    /// Tickets handed out but not yet served, the holder included.
    std::uint32_t queued() const noexcept
    {
        return next_.load(std::memory_order_relaxed) - owner_.load(std::memory_order_relaxed);
    }

private:
    std::atomic<std::uint32_t> owner_ { 0 };
    std::atomic<std::uint32_t> next_ { 0 };
};

/// Sleeping mutex: a waiter blocks in the host kernel (futex) instead of
/// spinning, like a kernel `struct mutex` after its optimistic spin. On a
/// modelled machine the waiter parks (WaitMutex).
class RawMutex {
public:
    bool try_lock() noexcept { return m_.try_lock(); }
    void lock() { m_.lock(); }
    /// A sleeping waiter does not spin on the word: one access, then it parks.
    template <class Touch> void lock(Touch touch)
    {
        touch(true);
        m_.lock();
    }
    void unlock() noexcept { m_.unlock(); }

private:
    WaitMutex m_;
};

/// Reader-writer spinlock (oneTBB's spin_rw_mutex, writer-preferring), like
/// the kernel's rwlock_t: any number of readers or one writer.
class RawRwLock {
public:
    bool try_lock() noexcept { return m_.try_lock(); }
    void lock() noexcept
    {
        if (on_modelled_machine()) [[unlikely]]
            m_.lock_relaxing(NoTouch {});
        else
            m_.lock();
    }
    /// Only on a modelled machine (lock_relaxing).
    template <class Touch> void lock(Touch touch) noexcept { m_.lock_relaxing(touch); }
    void unlock() noexcept { m_.unlock(); }
    bool try_lock_shared() noexcept { return m_.try_lock_shared(); }
    void lock_shared() noexcept
    {
        if (on_modelled_machine()) [[unlikely]]
            lock_shared(NoTouch {});
        else
            m_.lock_shared();
    }
    /// Only on a modelled machine: oneTBB's lock_shared() is exactly this
    /// loop with its own backoff; a reader waits while a writer holds or
    /// wants the lock, and every try is a read-modify-write of the word.
    template <class Touch> void lock_shared(Touch touch) noexcept
    {
        Backoff backoff;
        touch(true);
        while (!m_.try_lock_shared()) {
            touch.spin(backoff);
            touch(false);
            touch(true);
        }
    }
    void unlock_shared() noexcept { m_.unlock_shared(); }

private:
    /// oneTBB's lock, with its writer's wait on a modelled machine: oneTBB
    /// spins inside lock() with a backoff of its own, which must never run
    /// on a modelled machine's one host thread.
    class Lock : public oneapi::tbb::spin_rw_mutex {
    public:
        /// spin_rw_mutex::lock(), each round one relax(): the writer takes
        /// the lock when it is free, else announces itself (WRITER_PENDING,
        /// which keeps new readers out: writer preference) and retries.
        template <class Touch> void lock_relaxing(Touch touch) noexcept
        {
            Backoff backoff;
            for (;; touch.spin(backoff), touch(false)) {
                touch(true);
                state_type s = m_state.load(std::memory_order_relaxed);
                if (!(s & BUSY)) {
                    if (m_state.compare_exchange_strong(s, WRITER))
                        return;
                } else if (!(s & WRITER_PENDING)) {
                    m_state |= WRITER_PENDING;
                }
            }
        }
    };
    Lock m_;
};

} // namespace pcl::sync
