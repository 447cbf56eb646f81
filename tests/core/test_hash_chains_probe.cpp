// The hash_chains probe and the statistics it reads from core/index: bucket
// counts from page_cache_init's sizing with and without the order-9 cap,
// expected probes against chain steps counted on a real table, keys built
// against linux24 landing in one chain, and parameters refused by name.
#include "hash_test_support.h"
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index_oracle.h"
#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace pcl;
using namespace pcl::test;

namespace {

ProbeFigures run_hash_chains_probe(const std::vector<std::string>& set)
{
    const LessonProbe p = hash_chains_probe();
    return p.run(probe_args(p, set, "runs[0].set"));
}

} // namespace

TEST_CASE("mean_chain and expected_probes on hand-made loads", "[hash][stats][exact]")
{
    // Chains of 1 and 3: 4 pages; a lookup walks 1 for the first, 1, 2, 3
    // for the others: 7 / 4.
    const std::vector<std::uint32_t> loads { 0, 1, 3, 0 };
    CHECK(mean_chain(loads) == 2.0);
    CHECK(expected_probes(loads) == 1.75);
    // One chain of n: (n + 1) / 2.
    const std::vector<std::uint32_t> one { 0, 0, 9, 0, 0 };
    CHECK(expected_probes(one) == 5.0);
    CHECK(mean_chain(one) == 9.0);
    const std::vector<std::uint32_t> empty(8, 0);
    CHECK(mean_chain(empty) == 0.0);
    CHECK(expected_probes(empty) == 0.0);
}

TEST_CASE("expected_probes is the chain steps lookups walk on a real table", "[hash][stats][exact]")
{
    // Files of 5 pages in a 256-bucket table: count, for every page, its
    // position on its bucket's chain (1 = the head) as find_page's walk
    // down next_hash would.
    for (HashFunction function : kFunctions) {
        INFO("hash " << hash_function_name(function));
        PagePool pool;
        auto table = make_table(HashScheme::Global, function, 256);
        std::vector<std::pair<FileId, pgoff_t>> keys;
        for (FileId f = 0; f < 200; ++f) {
            auto view = table->mapping(f);
            for (pgoff_t i = 0; i < 5; ++i) {
                REQUIRE(view->insert(i, pool.make(i, f)) == InsertResult::Inserted);
                keys.emplace_back(f, i);
            }
        }
        std::uint64_t steps = 0;
        for (const auto& [file, index] : keys) {
            const auto chain = table->chain_entries(table->bucket_of(file, index));
            const auto at = std::find_if(chain.begin(), chain.end(),
                [&](const HashChainEntry& e) { return e.file == file && e.index == index; });
            REQUIRE(at != chain.end());
            steps += std::uint64_t(at - chain.begin()) + 1;
        }
        CHECK(expected_probes(table->chain_lengths()) == Approx(double(steps) / double(keys.size())));
    }
}

TEST_CASE("linux24_colliding_indexes all hash to the one bucket", "[hash][linux24][exact]")
{
    for (const unsigned bits : { 10u, 14u, 19u }) {
        INFO("bits " << bits);
        const std::uint32_t key = linux24_mapping_key(3);
        const std::uint64_t bucket = 77;
        const std::vector<pgoff_t> idx = linux24_colliding_indexes(key, bits, bucket, 5000);
        CHECK(idx.size() == std::min<std::uint64_t>(5000, linux24_colliding_capacity(bits)));
        CHECK(std::set<pgoff_t>(idx.begin(), idx.end()).size() == idx.size());
        std::uint64_t short_steps = 0;
        for (std::size_t i = 0; i < idx.size(); ++i) {
            CHECK(idx[i] < (pgoff_t(1) << 32));
            CHECK(page_hashfn_linux24(key, idx[i], bits) == bucket);
            if (i > 0 && std::uint32_t(idx[i] - idx[i - 1]) == (std::uint32_t(1) << bits) - 1)
                ++short_steps;
        }
        // Successive pages 2^bits - 1 apart, but for one longer step in
        // every 2^bits pages, where l wraps.
        const std::uint64_t long_steps = idx.size() - 1 - short_steps;
        CHECK(long_steps <= (idx.size() + (std::uint64_t(1) << bits) - 1) >> bits);
    }
    // 2^(32 - 19) = 8192 per key and no more.
    CHECK(linux24_colliding_indexes(0, 19, 0, 100000).size() == 8192);
}

TEST_CASE("linux24: offsets 2^bits - 1 apart share a bucket whatever the key", "[hash][linux24][exact]")
{
    // Whoever reads a file's pages at that stride needs no inode address: up
    // to 2^bits such pages fall in at most two buckets (one step where the
    // low bits wrap moves the rest one bucket down).
    const unsigned bits = 12;
    const pgoff_t stride = (pgoff_t(1) << bits) - 1;
    for (FileId file = 0; file < 40; ++file) {
        INFO("file " << file);
        const std::uint32_t key = linux24_mapping_key(file);
        std::set<std::uint64_t> buckets;
        for (pgoff_t k = 0; k < (pgoff_t(1) << bits); ++k)
            buckets.insert(page_hashfn_linux24(key, k * stride, bits));
        CHECK(buckets.size() <= 2);
    }
}

TEST_CASE("hash_chains: bucket counts from page_cache_init, with and without the cap", "[probe][hash_chains][exact]")
{
    // 64 MB: 16384 pages, 64 KB of i386 table (order 4): 16384 buckets.
    CHECK(run_hash_chains_probe({ "memory_mb=64", "pages=100" }).at("buckets") == 16384);
    // 2 GB: 512K pages, 2 MB (order 9): the cap does not bite.
    CHECK(run_hash_chains_probe({ "memory_mb=2048", "pages=100" }).at("buckets") == 524288);
    CHECK(run_hash_chains_probe({ "memory_mb=2048", "order9_cap=true", "pages=100" }).at("buckets") == 524288);
    // 4 GB: 1M pages want order 10; capped at order 9 the table keeps 512K.
    const ProbeFigures open = run_hash_chains_probe({ "memory_mb=4096", "pages=65536" });
    const ProbeFigures capped = run_hash_chains_probe({ "memory_mb=4096", "order9_cap=true", "pages=65536" });
    CHECK(open.at("buckets") == 1048576);
    CHECK(open.at("buckets") == double(page_hash_buckets(std::uint64_t(4096) << 20, false)));
    CHECK(capped.at("buckets") == 524288);
    CHECK(capped.at("buckets") == double(page_hash_buckets(std::uint64_t(4096) << 20, true)));
    CHECK(open.at("load") == Approx(65536.0 / 1048576));
    CHECK(capped.at("load") == Approx(65536.0 / 524288));
}

TEST_CASE("hash_chains: keys chosen against linux24 make one chain", "[probe][hash_chains][exact]")
{
    // 4 GB capped: 2^19 buckets, 8192 colliding offsets a file, so 10000
    // pages take two files; all sit on bucket 0.
    const ProbeFigures f
        = run_hash_chains_probe({ "memory_mb=4096", "order9_cap=true", "keys=adversarial", "pages=10000" });
    CHECK(f.at("pages") == 10000);
    CHECK(f.at("files") == 2);
    CHECK(f.at("longest_chain") == 10000);
    CHECK(f.at("mean_chain") == 10000);
    CHECK(f.at("empty_buckets") == 524288 - 1);
    CHECK(f.at("probes_per_lookup") == Approx(10001.0 / 2));
    // One bucket of n, m - 1 empty: chi-square n(m - 1), so n per degree of freedom.
    CHECK(f.at("chi_square_per_df") == Approx(10000.0));

    // The same pages under the mixer spread out: at a load of 0.02 no chain
    // comes near them.
    const ProbeFigures mixed = run_hash_chains_probe(
        { "memory_mb=4096", "order9_cap=true", "keys=adversarial", "pages=10000", "hash=mixer" });
    CHECK(mixed.at("pages") == 10000);
    CHECK(mixed.at("longest_chain") < 10);
    CHECK(mixed.at("probes_per_lookup") < 1.1);
}

TEST_CASE("hash_chains: one file's sequential pages under linux24", "[probe][hash_chains][exact]")
{
    // Fewer consecutive offsets than buckets never collide under linux24:
    // s(x) moves one bucket per offset and skips one where x >> bits steps.
    const ProbeFigures f = run_hash_chains_probe({ "memory_mb=64", "keys=sequential", "pages=10000" });
    CHECK(f.at("files") == 1);
    CHECK(f.at("longest_chain") == 1);
    CHECK(f.at("mean_chain") == 1);
    CHECK(f.at("probes_per_lookup") == 1);
    CHECK(f.at("empty_buckets") == 16384 - 10000);

    // many_files: 1000 pages in files of 16 pages: 63 files (the last has 8).
    const ProbeFigures many
        = run_hash_chains_probe({ "memory_mb=64", "keys=many_files", "pages=1000", "pages_per_file=16" });
    CHECK(many.at("files") == 63);
    CHECK(many.at("pages") == 1000);
}

TEST_CASE("hash_chains: parameters refused by name", "[probe][hash_chains][errors]")
{
    const LessonProbe p = hash_chains_probe();
    CHECK_THROWS_AS(probe_args(p, { "hash=fnv" }, "runs[1].set"), LessonError);
    CHECK_THROWS_WITH(probe_args(p, { "hash=fnv" }, "runs[1].set"), Catch::Contains("hash"));
    CHECK_THROWS_WITH(probe_args(p, { "keys=random" }, "runs[1].set"), Catch::Contains("keys"));
    CHECK_THROWS_WITH(probe_args(p, { "order9_cap=yes" }, "runs[1].set"), Catch::Contains("order9_cap"));
    CHECK_THROWS_WITH(probe_args(p, { "memory_mb=0" }, "runs[1].set"), Catch::Contains("memory_mb"));
    CHECK_THROWS_WITH(probe_args(p, { "pages=1.5" }, "runs[1].set"), Catch::Contains("pages"));
    CHECK_THROWS_WITH(probe_args(p, { "buckets=1024" }, "runs[1].set"), Catch::Contains("buckets"));
    const ProbeFigures f = run_hash_chains_probe({ "pages=100", "memory_mb=64" });
    for (const auto& [name, value] : f)
        CHECK(p.find_figure(name) != nullptr);
    CHECK(f.size() == p.figures.size());
}
