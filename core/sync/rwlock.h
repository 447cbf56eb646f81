// Reader-writer lock with statistics (the kernel's rwlock_t).
//
// The radix-tree pagecache thread (2002): an rwlock for the per-mapping tree lock "does not help: the
// problem is the bouncing of the spinlock cacheline" - readers still write
// the lock word. The statistics show it: read acquisitions bounce too.
#pragma once

#include "sync/instrumented_lock.h"
#include "sync/raw_locks.h"

namespace pcl::sync {

/// Writers use the exclusive side inherited from InstrumentedLock (lock,
/// try_lock, unlock); readers use lock_shared / unlock_shared or ReadGuard.
class RwLock : public InstrumentedLock<RawRwLock> {
public:
    using InstrumentedLock<RawRwLock>::InstrumentedLock;

    /// Read side. Returns the hold token (its start, and whether it was
    /// traced), which the caller hands back to unlock_shared: each reader
    /// has its own hold. ReadGuard does this.
    [[nodiscard]] std::uint64_t lock_shared() noexcept
    {
        if (looked_at()) [[unlikely]]
            return 0; // takes nothing (InstrumentedLock::looked_at)
        const int cpu = current_cpu();
        const bool modelled = on_modelled_machine();
        // A reader writes the lock word too (its count): the bouncing of
        // the radix-tree thread.
        if (modelled) [[unlikely]]
            touch_line(trace_id(), true);
        std::uint64_t token;
        if (raw_.try_lock_shared()) {
            token = acquired_shared(cpu, false, 0);
        } else {
            begin_wait();
            const std::uint64_t t0 = ticks();
            if (modelled) [[unlikely]]
                raw_.lock_shared(LineTouch { trace_id() });
            else
                raw_.lock_shared();
            const std::uint64_t wait = ticks() - t0;
            end_wait();
            token = acquired_shared(cpu, true, wait);
        }
        if (modelled) [[unlikely]]
            charge_work(Work::LockAcquire); // inside the hold, as lock() charges it
        return token;
    }
    void unlock_shared(std::uint64_t hold_token) noexcept
    {
        if (looked_at()) [[unlikely]]
            return;
        releasing_shared(hold_token);
        touch_line(trace_id(), true); // as unlock(): the line, then the store
        raw_.unlock_shared();
    }

    /// Scoped read lock.
    class ReadGuard {
    public:
        explicit ReadGuard(RwLock& l) noexcept
            : l_(l)
            , start_(l.lock_shared())
        {
        }
        ~ReadGuard() { l_.unlock_shared(start_); }
        ReadGuard(const ReadGuard&) = delete;
        ReadGuard& operator=(const ReadGuard&) = delete;

    private:
        RwLock& l_;
        std::uint64_t start_;
    };
};

} // namespace pcl::sync
