// core/index/page_hash: 2.4's hash function and table sizing
// (page_cache_init) on hand-computed inputs, and the statistics that judge a
// hash (chi-square, chain-length histogram) on hand-made loads, sequential
// pages and a strided attack.
#include "hash_test_support.h"
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index_oracle.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

using namespace pcl;
using namespace pcl::test;

TEST_CASE("2.4's _page_hashfn on hand-computed inputs", "[hash][exact][linux24]")
{
    // Synthesised i386 inode addresses (page_hash.h): inode_cache objects of
    // 480 B, 8 per 4 KB slab after a 64 B slab header, slab k coloured by
    // (k % 6) * 32 B, slabs from 0xC1000000.
    //   file 0: slab 0, object 0: 0xC1000000 + 64                    = 0xC1000040
    //   file 9: slab 1, object 1: 0xC1000000 + 4096 + 32 + 64 + 480  = 0xC1001240
    CHECK(linux24_mapping_address(0) == 0xC1000040u);
    CHECK(linux24_mapping_address(9) == 0xC1001240u);
    // i = mapping / (480 & ~479) = mapping / 32:
    //   0xC1000040 >> 5 = 0x06080002, 0xC1001240 >> 5 = 0x06080092
    CHECK(kI386InodeAlign == 32);
    const std::uint32_t i0 = linux24_mapping_key(0);
    const std::uint32_t i9 = linux24_mapping_key(9);
    CHECK(i0 == 0x06080002u);
    CHECK(i9 == 0x06080092u);

    // PAGE_HASH_BITS = 14 (64 MB of RAM), s(x) = x + (x >> 14), mask 0x3FFF:
    //   index 0:     x = 0x06080002, x >> 14 = 0x1820, s = 0x06081822 -> 0x1822 = 6178
    //   index 1000:  x = 0x060803EA, x >> 14 = 0x1820, s = 0x06081C0A -> 0x1C0A = 7178
    //   index 16381: x = 0x06083FFF, x >> 14 = 0x1820, s = 0x0608581F -> 0x181F = 6175
    //   index 16382: x = 0x06084000, x >> 14 = 0x1821, s = 0x06085821 -> 0x1821 = 6177
    // (crossing a multiple of 2^14 the fold term steps, so bucket 6176 is skipped)
    CHECK(page_hashfn_linux24(i0, 0, 14) == 6178);
    CHECK(page_hashfn_linux24(i0, 1000, 14) == 7178);
    CHECK(page_hashfn_linux24(i0, 16381, 14) == 6175);
    CHECK(page_hashfn_linux24(i0, 16382, 14) == 6177);
    // PAGE_HASH_BITS = 10, file 9, index 7:
    //   x = 0x06080099, x >> 10 = 0x18200, s = 0x06098299 -> & 0x3FF = 0x299 = 665
    CHECK(page_hashfn_linux24(i9, 7, 10) == 665);
    // unsigned long is 32 bits on i386: indexes 2^32 apart share a bucket.
    CHECK(page_hashfn_linux24(i0, (pgoff_t(1) << 32) + 5, 14) == page_hashfn_linux24(i0, 5, 14));

    // The table uses exactly this function.
    auto table = make_table(HashScheme::Global, HashFunction::Linux24, 1u << 14);
    CHECK(table->hash_bits() == 14);
    CHECK(table->bucket_of(0, 0) == 6178);
    CHECK(table->bucket_of(0, 16382) == 6177);
    auto view = table->mapping(0);
    Page page { 0, 1000 };
    REQUIRE(view->insert(1000, &page) == InsertResult::Inserted);
    CHECK(table->chain_length(7178) == 1);
}

TEST_CASE("table sizing follows page_cache_init() on i386", "[hash][exact][sizing]")
{
    // page_cache_init(mempages): htable_size = mempages * 4 (sizeof(struct
    // page *) on i386); order = smallest with (4096 << order) >= htable_size;
    // buckets = (4096 << order) / 4; __get_free_pages() fails above order 9.
    //
    // 64 MB: mempages = 64 MB / 4 KB = 16384; htable_size = 65536 B = 16
    //   pages -> order 4 -> 65536 / 4 = 16384 buckets (14 bits); the cap
    //   does not bite.
    // 4 GB: mempages = 1048576; htable_size = 4 MB = 1024 pages -> order 10
    //   -> 1048576 buckets (20 bits). With the cap: order 9 -> 2 MB / 4 =
    //   524288 buckets (19 bits): two pages per bucket on average, "starts to
    //   hurt at 4GB RAM and above".
    // 2 GB: mempages = 524288; htable_size = 2 MB -> order 9 -> 524288
    //   buckets with or without the cap ("on my 2GB machine, I have 2MB worth
    //   of hash-tables", Torvalds).
    const std::uint64_t MB = std::uint64_t(1) << 20;
    for (bool cap : { false, true }) {
        INFO("order-9 cap " << cap);
        const PageHashSizing s = page_hash_sizing(64 * MB, cap);
        CHECK(s.mempages == 16384);
        CHECK(s.order == 4);
        CHECK(s.table_bytes == 65536);
        CHECK(s.buckets == 16384);
        CHECK(s.bits == 14);
        CHECK(page_hash_buckets(64 * MB, cap) == 16384);
        CHECK(page_hash_sizing(2048 * MB, cap).table_bytes == 2 * MB);
        CHECK(page_hash_buckets(2048 * MB, cap) == 524288);
    }
    const PageHashSizing big = page_hash_sizing(4096 * MB, false);
    CHECK(big.order == 10);
    CHECK(big.table_bytes == 4 * MB);
    CHECK(big.buckets == 1048576);
    CHECK(big.bits == 20);
    const PageHashSizing capped = page_hash_sizing(4096 * MB, true);
    CHECK(capped.order == 9);
    CHECK(capped.table_bytes == 2 * MB);
    CHECK(capped.buckets == 524288);
    CHECK(capped.bits == 19);

    // hash_buckets = 0 sizes the table from hash_memory_bytes.
    IndexSpec spec;
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 0;
    spec.hash_memory_bytes = 64 * MB;
    sync::LockRegistry registry;
    auto index = make_hash_index(spec, 0, registry);
    CHECK(index->snapshot().chain_lengths.size() == 16384);
    HashConfig c = HashConfig::from_spec(spec);
    c.memory_bytes = 4096 * MB;
    c.order9_cap = true;
    CHECK(c.resolved_buckets() == 524288);
}

TEST_CASE("chi-square and histogram of hand-made loads", "[hash][exact][stats]")
{
    // n = 4 pages in m = 4 buckets, expected 1 each:
    //   {2,0,2,0}: (1 + 1 + 1 + 1) / 1 = 4;  {1,1,1,1}: 0;
    //   {4,0,0,0}: (9 + 1 + 1 + 1) / 1 = 12 = n (m - 1), all in one bucket.
    const std::vector<std::uint32_t> a { 2, 0, 2, 0 }, b { 1, 1, 1, 1 }, c { 4, 0, 0, 0 }, empty { 0, 0 };
    CHECK(chi_square(a) == Approx(4.0));
    CHECK(chi_square(b) == 0.0);
    CHECK(chi_square(c) == Approx(12.0));
    CHECK(chi_square(empty) == 0.0);
    CHECK(chain_histogram(a) == std::vector<std::uint64_t> { 2, 0, 2 });
    CHECK(chain_histogram(c) == std::vector<std::uint64_t> { 3, 0, 0, 0, 1 });
    CHECK(chain_histogram(empty) == std::vector<std::uint64_t> { 2 });
}

TEST_CASE("hash quality: sequential pages and a strided attack", "[hash][stats]")
{
    const std::uint64_t m = 1024;
    PagePool pool;
    SECTION("one file's sequential pages")
    {
        // n = 4m pages at indexes 0..n-1 of file 0.
        //  - mixer: a random-like spread, chi-square near the m - 1 = 1023
        //    degrees of freedom.
        //  - linux24: consecutive indexes fill consecutive buckets, so every
        //    bucket gets 4 except where the run's two partial blocks of 2^10
        //    keys overlap: s(x) shifts by one per block, so k = 4 buckets get
        //    5 and 4 get 3 (or none if i is block-aligned). Expected load 4:
        //    chi-square = (4 * 1 + 4 * 1) / 4 = 2, far below 1023 - more
        //    even than chance (why Arcangeli liked it for sequential reads).
        const std::uint64_t n = 4 * m;
        for (HashFunction function : kFunctions) {
            INFO("hash " << hash_function_name(function));
            auto table = make_table(HashScheme::Global, function, m);
            auto view = table->mapping(0);
            for (pgoff_t i = 0; i < n; ++i)
                REQUIRE(view->insert(i, pool.make(i)) == InsertResult::Inserted);
            const auto hist = table->chain_histogram();
            CHECK(histogram_sum(hist) == m);
            CHECK(histogram_entries(hist) == n);
            const double chi = table->chi_square();
            if (function == HashFunction::Mixer) {
                CHECK(near_degrees_of_freedom(chi, m));
            } else {
                CHECK(chi <= 2.0 + 1e-9);
                CHECK(hist.size() <= 6); // no chain longer than 5
            }
        }
    }
    SECTION("many one-page files (Irwin: chi-square fails on real inputs)")
    {
        // 20000 files with page 0 cached each, in 4096 buckets. linux24's
        // keys come from inode addresses: 8 inodes per slab 15 keys apart
        // (480 / 32), slabs 128 keys apart with colours 0..5 adding 0..5, so
        // only 48 of every 128 consecutive keys occur, and the fold term
        // x >> 12 moves that pattern along only once per 4096 keys (256
        // files). Deterministic inputs; measured 40040 against 4095 degrees
        // of freedom. The mixer on the same files stays near 4095.
        const std::uint64_t buckets = 4096;
        for (HashFunction function : kFunctions) {
            INFO("hash " << hash_function_name(function));
            auto table = make_table(HashScheme::Global, function, buckets);
            for (FileId f = 0; f < 20000; ++f)
                REQUIRE(table->mapping(f)->insert(0, pool.make(0, f)) == InsertResult::Inserted);
            const double chi = table->chi_square();
            CHECK(histogram_sum(table->chain_histogram()) == buckets);
            if (function == HashFunction::Linux24)
                CHECK(chi > 4.0 * double(buckets - 1));
            else
                CHECK(near_degrees_of_freedom(chi, buckets));
        }
    }
    SECTION("a reader with stride PAGE_HASH_SIZE - 1 (Cox: user-controllable inputs)")
    {
        // x = i + index = c (m - 1) for consecutive c. Then
        //   x >> 10 = floor(c - c/m) = c - ceil(c/m), and
        //   s(x) = c m - ceil(c/m) = -ceil(c/m) (mod m),
        // which takes at most two values over m consecutive c: m pages in at
        // most 2 buckets. With loads a + b = m and expected load 1,
        // chi-square = (a-1)^2 + (b-1)^2 + (m-2) = a^2 + b^2 - m >= m^2/2 - m.
        const std::uint32_t i0 = linux24_mapping_key(0);
        const std::uint64_t c0 = (i0 + (m - 1) - 1) / (m - 1); // first c with c (m - 1) >= i
        std::vector<pgoff_t> indexes;
        for (std::uint64_t c = c0; c < c0 + m; ++c)
            indexes.push_back(c * (m - 1) - i0);
        for (HashFunction function : kFunctions) {
            INFO("hash " << hash_function_name(function));
            auto table = make_table(HashScheme::Global, function, m);
            auto view = table->mapping(0);
            for (pgoff_t i : indexes)
                REQUIRE(view->insert(i, pool.make(i)) == InsertResult::Inserted);
            const auto lengths = table->chain_lengths();
            const auto used = std::count_if(lengths.begin(), lengths.end(), [](std::uint32_t l) { return l > 0; });
            const double chi = table->chi_square();
            CHECK(histogram_sum(table->chain_histogram()) == m);
            if (function == HashFunction::Linux24) {
                CHECK(used <= 2);
                CHECK(chi >= double(m * m / 2 - m));
            } else {
                CHECK(used > 500); // about m (1 - 1/e) = 647 buckets in use
                CHECK(near_degrees_of_freedom(chi, m));
            }
        }
    }
}
