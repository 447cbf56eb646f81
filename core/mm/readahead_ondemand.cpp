#include "mm/readahead_ondemand.h"

#include <bit>

namespace pcl {

OndemandReadahead::OndemandReadahead(pgoff_t ra_pages)
    : ra_pages_(ra_pages)
{
}

pgoff_t OndemandReadahead::init_size(pgoff_t req, pgoff_t max) noexcept
{
    const pgoff_t size = std::bit_ceil(std::max<pgoff_t>(req, 1));
    if (size <= max / 32)
        return size * 4;
    if (size <= max / 4)
        return size * 2;
    return max;
}

pgoff_t OndemandReadahead::next_size(pgoff_t cur, pgoff_t max) noexcept
{
    // FACTS: x4 if cur < max/16, x2 if cur <= max/2, else max; 2.6.32 writes
    // the last two as min(2 * cur, max), which is the same.
    return std::min(cur < max / 16 ? 4 * cur : 2 * cur, max);
}

FileRaState OndemandReadahead::state(FileId file) const
{
    std::lock_guard lock(mutex_);
    const auto it = states_.find(file);
    return it == states_.end() ? FileRaState {} : it->second;
}

ReadaheadWindow OndemandReadahead::window_of(FileId file) const
{
    const FileRaState st = state(file);
    return { st.start, st.size, st.async_size, RaRule::None };
}

ReadaheadWindow OndemandReadahead::ondemand(
    FileRaState& st, const ReadaheadRequest& r, pgoff_t req_pages, bool hit_marker)
{
    const pgoff_t max = ra_pages_;
    const pgoff_t index = r.index;
    const pgoff_t req = std::max<pgoff_t>(req_pages, 1);
    RaRule rule = RaRule::Initial;
    if (max == 0) // readahead off for the device (ra_pages == 0): the page only
        return hit_marker ? ReadaheadWindow {} : clamp_window({ index, req, 0, RaRule::None }, r.file_pages);

    if (index == 0)
        goto initial; // start of file
    // The expected offset (the marker, or the end of the window when the
    // reader outran the async readahead): ramp up and push the window on.
    if (index == st.start + st.size - st.async_size || index == st.start + st.size) {
        st.start += st.size;
        st.size = next_size(st.size, max);
        st.async_size = st.size;
        rule = hit_marker ? RaRule::Marker : RaRule::Sequential;
        goto readit;
    }
    // A marker with state that does not expect it: another stream on the
    // same file moved the state (interleaved reads). 2.6.32 takes the cached
    // run after the marker (radix_tree_next_hole from index + 1, at most max
    // pages) as the old async size, adds the request and ramps that up.
    if (hit_marker)
        return interleaved(st, r, req);
    if (req > max)
        goto initial; // oversize read
    if (index - st.prev <= 1)
        goto initial; // sequential cache miss (prev = -1 makes this index 0 only)
    // try_context_readahead: the pages a sequential stream would have left
    // behind (count_history_pages: the cached run just before index, at
    // most max); a run back to the start of the file counts double.
    if (r.cached) {
        pgoff_t history = 0;
        for (pgoff_t i = index; history < max && i > 0 && r.cached(i - 1); --i)
            ++history;
        if (history) {
            if (history >= index)
                history *= 2;
            st.start = index;
            st.size = init_size(history + req, max);
            st.async_size = st.size;
            rule = RaRule::Context;
            goto readit;
        }
    }
    // A small random read: read it as it is and leave the state alone.
    return clamp_window({ index, req, 0, RaRule::Random }, r.file_pages);

initial:
    st.start = index;
    st.size = init_size(req, max);
    st.async_size = st.size > req ? st.size - req : st.size;
readit:
    // 2.6.32: a window that would have its marker on the very page being
    // read gets the next window merged in now.
    if (index == st.start && st.size == st.async_size) {
        st.async_size = next_size(st.size, max);
        st.size += st.async_size;
    }
    return clamp_window({ st.start, st.size, st.async_size, rule }, r.file_pages);
}

ReadaheadWindow OndemandReadahead::interleaved(FileRaState& st, const ReadaheadRequest& r, pgoff_t req_pages)
{
    const pgoff_t max = ra_pages_;
    if (!r.cached)
        return {}; // cannot see the cache: no readahead rather than a guess
    pgoff_t hole = r.index + 1;
    for (pgoff_t n = 0; n < max && hole < r.file_pages && r.cached(hole); ++n)
        ++hole;
    if (hole - r.index > max)
        return {};
    st.start = hole;
    st.size = next_size(hole - r.index + std::max<pgoff_t>(req_pages, 1), max);
    st.async_size = st.size;
    return clamp_window({ st.start, st.size, st.async_size, RaRule::Interleaved }, r.file_pages);
}

ReadaheadWindow OndemandReadahead::readaround(FileRaState& st, const ReadaheadRequest& r)
{
    st.start = r.index > ra_pages_ / 2 ? r.index - ra_pages_ / 2 : 0;
    st.size = ra_pages_;
    st.async_size = ra_pages_ / 4;
    return clamp_window({ st.start, st.size, st.async_size, RaRule::Readaround }, r.file_pages);
}

ReadaheadWindow OndemandReadahead::sync_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    return ondemand(states_[r.file], r, r.req_pages, false);
}

ReadaheadWindow OndemandReadahead::async_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    return ondemand(states_[r.file], r, r.req_pages, true);
}

void OndemandReadahead::on_access(const ReadaheadRequest& r, bool)
{
    // do_generic_file_read and filemap_fault record the page as prev_pos.
    std::lock_guard lock(mutex_);
    states_[r.file].prev = r.index;
}

} // namespace pcl
