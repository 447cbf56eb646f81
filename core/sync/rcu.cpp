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

// Callbacks queued with call() that have not run yet. barrier() waits on
// this instead of urcu_memb_barrier(), whose internal allocation is handed
// between threads by synchronisation TSan cannot see.
std::atomic<long> g_pending { 0 };

static_assert(sizeof(Head::storage) >= sizeof(struct rcu_head), "Head::storage too small for rcu_head");
static_assert(alignof(Head) >= alignof(struct rcu_head), "Head::storage misaligned for rcu_head");

void trampoline(struct rcu_head* h) noexcept
{
    annotate_grace_period();
    auto* head = reinterpret_cast<Head*>(reinterpret_cast<unsigned char*>(h) - offsetof(Head, storage));
    head->func(head);
    g_pending.fetch_sub(1, std::memory_order_release);
}

} // namespace

// On a modelled machine every entry point is the machine's: its grace
// periods are its scheduler's (a task parked in synchronize() waits in
// virtual time), and liburcu's callback thread and membarriers, host
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
    ensure_registered();
    head->func = func;
    g_pending.fetch_add(1, std::memory_order_relaxed);
    // Everything the caller did before queueing happens before the callback.
    annotate_queued();
    urcu_memb_call_rcu(reinterpret_cast<struct rcu_head*>(head->storage), trampoline);
}

void barrier() noexcept
{
    if (Machine* m = current_machine()) [[unlikely]] {
        m->rcu_barrier();
        return;
    }
    while (g_pending.load(std::memory_order_acquire) > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
}

} // namespace pcl::rcu
