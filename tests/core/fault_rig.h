// Test support: a page cache, a page table, a disk and the fault handler
// over them, around one readahead policy the test owns, without an engine:
// enough to drive faults and read(2) page by page.
#pragma once

#include "index/index_factory.h"
#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <cstdint>

namespace pcl::test {

struct PolicyFaultRig {
    /// @frames page frames, the page cache on @spec's index, a disk of @disk
    /// (by default 10 us per request and 1 us per page).
    PolicyFaultRig(std::uint64_t frames, ReadaheadPolicy& policy, const IndexSpec& spec = {},
        const BlockDeviceConfig& disk = { 10'000, 1'000, 1.0 })
        : memory(frames, registry)
        , cache(spec, memory, registry)
        , table({ PageTable::Scheme::Split, 0 }, registry)
        , device(disk, cache.page_locks())
        , faults(cache, table, device, policy)
    {
    }

    sync::LockRegistry registry;
    FrameAllocator memory;
    PageCache cache;
    PageTable table;
    BlockDevice device;
    FaultHandler faults;
};

} // namespace pcl::test
