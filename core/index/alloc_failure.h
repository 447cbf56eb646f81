// Injected allocation failure, to test that an index stays intact when a node
// cannot be allocated (the kernel's radix_tree_preload() returning -ENOMEM).
#pragma once

#include <atomic>
#include <cstdint>

namespace pcl {

class AllocFailure {
public:
    /// The next `n` allocations fail.
    void fail_next(std::uint64_t n = 1) noexcept { fail_next_.store(n, std::memory_order_relaxed); }
    /// From now on every `k`-th allocation fails (0 turns this off).
    void fail_every(std::uint64_t k) noexcept { every_.store(k, std::memory_order_relaxed); }
    void clear() noexcept
    {
        fail_next_.store(0, std::memory_order_relaxed);
        every_.store(0, std::memory_order_relaxed);
    }

    /// Asked before each allocation: true means "this allocation fails".
    bool should_fail() noexcept
    {
        std::uint64_t n = fail_next_.load(std::memory_order_relaxed);
        while (n > 0)
            if (fail_next_.compare_exchange_weak(n, n - 1, std::memory_order_relaxed))
                return count_failure();
        const std::uint64_t k = every_.load(std::memory_order_relaxed);
        if (k && (calls_.fetch_add(1, std::memory_order_relaxed) + 1) % k == 0)
            return count_failure();
        return false;
    }
    /// How many allocations were made to fail.
    std::uint64_t failures() const noexcept { return failures_.load(std::memory_order_relaxed); }

private:
    bool count_failure() noexcept
    {
        failures_.fetch_add(1, std::memory_order_relaxed);
        return true;
    }
    std::atomic<std::uint64_t> fail_next_ { 0 };
    std::atomic<std::uint64_t> every_ { 0 };
    std::atomic<std::uint64_t> calls_ { 0 };
    std::atomic<std::uint64_t> failures_ { 0 };
};

} // namespace pcl
