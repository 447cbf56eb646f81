// SplitMix64 (Steele, Lea and Flood, 2014): the workloads' random numbers.
//
// Our own generator and bounded draw rather than <random>'s distributions,
// whose output differs between standard libraries: the same seed must give
// the same operation sequence everywhere.
#pragma once

#include <cstdint>

namespace pcl {

/// splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose output is
/// fixed by its definition, unlike std::uniform_int_distribution's, which
/// differs between libstdc++ and libc++ and would make a seed mean different
/// sequences on different machines.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) noexcept
        : state_(seed)
    {
    }

    /// The finaliser on its own: a strong 64-bit mixer.
    static constexpr std::uint64_t mix(std::uint64_t z) noexcept
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    std::uint64_t next() noexcept
    {
        state_ += 0x9e3779b97f4a7c15ull;
        return mix(state_);
    }

    /// A uniform draw from [0, @bound), @bound >= 1. Plain `next() % bound`
    /// favours small values when 2^64 is not a multiple of bound; drawing
    /// again below 2^64 mod bound removes them (as arc4random_uniform does).
    std::uint64_t below(std::uint64_t bound) noexcept
    {
        const std::uint64_t threshold = (0 - bound) % bound; // 2^64 mod bound
        for (;;) {
            const std::uint64_t x = next();
            if (x >= threshold)
                return x % bound;
        }
    }

    /// A uniform double in [0, 1) from the top 53 bits.
    double unit() noexcept { return double(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t state_;
};

} // namespace pcl
