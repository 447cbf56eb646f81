#include "probe/host_windows.h"

#include "mm/readahead_log.h"

#include <algorithm>
#include <iterator>

namespace pcl {

std::vector<HostWindow> windows_of_read(
    std::uint64_t read_index, std::uint64_t page, const PageSet& before, const PageSet& after)
{
    PageSet arrived;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(), std::back_inserter(arrived));
    const bool hit = std::binary_search(before.begin(), before.end(), page);
    std::vector<HostWindow> windows;
    for (std::size_t i = 0; i < arrived.size();) {
        std::size_t j = i + 1;
        while (j < arrived.size() && arrived[j] == arrived[j - 1] + 1)
            ++j;
        const std::uint64_t start = arrived[i], size = j - i;
        // The page asked for, alone, is the demand read: no readahead.
        if (!(size == 1 && start == page)) {
            windows.push_back({ .read_index = read_index, .page = page, .start = start, .size = size, .async = hit });
        }
        i = j;
    }
    return windows;
}

void estimate_async_sizes(std::vector<HostWindow>& windows)
{
    for (std::size_t a = 0; a < windows.size(); ++a) {
        if (!windows[a].async)
            continue;
        const std::uint64_t p = windows[a].page;
        // The latest earlier window holding p is the one whose marker fired.
        for (std::size_t w = a; w-- > 0;) {
            HostWindow& prev = windows[w];
            if (prev.read_index >= windows[a].read_index || p < prev.start || p >= prev.start + prev.size)
                continue;
            if (prev.async_size == 0)
                prev.async_size = prev.start + prev.size - p;
            break;
        }
    }
}

std::string host_windows_csv(const std::vector<HostWindow>& windows)
{
    std::vector<ReadaheadLogRow> rows;
    rows.reserve(windows.size());
    for (const HostWindow& w : windows) {
        ReadaheadLogRow row;
        row.time_us = w.time_us;
        row.start = w.start;
        row.size = w.size;
        row.async_size = w.async_size;
        row.async = w.async;
        row.rule = "host";
        rows.push_back(std::move(row));
    }
    return readahead_log_csv(rows);
}

} // namespace pcl
