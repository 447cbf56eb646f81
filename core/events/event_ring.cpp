#include "events/event_ring.h"

#include "base/machine_arena.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <new>
#include <stdexcept>

#include <sys/mman.h>

namespace pcl {

namespace {

std::size_t round_capacity(std::size_t capacity)
{
    if (capacity > (std::size_t(1) << 40))
        throw std::invalid_argument("EventRing: capacity too large");
    return std::bit_ceil(std::max<std::size_t>(capacity, 2));
}

std::size_t checked_cpus(std::size_t cpus)
{
    // Event::cpu is 16 bits wide.
    if (cpus == 0 || cpus > 0x10000)
        throw std::invalid_argument("EventStream: CPU count must be in 1..65536");
    return cpus;
}

} // namespace

std::unique_ptr<EventRing::Slot[], EventRing::Unmap> EventRing::map_slots(std::size_t capacity)
{
    const std::size_t bytes = capacity * sizeof(Slot);
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
    auto* slots = static_cast<Slot*>(p);
    std::uninitialized_value_construct_n(slots, capacity);
    // A ring of a modelled machine's leaves its slots to the machine's
    // arena: a ring object restored from a checkpoint must never point at
    // slots a later course unmapped, and a run abandoned whole still
    // gives them back.
    MachineArena* arena = MachineArena::current();
    if (arena) {
        try {
            arena->adopt_mapping(p, bytes);
        } catch (...) {
            ::munmap(p, bytes);
            throw;
        }
    }
    return std::unique_ptr<Slot[], Unmap>(slots, Unmap { bytes, arena != nullptr });
}

void EventRing::Unmap::operator()(Slot* slots) const noexcept
{
    if (!adopted)
        ::munmap(slots, bytes);
}

EventRing::EventRing(std::size_t capacity)
    : capacity_(round_capacity(capacity))
    , mask_(capacity_ - 1)
    , drop_batch_(std::max<std::uint64_t>(capacity_ / 16, 1))
    , slots_(map_slots(capacity_))
{
}

bool EventRing::read_slot(std::uint64_t pos, Event& e) const noexcept
{
    const Slot& slot = slots_[pos & mask_];
    const std::uint64_t want = 2 * pos + 2;
    if (slot.seq.load(std::memory_order_acquire) != want)
        return false;
    std::uint64_t words[kWords];
    // Acquire pairs with push's release payload stores: if any word came
    // from a newer write, the sequence read below is no longer `want`.
    for (std::size_t i = 0; i < kWords; ++i)
        words[i] = slot.words[i].load(std::memory_order_acquire);
    if (slot.seq.load(std::memory_order_relaxed) != want)
        return false;
    std::memcpy(&e, words, sizeof(Event));
    return true;
}

std::size_t EventRing::drain(std::vector<Event>& out)
{
    std::uint64_t tail = tail_.load(std::memory_order_acquire);
    const std::uint64_t head = head_.load(std::memory_order_acquire);
    // A reader delayed between the two loads may hold a tail more than a
    // ring behind head. The producer never lets the real tail fall that far
    // behind the head it publishes, so start at most a ring back: the
    // records before that are the producer's (dropped), and the claim below
    // finds the real tail at or after this one.
    if (head - tail > capacity_)
        tail = head - capacity_;
    if (head == tail)
        return 0;

    // Copy first, claim after: the producer never overwrites a record it has
    // not claimed, so everything copied and validated at or after the tail
    // we end up replacing is genuinely ours.
    const std::size_t base = out.size();
    out.resize(base + static_cast<std::size_t>(head - tail));
    std::uint64_t first_valid = tail;
    for (std::uint64_t pos = tail; pos != head; ++pos)
        if (!read_slot(pos, out[base + static_cast<std::size_t>(pos - tail)]))
            first_valid = pos + 1; // overwritten, so the producer claimed it and all before it

    std::uint64_t claimed_from = tail;
    while (!tail_.compare_exchange_weak(claimed_from, head, std::memory_order_acq_rel, std::memory_order_acquire)) {
        if (claimed_from >= head) {
            // The producer dropped everything we copied while we copied it.
            claimed_from = head;
            break;
        }
    }
    first_valid = std::max(first_valid, claimed_from);

    const auto skip = static_cast<std::ptrdiff_t>(first_valid - tail);
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(base), out.begin() + static_cast<std::ptrdiff_t>(base) + skip);
    return static_cast<std::size_t>(head - first_valid);
}

EventStream::EventStream(std::size_t cpus, std::size_t capacity_per_cpu)
    : runs_(checked_cpus(cpus))
{
    rings_.reserve(cpus);
    for (std::size_t i = 0; i < cpus; ++i)
        rings_.push_back(std::make_unique<EventRing>(capacity_per_cpu));
}

std::size_t EventStream::drain_all(std::vector<Event>& out)
{
    std::size_t total = 0;
    for (std::size_t i = 0; i < rings_.size(); ++i) {
        runs_[i].clear();
        total += rings_[i]->drain(runs_[i]);
        // A ring is in push order; a producer that stamps before pushing
        // (make_event) keeps it in time order. Tolerate one that does not
        // rather than emit a misordered stream.
        auto by_time = [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; };
        if (!std::is_sorted(runs_[i].begin(), runs_[i].end(), by_time))
            std::stable_sort(runs_[i].begin(), runs_[i].end(), by_time);
    }
    out.reserve(out.size() + total);

    // k-way merge with a min-heap of the next record of each non-empty run.
    struct Head {
        std::uint64_t time;
        std::size_t run;
        std::size_t pos;
    };
    // std heap functions keep the largest first, so "less" means "later".
    auto later = [](const Head& a, const Head& b) { return a.time != b.time ? a.time > b.time : a.run > b.run; };
    std::vector<Head> heap;
    heap.reserve(runs_.size());
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (!runs_[i].empty())
            heap.push_back({ runs_[i][0].time_ns, i, 0 });
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), later);
        Head& h = heap.back();
        const std::vector<Event>& run = runs_[h.run];
        out.push_back(run[h.pos]);
        if (++h.pos < run.size()) {
            h.time = run[h.pos].time_ns;
            std::push_heap(heap.begin(), heap.end(), later);
        } else {
            heap.pop_back();
        }
    }
    return total;
}

std::uint64_t EventStream::pushed() const noexcept
{
    std::uint64_t n = 0;
    for (const auto& r : rings_)
        n += r->pushed();
    return n;
}

std::uint64_t EventStream::dropped() const noexcept
{
    std::uint64_t n = 0;
    for (const auto& r : rings_)
        n += r->dropped();
    return n;
}

} // namespace pcl
