// The radix tree's node slab: aligned, distinct objects; freed ones handed
// out again before new ones are carved; batches carried between a thread
// that only frees and one that only allocates; exact chunk and carve counts.
#include "index/radix_node_slab.h"
#include "index/radix_tree.h"
#include "index_oracle.h"
#include "sync/rcu.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

using namespace pcl;
using namespace pcl::radix;

namespace {

// Sizes no node layout has, so that no other test's tree shares their caches
// and the counts below are this file's alone.
constexpr std::size_t kSize = 4032;
constexpr std::size_t kOtherSize = 3968;
constexpr std::size_t kChunk = std::size_t(2) << 20;

} // namespace

TEST_CASE("slab objects are 64-byte aligned, distinct and do not overlap", "[radix][slab]")
{
    const SlabStats before = slab_stats(kSize);
    const std::size_t n = 3 * (kChunk / kSize) + 7; // spans four chunks
    std::vector<char*> objects;
    for (std::size_t i = 0; i < n; ++i) {
        auto* p = static_cast<char*>(slab_alloc(kSize));
        REQUIRE(p != nullptr);
        CHECK(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
        std::memset(p, int(i & 0xff), kSize); // the whole object is writable
        objects.push_back(p);
    }
    std::sort(objects.begin(), objects.end());
    for (std::size_t i = 1; i < objects.size(); ++i)
        CHECK(objects[i - 1] + kSize <= objects[i]);
    const SlabStats after = slab_stats(kSize);
    // Carved in batches of 32: every object asked for, rounded up to a batch.
    CHECK(after.carved - before.carved == (n + 31) / 32 * 32);
    // 520 objects of 4032 bytes per 2 MB chunk: n + the batch's rest fits in 4 chunks.
    CHECK(after.chunks - before.chunks == 4);
    for (char* p : objects)
        slab_free(p, kSize);
}

TEST_CASE("a freed object is handed out again before anything new is carved", "[radix][slab]")
{
    void* a = slab_alloc(kOtherSize);
    REQUIRE(a);
    const SlabStats before = slab_stats(kOtherSize);
    slab_free(a, kOtherSize);
    void* b = slab_alloc(kOtherSize);
    CHECK(b == a);
    // 1000 allocations and frees, one at a time, carve nothing new.
    for (int i = 0; i < 1000; ++i) {
        void* p = slab_alloc(kOtherSize);
        REQUIRE(p);
        slab_free(p, kOtherSize);
    }
    CHECK(slab_stats(kOtherSize).carved == before.carved);
    slab_free(b, kOtherSize);
}

TEST_CASE("objects freed by one thread are allocated by another", "[radix][slab]")
{
    // The RCU callback thread frees, the inserting threads allocate: the
    // batches a freeing thread gives back must reach the allocating one.
    constexpr std::size_t kSize2 = 3904;
    constexpr std::size_t n = 1000;
    std::vector<void*> objects(n);
    for (auto& p : objects)
        p = slab_alloc(kSize2);
    const SlabStats allocated = slab_stats(kSize2);
    std::thread freer([&] {
        for (void* p : objects)
            slab_free(p, kSize2);
    }); // its magazine is given back when it ends
    freer.join();
    CHECK(slab_stats(kSize2).shared_free >= n - 64);
    const std::set<void*> freed(objects.begin(), objects.end());
    std::size_t reused = 0;
    std::vector<void*> again;
    for (std::size_t i = 0; i < n; ++i) {
        void* p = slab_alloc(kSize2);
        again.push_back(p);
        reused += freed.count(p);
    }
    // This thread's magazine held at most a batch of fresh objects; all the rest come back.
    CHECK(reused >= n - 32);
    CHECK(slab_stats(kSize2).carved == allocated.carved);
    for (void* p : again)
        slab_free(p, kSize2);
}

TEST_CASE("the slab refuses sizes it does not serve", "[radix][slab]")
{
    CHECK(slab_alloc(0) == nullptr);
    CHECK(slab_alloc(100) == nullptr); // not a multiple of 64
    CHECK(slab_alloc(kSlabMaxBytes + 64) == nullptr);
    slab_free(nullptr, kSize); // a no-op
}

TEST_CASE("a tree's erased nodes come back for the next inserts", "[radix][slab]")
{
    // Fill and empty a tree twice: the second fill carves no new nodes,
    // because the first fill's nodes were freed (after a grace period) back
    // to the cache of their size.
    test::PagePool pool;
    std::vector<Page*> pages;
    for (pgoff_t i = 0; i < 1 << 14; ++i)
        pages.push_back(pool.make(i * 37));
    RadixTree::Config config { RadixTree::Scheme::Rcu, 5 }; // 32-way: a size of its own in this test binary
    RadixTree tree(1, config);
    const std::size_t bytes = tree.node_bytes();
    auto fill_and_empty = [&] {
        for (pgoff_t i = 0; i < 1 << 14; ++i)
            REQUIRE(tree.insert(i * 37, pages[i]) == InsertResult::Inserted);
        CHECK(tree.nodes() > 1 << 13); // about a leaf per page
        for (pgoff_t i = 0; i < 1 << 14; ++i)
            REQUIRE(tree.erase(i * 37) == pages[i]);
        rcu::barrier();
    };
    fill_and_empty();
    const std::uint64_t carved = slab_stats(bytes).carved;
    fill_and_empty();
    // Up to a magazine of freed nodes (64) may still sit with the RCU
    // callback thread, and carving goes by batches of 32: at most 96 new.
    CHECK(slab_stats(bytes).carved - carved <= 96);
    CHECK(tree.nodes() == 0);
}

TEST_CASE("a thread that inserted and ended gives its spare nodes back", "[radix][slab]")
{
    // The thread's preload pool outlives its magazines (thread-local objects
    // die in reverse order of construction): its spare nodes must still
    // reach the shared list, not a destroyed magazine.
    test::PagePool pool;
    RadixTree::Config config { RadixTree::Scheme::Rcu, 3 }; // 8-way: a size of its own in this test binary
    RadixTree tree(1, config);
    const std::size_t bytes = tree.node_bytes();
    const std::uint64_t before = slab_stats(bytes).shared_free;
    std::thread inserter([&] { REQUIRE(tree.insert(5, pool.make(5)) == InsertResult::Inserted); });
    inserter.join();
    const SlabStats after = slab_stats(bytes);
    // The insert preloaded 2 * 22 - 1 = 43 nodes (the deepest 8-way tree of
    // 64-bit indexes is 22 levels), so two batches of 32 were carved; one
    // node became the tree's only node, the other 63 came back.
    CHECK(after.carved == 64);
    CHECK(after.shared_free - before == 63);
    CHECK(tree.nodes() == 1);
    CHECK(tree.lookup(5) != nullptr);
}
