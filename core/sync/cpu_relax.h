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

/// Exponential backoff for spin loops. Simulated CPUs are threads and there
/// may be more of them than cores; a holder that the host has preempted can
/// only run again if the spinners give the core back, so after the backoff
/// reaches its ceiling each further round yields. A kernel spinlock never
/// yields: its holder cannot be preempted.
class Backoff {
public:
    void pause() noexcept
    {
        if (on_modelled_machine()) [[unlikely]] {
            pcl::detail::machine_relax();
            return;
        }
        if (count_ <= kMaxPauses) {
            for (unsigned i = 0; i < count_; ++i)
                cpu_relax();
            count_ *= 2;
        } else {
            std::this_thread::yield();
        }
    }

private:
    static constexpr unsigned kMaxPauses = 256;
    unsigned count_ = 1;
};

} // namespace pcl::sync
