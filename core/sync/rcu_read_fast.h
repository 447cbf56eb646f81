// RCU's read side inlined, for the lookups that run millions of times a
// second (the radix tree's find_get_page path).
//
// rcu::read_lock() and read_unlock() (rcu.h) are calls into rcu.cpp, which
// in turn has liburcu's fast path inlined: two calls and their frames per
// lookup, 23 and 27 instructions (callgrind, `bench indexes`), more than half
// of a dense lookup's 77-instruction walk. In the kernel, rcu_read_lock() is
// preempt_disable(), an increment; liburcu's membarrier flavour is the
// nearest userspace equivalent (a load and a store of the thread's counter,
// no fence), and this header puts it inline where it is used: 27
// instructions for both.
//
// It includes liburcu's own inline functions (_LGPL_SOURCE), which bring
// many macros with them (liburcu's flavour map, <sched.h>, <time.h>), so only
// a source file includes it, never a header, and before any other liburcu
// header. ThreadSanitizer builds keep the out-of-line calls and their
// annotations (rcu.cpp).
//
// On a modelled machine both go to the machine's RCU (rcu.cpp): one TLS load
// and a branch more on the host, before liburcu's own.
#pragma once

#include "base/machine_calls.h"
#include "sync/rcu.h"

#ifndef PCL_TSAN
#if defined(_URCU_MEMB_H) && !defined(_LGPL_SOURCE)
#error "sync/rcu_read_fast.h must come before any other liburcu header of this source file"
#endif
#ifndef _LGPL_SOURCE
#define _LGPL_SOURCE 1
#endif
#include <urcu/urcu-memb.h>
#endif

namespace pcl::rcu {

/// read_lock(), inline. A thread's first section goes through read_lock(),
/// which registers the thread with liburcu.
inline void read_lock_fast() noexcept
{
#ifdef PCL_TSAN
    read_lock();
#else
    if (on_modelled_machine() || !URCU_TLS(urcu_memb_reader).registered) [[unlikely]] {
        read_lock();
        return;
    }
    _urcu_memb_read_lock();
#endif
}

/// read_unlock(), inline.
inline void read_unlock_fast() noexcept
{
#ifdef PCL_TSAN
    read_unlock();
#else
    if (on_modelled_machine()) [[unlikely]] {
        read_unlock();
        return;
    }
    _urcu_memb_read_unlock();
#endif
}

/// Scoped read-side critical section, inline (ReadGuard's fast twin).
class FastReadGuard {
public:
    FastReadGuard() noexcept { read_lock_fast(); }
    ~FastReadGuard() { read_unlock_fast(); }
    FastReadGuard(const FastReadGuard&) = delete;
    FastReadGuard& operator=(const FastReadGuard&) = delete;
};

} // namespace pcl::rcu
