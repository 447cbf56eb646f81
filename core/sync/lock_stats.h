// Lock statistics in lockstat's terms (Documentation/locking/lockstat.rst).
//
// For every lock and every lock class: acquisitions, contentions (the first
// attempt found the lock taken), wait time (contended acquisitions only) and
// hold time, each as total/min/max, and *bounces*: an acquisition on another
// simulated CPU than the previous one (acq-bounces), and a contention on
// another CPU than the previous acquirer (con-bounces). Times are kept in
// clock ticks and reported in nanoseconds.
//
// The ticks are base/clock.h's: the host's tick counter, or on a modelled
// machine its virtual nanoseconds. A registry's locks are timed with one of
// the two (its TickUnit, fixed when it is made), and a row is converted by
// that unit, not by the reading thread's: a modelled run's figures must not
// depend on the host's tick rate, nor on which thread reads them.
//
// Writers: every counter set, a lock's own and its class's, is split into
// per-thread shards; a thread owns its shard and updates it with plain
// stores, so counting adds no locked instruction and no shared cache line.
// The counters are atomics so that readers (the GUI, a report) may read them
// at any time.
#pragma once

#include "base/clock.h"
#include "base/cpu.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace pcl::sync {

/// Buckets of the wait-time histogram: bucket b holds waits in
/// [2^b, 2^(b+1)) ns (bucket 0 also holds 0), the last everything from
/// 2^(kWaitBuckets-1) ns (about 1 s) up.
inline constexpr unsigned kWaitBuckets = 31;

/// One row of a lock statistics table (a lock or a class), in nanoseconds.
struct LockStatRow {
    std::string name;                ///< lock name, e.g. "mapping[0].tree_lock", or the class name for class rows
    std::string lock_class;          ///< class name, e.g. "mapping.tree_lock"
    std::uint64_t acquisitions = 0;  ///< successful acquisitions (read or write)
    std::uint64_t contentions = 0;   ///< acquisitions that had to wait
    std::uint64_t acq_bounces = 0;   ///< acquisitions on a different CPU than the previous one
    std::uint64_t con_bounces = 0;   ///< contentions on a different CPU than the previous acquirer
    std::uint64_t wait_total_ns = 0; ///< total time spent waiting (contended acquisitions)
    std::uint64_t wait_min_ns = 0;   ///< shortest contended wait (0 if never contended)
    std::uint64_t wait_max_ns = 0;   ///< longest contended wait
    std::uint64_t hold_total_ns = 0; ///< total time held
    std::uint64_t hold_min_ns = 0;   ///< shortest hold (0 if never acquired)
    std::uint64_t hold_max_ns = 0;   ///< longest hold
    std::uint64_t instances = 1;     ///< locks folded into this row (class rows)
    std::array<std::uint64_t, kWaitBuckets> wait_buckets {}; ///< contended waits by length (kWaitBuckets)

    double contention_ratio() const { return acquisitions ? double(contentions) / double(acquisitions) : 0.0; }
    double wait_avg_ns() const { return contentions ? double(wait_total_ns) / double(contentions) : 0.0; }
    double hold_avg_ns() const { return acquisitions ? double(hold_total_ns) / double(acquisitions) : 0.0; }
};

/// Raw counters in ticks. See the file comment for who writes them.
struct LockCounters {
    static constexpr std::uint64_t kNoMin = std::numeric_limits<std::uint64_t>::max();

    std::atomic<std::uint64_t> acquisitions { 0 };
    std::atomic<std::uint64_t> contentions { 0 };
    std::atomic<std::uint64_t> acq_bounces { 0 };
    std::atomic<std::uint64_t> con_bounces { 0 };
    std::atomic<std::uint64_t> wait_total { 0 };
    std::atomic<std::uint64_t> wait_min { kNoMin };
    std::atomic<std::uint64_t> wait_max { 0 };
    std::atomic<std::uint64_t> hold_total { 0 };
    std::atomic<std::uint64_t> hold_min { kNoMin };
    std::atomic<std::uint64_t> hold_max { 0 };
    std::array<std::atomic<std::uint64_t>, kWaitBuckets> wait_buckets {};

    /// Records an acquisition. exclusive: the caller is the only writer of
    /// these counters, so plain load/store suffices.
    void note_acquire(bool exclusive, bool contended, bool bounced, std::uint64_t wait) noexcept;
    /// Records the end of a hold of `hold` ticks.
    void note_release(bool exclusive, std::uint64_t hold) noexcept;
    /// Adds these counters, ticks of @unit, converted to ns into a row.
    void add_to(LockStatRow& row, TickUnit unit) const noexcept;
    void reset() noexcept;
};

/// Counters split into per-thread shards. A thread whose slot is below
/// @Shards owns a shard and updates it with plain stores (no locked
/// instructions, no cache line shared with another CPU); any other thread
/// adds into the last shard atomically. Reading sums the shards, like the
/// kernel's per-CPU lock_stat counters.
template <unsigned Shards> class ShardedLockCounters {
public:
    void note_acquire(bool contended, bool bounced, std::uint64_t wait) noexcept
    {
        const unsigned slot = thread_slot();
        if (slot < Shards)
            shards_[slot].c.note_acquire(true, contended, bounced, wait);
        else
            shards_[Shards].c.note_acquire(false, contended, bounced, wait);
    }
    void note_release(std::uint64_t hold) noexcept
    {
        const unsigned slot = thread_slot();
        if (slot < Shards)
            shards_[slot].c.note_release(true, hold);
        else
            shards_[Shards].c.note_release(false, hold);
    }
    /// Adds every shard, ticks of @unit, converted to ns into @row.
    void add_to(LockStatRow& row, TickUnit unit) const noexcept
    {
        for (const auto& shard : shards_)
            shard.c.add_to(row, unit);
    }
    void reset() noexcept
    {
        for (auto& shard : shards_)
            shard.c.reset();
    }

private:
    struct alignas(64) Shard {
        LockCounters c;
    };
    Shard shards_[Shards + 1];
};

/// A lock class, as lockdep groups locks: all `mapping.tree_lock`s are one
/// class whatever file they belong to. Counters are per-thread shards, so a
/// class of a million node locks taken on every CPU is not one hot line.
class LockClass {
public:
    /// A class timed with @unit's clock (the host's, unless it belongs to a
    /// modelled machine's registry).
    explicit LockClass(std::string name, std::uint32_t id = 0, TickUnit unit = TickUnit::host);
    const std::string& name() const { return name_; }
    /// The clock its locks' times are taken with.
    TickUnit tick_unit() const noexcept { return unit_; }
    /// Number of the class in its registry (1, 2, ...; 0 outside one), as
    /// the event stream names it.
    std::uint32_t id() const noexcept { return id_; }

    void note_acquire(bool contended, bool bounced, std::uint64_t wait) noexcept
    {
        counters_->note_acquire(contended, bounced, wait);
    }
    void note_release(std::uint64_t hold) noexcept { counters_->note_release(hold); }
    /// Sum over shards, converted to ns.
    LockStatRow row() const;
    void reset() noexcept;
    /// Counts locks of this class ever created (for the class row); returns
    /// the new lock's number among them, from 1 (LockInstrument::trace_id),
    /// modulo 2^32.
    std::uint32_t note_instance() noexcept
    {
        return std::uint32_t(instances_.fetch_add(1, std::memory_order_relaxed) + 1);
    }

private:
    std::string name_;
    std::uint32_t id_;
    TickUnit unit_;
    std::unique_ptr<ShardedLockCounters<64>> counters_;
    std::atomic<std::uint64_t> instances_ { 0 };
};

/// The per-lock statistics of a named lock, owned by a registry so that the
/// rows outlive nothing they point into. Sharded too: the readers of an
/// rwlock all count into it at once, and a shared counter would add a
/// second bouncing line to the lock word's.
struct LockStats {
    std::string name;
    std::uint32_t id = 0; ///< number in the registry (1, 2, ...), as the event stream names the lock
    LockClass* cls = nullptr;
    ShardedLockCounters<8> c;
    std::atomic<bool> live { true };
};

/// Registry of lock classes and named locks: the source of the lock table.
/// Thread-safe. One process-wide instance (`global()`); an engine that runs
/// beside another (compare mode) may own its own.
class LockRegistry {
public:
    /// A registry whose locks are timed with @unit's clock: by default the
    /// clock of the thread (or task) that makes it, so a modelled machine's
    /// run that makes its own registry has its figures in virtual time.
    explicit LockRegistry(TickUnit unit = current_tick_unit()) noexcept
        : unit_(unit)
    {
    }
    /// The host's registry (host ticks).
    static LockRegistry& global();

    /// The clock this registry's locks are timed with.
    TickUnit tick_unit() const noexcept { return unit_; }

    /// Finds or creates a class. The reference stays valid for the registry's life.
    LockClass& lock_class(std::string_view name);
    /// Creates the statistics of a named lock of class `cls`.
    LockStats* register_lock(std::string name, LockClass& cls);
    /// Marks a named lock's statistics as belonging to a destroyed lock; its
    /// row is dropped from `locks()` but its counts stay in its class.
    void unregister_lock(LockStats* stats) noexcept;

    /// The name of the named lock numbered @id (LockStats::id), "" if none.
    /// A number is reused once its lock is destroyed: resolve it while the
    /// lock lives.
    std::string lock_name(std::uint32_t id) const;
    /// The name of the class numbered @id (LockClass::id), "" if none.
    std::string class_name(std::uint32_t id) const;

    /// lock_name(id) of every id given so far, at [id - 1].
    std::vector<std::string> lock_names() const;
    /// class_name(id) of every class, at [id - 1].
    std::vector<std::string> class_names() const;

    /// Rows of all live named locks.
    std::vector<LockStatRow> locks() const;
    /// Rows of all classes.
    std::vector<LockStatRow> classes() const;
    /// Zeroes every counter (classes and live locks).
    void reset();

private:
    TickUnit unit_;
    mutable std::mutex mu_; ///< protects the two containers below (not the counters)
    std::deque<LockClass> classes_;
    std::deque<LockStats> locks_;
    std::vector<LockStats*> free_;
};

} // namespace pcl::sync
