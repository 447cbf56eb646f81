// A lock that measures itself, lockstat style.
//
// InstrumentedLock<Raw> wraps a bare algorithm from raw_locks.h. Every
// acquisition first tries the lock; if that fails the acquisition is a
// *contention* and the time until the lock is obtained is its wait time. The
// hold time runs from acquisition to release. Each lock counts into its class
// (always) and into its own named statistics (when it has a name: per-node
// locks of a radix tree are anonymous members of class `radix_node`, while
// `mapping[3].tree_lock` has a row of its own).
//
// Locking rule for the statistics: last_cpu_ and hold_start_ are written only
// by the exclusive holder; the state fields are atomics read by snapshots.
//
// What is traced (events/tracepoint.h) on a traced thread: by default only
// what a timeline needs to show contention: a wait (begin, and acquired with
// the wait time) and the release of a hold that made someone wait or that
// was itself contended. When the thread records everything (trace::all(),
// demo speed, where the rate is low and a student wants to see every lock
// taken), every acquisition and release is traced.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"
#include "events/tracepoint.h"
#include "sync/hold_stretch.h"
#include "sync/line_touch.h"
#include "sync/lock_stats.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

namespace pcl::sync {

/// What a snapshot shows of a lock: held or not, by which simulated CPU, and
/// how many are waiting (Tracy: green = held, yellow = held and wanted).
struct LockState {
    bool held = false;         ///< held by a writer/exclusive holder, or by readers
    std::uint32_t readers = 0; ///< shared holders (rwlocks)
    std::uint32_t waiters = 0; ///< threads waiting to acquire
    int holder_cpu = -1;       ///< simulated CPU of the exclusive holder, -1 if none
};

/// Base of the instrumented locks: identity, statistics and state.
class LockInstrument {
public:
    /// An anonymous lock of class `cls`: counted in the class only.
    explicit LockInstrument(LockClass& cls) noexcept
        : cls_(&cls)
        , instance_(cls.note_instance())
    {
    }
    /// A named lock with its own row in `registry`.
    LockInstrument(LockRegistry& registry, std::string name, std::string_view class_name)
        : cls_(&registry.lock_class(class_name))
        , stats_(registry.register_lock(std::move(name), *cls_))
        , registry_(&registry)
        , instance_(cls_->note_instance())
    {
    }
    ~LockInstrument()
    {
        if (registry_)
            registry_->unregister_lock(stats_);
    }
    LockInstrument(const LockInstrument&) = delete;
    LockInstrument& operator=(const LockInstrument&) = delete;

    LockClass& lock_class() const noexcept { return *cls_; }
    /// Own statistics, or nullptr for an anonymous lock.
    const LockStats* stats() const noexcept { return stats_; }
    /// This lock's row (an anonymous lock reports nothing of its own).
    LockStatRow row() const
    {
        LockStatRow r;
        r.lock_class = cls_->name();
        if (stats_) {
            r.name = stats_->name;
            stats_->c.add_to(r, cls_->tick_unit());
        }
        return r;
    }
    LockState state() const noexcept
    {
        LockState s;
        s.holder_cpu = holder_cpu_.load(std::memory_order_relaxed);
        s.readers = readers_.load(std::memory_order_relaxed);
        s.waiters = waiters_.load(std::memory_order_relaxed);
        s.held = s.holder_cpu >= 0 || s.readers > 0;
        return s;
    }

    /// Number of the named lock in its registry (LockStats::id), 0 if anonymous.
    std::uint32_t lock_id() const noexcept { return stats_ ? stats_->id : 0; }
    /// The lock's identity in the event stream, named or anonymous: its
    /// class's number (LockClass::id) in the high 32 bits, and in the low
    /// 32 its number among the locks of its class, counted from 1 in the
    /// order they were made (LockClass::note_instance). The same in every
    /// run that makes the same locks in the same order, where an address
    /// would not be; it wraps after 2^32 locks of one class.
    std::uint64_t trace_id() const noexcept { return (std::uint64_t(cls_->id()) << 32) | instance_; }

protected:
    /// The calling thread looks at a standing modelled machine, and this
    /// lock is a modelled machine's (its class counts virtual time): it is
    /// neither taken nor counted (base/machine_calls.h). A task may hold it
    /// where the machine stands, and nothing else runs. Locks of this
    /// computer's runs are taken as always.
    bool looked_at() const noexcept
    {
        return looking_at_standing_machine() && cls_->tick_unit() == TickUnit::virtual_ns;
    }

    void begin_wait() noexcept
    {
        waiters_.fetch_add(1, std::memory_order_relaxed);
        if (trace::enabled()) [[unlikely]]
            trace_wait_begin(holder_cpu_.load(std::memory_order_relaxed));
    }
    void end_wait() noexcept { waiters_.fetch_sub(1, std::memory_order_relaxed); }

    /// Called by the exclusive holder right after it obtained the lock.
    void acquired_exclusive(int cpu, bool contended, std::uint64_t wait) noexcept
    {
        const int last = last_cpu_.load(std::memory_order_relaxed);
        const bool bounced = last >= 0 && last != cpu;
        last_cpu_.store(cpu, std::memory_order_relaxed);
        holder_cpu_.store(cpu, std::memory_order_relaxed);
        note_lock_acquired(trace_id());
        if (stats_)
            stats_->c.note_acquire(contended, bounced, wait);
        cls_->note_acquire(contended, bounced, wait);
        if (trace::enabled()) [[unlikely]] {
            hold_traced_ = contended || trace::all();
            if (hold_traced_)
                trace_acquired(ticks_to_ns(wait));
        }
        hold_start_ = ticks();
    }
    /// Called by the exclusive holder right before it releases the lock.
    void releasing_exclusive() noexcept
    {
        hold_stretch(hold_start_);
        const std::uint64_t hold = ticks() - hold_start_;
        if (trace::enabled()) [[unlikely]] {
            // A hold worth showing: one that was waited for, or that made
            // another CPU wait.
            if (hold_traced_ || waiters_.load(std::memory_order_relaxed) > 0)
                trace_released(ticks_to_ns(hold));
            hold_traced_ = false;
        }
        if (stats_)
            stats_->c.note_release(hold);
        cls_->note_release(hold);
        holder_cpu_.store(-1, std::memory_order_relaxed);
    }
    /// Shared holders: several at once, so every update is a real RMW.
    /// Returns the hold token the reader hands back on release: the hold's
    /// start in ticks, its lowest bit set if the acquisition was traced (a
    /// reader has no per-hold member to remember it in, and one tick is
    /// well below the clock's resolution).
    std::uint64_t acquired_shared(int cpu, bool contended, std::uint64_t wait) noexcept
    {
        const int last = last_cpu_.exchange(cpu, std::memory_order_relaxed);
        const bool bounced = last >= 0 && last != cpu;
        readers_.fetch_add(1, std::memory_order_relaxed);
        note_lock_acquired(trace_id());
        if (stats_)
            stats_->c.note_acquire(contended, bounced, wait);
        cls_->note_acquire(contended, bounced, wait);
        bool traced = false;
        if (trace::enabled()) [[unlikely]]
            if (contended || trace::all()) {
                trace_acquired(ticks_to_ns(wait));
                traced = true;
            }
        return (ticks() & ~std::uint64_t(1)) | (traced ? 1 : 0);
    }
    void releasing_shared(std::uint64_t token) noexcept
    {
        const std::uint64_t start = token & ~std::uint64_t(1);
        hold_stretch(start);
        const std::uint64_t hold = ticks() - start;
        if (trace::enabled()) [[unlikely]]
            if ((token & 1) || trace::all() || waiters_.load(std::memory_order_relaxed) > 0)
                trace_released(ticks_to_ns(hold));
        if (stats_)
            stats_->c.note_release(hold);
        cls_->note_release(hold);
        readers_.fetch_sub(1, std::memory_order_relaxed);
    }

private:
    // The lock tracepoints: trace_id() is the lock's identity; lock_id()
    // names it, 0 for an anonymous lock (a radix node's).
    void trace_wait_begin(int holder_cpu) const noexcept
    {
        trace::lock_wait_begin(
            { .lock = trace_id(), .lock_id = lock_id(), .class_id = cls_->id(), .holder_cpu = holder_cpu });
    }
    void trace_acquired(std::uint64_t wait_ns) const noexcept
    {
        trace::lock_acquired({ .lock = trace_id(), .lock_id = lock_id(), .class_id = cls_->id(), .wait_ns = wait_ns });
    }
    void trace_released(std::uint64_t hold_ns) const noexcept
    {
        trace::lock_released({ .lock = trace_id(), .lock_id = lock_id(), .class_id = cls_->id(), .hold_ns = hold_ns });
    }

    // Ordered so that instance_ takes no room a lock had before: a
    // SpinLock stays 56 bytes, its raw lock word in this class's tail.
    LockClass* cls_;
    LockStats* stats_ = nullptr;
    LockRegistry* registry_ = nullptr;
    std::uint64_t hold_start_ = 0;
    std::atomic<int> last_cpu_ { -1 };
    std::atomic<int> holder_cpu_ { -1 };
    std::atomic<std::uint32_t> readers_ { 0 };
    std::atomic<std::uint32_t> waiters_ { 0 };
    std::uint32_t instance_;   ///< number among its class's locks (trace_id)
    bool hold_traced_ = false; ///< this hold's acquisition was traced; written by the exclusive holder only
};

/// An exclusive lock (spin, ticket, mutex; the write side of RwLock) with
/// statistics. Satisfies Lockable, so std::lock_guard and std::unique_lock
/// work with it.
template <class Raw> class InstrumentedLock : public LockInstrument {
public:
    using LockInstrument::LockInstrument;

    void lock() noexcept
    {
        if (looked_at()) [[unlikely]]
            return;
        const int cpu = current_cpu();
        if (on_modelled_machine()) [[unlikely]] {
            lock_modelled(cpu);
            return;
        }
        if (raw_.try_lock()) {
            acquired_exclusive(cpu, false, 0);
            return;
        }
        begin_wait();
        const std::uint64_t t0 = ticks();
        raw_.lock();
        const std::uint64_t wait = ticks() - t0;
        end_wait();
        acquired_exclusive(cpu, true, wait);
    }
    bool try_lock() noexcept
    {
        if (looked_at()) [[unlikely]]
            return true;
        if (!raw_.try_lock())
            return false;
        acquired_exclusive(current_cpu(), false, 0);
        return true;
    }
    void unlock() noexcept
    {
        if (looked_at()) [[unlikely]]
            return;
        releasing_exclusive();
        // The release's store needs the line back from the spinners that
        // read it: the lock is held until it lands (touch_line wakes them
        // only after, and nothing runs before the store below).
        touch_line(trace_id(), true);
        raw_.unlock();
    }

protected:
    /// lock() on a modelled machine: the same tries and waits, with the
    /// lock word a modelled line, so that each access of it by a CPU that
    /// does not have it costs a transfer (raw_locks.h).
    void lock_modelled(int cpu) noexcept
    {
        touch_line(trace_id(), true);
        if (raw_.try_lock()) {
            acquired_exclusive(cpu, false, 0);
        } else {
            begin_wait();
            const std::uint64_t t0 = ticks();
            raw_.lock(LineTouch { trace_id() });
            const std::uint64_t wait = ticks() - t0;
            end_wait();
            acquired_exclusive(cpu, true, wait);
        }
        // Inside the hold: a locked read-modify-write keeps its line until
        // it completes, and the statistics of an instrumented lock are
        // kept under it.
        charge_work(Work::LockAcquire);
    }

    Raw raw_;
};

} // namespace pcl::sync
