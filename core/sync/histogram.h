// A latency histogram with power-of-two buckets, safe to fill from many
// threads and to read while it fills; each thread fills its own shard.
//
// Bucket b holds samples in [2^b, 2^(b+1)) ns (bucket 0 also holds 0), so 40
// buckets reach past 18 minutes with a constant relative resolution - the
// usual shape of fault and I/O latencies, which span nanoseconds (a minor
// fault) to milliseconds (a disk read).
#pragma once

#include "base/cpu.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>

namespace pcl {

class LatencyHistogram {
public:
    static constexpr unsigned kBuckets = 40;

    /// Records one sample into this thread's shard: CPUs faulting side by
    /// side time every fault, and one shared set of counters would be a
    /// cache line they all bounce (the kernel's vmstat and lock_stat
    /// counters are per CPU for the same reason).
    void add(std::uint64_t ns) noexcept
    {
        const unsigned b = ns ? std::min<unsigned>(kBuckets - 1, unsigned(std::bit_width(ns)) - 1) : 0;
        const unsigned slot = thread_slot();
        if (slot < kShards) {
            // This thread's own shard: plain loads and stores, no locked
            // instructions, as ShardedLockCounters does.
            Shard& s = shards_[slot];
            bump(s.buckets[b], 1);
            bump(s.count, 1);
            bump(s.total, ns);
            if (ns > s.max.load(std::memory_order_relaxed))
                s.max.store(ns, std::memory_order_relaxed);
            return;
        }
        Shard& s = shards_[kShards];
        s.buckets[b].fetch_add(1, std::memory_order_relaxed);
        s.count.fetch_add(1, std::memory_order_relaxed);
        s.total.fetch_add(ns, std::memory_order_relaxed);
        std::uint64_t m = s.max.load(std::memory_order_relaxed);
        while (ns > m && !s.max.compare_exchange_weak(m, ns, std::memory_order_relaxed)) { }
    }

    /// Samples in bucket @b: latencies in [lower(b), lower(b + 1)).
    std::uint64_t bucket(unsigned b) const noexcept
    {
        return sum([b](const Shard& s) { return s.buckets[b].load(std::memory_order_relaxed); });
    }
    static constexpr std::uint64_t lower(unsigned b) noexcept { return b ? std::uint64_t(1) << b : 0; }
    std::uint64_t count() const noexcept
    {
        return sum([](const Shard& s) { return s.count.load(std::memory_order_relaxed); });
    }
    std::uint64_t total_ns() const noexcept
    {
        return sum([](const Shard& s) { return s.total.load(std::memory_order_relaxed); });
    }
    std::uint64_t max_ns() const noexcept
    {
        std::uint64_t m = 0;
        for (const Shard& s : shards_)
            m = std::max(m, s.max.load(std::memory_order_relaxed));
        return m;
    }
    double mean_ns() const noexcept
    {
        const std::uint64_t n = count();
        return n ? double(total_ns()) / double(n) : 0.0;
    }
    /// The lower bound of the bucket holding the @q quantile (0..1) of
    /// samples. The buckets are read once, so that samples added meanwhile
    /// cannot make the walk miss its target.
    std::uint64_t quantile_ns(double q) const noexcept
    {
        std::array<std::uint64_t, kBuckets> counts {};
        std::uint64_t n = 0;
        for (unsigned b = 0; b < kBuckets; ++b)
            n += counts[b] = bucket(b);
        if (!n)
            return 0;
        const auto target = std::uint64_t(q * double(n - 1)) + 1;
        std::uint64_t seen = 0;
        for (unsigned b = 0; b < kBuckets; ++b) {
            seen += counts[b];
            if (seen >= target)
                return lower(b);
        }
        return lower(kBuckets - 1);
    }

private:
    static constexpr unsigned kShards = 16;
    struct alignas(64) Shard {
        std::array<std::atomic<std::uint64_t>, kBuckets> buckets {};
        std::atomic<std::uint64_t> count { 0 };
        std::atomic<std::uint64_t> total { 0 };
        std::atomic<std::uint64_t> max { 0 };
    };
    static void bump(std::atomic<std::uint64_t>& a, std::uint64_t v) noexcept
    {
        a.store(a.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    }
    template <class Get> std::uint64_t sum(Get get) const noexcept
    {
        std::uint64_t n = 0;
        for (const Shard& s : shards_)
            n += get(s);
        return n;
    }
    std::array<Shard, kShards + 1> shards_ {}; ///< one per slot below kShards, and one shared
};

} // namespace pcl
