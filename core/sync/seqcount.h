// The sequence counter of a sequence lock (the kernel's seqcount_t): a
// writer makes it odd before an update and even after; a reader reads it
// before and after its section and retries when a writer was active
// meanwhile. The counter does not serialise writers: seqlock_t pairs it
// with a spinlock (sync/seqlock.h), and the lock benchmark pairs it with a
// bare one, so both run exactly this algorithm.
#pragma once

#include "sync/cpu_relax.h"

#include <atomic>
#include <cstdint>

namespace pcl::sync {

class SeqCount {
public:
    /// write_seqcount_begin: under the writers' lock. The fence orders the
    /// odd count before the data stores, so a reader that sees any of them
    /// sees the count change.
    void write_begin() noexcept
    {
        seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_release);
    }
    /// write_seqcount_end: the even count is released after the data.
    void write_end() noexcept { seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_release); }

    /// read_seqcount_begin: waits out an active writer, returns the count.
    std::uint64_t read_begin() const noexcept
    {
        Backoff backoff;
        std::uint64_t s;
        while ((s = seq_.load(std::memory_order_acquire)) & 1)
            backoff.pause();
        return s;
    }
    /// read_seqcount_retry: true if the section that began at @start saw a
    /// writer and must be read again. The fence keeps the section's loads
    /// before the second read of the count.
    bool read_retry(std::uint64_t start) const noexcept
    {
        std::atomic_thread_fence(std::memory_order_acquire);
        return seq_.load(std::memory_order_relaxed) != start;
    }

    std::uint64_t sequence() const noexcept { return seq_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> seq_ { 0 };
};

} // namespace pcl::sync
