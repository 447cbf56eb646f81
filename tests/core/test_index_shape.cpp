// PageIndex::shape(): the cheap node count and height the metrics sampler
// reads many times a second, checked against structures known exactly.
#include "index/index_factory.h"
#include "index/radix_tree.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace pcl;

namespace {

// Distinct non-null page pointers: the index only stores them.
std::vector<Page*> fake_pages(std::size_t n)
{
    std::vector<Page*> pages(n);
    for (std::size_t i = 0; i < n; ++i)
        pages[i] = reinterpret_cast<Page*>(std::uintptr_t(64 * (i + 1)));
    return pages;
}

} // namespace

TEST_CASE("a radix tree's shape is its height and node count", "[index][shape]")
{
    for (const char* scheme : { "spinlock", "rwlock", "rcu", "pernode", "optimistic" }) {
        INFO(scheme);
        IndexSpec spec;
        spec.kind = IndexKind::Radix;
        spec.scheme = scheme;
        spec.radix_shift = 6; // fanout 64: a leaf covers 64 indexes, a height-2 node 4096
        sync::LockRegistry registry;
        auto index = make_page_index(spec, 0, registry);
        const auto pages = fake_pages(8);

        CHECK(index->shape().nodes == 0);
        CHECK(index->shape().height == 0);
        // Index 0 alone lives in the root word: no node.
        REQUIRE(index->insert(0, pages[0]) == InsertResult::Inserted);
        CHECK(index->shape().nodes == 0);
        CHECK(index->shape().height == 0);
        // Index 63 needs one leaf.
        REQUIRE(index->insert(63, pages[1]) == InsertResult::Inserted);
        CHECK(index->shape().nodes == 1);
        CHECK(index->shape().height == 1);
        // Index 64: a root of height 2 over two leaves.
        REQUIRE(index->insert(64, pages[2]) == InsertResult::Inserted);
        CHECK(index->shape().nodes == 3);
        CHECK(index->shape().height == 2);
        // Index 4096: a root of height 3; under it the old height-2 node
        // with its two leaves, and a new height-2 node with one leaf.
        REQUIRE(index->insert(4096, pages[3]) == InsertResult::Inserted);
        CHECK(index->shape().nodes == 6);
        CHECK(index->shape().height == 3);
        // The shape agrees with the snapshot, which walks the tree.
        const IndexSnapshot snap = index->snapshot();
        CHECK(index->shape().nodes == snap.nodes.size());
        CHECK(index->shape().height == snap.height);

        // Erasing shrinks it back the same way.
        REQUIRE(index->erase(4096) == pages[3]);
        CHECK(index->shape().nodes == 3);
        CHECK(index->shape().height == 2);
        REQUIRE(index->erase(64) == pages[2]);
        REQUIRE(index->erase(63) == pages[1]);
        CHECK(index->shape().nodes == 0);
        CHECK(index->shape().height == 0);
        REQUIRE(index->erase(0) == pages[0]);
        CHECK(index->shape().nodes == 0);
        CHECK(index->shape().height == 0);
    }
}

TEST_CASE("a skip list's shape is its node count and tallest tower", "[index][shape]")
{
    // Under "mapping" the level hint is exact, so the height is the tallest
    // tower in the list, which the snapshot shows node by node.
    IndexSpec spec;
    spec.kind = IndexKind::SkipList;
    spec.scheme = "mapping";
    spec.skiplist_seed = 7;
    sync::LockRegistry registry;
    auto index = make_page_index(spec, 0, registry);
    const auto pages = fake_pages(500);
    CHECK(index->shape().nodes == 0);
    CHECK(index->shape().height == 0);
    for (pgoff_t i = 0; i < pages.size(); ++i)
        REQUIRE(index->insert(3 * i, pages[i]) == InsertResult::Inserted);
    const IndexSnapshot snap = index->snapshot();
    int tallest = 0;
    for (const auto& node : snap.nodes)
        tallest = std::max(tallest, node.level);
    CHECK(index->shape().nodes == 500);
    CHECK(index->shape().height == tallest);
    CHECK(tallest > 1);
    for (pgoff_t i = 0; i < pages.size(); ++i)
        REQUIRE(index->erase(3 * i) == pages[i]);
    CHECK(index->shape().nodes == 0);
    CHECK(index->shape().height == 0);
}

TEST_CASE("a hash mapping reports no nodes and no height", "[index][shape]")
{
    IndexSpec spec;
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 64;
    sync::LockRegistry registry;
    auto index = make_page_index(spec, 0, registry);
    const auto pages = fake_pages(100);
    for (pgoff_t i = 0; i < pages.size(); ++i)
        REQUIRE(index->insert(i, pages[i]) == InsertResult::Inserted);
    CHECK(index->count() == 100);
    CHECK(index->shape().nodes == 0);
    CHECK(index->shape().height == 0);
}
