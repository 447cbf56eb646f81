#include "index/page_hash.h"

#include <algorithm>

namespace pcl {

PageHashSizing page_hash_sizing(std::uint64_t memory_bytes, bool order9_cap) noexcept
{
    // 2.4 mm/filemap.c, page_cache_init(mempages):
    //     htable_size = mempages * sizeof(struct page *);
    //     for (order = 0; (PAGE_SIZE << order) < htable_size; order++);
    //     do {
    //         tmp = (PAGE_SIZE << order) / sizeof(struct page *);
    //         page_hash_bits = log2(tmp);
    //         page_hash_table = __get_free_pages(GFP_ATOMIC, order);
    //     } while (page_hash_table == NULL && --order > 0);
    // __get_free_pages() fails above order 9, so the loop settles there: that
    // is the cap. Without it the table is what the bootmem allocation later
    // gave (the patch quoted in the radix-tree pagecache thread), at page granularity.
    PageHashSizing s;
    s.mempages = memory_bytes / kPageHashPageSize;
    const std::uint64_t htable_size = s.mempages * kPageHashPointerBytes;
    while ((kPageHashPageSize << s.order) < htable_size)
        ++s.order;
    if (order9_cap)
        s.order = std::min(s.order, kPageHashMaxOrder);
    s.table_bytes = kPageHashPageSize << s.order;
    s.buckets = s.table_bytes / kPageHashPointerBytes;
    s.bits = page_hash_log2(s.buckets);
    return s;
}

double chi_square(std::span<const std::uint32_t> loads) noexcept
{
    if (loads.empty())
        return 0.0;
    std::uint64_t n = 0;
    for (const std::uint32_t load : loads)
        n += load;
    if (n == 0)
        return 0.0;
    const double expected = double(n) / double(loads.size());
    double sum = 0.0;
    for (const std::uint32_t load : loads) {
        const double d = double(load) - expected;
        sum += d * d;
    }
    return sum / expected;
}

std::vector<std::uint64_t> chain_histogram(std::span<const std::uint32_t> loads)
{
    std::vector<std::uint64_t> histogram;
    for (const std::uint32_t load : loads) {
        if (load >= histogram.size())
            histogram.resize(std::size_t(load) + 1, 0);
        ++histogram[load];
    }
    return histogram;
}

double mean_chain(std::span<const std::uint32_t> loads) noexcept
{
    std::uint64_t n = 0;
    std::uint64_t occupied = 0;
    for (const std::uint32_t load : loads) {
        n += load;
        occupied += load != 0;
    }
    return occupied ? double(n) / double(occupied) : 0.0;
}

double expected_probes(std::span<const std::uint32_t> loads) noexcept
{
    std::uint64_t n = 0;
    std::uint64_t steps = 0;
    for (const std::uint32_t load : loads) {
        n += load;
        steps += std::uint64_t(load) * (std::uint64_t(load) + 1) / 2;
    }
    return n ? double(steps) / double(n) : 0.0;
}

std::vector<pgoff_t> linux24_colliding_indexes(
    std::uint32_t key, unsigned bits, std::uint64_t bucket, std::uint64_t count)
{
    const std::uint64_t span = bits >= 32 ? 0 : std::uint64_t(1) << bits;
    const std::uint64_t mask = span ? span - 1 : ~std::uint64_t(0);
    count = std::min(count, linux24_colliding_capacity(bits));
    std::vector<pgoff_t> indexes;
    indexes.reserve(count);
    for (std::uint64_t h = 0; h < count; ++h) {
        // x < 2^32, so x >> bits is exactly h and the fold adds h to l.
        const std::uint64_t x = (h << bits) + ((bucket - h) & mask);
        indexes.push_back(pgoff_t(std::uint32_t(x - key)));
    }
    return indexes;
}

} // namespace pcl
