// The page hash: 2.4's hash functions, its table sizing, and the statistics
// that judge a hash (chain-length histogram, chi-square), as free functions.
//
// Glossary (as in 2.4's include/linux/pagemap.h and mm/filemap.c):
//   @mapping   the address_space a page belongs to; 2.4 hashed its pointer
//   @key       what the hash takes of the mapping: linux24 divides the pointer
//              by the largest power of two dividing sizeof(struct inode);
//              the mixer takes a scrambled FileId
//   @index     a page offset in the file (pgoff_t)
//   @bits      PAGE_HASH_BITS: log2 of the bucket count (page_hash_bits)
//   @bucket    a chain head in page_hash_table, 0 .. (1 << bits) - 1
//   @mempages  physical pages the table is sized for (page_cache_init's argument)
//   @order     the table is PAGE_SIZE << order bytes (__get_free_pages)
//
// Everything here models 2.4 on i386: 4 KB pages, 4-byte pointers and a
// 32-bit unsigned long. The hash table that HashIndex allocates in this
// process has as many buckets as the i386 kernel would have printed at boot
// ("Page-cache hash table entries: N").
#pragma once

#include "base/page.h"

#include <cstdint>
#include <span>
#include <vector>

namespace pcl {

// ---- table sizing: page_cache_init() ---------------------------------------

/// PAGE_SIZE on i386.
inline constexpr std::uint64_t kPageHashPageSize = 4096;
/// sizeof(struct page *) on i386: page_cache_init() sizes the table at one
/// such pointer per physical page.
inline constexpr std::uint64_t kPageHashPointerBytes = 4;
/// The largest order __get_free_pages() could serve (MAX_ORDER 10 in 2.4):
/// 2 MB, i.e. 512K buckets. "It maxes out at order 9 ... which starts to hurt
/// at 4GB RAM and above" (Blanchard, in the radix-tree pagecache thread).
inline constexpr unsigned kPageHashMaxOrder = 9;
/// Largest bucket count the simulator accepts: what 64 GB (i386 PAE's limit,
/// "good luck booting on a 64GB x86", Irwin) gives without the order-9 cap.
inline constexpr std::uint64_t kPageHashMaxBuckets = std::uint64_t(1) << 24;
/// Largest "physical memory" the sizing accepts (i386 PAE: 64 GB).
inline constexpr std::uint64_t kPageHashMaxMemory = std::uint64_t(64) << 30;

/// What page_cache_init() computed for a machine.
struct PageHashSizing {
    std::uint64_t mempages = 0;    ///< physical pages (memory / PAGE_SIZE)
    unsigned order = 0;            ///< allocation order of the table
    std::uint64_t table_bytes = 0; ///< PAGE_SIZE << order
    std::uint64_t buckets = 0;     ///< table_bytes / sizeof(struct page *) = PAGE_HASH_SIZE
    unsigned bits = 0;             ///< log2(buckets) = page_hash_bits
};

/// Sizes the page hash as 2.4's page_cache_init(mempages) did on i386:
/// mempages * sizeof(struct page *) bytes, rounded up to PAGE_SIZE << order.
/// With @order9_cap the order stops at 9, as it did when __get_free_pages()
/// failed above it and the loop retried one order lower.
PageHashSizing page_hash_sizing(std::uint64_t memory_bytes, bool order9_cap) noexcept;

/// The bucket count page_hash_sizing() arrives at.
inline std::uint64_t page_hash_buckets(std::uint64_t memory_bytes, bool order9_cap) noexcept
{
    return page_hash_sizing(memory_bytes, order9_cap).buckets;
}

/// log2 of a power of two.
inline constexpr unsigned page_hash_log2(std::uint64_t power_of_two) noexcept
{
    unsigned bits = 0;
    while ((std::uint64_t(1) << bits) < power_of_two)
        ++bits;
    return bits;
}

// ---- the 2.4 hash: _page_hashfn() -------------------------------------------

/// sizeof(struct inode) on 2.4 i386: the inode_cache object size that
/// /proc/slabinfo showed (slabinfo(5): "inode_cache ... 480"). The hash only
/// uses its lowest set bit: 480 & ~479 = 32.
inline constexpr std::uint32_t kI386InodeSize = 480;
/// The divisor _page_hashfn() applies to the mapping pointer.
inline constexpr std::uint32_t kI386InodeAlign = kI386InodeSize & ~(kI386InodeSize - 1);
/// Where the simulated inode slab begins: lowmem (PAGE_OFFSET 0xC0000000)
/// 16 MB in, above the kernel image and mem_map of a small i386 box.
inline constexpr std::uint32_t kI386InodeSlabBase = 0xC1000000u;
/// 2.4 mm/slab.c for inode_cache on a 32-byte-line PIII: on-slab management
/// (slab_t 24 B + 8 bufctls 32 B, cache-aligned to 64 B), 8 inodes per
/// 4 KB slab, 192 B left over, i.e. colours 0..5 of 32 B each.
inline constexpr std::uint32_t kI386SlabHeader = 64;
inline constexpr std::uint32_t kI386InodesPerSlab = 8;
inline constexpr std::uint32_t kI386SlabColourOff = 32;
inline constexpr std::uint32_t kI386SlabColours = 6;

/// A plausible i386 address for file @file's address_space. We have no real
/// kernel pointers, so inodes are laid out as 2.4's slab allocator would have
/// placed them: file f is object f % 8 of slab f / 8, slab pages taken in
/// order from kI386InodeSlabBase, each slab coloured one step further
/// (kmem_cache_grow's colour_next). The address_space is the inode's
/// embedded i_data; its offset adds the same constant to every key, so the
/// inode address stands for it.
inline constexpr std::uint32_t linux24_mapping_address(FileId file) noexcept
{
    const std::uint32_t slab = file / kI386InodesPerSlab;
    const std::uint32_t object = file % kI386InodesPerSlab;
    return std::uint32_t(kI386InodeSlabBase + slab * std::uint32_t(kPageHashPageSize)
        + (slab % kI386SlabColours) * kI386SlabColourOff + kI386SlabHeader + object * kI386InodeSize);
}

/// _page_hashfn()'s `i`: the mapping pointer divided by the largest power of
/// two that divides sizeof(struct inode), so that consecutive inodes differ.
inline constexpr std::uint32_t linux24_mapping_key(FileId file) noexcept
{
    return linux24_mapping_address(file) / kI386InodeAlign;
}

/// 2.4's _page_hashfn(mapping, index) = s(i + index) & (PAGE_HASH_SIZE - 1)
/// with s(x) = x + (x >> PAGE_HASH_BITS). Computed in 32 bits: unsigned long
/// on i386, so an index is taken modulo 2^32 and the sum wraps as it did.
/// Consecutive indexes of one file land in consecutive buckets (what Arcangeli
/// defended as optimising "the cacheline usage during consecutive reads").
inline constexpr std::uint64_t page_hashfn_linux24(std::uint32_t key, pgoff_t index, unsigned bits) noexcept
{
    const std::uint32_t x = key + std::uint32_t(index);
    const std::uint32_t s = x + (bits < 32 ? x >> bits : 0);
    const std::uint32_t mask = bits < 32 ? (std::uint32_t(1) << bits) - 1 : ~std::uint32_t(0);
    return s & mask;
}

// ---- a strong hash ------------------------------------------------------------

/// MurmurHash3's 64-bit finaliser: a bijection in which every input bit
/// affects every output bit with probability about 1/2.
inline constexpr std::uint64_t page_hash_fmix64(std::uint64_t k) noexcept
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

/// The mixer's per-file key: the FileId scattered over 64 bits (splitmix64's
/// golden-ratio step, then the finaliser), so nearby files share no structure.
inline constexpr std::uint64_t mixer_mapping_key(FileId file) noexcept
{
    return page_hash_fmix64((std::uint64_t(file) + 1) * 0x9e3779b97f4a7c15ULL);
}

/// A strong hash of (file, index): the finaliser over index ^ key. Unlike
/// linux24, no input (sequential, strided, many small files) maps to a
/// structured set of buckets, and the buckets cannot be predicted without
/// the key function (Cox's objection to user-controllable inputs).
inline constexpr std::uint64_t page_hashfn_mixer(std::uint64_t key, pgoff_t index, unsigned bits) noexcept
{
    const std::uint64_t h = page_hash_fmix64(index ^ key);
    return bits < 64 ? h & ((std::uint64_t(1) << bits) - 1) : h;
}

// ---- statistics ------------------------------------------------------------------

/// Pearson's chi-square of bucket loads against a uniform spread:
/// sum over buckets of (load - n/m)^2 / (n/m), n = total load, m = buckets.
/// For a hash that behaves like a random function it is near m - 1 (the
/// degrees of freedom); far above means clustering (Irwin: 2.4's hash "is
/// nowhere near passing a confidence test for uniformity"), far below means a
/// spread more even than chance. 0 for an empty table.
double chi_square(std::span<const std::uint32_t> loads) noexcept;

/// [k] = buckets whose load is k, up to the longest chain; sums to the bucket count.
std::vector<std::uint64_t> chain_histogram(std::span<const std::uint32_t> loads);

/// The mean length of the non-empty chains: what a lookup whose bucket holds
/// anything finds there. 0 for an empty table.
double mean_chain(std::span<const std::uint32_t> loads) noexcept;

/// The entries a successful lookup walks on average, its own included, when
/// every cached page is looked up once: find_page() follows next_hash from
/// the chain head, so the page at position k of its chain costs k steps and
/// a chain of L pages costs 1 + 2 + ... + L = L(L+1)/2. For a hash that
/// behaves like a random function this is 1 + (n-1)/2m at load n/m
/// (Irwin: the walk "can be estimated from the load on the table"); one
/// chain holding all n pages costs (n+1)/2. 0 for an empty table.
double expected_probes(std::span<const std::uint32_t> loads) noexcept;

// ---- keys chosen against linux24 -------------------------------------------------

/// How many distinct indexes below 2^32 page_hashfn_linux24() sends to any
/// one bucket for one key: 2^(32 - bits), one per value of x >> bits.
inline constexpr std::uint64_t linux24_colliding_capacity(unsigned bits) noexcept
{
    return bits >= 32 ? 1 : std::uint64_t(1) << (32 - bits);
}

/// @count distinct indexes (at most linux24_colliding_capacity(@bits)), all
/// below 2^32, that page_hashfn_linux24(@key, index, @bits) sends to
/// @bucket: Cox's "user controllable" inputs made into one chain. With
/// x = key + index = h * 2^bits + l, s(x) & mask = (l + h) mod 2^bits, so
/// x_h = h * 2^bits + ((bucket - h) mod 2^bits) lands in @bucket for every
/// h: successive pages 2^bits - 1 apart, whatever the key, with a longer
/// step once in every 2^bits pages, where l wraps. Only where those steps
/// fall depends on the key.
std::vector<pgoff_t> linux24_colliding_indexes(
    std::uint32_t key, unsigned bits, std::uint64_t bucket, std::uint64_t count);

} // namespace pcl
