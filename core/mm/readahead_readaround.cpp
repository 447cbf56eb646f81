#include "mm/readahead_readaround.h"

#include <climits>

namespace pcl {

ReadaheadWindow ReadaroundReadahead::sync_readahead(const ReadaheadRequest& r)
{
    if (r.access != RaAccess::MmapFault)
        return OndemandReadahead::sync_readahead(r);
    std::lock_guard lock(mutex_);
    FileRaState& st = state_locked(r.file);
    if (r.hint == MmapHint::Random)
        return clamp_window({ r.index, 1, 0, RaRule::MmapRandom }, r.file_pages);
    if (r.hint == MmapHint::Sequential || r.index - 1 == st.prev) {
        ReadaheadWindow w = ondemand(st, r, ra_pages_, false);
        if (w.size)
            w.rule = RaRule::MmapSeq;
        return w;
    }
    if (st.mmap_miss < UINT_MAX)
        ++st.mmap_miss;
    // Missing far more than hitting: read-around only hurts.
    if (st.mmap_miss > kMmapLotsaMiss || ra_pages_ == 0)
        return clamp_window({ r.index, 1, 0, RaRule::LotsaMiss }, r.file_pages);
    return readaround(st, r);
}

ReadaheadWindow ReadaroundReadahead::async_readahead(const ReadaheadRequest& r)
{
    if (r.access != RaAccess::MmapFault)
        return OndemandReadahead::async_readahead(r);
    if (r.hint == MmapHint::Random)
        return {};
    std::lock_guard lock(mutex_);
    return ondemand(state_locked(r.file), r, ra_pages_, true);
}

void ReadaroundReadahead::on_access(const ReadaheadRequest& r, bool hit)
{
    std::lock_guard lock(mutex_);
    FileRaState& st = state_locked(r.file);
    if (hit && r.access == RaAccess::MmapFault && r.hint != MmapHint::Random && st.mmap_miss > 0)
        --st.mmap_miss;
    st.prev = r.index;
}

} // namespace pcl
