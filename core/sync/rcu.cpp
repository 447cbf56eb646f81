#include "sync/rcu.h"

// Outside TSan builds, liburcu's read-side fast path is inlined (_LGPL_SOURCE).
// In TSan builds it stays in the uninstrumented library, so TSan sees only the
// annotations below and not liburcu's own ad-hoc synchronisation.
#ifndef PCL_TSAN
#define _LGPL_SOURCE 1
#endif
#include <urcu/urcu-memb.h>

#include "base/machine.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>

#ifdef PCL_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace pcl::rcu {

namespace {

#ifdef PCL_TSAN
// The object through which TSan learns RCU's ordering (see rcu.h).
char g_grace_period;
inline void annotate_reader_done() noexcept
{
    __tsan_release(&g_grace_period);
}
inline void annotate_queued() noexcept
{
    __tsan_release(&g_grace_period);
}
inline void annotate_grace_period() noexcept
{
    __tsan_acquire(&g_grace_period);
}
#else
inline void annotate_reader_done() noexcept { }
inline void annotate_queued() noexcept { }
inline void annotate_grace_period() noexcept { }
#endif

// Registers the thread with liburcu on first use and unregisters it when the
// thread exits.
struct Registration {
    Registration() noexcept { urcu_memb_register_thread(); }
    ~Registration() { urcu_memb_unregister_thread(); }
};

thread_local bool t_registered = false; // constant-initialised: a plain TLS read

inline void ensure_registered() noexcept
{
    if (!t_registered) [[unlikely]] {
        thread_local Registration registration;
        (void)registration;
        t_registered = true;
    }
}

static_assert(sizeof(Head::storage) >= sizeof(Head*), "Head::storage holds the queue's link");

// The host's callbacks: queued on one lock-free stack, run by one thread of
// ours after a grace period (urcu_memb_synchronize_rcu). liburcu's own
// call_rcu thread sleeps 10 ms after each wake-up, to gather a batch: a
// reclaimer waiting for the frames its last pass freed
// (FrameAllocator::wait_for_rcu_frees) and every barrier() (each engine's
// end) waited at least that long, whatever the grace period took (tens of
// microseconds here). This thread takes whatever is queued when it wakes.
std::atomic<Head*> g_queue { nullptr };    ///< newest first, linked through Head::storage
std::atomic<std::uint64_t> g_queued { 0 }; ///< callbacks ever queued
std::atomic<std::uint64_t> g_done { 0 };   ///< callbacks ever run (barrier() waits on it)

Head* next_of(const Head* head) noexcept
{
    Head* next;
    std::memcpy(&next, head->storage, sizeof next);
    return next;
}

void set_next(Head* head, Head* next) noexcept
{
    std::memcpy(head->storage, &next, sizeof next);
}

void push(Head* head) noexcept
{
    Head* old = g_queue.load(std::memory_order_relaxed);
    do
        set_next(head, old);
    while (!g_queue.compare_exchange_weak(old, head, std::memory_order_release, std::memory_order_relaxed));
    if (!old)
        g_queue.notify_one(); // the thread sleeps only on an empty queue
}

class CallbackThread {
public:
    CallbackThread()
        : thread_([this] { run(); })
    {
    }
    ~CallbackThread()
    {
        // At exit: what is queued still runs, then the thread ends.
        stop_.store(true, std::memory_order_relaxed);
        push(&wake_);
        thread_.join();
    }

private:
    void run() noexcept
    {
        for (;;) {
            Head* batch = g_queue.exchange(nullptr, std::memory_order_acquire);
            if (!batch) {
                if (stop_.load(std::memory_order_relaxed))
                    return;
                g_queue.wait(nullptr, std::memory_order_acquire);
                continue;
            }
            urcu_memb_synchronize_rcu();
            annotate_grace_period();
            // Oldest first, as they were queued.
            Head* fifo = nullptr;
            while (batch) {
                Head* next = next_of(batch);
                set_next(batch, fifo);
                fifo = batch;
                batch = next;
            }
            std::uint64_t ran = 0;
            while (fifo) {
                Head* next = next_of(fifo);
                if (fifo != &wake_) {
                    fifo->func(fifo);
                    ++ran;
                }
                fifo = next;
            }
            g_done.fetch_add(ran, std::memory_order_release);
            g_done.notify_all();
            // Frees still coming (a reclaimer's pass, a tree emptied): let
            // them gather for a moment, so that a grace period, whose
            // membarrier interrupts every CPU running this process, serves
            // a batch of them rather than each. The first callback after a
            // quiet spell still runs at once.
            if (g_queue.load(std::memory_order_relaxed) && !stop_.load(std::memory_order_relaxed))
                std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
    }

    std::atomic<bool> stop_ { false };
    Head wake_ {}; ///< pushed to wake the thread to stop
    std::thread thread_;
};

} // namespace

// On a modelled machine every entry point is the machine's: its grace
// periods are its scheduler's (a task parked in synchronize() waits in
// virtual time), and the callback thread and liburcu's membarriers, host
// threads and host time, never run there. A modelled task is no liburcu
// reader, so it never registers.

void read_lock() noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        m->rcu_read_lock();
        return;
    }
    ensure_registered();
    urcu_memb_read_lock();
}

void read_unlock() noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        m->rcu_read_unlock();
        return;
    }
    annotate_reader_done();
    urcu_memb_read_unlock();
}

void synchronize() noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        m->synchronize_rcu();
        return;
    }
    urcu_memb_synchronize_rcu();
    annotate_grace_period();
}

void call(Head* head, void (*func)(Head*)) noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        head->func = func;
        m->call_rcu([head] { head->func(head); });
        return;
    }
    static CallbackThread thread; // started by the first callback, joined at exit
    head->func = func;
    g_queued.fetch_add(1, std::memory_order_relaxed);
    // Everything the caller did before queueing happens before the callback.
    annotate_queued();
    push(head);
}

void barrier() noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        m->rcu_barrier();
        return;
    }
    for (;;) {
        const std::uint64_t done = g_done.load(std::memory_order_acquire);
        if (done >= g_queued.load(std::memory_order_acquire))
            return;
        g_done.wait(done, std::memory_order_acquire);
    }
}

} // namespace pcl::rcu
