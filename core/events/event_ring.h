// Per-CPU bounded rings of events, and the stream that merges them.
//
// Each simulated CPU's worker thread is the only producer of its ring; one
// reader (the engine's sampler, the GUI's poller) drains all rings. A worker
// must never wait for the reader, so a full ring overwrites its oldest
// record and counts the loss; the reader must never see a half-written or
// overwritten record, and every record pushed is either drained exactly once
// or counted as dropped exactly once.
//
// How the two sides agree without blocking each other:
// - head (records ever pushed) is written by the producer only;
// - tail (first record nobody has claimed yet) moves forward only by
//   compare-and-swap, by either side: the reader claims [tail, head) after
//   copying it, the producer claims the single record it is about to
//   overwrite. Whoever moves tail past a record owns it, which makes the
//   drained/dropped split exact;
// - each slot carries a sequence number (seqlock style: odd while being
//   written, 2 * position + 2 once record `position` is complete), so the
//   reader can tell when the copy it just made was torn or was of a newer
//   record, and slot contents are atomics so the races it detects are not
//   data races.
#pragma once

#include "base/cache_line.h"
#include "events/event.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace pcl {

class EventRing {
public:
    /// @capacity is rounded up to a power of two (at least 2) so a position
    /// maps to its slot with a mask.
    explicit EventRing(std::size_t capacity);
    EventRing(const EventRing&) = delete;
    EventRing& operator=(const EventRing&) = delete;

    std::size_t capacity() const noexcept { return capacity_; }
    /// Records dropped at once when the ring is full: capacity / 16 (at
    /// least 1), the oldest first.
    std::size_t drop_batch() const noexcept { return drop_batch_; }

    /// Appends @e. Producer thread only. Never blocks, never fails: when the
    /// ring is full the oldest unclaimed records (drop_batch() of them) are
    /// dropped and counted.
    void push(const Event& e) noexcept
    {
        const std::uint64_t pos = head_.load(std::memory_order_relaxed);
        // tail only grows, so a stale cached value can only make the ring
        // look fuller than it is: reload it only when it looks full.
        if (pos - cached_tail_ >= capacity_) {
            cached_tail_ = tail_.load(std::memory_order_acquire);
            if (pos - cached_tail_ >= capacity_) {
                // Claim the oldest drop_batch_ records before touching the
                // first one's slot; if the reader claimed it first, it has
                // finished copying it. A batch, so that a producer the reader
                // cannot keep up with pays one compare-and-swap per batch
                // rather than one per record.
                std::uint64_t victim = pos - capacity_;
                if (tail_.compare_exchange_strong(
                        victim, victim + drop_batch_, std::memory_order_acq_rel, std::memory_order_acquire)) {
                    dropped_.store(dropped_.load(std::memory_order_relaxed) + drop_batch_, std::memory_order_relaxed);
                    cached_tail_ = victim + drop_batch_;
                } else {
                    cached_tail_ = victim;
                }
            }
        }

        std::uint64_t words[kWords];
        std::memcpy(words, &e, sizeof(Event));
        Slot& slot = slots_[pos & mask_];
        slot.seq.store(2 * pos + 1, std::memory_order_relaxed);
        // Release stores (instead of a release fence, which ThreadSanitizer
        // does not model; plain moves on x86 either way): a reader whose copy
        // saw any of the new payload also sees the odd sequence, or later.
        for (std::size_t i = 0; i < kWords; ++i)
            slot.words[i].store(words[i], std::memory_order_release);
        slot.seq.store(2 * pos + 2, std::memory_order_release);
        head_.store(pos + 1, std::memory_order_release);
    }

    /// Appends every record not yet drained or dropped, oldest first, to
    /// @out and returns how many. Consumer thread only (one at a time).
    /// Records the producer pushes during the call may or may not be included.
    std::size_t drain(std::vector<Event>& out);

    /// Records ever pushed.
    std::uint64_t pushed() const noexcept { return head_.load(std::memory_order_acquire); }
    /// Records overwritten before the reader claimed them.
    std::uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }
    /// Records waiting to be drained (a snapshot; the producer may be adding).
    std::size_t pending() const noexcept
    {
        const std::uint64_t tail = tail_.load(std::memory_order_acquire);
        const std::uint64_t head = head_.load(std::memory_order_acquire);
        return head > tail ? static_cast<std::size_t>(head - tail) : 0;
    }

private:
    static constexpr std::size_t kWords = sizeof(Event) / sizeof(std::uint64_t);

    struct alignas(kCacheLine) Slot {
        std::atomic<std::uint64_t> seq { 0 };
        std::atomic<std::uint64_t> words[kWords] {};
    };

    /// Copies record @pos into @e; false if its slot no longer (or not
    /// consistently) holds that record.
    bool read_slot(std::uint64_t pos, Event& e) const noexcept;

    /// The slots' own mapping: not the heap, and so never a modelled
    /// machine's arena (base/machine_arena.h). The rings are empty whenever
    /// the machine stands (ModelledRun drains them before it hands over),
    /// so a checkpoint has nothing in them to keep; outside the arena, the
    /// run's writes to them (a ring a CPU, 1 MB each by default) take no
    /// copy-on-write fault after every checkpoint, and a restore writes
    /// none of them back. A modelled machine's arena unmaps them when it
    /// ends (a ring restored from a checkpoint never points at slots a
    /// later course unmapped).
    struct Unmap {
        std::size_t bytes;
        bool adopted; ///< a modelled machine's arena unmaps it when it ends
        void operator()(Slot* slots) const noexcept;
    };
    static std::unique_ptr<Slot[], Unmap> map_slots(std::size_t capacity);

    const std::size_t capacity_;
    const std::uint64_t mask_;
    const std::uint64_t drop_batch_;
    std::unique_ptr<Slot[], Unmap> slots_;

    // Producer side: written on every push.
    alignas(kCacheLine) std::atomic<std::uint64_t> head_ { 0 };
    std::atomic<std::uint64_t> dropped_ { 0 };
    std::uint64_t cached_tail_ = 0; ///< producer's last view of tail_

    // Shared claim point: written by the reader once per drain and by the
    // producer once per dropped record.
    alignas(kCacheLine) std::atomic<std::uint64_t> tail_ { 0 };
};

/// One ring per simulated CPU and a reader that merges them.
class EventStream {
public:
    EventStream(std::size_t cpus, std::size_t capacity_per_cpu);

    std::size_t cpus() const noexcept { return rings_.size(); }
    EventRing& ring(std::size_t cpu) noexcept { return *rings_[cpu]; }
    const EventRing& ring(std::size_t cpu) const noexcept { return *rings_[cpu]; }

    /// Pushes @e into the ring of e.cpu, from that CPU's worker thread.
    void push(const Event& e) noexcept { rings_[e.cpu]->push(e); }

    /// Drains every ring and appends the records to @out in time order
    /// (ties by CPU, then push order); returns how many. Reader only.
    /// Each call's output is ordered; a record stamped just before a call
    /// but pushed after its ring was drained comes in the next call, and may
    /// be older than the last record of this one.
    std::size_t drain_all(std::vector<Event>& out);

    std::uint64_t pushed() const noexcept;
    std::uint64_t dropped() const noexcept;

private:
    std::vector<std::unique_ptr<EventRing>> rings_;
    std::vector<std::vector<Event>> runs_; ///< the reader's per-ring buffers, reused across calls
};

} // namespace pcl
