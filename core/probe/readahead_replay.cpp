#include "probe/readahead_replay.h"

#include "mm/block_device.h"
#include "mm/fault.h"
#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "mm/readahead_factory.h"
#include "sync/rcu.h"

#include <algorithm>

namespace pcl {

namespace {

/// The cached pages of @file, sorted.
PageSet residency(PageCache& cache, FileId file)
{
    PageSet out;
    PageIndex& index = *cache.file(file).index;
    Page* batch[256];
    rcu::ReadGuard guard;
    for (pgoff_t next = 0;;) {
        const std::size_t n = index.gang_lookup(next, 256, batch);
        for (std::size_t k = 0; k < n; ++k)
            out.push_back(batch[k]->index);
        if (n < 256)
            break;
        next = batch[n - 1]->index + 1;
    }
    return out;
}

} // namespace

ReplayResult replay_readahead(std::string_view policy, std::uint64_t file_pages, std::uint64_t ra_pages,
    const std::vector<std::uint64_t>& pages, bool mmap)
{
    auto readahead = make_readahead_policy(policy, ra_pages);
    sync::LockRegistry registry;
    FrameAllocator memory(file_pages + 1024, registry);
    IndexSpec spec;
    spec.kind = IndexKind::Radix;
    spec.scheme = "rcu";
    PageCache cache(spec, memory, registry);
    PageTable table({ PageTable::Scheme::Split, 0 }, registry);
    BlockDeviceConfig disk;
    disk.time_scale = 0; // instant: every window is complete before the next access
    disk.ra_pages = ra_pages;
    BlockDevice device(disk, cache.page_locks());
    FaultHandler faults(cache, table, device, *readahead);
    const FileId file = cache.add_file(file_pages);

    ReplayResult r;
    PageSet before;
    for (std::uint64_t i = 0; i < pages.size(); ++i) {
        const pgoff_t page = pages[i];
        if (!std::binary_search(before.begin(), before.end(), page))
            ++r.misses;
        if (mmap)
            faults.file_fault(file, page, page);
        else
            faults.read(file, page, 1);
        PageSet after = residency(cache, file);
        for (const HostWindow& w : windows_of_read(i, page, before, after))
            r.windows.push_back(w);
        before = std::move(after);
    }
    estimate_async_sizes(r.windows);
    // The last windows' reads may still be on the device thread: every
    // cached page unlocked is every read done.
    for (pgoff_t index : before)
        if (Page* p = cache.find_get_page(file, index)) {
            cache.page_locks().wait_on_page_locked(*p);
            cache.put_page(p);
        }
    r.pages_read = device.pages_read();
    for (std::uint64_t vpn = 0; vpn < file_pages; ++vpn)
        if (Page* p = table.unmap(vpn))
            cache.put_page(p);
    return r;
}

} // namespace pcl
