#include "mm/page_state.h"

#include "mm/page_cache.h"
#include "sync/rcu.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace pcl {

namespace {

constexpr std::size_t kMaxColumns = 65536;
constexpr std::size_t kMaxPerColumn = 4096;
constexpr std::size_t kGangBatch = 64;

AddressSpace& checked_file(PageCache& cache, FileId file)
{
    if (file >= cache.file_count())
        throw std::invalid_argument("file must be one of the cache's " + std::to_string(cache.file_count())
            + " files, got " + std::to_string(file));
    return cache.file(file);
}

void check_range(pgoff_t first, pgoff_t count)
{
    if (count > std::numeric_limits<pgoff_t>::max() - first)
        throw std::invalid_argument("first + count must not overflow, got first " + std::to_string(first)
            + " and count " + std::to_string(count));
}

/// Flags and count of a page found in the index; the caller is inside an
/// RCU read-side section, so the frame cannot be reused under us.
PageStateBits state_of(const Page& page) noexcept
{
    PageStateBits s;
    s.present = true;
    s.flags = page.flags.load(std::memory_order_acquire);
    s.count = page.count.load(std::memory_order_relaxed);
    return s;
}

/// Reads [first, first + count) into out[0, count). A hash index finds
/// pages by probing each offset (its gang lookup would probe on past a
/// sparse range's end), the tree and the list by gang lookups that stop at
/// the range's end.
void read_range(PageIndex& index, pgoff_t first, pgoff_t count, PageStateBits* out)
{
    std::fill(out, out + count, PageStateBits {});
    rcu::ReadGuard guard;
    if (index.kind() == IndexKind::Hash) {
        for (pgoff_t i = 0; i < count; ++i)
            if (const Page* page = index.lookup(first + i))
                out[i] = state_of(*page);
        return;
    }
    std::array<Page*, kGangBatch> batch;
    const pgoff_t end = first + count;
    pgoff_t next = first;
    while (next < end) {
        const std::size_t want = std::size_t(std::min<pgoff_t>(kGangBatch, end - next));
        const std::size_t n = index.gang_lookup(next, want, batch.data());
        if (n == 0)
            return;
        for (std::size_t k = 0; k < n; ++k) {
            const Page* page = batch[k];
            // page->index is the offset the page caches (stable: see above);
            // entries past the range end the walk.
            if (page->index >= end)
                return;
            if (page->index >= first)
                out[page->index - first] = state_of(*page);
        }
        const pgoff_t last = batch[n - 1]->index;
        if (last < next || last == std::numeric_limits<pgoff_t>::max())
            return;
        next = last + 1;
    }
}

void count_into(PageStateSummary& s, const PageStateBits& b) noexcept
{
    ++s.sampled;
    if (!b.present)
        return;
    ++s.present;
    const bool locked = b.test(PG_locked), uptodate = b.test(PG_uptodate);
    s.uptodate += uptodate;
    s.under_io += locked && !uptodate;
    s.locked += locked && uptodate;
    s.dirty += b.test(PG_dirty) || b.test(PG_writeback);
    s.writeback += b.test(PG_writeback);
    s.readahead += b.test(PG_readahead);
    s.ra_unused += b.test(PG_ra_unused);
    s.max_count = std::max(s.max_count, b.count);
}

} // namespace

void read_page_states(PageCache& cache, FileId file, pgoff_t first, pgoff_t count, std::vector<PageStateBits>& out)
{
    AddressSpace& as = checked_file(cache, file);
    if (count > kMaxPageStateRead)
        throw std::invalid_argument(
            "count must be at most " + std::to_string(kMaxPageStateRead) + " pages, got " + std::to_string(count));
    check_range(first, count);
    out.resize(std::size_t(count));
    read_range(*as.index, first, count, out.data());
}

void summarise_page_states(PageCache& cache, FileId file, pgoff_t first, pgoff_t pages, std::size_t columns,
    std::size_t per_column, std::vector<PageStateSummary>& out)
{
    AddressSpace& as = checked_file(cache, file);
    if (columns == 0 || columns > kMaxColumns)
        throw std::invalid_argument(
            "columns must be between 1 and " + std::to_string(kMaxColumns) + ", got " + std::to_string(columns));
    if (per_column == 0 || per_column > kMaxPerColumn)
        throw std::invalid_argument("per_column must be between 1 and " + std::to_string(kMaxPerColumn) + ", got "
            + std::to_string(per_column));
    check_range(first, pages);
    out.assign(columns, PageStateSummary {});
    std::vector<PageStateBits> run;
    // 128-bit products: pages may be up to 2^64 and columns up to 2^16.
    auto boundary = [&](std::size_t c) { return first + pgoff_t((unsigned __int128)(pages)*c / columns); };
    for (std::size_t c = 0; c < columns; ++c) {
        PageStateSummary& s = out[c];
        s.first = boundary(c);
        s.pages = boundary(c + 1) - s.first;
        if (s.pages == 0)
            continue;
        if (s.pages <= per_column) {
            run.resize(std::size_t(s.pages));
            read_range(*as.index, s.first, s.pages, run.data());
            for (const PageStateBits& b : run)
                count_into(s, b);
            continue;
        }
        // One RCU section per column keeps each section short: reclaim
        // waiting for a grace period never waits on a whole strip.
        rcu::ReadGuard guard;
        for (std::size_t k = 0; k < per_column; ++k) {
            const pgoff_t at = s.first + pgoff_t((unsigned __int128)(s.pages) * k / per_column);
            const Page* page = as.index->lookup(at);
            count_into(s, page ? state_of(*page) : PageStateBits {});
        }
    }
}

} // namespace pcl
