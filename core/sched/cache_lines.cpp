#include "sched/cache_lines.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pcl::sched {

CacheLines::CacheLines(const MachineProfile& profile, double latency_scale, std::uint64_t seed)
    : latencies_(profile, latency_scale)
    , cpus_(profile.topology.cpus())
    , words_((profile.topology.cpus() + 63) / 64)
    , shared_bus_(profile.topology.shared_bus)
    , reach_(SplitMix64::mix(seed ^ 0x6c696e6573ull)) // a stream of its own, not the scheduler's keys
{
    route_of_.resize(std::size_t(cpus_) * cpus_);
    for (std::uint32_t from = 0; from < cpus_; ++from)
        for (std::uint32_t to = 0; to < cpus_; ++to) {
            const CpuDistance d = distance(latencies_.topology(), from, to);
            std::size_t r = 0;
            while (r < routes_.size() && !(routes_[r].distance == d))
                ++r;
            if (r == routes_.size())
                routes_.push_back({ d, latencies_.latency(d) });
            route_of_[std::size_t(from) * cpus_ + to] = std::uint8_t(r);
        }
}

void CacheLines::no_such_cpu(std::uint32_t cpu) const
{
    throw std::out_of_range(
        "cache line access by CPU " + std::to_string(cpu) + " of a machine of " + std::to_string(cpus_));
}

void CacheLines::grow(std::uint32_t line)
{
    lines_.resize(std::size_t(line) + 1);
    sharer_words_.resize(lines_.size() * words_);
}

void CacheLines::hand_over(Line& l, std::uint32_t cpu, std::uint64_t leaves_at, std::uint64_t now_ns) noexcept
{
    // Transfers of one line are serialised, so a new hand-over is the
    // latest: the kept ones stay in order.
    std::size_t kept = 0;
    for (const Handover& h : l.handovers)
        if (h.cpu != kNoOwner && now_ns < h.leaves_at)
            l.handovers[kept++] = h;
    if (kept == kHandovers) {
        std::move(l.handovers.begin() + 1, l.handovers.end(), l.handovers.begin());
        kept = kHandovers - 1;
    }
    l.handovers[kept++] = { cpu, leaves_at };
    for (; kept < kHandovers; ++kept)
        l.handovers[kept] = {};
}

LineAccess CacheLines::move(Line& l, std::uint32_t cpu, std::uint64_t now_ns, bool write)
{
    LineAccess a;
    a.transfer = true;
    const Route& route = routes_[route_of_[std::size_t(l.owner) * cpus_ + cpu]];
    a.distance = route.distance;
    // Queued behind an earlier transfer of this line: the request waits at
    // the line's home. A wait for the bus alone is not that.
    const bool queued = l.busy_until > now_ns;
    std::uint64_t start = std::max(now_ns, l.busy_until);
    if (shared_bus_)
        start = std::max(start, bus_busy_until_);
    const std::uint64_t arrives = start + route.latency;
    l.busy_until = arrives;
    if (write) {
        // When the request reaches the owner (cache_lines.h): anywhere in
        // the transfer for a request on its own, within its first half for
        // one that waited at the home for the line's last transfer.
        const std::uint64_t span = (queued ? route.latency / 2 : route.latency) + 1;
        // Multiply-shift (Lemire, "Fast random integer generation in an
        // interval", 2019), not below()'s division: a draw at every write
        // transfer, the modelled machine's hottest path (a 64-CPU pft took
        // 6 % longer with the division). Its bias, under span / 2^32, is far
        // below what a run could show.
        const std::uint64_t drawn
            = span <= (std::uint64_t(1) << 32) ? ((reach_.next() >> 32) * span) >> 32 : reach_.below(span);
        a.leaves_ns = start + drawn;
        hand_over(l, l.owner, a.leaves_ns, now_ns);
    }
    if (shared_bus_)
        bus_busy_until_ = arrives;
    a.wait_ns = start - now_ns;
    a.cost_ns = arrives - now_ns;
    ++l.transfers;
    ++transfers_;
    ++by_kind_[std::size_t(a.distance.kind)];
    return a;
}

LineAccess CacheLines::read(std::uint32_t line, std::uint32_t cpu, std::uint64_t now_ns)
{
    Line& l = touch(line, cpu);
    std::uint64_t* set = sharers(line);
    const std::uint64_t bit = std::uint64_t(1) << (cpu % 64);
    if (l.owner == kNoOwner) {
        l.owner = cpu;
        set[cpu / 64] |= bit;
        return {};
    }
    if (set[cpu / 64] & bit || still_here(l, cpu, now_ns))
        return {};
    // A read miss: the owner supplies a copy and keeps the line.
    LineAccess a = move(l, cpu, now_ns, false);
    set[cpu / 64] |= bit;
    return a;
}

LineAccess CacheLines::write(std::uint32_t line, std::uint32_t cpu, std::uint64_t now_ns)
{
    Line& l = touch(line, cpu);
    if (still_here(l, cpu, now_ns))
        return {}; // the store lands before the line leaves, and goes with it
    std::uint64_t* set = sharers(line);
    LineAccess a;
    if (l.owner != kNoOwner && l.owner != cpu)
        a = move(l, cpu, now_ns, true);
    l.owner = cpu;
    if (words_ == 1) // up to 64 CPUs: a store, not a call to memset()
        set[0] = 0;
    else
        std::fill(set, set + words_, 0);
    set[cpu / 64] |= std::uint64_t(1) << (cpu % 64);
    return a;
}

std::uint64_t CacheLines::transfers(std::uint32_t line) const noexcept
{
    return line < lines_.size() ? lines_[line].transfers : 0;
}

std::int64_t CacheLines::owner(std::uint32_t line) const noexcept
{
    return line < lines_.size() && lines_[line].owner != kNoOwner ? std::int64_t(lines_[line].owner) : -1;
}

bool CacheLines::is_sharer(std::uint32_t line, std::uint32_t cpu) const noexcept
{
    return line < lines_.size() && cpu < cpus_ && (sharers(line)[cpu / 64] >> (cpu % 64) & 1) != 0;
}

std::uint64_t CacheLines::busy_until(std::uint32_t line) const noexcept
{
    return line < lines_.size() ? lines_[line].busy_until : 0;
}

} // namespace pcl::sched
