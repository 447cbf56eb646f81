// The cache lines a modelled machine's CPUs contend for: a lock word, a
// shared counter, a radix-tree node's slots. Each line has an owner (the
// CPU whose cache holds it last written) and a set of sharers (the CPUs
// holding a copy; the owner is one). A read by a sharer and a write by the
// owner are free; any other access moves the line from the owner's cache,
// at the latency of the distance between the two CPUs. A write leaves the
// writer the only sharer: the others' copies are invalidated (the
// invalidation itself is not charged: the writer does not wait for it).
//
// A write's transfer takes the line from its owner when the request
// reaches the owner's cache (a read-for-ownership of MESI: the request
// travels, the line comes back). Until then the line is still in the old
// owner's cache: its own reads and stores hit there, free, and the store
// goes to the new owner with the line. This is what lets a CPU that
// releases a spinlock and takes it again at once keep it while a waiter's
// request is in flight, the unfairness of a test-and-set lock on real
// hardware; without it, CPUs taking one lock in turn would all find it held.
//
// Where in the transfer the request reaches the owner is drawn, from a
// seeded stream (the same seed, the same run). A request on its own reaches
// the owner anywhere in the transfer, uniformly: it goes through the line's
// home (the directory, or the memory controller whose addresses the line
// belongs to), which may sit beside the requester, beside the owner or
// between them, and differs from line to line. A request queued behind an
// earlier transfer of the line has already reached the home and waits
// there; once the line it waits for has arrived, the probe's last leg, from
// the home to the CPU the line has just reached, is drawn within the first
// half of the transfer (a write that waits for the shared bus alone is not
// queued so). A fixed point (half way, as this model first had it) puts the
// CPUs of a deterministic run in step: two CPUs taking a lock in turn then
// almost never found it held, where the threads of a real machine find it
// held in 150 to 450 acquisitions of 1000 (docs/machines.md, "This
// computer"). Writes
// queued behind one another hand the line on in turn: each owner on the
// way keeps it from its transfer's arrival until the next one's request
// reaches it.
//
// The transfers of one line are serialised: a line is busy until its last
// transfer has arrived, so k CPUs writing it at the same virtual time get
// it at t+c, t+2c, ..., t+kc. This is why a contended lock's cost grows
// with the number of waiters (Boyd-Wickizer, Kaashoek, Morris, Zeldovich,
// "Non-scalable locks are dangerous", Linux Symposium 2012). On a machine
// with one shared bus every transfer of every line also waits for the bus.
//
// A line is named by a dense number its caller gives (one per lock word,
// per shared counter), never by a host address, so the same run gives the
// same costs. A line nobody has touched yet is not in any cache: its first
// access is free and its accessor becomes its owner (the work costs hold
// the cost of reaching memory). transfers() is what lockstat's "bounces"
// count on a modelled machine.
#pragma once

#include "base/splitmix64.h"
#include "sched/cpu_distance.h"

#include <array>
#include <cstdint>
#include <vector>

namespace pcl::sched {

/// What one access cost, for the caller to charge.
struct LineAccess {
    std::uint64_t cost_ns = 0;   ///< wait + latency: from the access until the line is here
    std::uint64_t wait_ns = 0;   ///< of which waiting for earlier transfers (of the line, of the bus)
    bool transfer = false;       ///< the line moved
    CpuDistance distance {};     ///< from the owner it came from (Same when it did not move)
    std::uint64_t leaves_ns = 0; ///< a write's transfer: when the line left its old owner (else 0)
    friend bool operator==(const LineAccess&, const LineAccess&) = default;
};

class CacheLines {
public:
    /// The lines of @profile's machine (valid), every transfer latency
    /// multiplied by @latency_scale (FieldError "latency_scale" if not in
    /// [0, 1000]); where each write's request reaches the owner is drawn
    /// from a stream seeded by @seed. No line is modelled until it is first
    /// accessed.
    CacheLines(const MachineProfile& profile, double latency_scale = 1.0, std::uint64_t seed = 0);

    /// @cpu reads @line at virtual time @now_ns. Throws std::out_of_range
    /// for a CPU the machine does not have.
    LineAccess read(std::uint32_t line, std::uint32_t cpu, std::uint64_t now_ns);
    /// @cpu writes @line (a store, an atomic, taking a lock) at @now_ns.
    LineAccess write(std::uint32_t line, std::uint32_t cpu, std::uint64_t now_ns);

    /// Transfers so far, of every line / of @line.
    std::uint64_t transfers() const noexcept { return transfers_; }
    std::uint64_t transfers(std::uint32_t line) const noexcept;
    /// Transfers so far over distance @kind.
    std::uint64_t transfers(DistanceKind kind) const noexcept { return by_kind_[std::size_t(kind)]; }
    /// @line's owner, or -1 before its first access.
    std::int64_t owner(std::uint32_t line) const noexcept;
    bool is_sharer(std::uint32_t line, std::uint32_t cpu) const noexcept;
    /// The virtual time @line's last transfer arrives (0 before any).
    std::uint64_t busy_until(std::uint32_t line) const noexcept;

    const TransferLatencyTable& latencies() const noexcept { return latencies_; }

private:
    static constexpr std::uint32_t kNoOwner = ~0u;
    /// An owner a write's transfer takes the line from, and when.
    struct Handover {
        std::uint32_t cpu = kNoOwner;
        std::uint64_t leaves_at = 0;
    };
    /// The hand-overs a line remembers: the holder's and those of the
    /// owners queued behind it (a fourth request in flight at once forgets
    /// the oldest, whose owner then pays to write it back).
    static constexpr std::size_t kHandovers = 3;
    struct Line {
        std::uint32_t owner = kNoOwner;
        std::uint64_t busy_until = 0;
        std::uint64_t transfers = 0;
        std::array<Handover, kHandovers> handovers {}; ///< by leaves_at, the earliest first
    };
    /// @cpu still has @line at @now_ns: a transfer taking it away has not
    /// reached its cache yet.
    static bool still_here(const Line& l, std::uint32_t cpu, std::uint64_t now_ns) noexcept
    {
        for (const Handover& h : l.handovers)
            if (h.cpu == cpu && now_ns < h.leaves_at)
                return true;
        return false;
    }
    /// Remembers that a write's transfer takes @l from @cpu at @leaves_at,
    /// forgetting the hand-overs over by @now_ns (or the oldest).
    static void hand_over(Line& l, std::uint32_t cpu, std::uint64_t leaves_at, std::uint64_t now_ns) noexcept;

    /// @line's state (made on its first access); every access checks @cpu.
    Line& touch(std::uint32_t line, std::uint32_t cpu)
    {
        if (cpu >= cpus_) [[unlikely]]
            no_such_cpu(cpu);
        if (line >= lines_.size()) [[unlikely]]
            grow(line);
        return lines_[line];
    }
    [[noreturn]] void no_such_cpu(std::uint32_t cpu) const;
    void grow(std::uint32_t line);
    std::uint64_t* sharers(std::uint32_t line) noexcept { return &sharer_words_[std::size_t(line) * words_]; }
    const std::uint64_t* sharers(std::uint32_t line) const noexcept
    {
        return &sharer_words_[std::size_t(line) * words_];
    }
    /// @line moves from its owner to @cpu: serialised behind the line's (and
    /// the bus's) transfers; @write takes it from the owner's cache.
    LineAccess move(Line& line, std::uint32_t cpu, std::uint64_t now_ns, bool write);

    /// A distance between two CPUs and its latency.
    struct Route {
        CpuDistance distance;
        std::uint64_t latency;
    };

    TransferLatencyTable latencies_;
    std::uint32_t cpus_;
    /// The distinct distances of the machine, and which one each pair of
    /// CPUs is at ([from * cpus_ + to]): a transfer looks its distance up
    /// instead of working it out from the topology each time (a byte a
    /// pair: 1 MiB at the most CPUs a profile may have).
    std::vector<Route> routes_;
    std::vector<std::uint8_t> route_of_;
    std::size_t words_; ///< of a sharer set
    bool shared_bus_;
    std::uint64_t bus_busy_until_ = 0;
    SplitMix64 reach_; ///< where a write's request reaches the owner
    std::vector<Line> lines_;
    std::vector<std::uint64_t> sharer_words_;
    std::uint64_t transfers_ = 0;
    std::array<std::uint64_t, 5> by_kind_ {};
};

} // namespace pcl::sched
