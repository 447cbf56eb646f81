// RadixTree::snapshot at a level of detail (RadixDetail): on real trees of
// random pages and tags, what it lists is the full snapshot's nodes in range,
// its bins and its level totals are the full snapshot's nodes counted, and
// max_nodes keeps the breadth-first prefix.
#include "index/radix_tree.h"
#include "index_oracle.h"

#include <catch2/catch.hpp>

#include <bit>
#include <map>
#include <random>
#include <tuple>

using namespace pcl;
using pcl::test::PagePool;

namespace {

/// A tree of @pages random pages below @limit, each tagged at random.
struct RandomTree {
    RandomTree(unsigned shift, RadixTree::Scheme scheme, std::size_t pages, pgoff_t limit, unsigned stream)
        : tree(0, RadixTree::Config { scheme, shift })
    {
        std::mt19937_64 rng(stream);
        std::uniform_int_distribution<pgoff_t> index(0, limit - 1);
        std::uniform_int_distribution<int> coin(0, 9);
        for (std::size_t i = 0; i < pages; ++i) {
            const pgoff_t at = index(rng);
            if (tree.insert(at, pool.make(at)) != InsertResult::Inserted)
                continue;
            for (unsigned t = 0; t < kTagCount; ++t)
                if (coin(rng) < int(t) + 1)
                    REQUIRE(tree.set_tag(at, t));
        }
    }
    PagePool pool;
    RadixTree tree;
};

pgoff_t lastOf(const IndexSnapshot::Node& n)
{
    return n.first_index + (n.span - 1);
}

bool inRange(const IndexSnapshot::Node& n, const RadixDetail& d)
{
    return n.first_index <= d.last_index && lastOf(n) >= d.first_index;
}

bool onPath(const IndexSnapshot::Node& n, const RadixDetail& d)
{
    return d.path_index && n.first_index <= *d.path_index && *d.path_index <= lastOf(n);
}

/// The parts of a node that say what it holds.
auto contents(const IndexSnapshot::Node& n)
{
    return std::tie(n.id, n.offset, n.level, n.first_index, n.span, n.slots, n.occupied, n.tagged, n.slot_bits);
}

/// Checks @lod, taken with @detail, against @full, the full snapshot of the same quiescent tree.
void checkAgainstFull(const IndexSnapshot& full, const IndexSnapshot& lod, const RadixDetail& detail)
{
    REQUIRE(lod.height == full.height);
    REQUIRE(lod.levels.size() == std::size_t(full.height));
    CHECK_FALSE(lod.truncated);
    CHECK(lod.detail.first_index == detail.first_index);
    CHECK(lod.detail.last_index == detail.last_index);
    CHECK(lod.detail.list_span == detail.list_span);
    CHECK(lod.detail.path_index == detail.path_index);
    const pgoff_t bin = lod.detail.bin_span;
    if (std::any_of(lod.levels.begin(), lod.levels.end(), [](const auto& l) { return l.binned; })) {
        CHECK(std::has_single_bit(bin));
        CHECK(bin >= detail.bin_span);
        CHECK(lod.bin_first == detail.first_index / bin * bin);
    }

    // Totals: every level of the whole tree, counted.
    for (int level = 0; level < full.height; ++level) {
        std::uint64_t nodes = 0, occupied = 0;
        for (const auto& n : full.nodes)
            if (n.level == level) {
                ++nodes;
                occupied += n.occupied;
            }
        INFO("level " << level);
        CHECK(lod.levels[std::size_t(level)].nodes == nodes);
        CHECK(lod.levels[std::size_t(level)].occupied == occupied);
        const unsigned bits = unsigned(level + 1) * unsigned(std::countr_zero(full.fanout));
        const bool binned = bits < 64 && (pgoff_t(1) << bits) < detail.list_span;
        CHECK(lod.levels[std::size_t(level)].binned == binned);
    }

    // Listed: the full snapshot's nodes in range at the levels not binned,
    // and those on the path, in the same (breadth-first) order.
    std::vector<const IndexSnapshot::Node*> want;
    for (const auto& n : full.nodes)
        if ((inRange(n, lod.detail) && !lod.levels[std::size_t(n.level)].binned) || onPath(n, lod.detail))
            want.push_back(&n);
    REQUIRE(lod.nodes.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("listed node " << i);
        CHECK(contents(lod.nodes[i]) == contents(*want[i]));
        const std::int32_t p = lod.nodes[i].parent;
        if (want[i]->parent < 0)
            CHECK(p == -1);
        else if (p >= 0)
            CHECK(lod.nodes[std::size_t(p)].id == full.nodes[std::size_t(want[i]->parent)].id);
    }

    // Binned: each bin is the full snapshot's nodes of that level in range
    // whose first index falls in it, counted; each such node lies within one bin.
    for (int level = 0; level < full.height; ++level) {
        const auto& lv = lod.levels[std::size_t(level)];
        if (!lv.binned) {
            CHECK(lv.bins.empty());
            continue;
        }
        std::map<std::size_t, IndexSnapshot::Bin> expect;
        for (const auto& n : full.nodes) {
            if (n.level != level || !inRange(n, lod.detail))
                continue;
            REQUIRE(n.first_index >= lod.bin_first);
            const std::size_t b = std::size_t((n.first_index - lod.bin_first) / bin);
            CHECK((lastOf(n) - lod.bin_first) / bin == b);
            auto& e = expect[b];
            ++e.nodes;
            e.occupied += n.occupied;
            for (unsigned t = 0; t < kTagCount; ++t)
                e.tagged[t] += n.tagged[t];
            e.first_index = std::min(e.first_index, n.first_index);
            e.last_index = std::max(e.last_index, lastOf(n));
        }
        const pgoff_t last = std::min(lod.detail.last_index, lastOf(full.nodes.front()));
        CHECK(lv.bins.size() == std::size_t((last - lod.bin_first) / bin) + 1);
        for (std::size_t b = 0; b < lv.bins.size(); ++b) {
            INFO("level " << level << " bin " << b);
            const auto it = expect.find(b);
            const IndexSnapshot::Bin e = it == expect.end() ? IndexSnapshot::Bin {} : it->second;
            const auto& got = lv.bins[b];
            CHECK(got.nodes == e.nodes);
            CHECK(got.occupied == e.occupied);
            CHECK(got.tagged == e.tagged);
            if (e.nodes > 0) {
                CHECK(got.first_index == e.first_index);
                CHECK(got.last_index == e.last_index);
            }
        }
    }
}

} // namespace

TEST_CASE("a snapshot at a level of detail is the full walk's nodes, listed or counted", "[radix][exact][snapshot]")
{
    for (unsigned shift : { 2u, 4u }) {
        INFO("shift " << shift);
        RandomTree t(shift, RadixTree::Scheme::Rcu, 20000, 200000, 11 + shift);
        const IndexSnapshot full = t.tree.snapshot();
        REQUIRE(full.nodes.size() == t.tree.nodes());
        REQUIRE(full.height >= 3);
        const pgoff_t fanout = t.tree.fanout();

        SECTION("the whole tree, small nodes binned")
        {
            RadixDetail d;
            d.list_span = fanout * fanout * fanout / 2; // leaves and level 1 binned
            d.bin_span = 100;
            const IndexSnapshot lod = t.tree.snapshot({ true, std::size_t(1) << 20, d });
            checkAgainstFull(full, lod, d);
            CHECK(lod.levels[0].binned);
            CHECK(lod.levels[1].binned);
            CHECK_FALSE(lod.levels[2].binned);
            // Every node is counted, listed or binned, exactly once per level.
            for (int level = 0; level < 2; ++level) {
                std::uint64_t binned = 0;
                for (const auto& b : lod.levels[std::size_t(level)].bins)
                    binned += b.nodes;
                CHECK(binned == lod.levels[std::size_t(level)].nodes);
            }
        }
        SECTION("part of the tree: leaves outside are neither listed nor binned")
        {
            RadixDetail d;
            d.first_index = 50001;
            d.last_index = 90000;
            d.list_span = fanout * fanout; // leaves binned
            d.bin_span = 1000;
            const IndexSnapshot lod = t.tree.snapshot({ true, std::size_t(1) << 20, d });
            checkAgainstFull(full, lod, d);
            CHECK(lod.levels[0].occupied == t.tree.count());
        }
        SECTION("zoomed in: every node in range is listed, slot by slot")
        {
            RadixDetail d;
            d.first_index = 123456;
            d.last_index = 123456 + 300;
            d.list_span = 1;
            const IndexSnapshot lod = t.tree.snapshot({ true, std::size_t(1) << 20, d });
            checkAgainstFull(full, lod, d);
            for (const auto& level : lod.levels)
                CHECK_FALSE(level.binned);
            // The leaves' slots are the tree's pages and tags.
            for (const auto& n : lod.nodes) {
                if (n.level != 0)
                    continue;
                for (unsigned s = 0; s < n.slots; ++s) {
                    const pgoff_t i = n.first_index + s;
                    std::uint8_t want = t.tree.lookup(i) ? IndexSnapshot::kSlotOccupied : 0;
                    for (unsigned tag = 0; tag < kTagCount; ++tag)
                        if (t.tree.test_tag(i, tag))
                            want |= IndexSnapshot::slot_tag_bit(tag);
                    CHECK(n.slot_bits[s] == want);
                }
            }
        }
        SECTION("the path to an index is listed through binned levels")
        {
            RadixDetail d;
            d.list_span = pgoff_t(1) << 40; // every level binned
            d.bin_span = 4096;
            d.path_index = full.nodes.back().first_index + 1;
            const IndexSnapshot lod = t.tree.snapshot({ true, std::size_t(1) << 20, d });
            checkAgainstFull(full, lod, d);
            REQUIRE(lod.nodes.size() == std::size_t(full.height));
            for (std::size_t i = 0; i < lod.nodes.size(); ++i) {
                CHECK(lod.nodes[i].level == full.height - 1 - int(i));
                CHECK(lod.nodes[i].parent == std::int32_t(i) - 1);
            }
        }
    }
}

TEST_CASE("max_nodes keeps the breadth-first prefix of the tree", "[radix][exact][snapshot]")
{
    RandomTree t(2, RadixTree::Scheme::Rcu, 3000, 40000, 5);
    const IndexSnapshot full = t.tree.snapshot();
    REQUIRE(full.nodes.size() > 200);
    for (std::size_t cap : { std::size_t(1), std::size_t(7), std::size_t(200) }) {
        INFO("max_nodes " << cap);
        SnapshotOptions o;
        o.max_nodes = cap;
        const IndexSnapshot part = t.tree.snapshot(o);
        CHECK(part.truncated);
        REQUIRE(part.nodes.size() == cap);
        for (std::size_t i = 0; i < cap; ++i) {
            CHECK(contents(part.nodes[i]) == contents(full.nodes[i]));
            CHECK(part.nodes[i].parent == full.nodes[i].parent);
        }
    }
    // Breadth first: levels from the root down, each in index order.
    for (std::size_t i = 1; i < full.nodes.size(); ++i) {
        const auto& a = full.nodes[i - 1];
        const auto& b = full.nodes[i];
        CHECK((a.level > b.level || (a.level == b.level && a.first_index < b.first_index)));
    }
}
