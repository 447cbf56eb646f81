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

/// The wait of a retry whose conflict another CPU must clear with a lock
/// this one keeps taking: a locked lookup that found its page frozen by
/// reclaim (get_unless_zero failed), which the eraser takes out under the
/// lock the lookup takes; the lazy skip list's insert or erase that found a
/// node being erased, whose eraser must lock the nodes they lock. (The
/// first is the engine's own: its reclaim freezes a page before it takes
/// the index's lock, where 2.6.27's __remove_mapping froze it under
/// tree_lock and 2.4's checked the count under pagecache_lock, so that a
/// locked lookup never met a frozen page.) On the host it pauses as
/// Backoff does, and the other CPU's request for the lock's line gets in
/// among the retries. On a modelled machine a retry one spin step after
/// the release takes the lock back before the other CPU, whose re-read and
/// exchange of the lock's line each wait for a transfer, gets to its
/// exchange, and the two would go on for ever: each round waits twice as
/// many steps as the last, up to 256, so the other gets in within a few
/// rounds.
class RetryBackoff {
public:
    void pause() noexcept
    {
        if (on_modelled_machine()) [[unlikely]] {
            for (unsigned i = 0; i < steps_; ++i)
                pcl::detail::machine_relax();
            steps_ = steps_ < kMaxSteps ? steps_ * 2 : kMaxSteps;
            return;
        }
        host_.pause();
    }

private:
    static constexpr unsigned kMaxSteps = 256;
    unsigned steps_ = 1;
    Backoff host_;
};

} // namespace pcl::sync
