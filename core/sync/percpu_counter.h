// A counter split across cache lines, like the kernel's percpu_counter.
//
// Writers on different threads add to different shards, so a count kept by
// every insert (a tree's page count, its memory) does not become the one
// cache line every CPU fights over - exactly the bouncing Zijlstra's
// concurrent pagecache (linux-mm, 2007) removes. Reading sums the shards: exact once writers
// are quiet, a moment's approximation while they run.
#pragma once

#include "base/cpu.h"

#include <atomic>
#include <cstdint>

namespace pcl::sync {

class PercpuCounter {
public:
    /// @order: seq_cst where the add is one side of a Dekker-style
    /// handshake (add, then look at a flag; set the flag, then sum).
    /// A thread whose slot is below kShards owns its shard and adds with a
    /// plain load and store (no locked instruction: on x86 a locked add
    /// costs as much as a minor fault's bookkeeping); the others share the
    /// last shard and add atomically.
    void add(std::int64_t v, std::memory_order order = std::memory_order_relaxed) noexcept
    {
        const unsigned slot = thread_slot();
        if (slot < kShards) {
            std::atomic<std::int64_t>& a = shards_[slot].v;
            a.store(a.load(std::memory_order_relaxed) + v,
                order == std::memory_order_relaxed ? std::memory_order_relaxed : std::memory_order_seq_cst);
        } else {
            shards_[kShards].v.fetch_add(v, order);
        }
    }
    /// A counter that only grows sums to a value that only grows: each
    /// shard is read no older than the last time.
    std::int64_t sum(std::memory_order order = std::memory_order_relaxed) const noexcept
    {
        std::int64_t s = 0;
        for (const auto& shard : shards_)
            s += shard.v.load(order);
        return s;
    }

private:
    static constexpr unsigned kShards = 16;
    struct alignas(64) Shard {
        std::atomic<std::int64_t> v { 0 };
    };
    Shard shards_[kShards + 1]; ///< one per slot below kShards, and one shared
};

} // namespace pcl::sync
