// Sequence lock (the kernel's seqlock_t): writers serialise on a spinlock
// and bump a sequence counter (sync/seqcount.h) around each update; readers
// take no lock, read the counter, read the data, and retry if a writer was
// active meanwhile.
//
// Data protected by a seqlock must itself be read and written through
// std::atomic (relaxed is enough): a reader may run concurrently with a
// writer and only discards what it read afterwards. The torn PTE read of
// the pagefault scalability thread is exactly this race without the retry.
#pragma once

#include "sync/seqcount.h"
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
        seq_.write_begin();
    }
    void write_unlock() noexcept
    {
        seq_.write_end();
        writer_.unlock();
    }
    // Lockable names, so std::lock_guard takes the write side.
    void lock() noexcept { write_lock(); }
    void unlock() noexcept { write_unlock(); }

    /// Starts a read section: waits out an active writer, returns the sequence.
    std::uint64_t read_begin() const noexcept { return seq_.read_begin(); }
    /// True if the section that began at `start` must be retried. Retries
    /// are counted (readers write nothing shared on the fast path).
    bool read_retry(std::uint64_t start) const noexcept
    {
        if (!seq_.read_retry(start))
            return false;
        retries_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }

    std::uint64_t sequence() const noexcept { return seq_.sequence(); }
    std::uint64_t read_retries() const noexcept { return retries_.load(std::memory_order_relaxed); }
    /// The writers' spinlock, with its statistics.
    const SpinLock& writer_lock() const noexcept { return writer_; }

private:
    SpinLock writer_;
    SeqCount seq_;
    mutable std::atomic<std::uint64_t> retries_ { 0 };
};

} // namespace pcl::sync
