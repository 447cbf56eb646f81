// Spin-wait helpers shared by the spinning lock types.
#pragma once

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

/// Exponential backoff for spin loops. Simulated CPUs are threads and there
/// may be more of them than cores; a holder that the host has preempted can
/// only run again if the spinners give the core back, so after the backoff
/// reaches its ceiling each further round yields. A kernel spinlock never
/// yields: its holder cannot be preempted.
class Backoff {
public:
    void pause() noexcept
    {
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
