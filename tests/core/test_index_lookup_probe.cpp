// core/lesson/probes/index_lookup_probe and core/index/page_layout: the
// probe's structural figures against hand-computed tree heights and against
// chain lengths read from an identical hash table built here, its pages
// found, and its parameters refused by name. No figure of time is asserted:
// ns_per_lookup depends on the machine.
#include "index/hash_index.h"
#include "index/index_factory.h"
#include "index/page_layout.h"
#include "index/radix_tree.h"
#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcl;

namespace {

/// Runs the probe once with @set on top of a fast base (one timed pass).
ProbeFigures run_lookup_probe(std::vector<std::string> set)
{
    const LessonProbe p = index_lookup_probe();
    set.insert(set.begin(), "passes=1");
    return p.run(probe_args(p, set, "runs[0].set"));
}

std::string lesson_error_of(const std::vector<std::string>& set)
{
    const LessonProbe p = index_lookup_probe();
    try {
        (void)probe_args(p, set, "runs[0].set");
    } catch (const LessonError& e) {
        return e.what();
    }
    return "accepted";
}

/// A hash table like the probe's (2.4's global hash, linux24, sized for
/// @memory_mb), holding offsets 0..pages-1 of @files files.
std::shared_ptr<HashIndex> dense_table(
    std::uint64_t memory_mb, std::uint64_t pages, FileId files, std::vector<Page>& descriptors)
{
    HashConfig c;
    c.memory_bytes = memory_mb << 20;
    std::shared_ptr<HashIndex> table = HashIndex::create(c);
    descriptors = std::vector<Page>(pages * files);
    for (FileId f = 0; f < files; ++f) {
        auto view = table->mapping(f);
        for (pgoff_t i = 0; i < pages; ++i)
            REQUIRE(view->insert(i, &descriptors[f * pages + i]) == InsertResult::Inserted);
    }
    return table;
}

} // namespace

TEST_CASE("page layouts: dense, sparse and their absent offsets", "[lesson][probe][layout]")
{
    SplitMix64 rng(7);
    const LayoutOffsets dense = layout_offsets(PageLayout::Dense, 100, rng);
    for (pgoff_t i = 0; i < 100; ++i) {
        CHECK(dense.present[i] == i);
        CHECK(dense.absent[i] == 100 + i);
    }
    const LayoutOffsets sparse = layout_offsets(PageLayout::Sparse, 1000, rng);
    for (pgoff_t i = 0; i < 1000; ++i) {
        // Page i in block i, its absent offset in the same block, half a block away.
        CHECK(sparse.present[i] / kSparseStride == i);
        CHECK(sparse.absent[i] / kSparseStride == i);
        CHECK((sparse.present[i] + kSparseStride / 2) % kSparseStride == sparse.absent[i] % kSparseStride);
    }
    CHECK(std::is_sorted(sparse.present.begin(), sparse.present.end()));

    std::vector<std::uint64_t> order = shuffled_order(5000, rng);
    CHECK(order != shuffled_order(5000, rng));
    std::sort(order.begin(), order.end());
    for (std::uint64_t i = 0; i < order.size(); ++i)
        REQUIRE(order[i] == i);

    CHECK(parse_page_layout("sparse") == PageLayout::Sparse);
    CHECK(!parse_page_layout("diagonal"));
    CHECK(page_layout_name(PageLayout::Dense) == "dense");
}

TEST_CASE("index_lookup declares what lessons read", "[lesson][probe]")
{
    const LessonProbe p = index_lookup_probe();
    CHECK(p.name == "index_lookup");
    for (const char* figure : { "ns_per_lookup", "levels_walked", "chain_per_lookup", "tree_height", "buckets",
             "index_bytes", "bytes_per_page", "found" })
        CHECK(p.find_figure(figure) != nullptr);
    // Every fallback passes its own parameter's check.
    const ProbeArgs defaults = probe_args(p, {}, "runs[0].set");
    CHECK(defaults.text("index") == "radix");
    CHECK(defaults.number("radix_shift") == 6);
}

TEST_CASE("a hit in a dense radix tree walks its height", "[lesson][probe][radix][exact]")
{
    // 4096 pages, offsets 0..4095: a tree of height h holds offsets below
    // 2^(h * shift), so the height is the smallest h with 2^(h * shift) >= 4096:
    //   shift 4: 16^3 = 4096 -> 3     shift 5: 32^2 = 1024 < 4096, 32^3 -> 3
    //   shift 6: 64^2 = 4096 -> 2     shift 7: 128^2 = 16384 -> 2
    const std::vector<std::pair<unsigned, unsigned>> heights = { { 4, 3 }, { 5, 3 }, { 6, 2 }, { 7, 2 } };
    for (const auto& [shift, height] : heights) {
        INFO("radix_shift " << shift);
        const ProbeFigures hit
            = run_lookup_probe({ "index=radix", "radix_shift=" + std::to_string(shift), "pages=4096", "lookups=4096" });
        CHECK(hit.at("tree_height") == height);
        CHECK(hit.at("levels_walked") == height);
        CHECK(hit.at("found") == 4096);
        CHECK(hit.at("chain_per_lookup") == 0);
        CHECK(hit.at("buckets") == 0);
        CHECK(hit.at("ns_per_lookup") > 0);

        // Offsets 4096..8191 lie past the cached end: at shift 4 to 6 beyond
        // what the root can hold, at shift 7 in root slots 32..63, all
        // empty. Either way the walk reads the root node and stops.
        const ProbeFigures miss = run_lookup_probe(
            { "index=radix", "radix_shift=" + std::to_string(shift), "pages=4096", "lookups=4096", "outcome=miss" });
        CHECK(miss.at("levels_walked") == 1);
        CHECK(miss.at("found") == 0);
    }
    // One page more needs one level more at shift 6: 4096 = 64^2 is out of reach of height 2.
    const ProbeFigures taller = run_lookup_probe({ "index=radix", "pages=4097", "lookups=100" });
    CHECK(taller.at("tree_height") == 3);
    CHECK(taller.at("levels_walked") == 3);

    // Three files, three trees of the same shape; the index's bytes are the
    // three trees' own.
    const ProbeFigures three = run_lookup_probe({ "index=radix", "pages=4096", "files=3", "lookups=12288" });
    CHECK(three.at("levels_walked") == 2);
    CHECK(three.at("found") == 12288);
    IndexSpec spec;
    spec.scheme = "spinlock";
    sync::LockRegistry registry;
    auto tree = make_page_index(spec, 0, registry);
    std::vector<Page> pages(4096);
    for (pgoff_t i = 0; i < 4096; ++i)
        REQUIRE(tree->insert(i, &pages[i]) == InsertResult::Inserted);
    CHECK(three.at("index_bytes") == 3 * double(tree->memory_bytes()));
    CHECK(three.at("bytes_per_page") == 3 * double(tree->memory_bytes()) / (3 * 4096));
}

TEST_CASE("a sparse radix tree: hits walk the height, misses stop at an absent leaf", "[lesson][probe][radix][exact]")
{
    // 1000 pages, page i in [64 i, 64 i + 63]: the largest offset lies in
    // [63936, 63999], so the height is the smallest h with 2^(h * shift) > 63936:
    //   shift 4: 16^3 = 4096, 16^4 = 65536 -> 4      shift 5: 32^3 = 32768, 32^4 -> 4
    //   shift 6: 64^2 = 4096, 64^3 = 262144 -> 3     shift 7: 128^2 = 16384, 128^3 -> 3
    // A miss lies half a block (32) from its page, alone in its 64-offset
    // block. A leaf of 16 or 32 slots holding it does not exist, so the walk
    // stops one level above the leaves: height - 1 nodes. A leaf of 64 or
    // 128 slots does (it holds the page): the walk reads all the height.
    struct Expect {
        unsigned shift, height, miss_levels;
    };
    for (const Expect e : { Expect { 4, 4, 3 }, Expect { 5, 4, 3 }, Expect { 6, 3, 3 }, Expect { 7, 3, 3 } }) {
        INFO("radix_shift " << e.shift);
        const std::string shift = "radix_shift=" + std::to_string(e.shift);
        const ProbeFigures hit
            = run_lookup_probe({ "index=radix", shift, "layout=sparse", "pages=1000", "lookups=1000" });
        CHECK(hit.at("tree_height") == e.height);
        CHECK(hit.at("levels_walked") == e.height);
        CHECK(hit.at("found") == 1000);
        const ProbeFigures miss
            = run_lookup_probe({ "index=radix", shift, "layout=sparse", "pages=1000", "lookups=1000", "outcome=miss" });
        CHECK(miss.at("levels_walked") == e.miss_levels);
        CHECK(miss.at("found") == 0);
    }
}

TEST_CASE("the hash's chain walk is what its chain lengths give", "[lesson][probe][hash][exact]")
{
    // 1 MB of memory sizes 2.4's table at 1024 buckets (256 pages x 4-byte
    // pointers, rounded up to one 4 KB page); 4096 pages of each file make
    // chains about four long, so walking one is measurably more than one
    // entry. Every page is looked up once, so a hit's mean position in its
    // chain is sum over chains of L (L + 1) / 2, over the pages; a miss
    // compares every entry of the chain its offset hashes to.
    for (const FileId files : { FileId(1), FileId(3) }) {
        INFO(files << " files");
        const std::uint64_t pages = 4096;
        const std::uint64_t n = pages * files;
        std::vector<Page> descriptors;
        const std::shared_ptr<HashIndex> table = dense_table(1, pages, files, descriptors);
        REQUIRE(table->buckets() == 1024);
        std::uint64_t hit_sum = 0;
        for (const std::uint32_t length : table->chain_lengths())
            hit_sum += std::uint64_t(length) * (length + 1) / 2;
        std::uint64_t miss_sum = 0;
        for (FileId f = 0; f < files; ++f)
            for (pgoff_t i = 0; i < pages; ++i)
                miss_sum += table->chain_length(table->bucket_of(f, pages + i));

        const std::string common[] = { "index=hash", "memory_mb=1", "pages=4096", "files=" + std::to_string(files),
            "lookups=" + std::to_string(n) };
        std::vector<std::string> set(std::begin(common), std::end(common));
        const ProbeFigures hit = run_lookup_probe(set);
        CHECK(hit.at("chain_per_lookup") == double(hit_sum) / double(n));
        CHECK(hit.at("chain_per_lookup") > 1);
        CHECK(hit.at("found") == double(n));
        CHECK(hit.at("levels_walked") == 0);
        CHECK(hit.at("tree_height") == 0);
        CHECK(hit.at("buckets") == 1024);
        // The table's bytes: the chain heads, one entry per page, one lock.
        CHECK(hit.at("index_bytes")
            == double(1024 * HashIndex::kBucketBytes + n * HashIndex::kEntryBytes + HashIndex::kLockBytes));

        set.push_back("outcome=miss");
        const ProbeFigures miss = run_lookup_probe(set);
        CHECK(miss.at("chain_per_lookup") == double(miss_sum) / double(n));
        CHECK(miss.at("found") == 0);
    }
}

TEST_CASE("more lookups than pages visit every page again", "[lesson][probe]")
{
    const ProbeFigures radix = run_lookup_probe({ "index=radix", "pages=500", "lookups=1700" });
    CHECK(radix.at("found") == 1700);
    const ProbeFigures hash
        = run_lookup_probe({ "index=hash", "layout=sparse", "pages=500", "files=2", "lookups=2500" });
    CHECK(hash.at("found") == 2500);
    CHECK(hash.at("chain_per_lookup") >= 1);
}

TEST_CASE("index_lookup refuses a bad parameter by name", "[lesson][probe][errors]")
{
    CHECK_THAT(lesson_error_of({ "radix_shift=3" }), Catch::Contains("radix_shift"));
    CHECK_THAT(lesson_error_of({ "radix_shift=8" }), Catch::Contains("radix_shift"));
    CHECK_THAT(lesson_error_of({ "index=skiplist" }), Catch::Contains("index"));
    CHECK_THAT(lesson_error_of({ "layout=diagonal" }), Catch::Contains("layout"));
    CHECK_THAT(lesson_error_of({ "pages=0" }), Catch::Contains("pages"));
    CHECK_THAT(lesson_error_of({ "files=65" }), Catch::Contains("files"));
    CHECK_THAT(lesson_error_of({ "outcome=sometimes" }), Catch::Contains("outcome"));
    CHECK_THAT(lesson_error_of({ "lookups=1.5" }), Catch::Contains("lookups"));
    CHECK_THAT(lesson_error_of({ "passes=0" }), Catch::Contains("passes"));
    CHECK_THAT(lesson_error_of({ "memory_mb=65537" }), Catch::Contains("memory_mb"));
    CHECK_THAT(lesson_error_of({ "hash_function=crc" }), Catch::Contains("hash_function"));
    CHECK_THAT(lesson_error_of({ "fanout=16" }), Catch::Contains("fanout"));
    CHECK(lesson_error_of({ "index=hash", "radix_shift=4", "layout=sparse", "outcome=miss" }) == "accepted");

    // Within each range but too many pages together: refused before anything is built.
    const LessonProbe p = index_lookup_probe();
    const ProbeArgs big = probe_args(p, { "pages=4194304", "files=2" }, "runs[0].set");
    CHECK_THROWS_WITH(p.run(big), Catch::Contains("pages x files"));
}
