// A latency histogram with power-of-two buckets, safe to fill from many
// threads and to read while it fills.
//
// Bucket b holds samples in [2^b, 2^(b+1)) ns (bucket 0 also holds 0), so 40
// buckets reach past 18 minutes with a constant relative resolution - the
// usual shape of fault and I/O latencies, which span nanoseconds (a minor
// fault) to milliseconds (a disk read).
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>

namespace pcl {

class LatencyHistogram {
public:
    static constexpr unsigned kBuckets = 40;

    void add(std::uint64_t ns) noexcept
    {
        const unsigned b = ns ? std::min<unsigned>(kBuckets - 1, unsigned(std::bit_width(ns)) - 1) : 0;
        buckets_[b].fetch_add(1, std::memory_order_relaxed);
        count_.fetch_add(1, std::memory_order_relaxed);
        total_.fetch_add(ns, std::memory_order_relaxed);
        std::uint64_t m = max_.load(std::memory_order_relaxed);
        while (ns > m && !max_.compare_exchange_weak(m, ns, std::memory_order_relaxed)) { }
    }

    /// Samples in bucket @b: latencies in [lower(b), lower(b + 1)).
    std::uint64_t bucket(unsigned b) const noexcept { return buckets_[b].load(std::memory_order_relaxed); }
    static constexpr std::uint64_t lower(unsigned b) noexcept { return b ? std::uint64_t(1) << b : 0; }
    std::uint64_t count() const noexcept { return count_.load(std::memory_order_relaxed); }
    std::uint64_t total_ns() const noexcept { return total_.load(std::memory_order_relaxed); }
    std::uint64_t max_ns() const noexcept { return max_.load(std::memory_order_relaxed); }
    double mean_ns() const noexcept { return count() ? double(total_ns()) / double(count()) : 0.0; }
    /// The lower bound of the bucket holding the @q quantile (0..1) of samples.
    std::uint64_t quantile_ns(double q) const noexcept
    {
        const std::uint64_t n = count();
        if (!n)
            return 0;
        const auto target = std::uint64_t(q * double(n - 1)) + 1;
        std::uint64_t seen = 0;
        for (unsigned b = 0; b < kBuckets; ++b) {
            seen += bucket(b);
            if (seen >= target)
                return lower(b);
        }
        return lower(kBuckets - 1);
    }

private:
    std::array<std::atomic<std::uint64_t>, kBuckets> buckets_ {};
    std::atomic<std::uint64_t> count_ { 0 };
    std::atomic<std::uint64_t> total_ { 0 };
    std::atomic<std::uint64_t> max_ { 0 };
};

} // namespace pcl
