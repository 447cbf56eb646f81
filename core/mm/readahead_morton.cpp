#include "mm/readahead_morton.h"

namespace pcl {

MortonReadahead::MortonReadahead(pgoff_t ra_pages)
    : ra_pages_(ra_pages)
    , min_(std::min(kMinWindow, ra_pages))
{
}

MortonReadahead::State MortonReadahead::state(FileId file) const
{
    std::lock_guard lock(mutex_);
    const auto it = states_.find(file);
    return it == states_.end() ? State {} : it->second;
}

ReadaheadWindow MortonReadahead::window_of(FileId file) const
{
    const State st = state(file);
    return { st.start, st.size, st.async_size, RaRule::None };
}

pgoff_t MortonReadahead::grow(const State& st) const noexcept
{
    if (st.shrunk)
        return st.window;
    return std::min(st.slow ? st.window + kSlowGrowth : 2 * st.window, ra_pages_);
}

ReadaheadWindow MortonReadahead::advance(State& st, pgoff_t file_pages, pgoff_t req, bool async)
{
    const RaRule rule = st.shrunk ? RaRule::MortonShrink : async ? RaRule::Marker : RaRule::Sequential;
    st.window = grow(st);
    st.shrunk = false;
    st.start += st.size;
    st.size = st.window;
    // Asynchronous: the marker on the first page, so that entering this
    // window submits the next. Synchronous: just past the pages asked for,
    // not on the page being read (whose marker would never be reached).
    st.async_size = async ? st.size : st.size > req ? st.size - req : 0;
    return clamp_window({ st.start, st.size, st.async_size, rule }, file_pages);
}

ReadaheadWindow MortonReadahead::sync_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    State& st = states_[r.file];
    const pgoff_t req = std::max<pgoff_t>(r.req_pages, 1);
    if (ra_pages_ == 0)
        return clamp_window({ r.index, req, 0, RaRule::None }, r.file_pages);
    // The reader outran the window: the next one, now and synchronously.
    if (st.window && r.index == st.start + st.size) {
        return advance(st, r.file_pages, req, false);
    }
    if (r.index == 0 || r.index - st.prev == 1) {
        if (r.index == 0) {
            // Start-of-file heuristic; a new whole-file stream forgets a thrash.
            st.window = std::max(ra_pages_ / 2, min_);
            st.slow = false;
            st.shrunk = false;
        } else if (!st.window) {
            st.window = min_;
        } // else: a stream resuming after a seek keeps what it earned
        const RaRule rule = st.shrunk ? RaRule::MortonShrink : RaRule::Initial;
        st.shrunk = false;
        st.start = r.index;
        st.size = std::max(st.window, std::min(req, ra_pages_));
        st.async_size = st.size > req ? st.size - req : 0;
        return clamp_window({ st.start, st.size, st.async_size, rule }, r.file_pages);
    }
    // Not sequential: read what was asked; tear the window down slowly.
    if (st.window)
        st.window = std::max(st.window > kSlowGrowth ? st.window - kSlowGrowth : 0, min_);
    return clamp_window({ r.index, req, 0, RaRule::Random }, r.file_pages);
}

ReadaheadWindow MortonReadahead::async_readahead(const ReadaheadRequest& r)
{
    std::lock_guard lock(mutex_);
    State& st = states_[r.file];
    // Only the marker of the current window advances it; a stale one (the
    // state moved on, e.g. another reader of the file) starts nothing.
    if (!st.window || r.index != st.start + st.size - st.async_size)
        return {};
    return advance(st, r.file_pages, 1, true);
}

void MortonReadahead::on_access(const ReadaheadRequest& r, bool)
{
    std::lock_guard lock(mutex_);
    states_[r.file].prev = r.index;
}

void MortonReadahead::note_thrash(FileId file)
{
    std::lock_guard lock(mutex_);
    State& st = states_[file];
    if (!st.window)
        return; // no readahead stream to shrink
    st.window = std::max(st.window / 2, min_);
    st.slow = true;
    st.shrunk = true;
}

} // namespace pcl
