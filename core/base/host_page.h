// The host's page size: what mmap(), mprotect() and madvise() work in (a
// fiber's guard page, the arena's stacks, a checkpoint's page-by-page
// compare), read once.
#pragma once

#include <cstddef>

#include <unistd.h>

namespace pcl {

inline std::size_t host_page_size() noexcept
{
    static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

} // namespace pcl
