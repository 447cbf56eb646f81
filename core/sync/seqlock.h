// Sequence lock (the kernel's seqlock_t): writers serialise on a spinlock
// and bump a sequence counter around each update; readers take no lock, read
// the counter, read the data, and retry if a writer was active meanwhile.
//
// Data protected by a seqlock must itself be read and written through
// std::atomic (relaxed is enough): a reader may run concurrently with a
// writer and only discards what it read afterwards. The torn PTE read of the pagefault scalability thread
// is exactly this race without the retry.
#pragma once

#include "sync/spinlock.h"

#include <atomic>
#include <cstdint>

namespace pcl::sync {

class SeqLock {
public:
    explicit SeqLock(LockClass& cls) noexcept
        : writer_(cls)
    {
    }
    SeqLock(LockRegistry& registry, std::string name, std::string_view class_name)
        : writer_(registry, std::move(name), class_name)
    {
    }

    void write_lock() noexcept
    {
        writer_.lock();
        seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_release);
    }
    void write_unlock() noexcept
    {
        seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
        writer_.unlock();
    }
    // Lockable names, so std::lock_guard takes the write side.
    void lock() noexcept { write_lock(); }
    void unlock() noexcept { write_unlock(); }

    /// Starts a read section: waits out an active writer, returns the sequence.
    std::uint64_t read_begin() const noexcept
    {
        Backoff backoff;
        std::uint64_t s;
        while ((s = seq_.load(std::memory_order_acquire)) & 1)
            backoff.pause();
        return s;
    }
    /// True if the section that began at `start` must be retried. Retries
    /// are counted (readers write nothing shared on the fast path).
    bool read_retry(std::uint64_t start) const noexcept
    {
        std::atomic_thread_fence(std::memory_order_acquire);
        if (seq_.load(std::memory_order_relaxed) == start)
            return false;
        retries_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    std::uint64_t sequence() const noexcept { return seq_.load(std::memory_order_relaxed); }
    std::uint64_t read_retries() const noexcept { return retries_.load(std::memory_order_relaxed); }
    /// The writers' spinlock, with its statistics.
    const SpinLock& writer_lock() const noexcept { return writer_; }

private:
    SpinLock writer_;
    std::atomic<std::uint64_t> seq_ { 0 };
    mutable std::atomic<std::uint64_t> retries_ { 0 };
};

} // namespace pcl::sync
