// mmap read-around (filemap_fault's do_sync_mmap_readahead and
// do_async_mmap_readahead), with ondemand readahead for read(2).
//
// An mmap fault that misses: under MADV_RANDOM (VM_RAND_READ) only the page;
// under MADV_SEQUENTIAL (VM_SEQ_READ), or when the fault is at prev + 1 as
// 2.6.32 also checks, ondemand readahead with a request of ra_pages;
// (prev starts at -1, so a first fault at page 0 counts as sequential, as
// the same comparison does in Linux); otherwise count the miss in mmap_miss and, unless there have been more
// than MMAP_LOTSAMISS (100), read ra_pages centred on the fault:
// start = pgoff - ra_pages/2 (at least 0), size = ra_pages,
// async_size = ra_pages/4 (mm/filemap.c; 2.6.32 itself used 0, later
// kernels ra_pages/4). An mmap hit decrements mmap_miss (as
// do_async_mmap_readahead does), so a mapping that mostly hits keeps its
// read-around; a marker hit runs ondemand with a request of ra_pages.
#pragma once

#include "mm/readahead_ondemand.h"

namespace pcl {

class ReadaroundReadahead final : public OndemandReadahead {
public:
    static constexpr unsigned kMmapLotsaMiss = 100;
    explicit ReadaroundReadahead(pgoff_t ra_pages = kDefaultRaPages)
        : OndemandReadahead(ra_pages)
    {
    }

    ReadaheadWindow sync_readahead(const ReadaheadRequest& r) override;
    ReadaheadWindow async_readahead(const ReadaheadRequest& r) override;
    void on_access(const ReadaheadRequest& r, bool hit) override;
};

} // namespace pcl
