// Spin-wait helpers shared by the spinning lock types.
//
// On a modelled machine (base/machine.h) a spinner must not spin on the
// host: the holder it waits for is a task of the same host thread and can
// only run when the spinner lets it. Each round of a backoff is one relax()
// of the machine there: the spinner is charged a spin step and the others
// run up to its time.
#pragma once

#include "base/machine_calls.h"

#include <thread>

namespace pcl::sync {

/// The pause instruction: tells the core this is a spin-wait loop.
inline void cpu_relax() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause(); // _mm_pause, without <immintrin.h>'s 50,000 lines
#else
    std::this_thread::yield();
#endif
}

/// One round of a retry loop that waits for another CPU's progress without
/// pausing (the kernel's `goto repeat`, as in find_get_page): nothing on
/// the host, where the other CPU runs anyway; a relax() on a modelled
/// machine, where it runs only when the retrying task lets it.
inline void retry_relax() noexcept
{
    if (on_modelled_machine()) [[unlikely]]
        pcl::detail::machine_relax();
}

/// The wait between two reads of a spin loop, as the kernel's spinlock
/// waits: one pause, then the next read (2.6's __raw_spin_lock on x86:
/// `rep; nop`, then `cmpb $0`), so that a waiter sees the release as soon
/// as its line comes back. Simulated CPUs are threads and there may be more
/// of them than cores; a holder that the host has preempted can only run
/// again if the spinners give the core back, so after kPausesBeforeYield
/// pauses each further round yields. A kernel spinlock never yields: its
/// holder cannot be preempted. No exponential backoff: reads spaced up to
/// 256 pauses apart miss most releases, and the releaser takes the lock
/// back time after time, which no kernel spinlock of the threads did, and
/// which a model of the machine, whose waiters read again at each release,
/// does not predict.
class Backoff {
public:
    void pause() noexcept
    {
        if (on_modelled_machine()) [[unlikely]] {
            pcl::detail::machine_relax();
            return;
        }
        if (pauses_ < kPausesBeforeYield) {
            cpu_relax();
            ++pauses_;
        } else {
            std::this_thread::yield();
        }
    }

private:
    /// As long as the doubling backoff it replaced spun before yielding
    /// (1 + 2 + ... + 256 pauses).
    static constexpr unsigned kPausesBeforeYield = 511;
    unsigned pauses_ = 0;
};

} // namespace pcl::sync
