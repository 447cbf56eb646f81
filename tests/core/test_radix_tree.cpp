// RadixTree: oracle runs, exact structure cases, and concurrent stress for
// every locking scheme.
#include "base/cpu.h"
#include "index/radix_tree.h"
#include "index_oracle.h"
#include "lock_stat_support.h"
#include "radix_schemes.h"
#include "ring_events.h"
#include "sync/rcu.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

using namespace pcl;
using pcl::test::PagePool;
using test::IndexEvent;

namespace {

RadixTree::Config config(RadixTree::Scheme scheme, unsigned shift = 6)
{
    return { scheme, shift };
}

} // namespace

TEST_CASE("radix tree matches std::map for every scheme and fanout", "[radix][oracle][one-thread]")
{
    for (auto scheme : test::kRadixSchemes)
        for (unsigned shift : { 2u, 4u, 6u, 7u }) {
            INFO("scheme " << RadixTree::scheme_name(scheme) << " shift " << shift);
            sync::LockRegistry registry;
            RadixTree tree(0, config(scheme, shift), registry);
            test::run_oracle(tree, 1000 + shift, 12000, shift == 2 ? 3000 : 20000);
            CHECK(tree.height() == 0);
            CHECK(tree.nodes() == 0);
        }
}

TEST_CASE("radix tree height follows the largest index (shift 6)", "[radix][exact]")
{
    for (auto scheme : test::kRadixSchemes) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        sync::LockRegistry registry;
        RadixTree tree(0, config(scheme), registry);
        PagePool pool;
        const std::pair<pgoff_t, unsigned> grow[] = { { 0, 0 }, { 63, 1 }, { 64, 2 }, { 4095, 2 }, { 4096, 3 } };
        for (auto [index, height] : grow) {
            REQUIRE(tree.insert(index, pool.make(index)) == InsertResult::Inserted);
            CHECK(tree.height() == height);
        }
        // Erasing back down: the root shrinks whenever only its slot 0 is used.
        const std::pair<pgoff_t, unsigned> shrink[] = { { 4096, 2 }, { 4095, 2 }, { 64, 1 }, { 63, 0 }, { 0, 0 } };
        for (auto [index, height] : shrink) {
            REQUIRE(tree.erase(index) != nullptr);
            CHECK(tree.height() == height);
        }
        CHECK(tree.count() == 0);
        CHECK(tree.nodes() == 0);
        CHECK(RadixTree::max_index(1, 6) == 63);
        CHECK(RadixTree::max_index(2, 6) == 4095);
        CHECK(RadixTree::max_index(11, 6) == ~pgoff_t(0));
    }
}

TEST_CASE("lookups reach the top of the index space at every fanout", "[radix][exact]")
{
    // The tallest tree a 64-bit index needs: its lookups shift the index by
    // up to 62 (fanout 4), 63 (8), 60 (16, 32 and the kernel's 64, whose
    // walk has the shift compiled in) or 63 bits (128) at the root.
    for (unsigned shift : { 2u, 3u, 4u, 5u, 6u, 7u }) {
        INFO("shift " << shift);
        RadixTree tree(0, config(RadixTree::Scheme::Rcu, shift));
        PagePool pool;
        const pgoff_t top = ~pgoff_t(0);
        const pgoff_t present[] = { 0, 1, pgoff_t(1) << 32, pgoff_t(1) << 63, top - 1, top };
        for (pgoff_t i : present)
            REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
        CHECK(tree.height() == (64 + shift - 1) / shift);
        for (pgoff_t i : present) {
            Page* p = tree.lookup(i);
            REQUIRE(p != nullptr);
            CHECK(p->index == i);
        }
        for (pgoff_t i : { pgoff_t(2), (pgoff_t(1) << 32) + 1, (pgoff_t(1) << 63) - 1, top - 2, pgoff_t(1) << 62 })
            CHECK(tree.lookup(i) == nullptr);
    }
}

TEST_CASE("lookups at every height find the last index it holds and miss the next", "[radix][exact]")
{
    // The walk picks its entry by height (the kernel's fanout) or loops
    // over it (any other): at each height the largest index the tree holds
    // is found through every level, and the first one above it is a miss
    // before any slot is read. A page with distinct digits at every level
    // checks that each level uses its own part of the index.
    for (auto scheme : test::kRadixSchemes)
        for (unsigned shift : { 6u, 4u }) {
            const unsigned tallest = (64 + shift - 1) / shift;
            for (unsigned h = 1; h <= tallest; ++h) {
                INFO("scheme " << RadixTree::scheme_name(scheme) << ", shift " << shift << ", height " << h);
                RadixTree tree(0, config(scheme, shift));
                PagePool pool;
                const pgoff_t last = RadixTree::max_index(h, shift);
                pgoff_t digits = 0; // digit d at level d: 1, 2, 3, ... (mod fanout)
                for (unsigned level = 0; level < h; ++level)
                    digits |= pgoff_t((level + 1) & ((1u << shift) - 1)) << (level * shift);
                digits &= last;
                // Distinct: their lowest digits are 0, 1 and fanout - 1.
                for (pgoff_t i : { pgoff_t(0), digits, last })
                    REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
                REQUIRE(tree.height() == h);
                for (pgoff_t i : { pgoff_t(0), digits, last }) {
                    Page* p = tree.lookup(i);
                    REQUIRE(p != nullptr);
                    CHECK(p->index == i);
                }
                // Below the top: the leaf's slot next to a present page.
                CHECK(tree.lookup(digits + 1) == nullptr);
                CHECK(tree.lookup(last - 1) == nullptr);
                if (h < tallest) {
                    CHECK(tree.lookup(last + 1) == nullptr);
                    CHECK(tree.lookup(~pgoff_t(0)) == nullptr);
                }
            }
        }
}

TEST_CASE("a page at index 0 lives in the root at height 0 and moves into slot 0 on growth", "[radix][exact]")
{
    RadixTree tree(0, config(RadixTree::Scheme::Rcu));
    PagePool pool;
    Page* zero = pool.make(0);
    REQUIRE(tree.insert(0, zero) == InsertResult::Inserted);
    REQUIRE(tree.set_tag(0, kTagDirty));
    CHECK(tree.nodes() == 0);
    CHECK(tree.tagged(kTagDirty));
    REQUIRE(tree.insert(5, pool.make(5)) == InsertResult::Inserted);
    CHECK(tree.height() == 1);
    CHECK(tree.lookup(0) == zero);
    CHECK(tree.test_tag(0, kTagDirty));
    CHECK_FALSE(tree.test_tag(5, kTagDirty));
    REQUIRE(tree.erase(5));
    CHECK(tree.height() == 0);
    CHECK(tree.test_tag(0, kTagDirty)); // the tag came back up with the page
    CHECK(tree.insert(0, pool.make(0)) == InsertResult::Exists);
}

TEST_CASE("tags propagate to the root and clear upward", "[radix][exact][tags]")
{
    for (auto scheme : test::kRadixSchemes) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        RadixTree tree(0, config(scheme, 2)); // fanout 4: a deep tree from few pages
        PagePool pool;
        for (pgoff_t i : { 0, 1, 17, 63 })
            REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
        REQUIRE(tree.height() == 3); // 63 needs 3 levels of 2 bits
        auto tagged_nodes = [&](unsigned tag) {
            std::map<int, unsigned> per_level; // level -> tagged slots
            for (const auto& n : tree.snapshot().nodes)
                per_level[n.level] += n.tagged[tag];
            return per_level;
        };
        REQUIRE(tree.set_tag(17, kTagWriteback));
        CHECK(tree.tagged(kTagWriteback));
        CHECK_FALSE(tree.tagged(kTagDirty));
        // One tagged slot on each level of 17's path: leaf, middle, root.
        CHECK(tagged_nodes(kTagWriteback) == std::map<int, unsigned> { { 0, 1 }, { 1, 1 }, { 2, 1 } });
        REQUIRE(tree.set_tag(1, kTagWriteback));
        // 1 shares no node with 17 below the root: the root has two tagged slots.
        CHECK(tagged_nodes(kTagWriteback) == std::map<int, unsigned> { { 0, 2 }, { 1, 2 }, { 2, 2 } });
        REQUIRE(tree.clear_tag(17, kTagWriteback));
        CHECK(tagged_nodes(kTagWriteback) == std::map<int, unsigned> { { 0, 1 }, { 1, 1 }, { 2, 1 } });
        CHECK(tree.tagged(kTagWriteback));
        // Erasing the last tagged page clears the tag everywhere.
        REQUIRE(tree.erase(1));
        CHECK_FALSE(tree.tagged(kTagWriteback));
        CHECK(tagged_nodes(kTagWriteback) == std::map<int, unsigned> { { 0, 0 }, { 1, 0 }, { 2, 0 } });
        CHECK_FALSE(tree.set_tag(2, kTagDirty)); // no page there
        CHECK_FALSE(tree.tagged(kTagDirty));
    }
}

TEST_CASE("snapshot of a small tree", "[radix][exact][snapshot]")
{
    RadixTree tree(7, config(RadixTree::Scheme::PerNode, 2));
    PagePool pool;
    for (pgoff_t i : { 0, 1, 5 })
        REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
    REQUIRE(tree.set_tag(5, kTagDirty));
    const IndexSnapshot s = tree.snapshot();
    CHECK(s.kind == IndexKind::Radix);
    CHECK(s.scheme == RadixTree::Scheme::PerNode);
    CHECK(index_scheme_name(s.scheme) == "pernode");
    CHECK(s.file == 7);
    CHECK(s.count == 3);
    CHECK(s.height == 2);
    CHECK(s.fanout == 4);
    CHECK(s.root_tagged[kTagDirty]);
    CHECK_FALSE(s.root_tagged[kTagTowrite]);
    REQUIRE(s.nodes.size() == 3);
    // Identities: the middle of the indexes each node covers.
    CHECK(s.nodes[0].id == 8);
    CHECK(s.nodes[1].id == 2);
    CHECK(s.nodes[2].id == 6);
    // Root: indexes 0..15, slots 0 (0..3) and 1 (4..7) used, slot 1 tagged dirty.
    CHECK(s.nodes[0].parent == -1);
    CHECK(s.nodes[0].level == 1);
    CHECK(s.nodes[0].first_index == 0);
    CHECK(s.nodes[0].span == 16);
    CHECK(s.nodes[0].occupied == 2);
    CHECK(s.nodes[0].slot_bits == std::vector<std::uint8_t> { 1, 1 | IndexSnapshot::slot_tag_bit(kTagDirty), 0, 0 });
    // Leaves, breadth first.
    CHECK(s.nodes[1].parent == 0);
    CHECK(s.nodes[1].offset == 0);
    CHECK(s.nodes[1].first_index == 0);
    CHECK(s.nodes[1].span == 4);
    CHECK(s.nodes[1].slot_bits == std::vector<std::uint8_t> { 1, 1, 0, 0 });
    CHECK(s.nodes[2].parent == 0);
    CHECK(s.nodes[2].offset == 1);
    CHECK(s.nodes[2].first_index == 4);
    CHECK(s.nodes[2].tagged[kTagDirty] == 1);
    CHECK(s.nodes[2].slot_bits == std::vector<std::uint8_t> { 0, 1 | IndexSnapshot::slot_tag_bit(kTagDirty), 0, 0 });
    REQUIRE(s.locks.size() == 1); // the tree lock; no node lock is held now
    CHECK(s.locks[0].name == "mapping[7].tree_lock");
    CHECK_FALSE(s.locks[0].state.held);
    CHECK(s.memory_bytes == tree.memory_bytes());
}

TEST_CASE("memory accounting counts every node exactly", "[radix][exact][memory]")
{
    for (auto scheme : { RadixTree::Scheme::Rcu, RadixTree::Scheme::Optimistic })
        for (unsigned shift : { 4u, 7u }) {
            RadixTree tree(0, config(scheme, shift));
            PagePool pool;
            const std::uint64_t empty = tree.memory_bytes();
            for (pgoff_t i = 0; i < 5000; i += 3)
                REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
            const auto s = tree.snapshot();
            CHECK(tree.nodes() == s.nodes.size());
            CHECK(tree.memory_bytes() == empty + s.nodes.size() * tree.node_bytes());
            CHECK(tree.node_bytes() % 64 == 0);
            // 128-way nodes hold 128 slots of 8 bytes: a node is at least 1 KiB.
            if (shift == 7)
                CHECK(tree.node_bytes() >= 1024 + 64);
        }
}

TEST_CASE("injected allocation failure leaves the tree intact", "[radix][exact][enomem]")
{
    for (auto scheme : test::kRadixSchemes) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        RadixTree tree(0, config(scheme));
        PagePool pool;
        tree.alloc_failure().fail_next(1);
        CHECK(tree.insert(1000, pool.make(1000)) == InsertResult::NoMemory);
        CHECK(tree.count() == 0);
        CHECK(tree.height() == 0);
        CHECK(tree.nodes() == 0);
        test::ExpectedMap expected;
        for (pgoff_t i = 0; i < 200; ++i) {
            Page* p = pool.make(i);
            REQUIRE(tree.insert(i, p) == InsertResult::Inserted);
            expected[i].page = p;
        }
        const std::uint64_t nodes = tree.nodes();
        // An insert that needs new nodes fails; one that needs none does not allocate.
        tree.alloc_failure().fail_next(1);
        CHECK(tree.insert(1 << 20, pool.make(1 << 20)) == InsertResult::NoMemory);
        CHECK(tree.nodes() == nodes);
        CHECK(tree.height() == 2);
        Page* p = pool.make(250);
        CHECK(tree.insert(250, p) == InsertResult::Inserted); // slot in an existing leaf
        expected[250].page = p;
        tree.alloc_failure().clear();
        CHECK(tree.alloc_failure().failures() == 2);
        test::check_consistency(tree, expected);
    }
}

TEST_CASE("a fresh thread inserts a low index into a tall tree", "[radix][exact][preload]")
{
    // The new thread's preload pool starts empty; the path below the root
    // must still come from it.
    for (auto scheme : test::kRadixSchemes)
        for (unsigned shift : { 2u, 6u }) {
            RadixTree tree(0, config(scheme, shift));
            PagePool pool;
            Page* far = pool.make(pgoff_t(1) << 40);
            Page* low = pool.make(0);
            std::thread([&] { REQUIRE(tree.insert(far->index, far) == InsertResult::Inserted); }).join();
            InsertResult r {};
            std::thread([&] { r = tree.insert(0, low); }).join();
            CHECK(r == InsertResult::Inserted);
            CHECK(tree.lookup(0) == low);
            CHECK(tree.lookup(far->index) == far);
        }
}

TEST_CASE("bad radix parameters are refused with the parameter named", "[radix][params]")
{
    REQUIRE_THROWS_WITH(RadixTree(0, config(RadixTree::Scheme::Rcu, 9)),
        Catch::Contains("radix_shift") && Catch::Contains("between 2 and 7") && Catch::Contains("got 9"));
    REQUIRE_THROWS_WITH(RadixTree(0, config(RadixTree::Scheme::Rcu, 1)), Catch::Contains("radix_shift"));
    REQUIRE_THROWS_WITH(RadixTree::parse_scheme("bogus"), Catch::Contains("bogus") && Catch::Contains("optimistic"));
}

TEST_CASE("structural events describe the tree's changes", "[radix][events]")
{
    RadixTree tree(3, config(RadixTree::Scheme::Optimistic));
    test::IndexEventRecorder recorder;
    long allocs = 0, frees = 0, grows = 0, shrinks = 0, tag_sets = 0;
    const auto tally = [&] {
        for (const IndexEvent& e : recorder.take()) {
            CHECK(e.file == 3);
            switch (e.kind) {
            case IndexEvent::Kind::NodeAlloc:
                ++allocs;
                break;
            case IndexEvent::Kind::NodeFree:
                ++frees;
                break;
            case IndexEvent::Kind::HeightGrow:
                ++grows;
                break;
            case IndexEvent::Kind::HeightShrink:
                ++shrinks;
                break;
            case IndexEvent::Kind::TagSet:
                ++tag_sets;
                break;
            default:
                break;
            }
        }
        REQUIRE(recorder.dropped() == 0);
    };
    PagePool pool;
    for (pgoff_t i = 0; i < 5000; ++i)
        REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
    tally();
    CHECK(allocs - frees == long(tree.nodes()));
    CHECK(grows == 3); // heights 1, 2, 3
    REQUIRE(tree.set_tag(4999, kTagDirty));
    tally();
    CHECK(tag_sets == 2); // the leaf's parent and the root above it
    for (pgoff_t i = 0; i < 5000; ++i)
        REQUIRE(tree.erase(i));
    tally();
    CHECK(allocs == frees);
    CHECK(shrinks >= 1);
}

namespace {

/// What the events of a tree built the same way again must repeat.
auto as_tuple(const IndexEvent& e)
{
    return std::tuple(e.kind, e.file, e.index, e.level, e.tag, e.value, e.node);
}

} // namespace

TEST_CASE("a radix node's identity is where it sits and not its address", "[radix][events]")
{
    for (auto scheme : { RadixTree::Scheme::Rcu, RadixTree::Scheme::PerNode, RadixTree::Scheme::Optimistic })
        for (unsigned shift : { 2u, 6u }) {
            INFO("scheme " << RadixTree::scheme_name(scheme) << " shift " << shift);
            std::vector<pgoff_t> indexes;
            for (pgoff_t i = 0; i < 300; ++i)
                indexes.push_back(i * 7);
            for (pgoff_t i : { pgoff_t(5000), pgoff_t(1) << 20, pgoff_t(1) << 40, ~pgoff_t(0) })
                indexes.push_back(i);
            PagePool pool;
            const auto built = test::build_twice([&] {
                auto tree = std::make_unique<RadixTree>(3, config(scheme, shift));
                for (pgoff_t i : indexes)
                    REQUIRE(tree->insert(i, pool.make(i)) == InsertResult::Inserted);
                REQUIRE(tree->set_tag(indexes[10], kTagDirty));
                REQUIRE(tree->erase(indexes[5]) != nullptr);
                return tree;
            });
            REQUIRE(built.dropped == 0);
            const std::vector<IndexEvent>& first = built.first;
            const std::vector<IndexEvent>& second = built.second;
            REQUIRE(first.size() == second.size());
            for (std::size_t k = 0; k < first.size(); ++k)
                CHECK(as_tuple(first[k]) == as_tuple(second[k]));

            // The nodes linked now are those allocated and not freed, and each
            // one's identity is the middle of the indexes it covers: distinct.
            std::multiset<std::uint64_t> live;
            for (const IndexEvent& e : first)
                if (e.kind == IndexEvent::Kind::NodeAlloc)
                    live.insert(e.node);
                else if (e.kind == IndexEvent::Kind::NodeFree) {
                    REQUIRE(live.count(e.node) == 1);
                    live.erase(e.node);
                }
            const IndexSnapshot s = built.one->snapshot();
            REQUIRE(s.nodes.size() == built.one->nodes());
            std::multiset<std::uint64_t> listed;
            for (const IndexSnapshot::Node& n : s.nodes) {
                const unsigned k = std::min(shift * unsigned(n.level + 1), 64u);
                CHECK(n.id == n.first_index + (std::uint64_t(1) << (k - 1)));
                listed.insert(n.id);
            }
            CHECK(listed == live);
            CHECK(std::set<std::uint64_t>(listed.begin(), listed.end()).size() == listed.size());
            CHECK(listed.count(std::uint64_t(1) << 63) == 1); // the root, which covers every index
        }
}

TEST_CASE("lookups take the tree lock only in the locked schemes", "[radix][locks]")
{
    for (auto scheme : test::kRadixSchemes) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        sync::LockRegistry registry;
        RadixTree tree(0, config(scheme), registry);
        PagePool pool;
        for (pgoff_t i = 0; i < 100; ++i)
            tree.insert(i, pool.make(i));
        const std::uint64_t before = test::acquisitions(registry, "mapping[0].tree_lock");
        for (pgoff_t i = 0; i < 1000; ++i)
            CHECK(tree.lookup(i % 100) != nullptr);
        const std::uint64_t taken = test::acquisitions(registry, "mapping[0].tree_lock") - before;
        const bool locked = scheme == RadixTree::Scheme::Spinlock || scheme == RadixTree::Scheme::RwLock;
        CHECK(taken == (locked ? 1000u : 0u));
    }
}

TEST_CASE("optimistic inserts skip the levels above the node they change", "[radix][optimistic][exact]")
{
    RadixTree tree(0, config(RadixTree::Scheme::Optimistic));
    PagePool pool;
    for (pgoff_t i = 0; i < 4096; ++i)
        REQUIRE(tree.insert(i, pool.make(i)) == InsertResult::Inserted);
    const auto stats = tree.optimistic_stats();
    // Locked at the root (0 levels skipped): index 0 and 1 (height 0), 2..63
    // (the root is the leaf), 64 (growth), and the first page of each of the
    // 62 leaves 128..4032 (the slot is in the root). Every other insert
    // locks only its leaf, one level below the root.
    REQUIRE(stats.levels_skipped.size() == 2);
    CHECK(stats.levels_skipped[0] == 127);
    CHECK(stats.levels_skipped[1] == 4096 - 127);
    CHECK(stats.failed == 0);
}

TEST_CASE("concurrent writers and readers lose nothing, disjoint ranges", "[radix][stress][modelled-too]")
{
    test::on_test_machine([&] {
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            RadixTree tree(0, config(scheme, 4));
            test::StressOptions o;
            o.threads = 4;
            o.ops_per_thread = test::rounds(15000);
            o.range = 3000;
            o.seed = 11;
            test::run_stress(tree, o);
        }
    });
}

TEST_CASE("concurrent writers and readers lose nothing, overlapping ranges", "[radix][stress][modelled-too]")
{
    test::on_test_machine([&] {
        for (auto scheme : test::kRadixSchemes) {
            INFO("scheme " << RadixTree::scheme_name(scheme));
            RadixTree tree(0, config(scheme, 2));
            test::StressOptions o;
            o.threads = 4;
            o.ops_per_thread = test::rounds(15000);
            o.range = 700; // small: threads collide on the same leaves and grow/shrink the root
            o.overlapping = true;
            o.seed = 5;
            test::run_stress(tree, o);
        }
    });
}

TEST_CASE("interleaved writers on one tree (the concurrent pagecache's series B) keep every page",
    "[radix][stress][concurrent-pagecache]")
{
    for (auto scheme : { RadixTree::Scheme::PerNode, RadixTree::Scheme::Optimistic }) {
        INFO("scheme " << RadixTree::scheme_name(scheme));
        RadixTree tree(0, config(scheme));
        PagePool pool;
        const pgoff_t n = 20000;
        std::vector<std::vector<Page*>> pages(2);
        for (int t = 0; t < 2; ++t)
            for (pgoff_t i = pgoff_t(t); i < n; i += 2)
                pages[t].push_back(pool.make(i));
        auto run = [&](auto&& body) {
            std::thread a([&] {
                CpuScope cpu(0);
                body(0);
            });
            std::thread b([&] {
                CpuScope cpu(1);
                body(1);
            });
            a.join();
            b.join();
        };
        // Catch's assertions are not thread-safe: workers count, the test checks.
        std::atomic<long> wrong { 0 };
        run([&](int t) {
            for (Page* p : pages[t])
                wrong += tree.insert(p->index, p) != InsertResult::Inserted;
        });
        REQUIRE(tree.count() == n);
        run([&](int t) {
            for (Page* p : pages[t])
                wrong += !tree.set_tag(p->index, unsigned(t));
        });
        for (int t = 0; t < 2; ++t) {
            Page* out[64];
            std::size_t total = 0;
            for (pgoff_t next = 0;;) {
                const std::size_t got = tree.gang_lookup_tag(next, 64, unsigned(t), out);
                for (std::size_t k = 0; k < got; ++k)
                    REQUIRE(out[k]->index % 2 == pgoff_t(t));
                total += got;
                if (got < 64)
                    break;
                next = out[got - 1]->index + 1;
            }
            CHECK(total == n / 2);
        }
        run([&](int t) {
            for (Page* p : pages[t])
                wrong += !tree.clear_tag(p->index, unsigned(t));
        });
        CHECK_FALSE(tree.tagged(0));
        CHECK_FALSE(tree.tagged(1));
        run([&](int t) {
            for (Page* p : pages[t])
                wrong += tree.erase(p->index) != p;
        });
        CHECK(wrong == 0);
        CHECK(tree.count() == 0);
        CHECK(tree.nodes() == 0);
        CHECK(tree.height() == 0);
        if (scheme == RadixTree::Scheme::Optimistic) {
            const auto stats = tree.optimistic_stats();
            std::uint64_t ops = stats.failed;
            for (auto v : stats.levels_skipped)
                ops += v;
            CHECK(ops == 4 * n); // every modifying operation is accounted for
        }
    }
}
