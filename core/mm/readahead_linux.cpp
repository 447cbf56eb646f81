#include "mm/readahead_linux.h"

#include <algorithm>
#include <bit>

namespace pcl {

void LinuxReadahead::align_to_folios(FileRaState& st) const noexcept
{
    st.order += 2;
    const unsigned cap = unsigned(std::countr_zero(ra_pages_)); // ffs(max_pages) - 1
    const pgoff_t align = pgoff_t(1) << std::min(st.order, cap);
    const pgoff_t end = st.start + st.size;
    const pgoff_t aligned_end = end / align * align;
    if (aligned_end > st.start)
        st.size -= end - aligned_end;
    st.async_size = st.size;
    // page_cache_ra_order: no folio larger than the window or the cache allows.
    st.order = std::min({ st.order, kMaxFolioOrder, unsigned(std::bit_width(st.size)) - 1 });
}

ReadaheadWindow LinuxReadahead::sync_ra(FileRaState& st, const ReadaheadRequest& r, pgoff_t req)
{
    const pgoff_t max = ra_pages_;
    const pgoff_t index = r.index;
    req = std::max<pgoff_t>(req, 1);
    if (max == 0)
        return clamp_window({ index, req, 0, RaRule::None }, r.file_pages);
    // The start of a file, an oversized read, or a miss at or one page
    // past where the previous read ended (prev_pos is the byte after it;
    // none yet: prev is -1, and only page 0 starts a stream).
    const bool after_prev = st.prev != ~pgoff_t(0) && index - (st.prev + 1) <= 1;
    if (index == 0 || req > max || after_prev) {
        st.order = 0;
        st.start = index;
        st.size = init_size(req, max);
        st.async_size = st.size > req ? st.size - req : st.size / 2;
        return clamp_window({ st.start, st.size, st.async_size, RaRule::Initial }, r.file_pages);
    }
    // The traces a sequential stream would have left: the cached run just
    // before index (page_cache_prev_miss over at most max pages).
    pgoff_t contig = 0;
    bool from_start = false;
    if (r.cached) {
        while (contig < max && index - contig > 0 && r.cached(index - contig - 1))
            ++contig;
        from_start = contig == index;
    }
    // A standalone small random read: as it is, the state untouched.
    if (contig <= req)
        return clamp_window({ index, req, 0, RaRule::Random }, r.file_pages);
    if (from_start)
        contig *= 2; // cached from the beginning: a long stream, or a whole-file read
    st.order = 0;
    st.start = index;
    st.size = std::min(contig + req, max);
    st.async_size = 1;
    return clamp_window({ st.start, st.size, st.async_size, RaRule::Context }, r.file_pages);
}

ReadaheadWindow LinuxReadahead::async_ra(FileRaState& st, const ReadaheadRequest& r, pgoff_t req)
{
    const pgoff_t max = ra_pages_;
    const pgoff_t index = r.index;
    req = std::max<pgoff_t>(req, 1);
    if (max == 0)
        return {};
    // The expected marker: assume sequential access, push the window on.
    if (st.size && index == st.start + st.size - st.async_size) {
        st.start += st.size;
        st.size = std::max(st.size, next_size(st.size, max));
        align_to_folios(st);
        return clamp_window({ st.start, st.size, st.async_size, RaRule::Marker }, r.file_pages);
    }
    // A marker without valid state (interleaved reads). A window the file's
    // end cuts to nothing still raised the order, as readit does.
    const FileRaState before = st;
    ReadaheadWindow w = interleaved(st, r, req);
    if (st.start == before.start && st.size == before.size && st.async_size == before.async_size)
        return w; // no window: the state is as it was
    align_to_folios(st);
    return clamp_window({ st.start, st.size, st.async_size, RaRule::Interleaved }, r.file_pages);
}

ReadaheadWindow LinuxReadahead::sync_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    FileRaState& st = state_locked(r.file);
    if (r.access != RaAccess::MmapFault)
        return sync_ra(st, r, r.req_pages);
    // do_sync_mmap_readahead.
    if (r.hint == MmapHint::Random || ra_pages_ == 0)
        return clamp_window({ r.index, 1, 0, RaRule::MmapRandom }, r.file_pages);
    if (r.hint == MmapHint::Sequential) {
        ReadaheadWindow w = sync_ra(st, r, ra_pages_);
        w.rule = RaRule::MmapSeq;
        return w;
    }
    if (st.mmap_miss < kMmapLotsaMiss * 10)
        ++st.mmap_miss;
    if (st.mmap_miss > kMmapLotsaMiss)
        return clamp_window({ r.index, 1, 0, RaRule::LotsaMiss }, r.file_pages);
    st.order = 0; // do_sync_mmap_readahead reads around in order-0 folios
    return readaround(st, r);
}

ReadaheadWindow LinuxReadahead::async_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    FileRaState& st = state_locked(r.file);
    if (r.access != RaAccess::MmapFault)
        return async_ra(st, r, r.req_pages);
    // do_async_mmap_readahead: the maximum, unless the mapping is random.
    if (r.hint == MmapHint::Random)
        return {};
    return async_ra(st, r, ra_pages_);
}

void LinuxReadahead::on_access(const ReadaheadRequest& r, bool hit)
{
    std::lock_guard lock(mutex_);
    FileRaState& st = state_locked(r.file);
    if (r.access == RaAccess::MmapFault) {
        // do_async_mmap_readahead counts a hit off mmap_miss; faults leave
        // prev_pos alone.
        if (hit && r.hint != MmapHint::Random && st.mmap_miss > 0)
            --st.mmap_miss;
        return;
    }
    // filemap_read: prev_pos is where the read ended; kept here as the
    // last page obtained, which after a read's last page is the same.
    st.prev = r.index;
}

} // namespace pcl
