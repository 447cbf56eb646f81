// The index_memory probe: a radix tree's nodes for dense, one-page and
// sparse files against hand-counted trees, the hash's table and struct page
// links against page_cache_init's sizing, what the structures' own
// memory_bytes() report, and parameters refused by name.
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index/radix_tree.h"
#include "index/radix_tree_node.h"
#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcl;

namespace {

ProbeFigures run_memory_probe(const std::vector<std::string>& set)
{
    const LessonProbe p = index_memory_probe();
    return p.run(probe_args(p, set, "runs[0].set"));
}

/// A node's bytes, laid out by hand: a 64-byte header line (which holds
/// the three tag bitmaps when each is one 64-bit word), 8-byte slots, then
/// the bitmaps of a 128-slot node, all rounded up to 64 bytes.
std::uint64_t node_bytes(unsigned shift)
{
    const std::uint64_t fanout = std::uint64_t(1) << shift;
    const std::uint64_t tag_words = (fanout + 63) / 64;
    const std::uint64_t end = 64 + fanout * 8 + (tag_words > 1 ? 3 * tag_words * 8 : 0);
    return (end + 63) / 64 * 64;
}

/// Nodes of a tree holding offsets 0..n-1: ceil(n / fanout^k) at each level
/// k = 1..height, height the fewest levels whose fanout^height exceeds n - 1;
/// a lone page at offset 0 lives in the root and needs none.
std::uint64_t dense_nodes(std::uint64_t n, unsigned shift)
{
    if (n <= 1)
        return 0;
    std::uint64_t nodes = 0;
    std::uint64_t reach = 1; // offsets one slot of the level spans
    do {
        reach <<= shift;
        nodes += (n + reach - 1) / reach;
    } while (reach < n);
    return nodes;
}

std::string message_of(const std::vector<std::string>& set)
{
    try {
        run_memory_probe(set);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("index_memory: a dense file's nodes, counted by hand", "[probe][index_memory][exact]")
{
    // 1000 pages at offsets 0..999:
    //   rat-4 (16-way):  63 leaves + 4 + 1 = 68 nodes, 3 levels (16^3 = 4096 > 999)
    //   64-way:          16 leaves + 1     = 17 nodes, 2 levels
    //   rat-7 (128-way):  8 leaves + 1     =  9 nodes, 2 levels
    CHECK(dense_nodes(1000, 4) == 68);
    CHECK(dense_nodes(1000, 6) == 17);
    CHECK(dense_nodes(1000, 7) == 9);
    // Velikov's "68 or 516 bytes for rat-4 or rat-7" were i386 nodes of a count
    // and 16 or 128 four-byte slots; this process's nodes carry an RCU head,
    // tag bitmaps and 8-byte slots.
    CHECK(node_bytes(4) == 192);
    CHECK(node_bytes(6) == 576);
    CHECK(node_bytes(7) == 1152);
    const struct {
        unsigned shift;
        std::uint64_t height;
    } cases[] = { { 4, 3 }, { 6, 2 }, { 7, 2 } };
    for (const auto& c : cases) {
        INFO("radix_shift " << c.shift);
        const ProbeFigures f
            = run_memory_probe({ "index=radix", "radix_shift=" + std::to_string(c.shift), "pages=1000" });
        CHECK(f.at("nodes") == double(dense_nodes(1000, c.shift)));
        CHECK(f.at("node_bytes") == double(node_bytes(c.shift)));
        CHECK(f.at("height") == double(c.height));
        CHECK(f.at("index_bytes") == double(dense_nodes(1000, c.shift) * node_bytes(c.shift)));
        CHECK(f.at("bytes_per_page") == Approx(double(dense_nodes(1000, c.shift) * node_bytes(c.shift)) / 1000));
        CHECK(f.at("words_per_page") == Approx(f.at("bytes_per_page") / 8));
        // The structure's own accounting: the nodes and the tree's object.
        sync::LockRegistry registry;
        RadixTree empty(0, { RadixTree::Scheme::Spinlock, c.shift }, registry);
        CHECK(f.at("structure_bytes") == double(empty.memory_bytes() + f.at("index_bytes")));
    }

    // 4 files sharing 1002 pages: 251, 251, 250 and 250 pages each.
    const ProbeFigures f = run_memory_probe({ "radix_shift=4", "pages=1002", "files=4" });
    CHECK(f.at("files") == 4);
    CHECK(f.at("nodes") == double(2 * dense_nodes(251, 4) + 2 * dense_nodes(250, 4)));
    CHECK(f.at("max_nodes_per_file") == double(dense_nodes(251, 4)));
}

TEST_CASE("index_memory: one-page files and Irwin's deepest chain", "[probe][index_memory][exact]")
{
    // A file's one page at offset 0 is held in the root itself: no node.
    const ProbeFigures zero = run_memory_probe({ "layout=one_page_files", "pages=500", "radix_shift=7" });
    CHECK(zero.at("files") == 500);
    CHECK(zero.at("nodes") == 0);
    CHECK(zero.at("index_bytes") == 0);
    CHECK(zero.at("height") == 0);

    // At offset 2^20 - 1, the last page of a 4 GB file on i386, every file
    // holds a chain of ceil(20 / shift) nodes: Irwin's D - 1 levels below
    // the root.
    const struct {
        unsigned shift;
        std::uint64_t levels;
    } cases[] = { { 4, 5 }, { 6, 4 }, { 7, 3 } };
    for (const auto& c : cases) {
        INFO("radix_shift " << c.shift);
        const ProbeFigures f = run_memory_probe(
            { "layout=one_page_files", "pages=100", "offset=1048575", "radix_shift=" + std::to_string(c.shift) });
        CHECK(f.at("nodes") == double(100 * c.levels));
        CHECK(f.at("nodes_per_file") == double(c.levels));
        CHECK(f.at("height") == double(c.levels));
        CHECK(f.at("bytes_per_page") == double(c.levels * node_bytes(c.shift)));
    }
    // rat-7: 3 nodes of 1152 bytes = 432 words per page, against the
    // (D-1)*B + 1 = 3 * 128 + 1 = 385 words of Irwin's formula.
    const ProbeFigures rat7
        = run_memory_probe({ "layout=one_page_files", "pages=10", "offset=1048575", "radix_shift=7" });
    CHECK(rat7.at("words_per_page") == 432);
}

TEST_CASE("index_memory: sparse files, a path per page", "[probe][index_memory][exact]")
{
    // 2 files of 4 pages over 2^20 offsets: pages at 0, 2^18, 2^19, 3 * 2^18.
    // 64-way: 4 levels (64^3 = 2^18 <= 3 * 2^18); the root, and below it each
    // page on a path of its own (three nodes): 1 + 3 * 4 = 13 nodes a file.
    const ProbeFigures f = run_memory_probe({ "layout=sparse", "pages=8", "files=2", "span=1048576", "radix_shift=6" });
    CHECK(f.at("height") == 4);
    CHECK(f.at("nodes") == 26);
    CHECK(f.at("bytes_per_page") == double(26 * node_bytes(6)) / 8);

    // A span as large as the pages is a dense file.
    const ProbeFigures dense = run_memory_probe({ "layout=sparse", "pages=1000", "span=1000", "radix_shift=6" });
    CHECK(dense.at("nodes") == double(dense_nodes(1000, 6)));
}

TEST_CASE("index_memory: the hash's table and struct page links", "[probe][index_memory][exact]")
{
    // 384 MB (Hron's machine): 98304 pages; 98304 * 4 bytes of i386 table
    // round up to order 7 (512 KB): 131072 buckets. In this process a chain
    // head and each link are 8 bytes: table 1 MB, links 2 * 8 * 98304.
    const ProbeFigures f = run_memory_probe({ "index=hash", "memory_mb=384", "pages=98304", "files=16" });
    CHECK(f.at("mempages") == 98304);
    CHECK(f.at("buckets") == 131072);
    CHECK(f.at("buckets") == double(page_hash_buckets(std::uint64_t(384) << 20, false)));
    CHECK(f.at("table_bytes") == 1048576);
    CHECK(f.at("link_bytes") == 1572864);
    // With i386's 4-byte pointers the links are half of that: 786432 bytes,
    // the 768k Hron's boot messages showed the radix tree saving.
    CHECK(f.at("link_bytes") / 2 == 768 * 1024);
    CHECK(f.at("index_bytes") == 1048576 + 1572864);
    CHECK(f.at("bytes_per_page") == Approx((1048576.0 + 1572864.0) / 98304));
    CHECK(f.at("nodes") == 0);
    // The table's own memory_bytes(): heads, one entry per cached page, its lock.
    CHECK(f.at("structure_bytes")
        == double(131072 * HashIndex::kBucketBytes + 98304 * HashIndex::kEntryBytes + HashIndex::kLockBytes));

    // The table and the links follow the machine, not the pages cached.
    const ProbeFigures few = run_memory_probe({ "index=hash", "memory_mb=384", "layout=one_page_files", "pages=1000" });
    CHECK(few.at("index_bytes") == f.at("index_bytes"));
    CHECK(few.at("bytes_per_page") == Approx((1048576.0 + 1572864.0) / 1000));
}

TEST_CASE("index_memory: parameters refused by name", "[probe][index_memory][errors]")
{
    const LessonProbe p = index_memory_probe();
    CHECK_THROWS_WITH(probe_args(p, { "layout=tree" }, "runs[2].set"), Catch::Contains("layout"));
    CHECK_THROWS_AS(probe_args(p, { "layout=tree" }, "runs[2].set"), LessonError);
    CHECK_THROWS_WITH(probe_args(p, { "radix_shift=8" }, "runs[2].set"), Catch::Contains("radix_shift"));
    CHECK_THROWS_WITH(probe_args(p, { "fanout=16" }, "runs[2].set"), Catch::Contains("fanout"));
    CHECK_THROWS_WITH(probe_args(p, { "pages=0" }, "runs[2].set"), Catch::Contains("pages"));
    CHECK_THROWS_WITH(probe_args(p, { "memory_mb=65537" }, "runs[2].set"), Catch::Contains("memory_mb"));
    CHECK_THROWS_WITH(probe_args(p, { "index=skiplist" }, "runs[2].set"), Catch::Contains("index"));
    // Parameters that are each in range but do not fit together.
    CHECK_THAT(message_of({ "pages=4", "files=5" }), Catch::Contains("files"));
    CHECK_THAT(message_of({ "layout=sparse", "pages=100", "span=99" }), Catch::Contains("span"));
    // Every figure the probe reports is one it declares.
    const ProbeFigures f = run_memory_probe({ "pages=10" });
    for (const auto& [name, value] : f)
        CHECK(p.find_figure(name) != nullptr);
    CHECK(f.size() == p.figures.size());
}
