// core/index: SkipList, both locking schemes (MacDonald's skip list, 2002).
#include "index/skip_list.h"
#include "sync/lock_stats.h"

#include "index_oracle.h"
#include "lock_stat_support.h"
#include "ring_events.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace pcl;
using test::IndexEvent;

namespace {

std::unique_ptr<SkipList> make_list(const std::string& scheme, double p = 0.25, unsigned max_level = 16,
    std::uint64_t seed = 1, FileId file = 0, sync::LockRegistry& registry = sync::LockRegistry::global())
{
    SkipListConfig config;
    config.scheme = parse_skiplist_scheme(scheme);
    config.p = p;
    config.max_level = max_level;
    config.seed = seed;
    return std::make_unique<SkipList>(config, file, registry);
}

std::vector<int> tower_heights(const PageIndex& index)
{
    std::vector<int> heights;
    for (const auto& node : index.snapshot().nodes)
        heights.push_back(node.level);
    return heights;
}

/// What identifies a snapshot's structure: node identity, tower, key, tags.
struct NodeShape {
    std::uint64_t id;
    int level;
    pgoff_t index;
    std::array<std::uint32_t, kTagCount> tagged;
    bool operator==(const NodeShape&) const = default;
};

std::vector<NodeShape> shape(const IndexSnapshot& s)
{
    std::vector<NodeShape> out;
    for (const auto& n : s.nodes)
        out.push_back({ n.id, n.level, n.first_index, n.tagged });
    return out;
}

} // namespace

TEST_CASE("skip list agrees with std::map over a long random sequence", "[index][skiplist][one-thread]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    SECTION("p = 1/4, 16 levels (default)")
    {
        auto list = make_list(scheme);
        test::run_oracle(*list, 1, 30000, 5000);
    }
    SECTION("p = 1/2, 4 levels")
    {
        auto list = make_list(scheme, 0.5, 4, 7);
        test::run_oracle(*list, 2, 30000, 5000);
    }
    SECTION("p = 3/4, 32 levels")
    {
        auto list = make_list(scheme, 0.75, 32, 9);
        test::run_oracle(*list, 3, 20000, 5000);
    }
    SECTION("one level: a sorted linked list")
    {
        auto list = make_list(scheme, 0.5, 1, 11);
        test::run_oracle(*list, 4, 6000, 600);
        for (int h : tower_heights(*list))
            CHECK(h == 1);
    }
}

TEST_CASE("skip list survives concurrent mixed operations", "[index][skiplist][concurrency][modelled-too]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    test::StressOptions o;
    o.threads = 4;
    o.ops_per_thread = test::rounds(12000);
    // Each list is made inside the machine's body: an exploration runs the
    // body once a schedule, each on a list of its own.
    SECTION("disjoint ranges")
    {
        o.range = 2048;
        test::on_test_machine([&] {
            auto list = make_list(scheme);
            test::run_stress(*list, o);
        });
    }
    SECTION("one shared range")
    {
        o.range = 2048;
        o.overlapping = true;
        o.seed = 2;
        test::on_test_machine([&] {
            auto list = make_list(scheme);
            test::run_stress(*list, o);
        });
    }
    SECTION("a few hot indexes, tall towers")
    {
        // Every thread fights over 48 indexes: erases race inserts of the
        // same index and preds are marked under the validating writer.
        o.ops_per_thread = test::rounds(40000);
        o.range = 48;
        o.overlapping = true;
        o.seed = 3;
        test::on_test_machine([&] {
            auto list = make_list(scheme, 0.5, 6, 3);
            test::run_stress(*list, o);
        });
    }
}

TEST_CASE("gang lookups stay ordered and complete while writers insert and erase", "[index][skiplist][concurrency]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme, 0.5, 8, 5);
    test::PagePool pool;
    // Multiples of 4 are stable: inserted and tagged dirty before the run,
    // never erased or untagged. Writers churn the indexes in between. A reader
    // must see every stable page in the range it walked, whatever the writers
    // unlink around them.
    constexpr pgoff_t kRange = 1024;
    std::vector<Page*> stable(kRange, nullptr);
    for (pgoff_t i = 0; i < kRange; i += 4) {
        stable[i] = pool.make(i);
        REQUIRE(list->insert(i, stable[i]) == InsertResult::Inserted);
        REQUIRE(list->set_tag(i, kTagDirty));
    }
    std::atomic<int> writers_left { 2 };
    std::atomic<long> disorder { 0 }, below_first { 0 }, missing { 0 }, wrong_page { 0 }, walks { 0 };
    std::vector<std::thread> threads;
    for (int w = 0; w < 2; ++w)
        threads.emplace_back([&, w] {
            std::mt19937_64 rng(100 + w);
            // Churn until the readers have overlapped a good number of walks.
            for (int n = 0; n < 12000 || walks.load() < 400; ++n) {
                pgoff_t i = rng() % kRange;
                if (i % 4 == 0)
                    ++i;
                switch (rng() % 4) {
                case 0:
                case 1:
                    list->insert(i, pool.make(i));
                    break;
                case 2:
                    list->erase(i);
                    break;
                default:
                    (rng() % 2) ? list->set_tag(i, kTagDirty) : list->clear_tag(i, kTagDirty);
                    break;
                }
            }
            writers_left.fetch_sub(1);
        });
    for (int r = 0; r < 2; ++r)
        threads.emplace_back([&, r] {
            std::mt19937_64 rng(200 + r);
            Page* batch[24];
            while (writers_left.load() > 0) {
                const pgoff_t first = rng() % (kRange + 8);
                const bool by_tag = rng() % 2;
                const std::size_t n
                    = by_tag ? list->gang_lookup_tag(first, 24, kTagDirty, batch) : list->gang_lookup(first, 24, batch);
                std::set<pgoff_t> seen;
                for (std::size_t k = 0; k < n; ++k) {
                    if (batch[k]->index < first)
                        ++below_first;
                    if (k > 0 && batch[k]->index <= batch[k - 1]->index)
                        ++disorder;
                    if (batch[k]->index % 4 == 0 && batch[k] != stable[batch[k]->index])
                        ++wrong_page;
                    seen.insert(batch[k]->index);
                }
                // Every stable index from `first` up to where the walk stopped
                // (the end of the list if it returned fewer than asked).
                const pgoff_t last = n == 24 ? batch[n - 1]->index : kRange - 1;
                for (pgoff_t i = (first + 3) / 4 * 4; i <= last && i < kRange; i += 4)
                    if (!seen.count(i))
                        ++missing;
                const pgoff_t probe = (rng() % kRange) & ~pgoff_t(3);
                if (list->lookup(probe) != stable[probe] || !list->test_tag(probe, kTagDirty))
                    ++missing;
                ++walks;
            }
        });
    for (auto& t : threads)
        t.join();
    CHECK(walks.load() > 0);
    CHECK(disorder.load() == 0);
    CHECK(below_first.load() == 0);
    CHECK(wrong_page.load() == 0);
    CHECK(missing.load() == 0);
    // Quiescent again: the structure agrees with itself.
    test::ExpectedMap present;
    Page* batch[64];
    for (pgoff_t next = 0;;) {
        const std::size_t n = list->gang_lookup(next, 64, batch);
        for (std::size_t k = 0; k < n; ++k)
            for (unsigned t = 0; t < kTagCount; ++t)
                present[batch[k]->index].tags[t] = list->test_tag(batch[k]->index, t);
        for (std::size_t k = 0; k < n; ++k)
            present[batch[k]->index].page = batch[k];
        if (n < 64)
            break;
        next = batch[n - 1]->index + 1;
    }
    test::check_consistency(*list, present);
}

TEST_CASE("snapshots taken while writers run show a well-formed list", "[index][skiplist][concurrency]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme, 0.5, 8, 6);
    test::PagePool pool;
    std::atomic<bool> stop { false };
    std::atomic<int> snapshots_taken { 0 };
    std::vector<std::thread> writers;
    for (int w = 0; w < 2; ++w)
        writers.emplace_back([&, w] {
            std::mt19937_64 rng(300 + w);
            // Keep writing until the reader has drawn a good number of pictures.
            for (int n = 0; n < 8000 || snapshots_taken.load() < 50; ++n) {
                const pgoff_t i = rng() % 256;
                if (rng() % 2)
                    list->insert(i, pool.make(i));
                else
                    list->erase(i);
            }
        });
    int snapshots = 0;
    bool sorted = true, locks_ok = true, towers_ok = true, counts_ok = true;
    std::thread reader([&] {
        while (!stop.load()) {
            const IndexSnapshot s = list->snapshot();
            ++snapshots;
            snapshots_taken.store(snapshots);
            for (std::size_t k = 0; k < s.nodes.size(); ++k) {
                const auto& n = s.nodes[k];
                if (k > 0 && n.first_index <= s.nodes[k - 1].first_index)
                    sorted = false;
                if (n.level < 1 || n.level > 8 || n.level > s.height + 8 || n.slot_bits.size() != std::size_t(n.level))
                    towers_ok = false;
                if (n.lock >= 0 && (std::size_t(n.lock) >= s.locks.size() || !s.locks[n.lock].state.held))
                    locks_ok = false;
            }
            // Under the mapping lock the picture is exact.
            if (scheme == "mapping") {
                std::uint64_t live = 0;
                for (const auto& n : s.nodes)
                    live += n.occupied;
                if (live != s.count || s.nodes.size() != s.count || s.locks.size() != 1)
                    counts_ok = false;
            }
        }
    });
    for (auto& w : writers)
        w.join();
    stop = true;
    reader.join();
    CHECK(snapshots > 0);
    CHECK(sorted);
    CHECK(towers_ok);
    CHECK(locks_ok);
    CHECK(counts_ok);
}

TEST_CASE("skip list nodes are whole cache lines and memory_bytes is exact", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme);
    auto mapping = make_list("mapping");
    for (unsigned h = 1; h <= SkipListConfig::kMaxLevelLimit; ++h) {
        CAPTURE(h);
        CHECK(list->node_bytes(h) % 64 == 0);
        CHECK(list->node_bytes(h) >= 8 * h + 24);
        CHECK(list->node_bytes(h + 1) >= list->node_bytes(h));
        // The searched part (key, flags, tower) is one line up to 5 links;
        // pernode adds whole lines for the lock and the RCU head.
        if (h <= 5)
            CHECK(mapping->node_bytes(h) == 64);
        if (scheme == "pernode")
            CHECK(list->node_bytes(h) - mapping->node_bytes(h) >= sizeof(sync::SpinLock) + sizeof(rcu::Head));
    }

    const std::uint64_t empty = list->memory_bytes();
    CHECK(empty == sizeof(SkipList) + list->node_bytes(list->config().max_level));
    test::PagePool pool;
    std::mt19937_64 rng(12);
    std::set<pgoff_t> keys;
    while (keys.size() < 1500) {
        const pgoff_t i = rng() % 100000;
        if (keys.insert(i).second)
            REQUIRE(list->insert(i, pool.make(i)) == InsertResult::Inserted);
    }
    const IndexSnapshot s = list->snapshot();
    REQUIRE(s.nodes.size() == keys.size());
    std::uint64_t sum = 0;
    for (const auto& n : s.nodes)
        sum += list->node_bytes(unsigned(n.level));
    CHECK(list->memory_bytes() == empty + sum);
    CHECK(s.memory_bytes == list->memory_bytes());

    // Erase half: the survivors' nodes are all that is left counted.
    std::uint64_t erased = 0;
    for (const auto& n : s.nodes)
        if (n.first_index % 2) {
            REQUIRE(list->erase(n.first_index) != nullptr);
            erased += list->node_bytes(unsigned(n.level));
        }
    CHECK(list->memory_bytes() == empty + sum - erased);
    for (pgoff_t i : keys)
        list->erase(i);
    CHECK(list->memory_bytes() == empty);
    CHECK(list->snapshot().height == 0);
}

TEST_CASE("tower heights follow the seed and p", "[index][skiplist]")
{
    test::PagePool pool;
    auto fill = [&](SkipList& list, pgoff_t n) {
        for (pgoff_t i = 0; i < n; ++i)
            REQUIRE(list.insert(i * 3, pool.make(i * 3)) == InsertResult::Inserted);
    };
    // The same seed gives the same shape, whatever the scheme.
    auto a = make_list("pernode", 0.25, 16, 42);
    auto b = make_list("mapping", 0.25, 16, 42);
    auto c = make_list("pernode", 0.25, 16, 43);
    fill(*a, 500);
    fill(*b, 500);
    fill(*c, 500);
    CHECK(tower_heights(*a) == tower_heights(*b));
    CHECK(tower_heights(*a) != tower_heights(*c));

    // Geometric heights: P(height >= k + 1) = p^k, capped at max_level.
    auto check_distribution = [&](double p, unsigned max_level, pgoff_t nodes) {
        CAPTURE(p, max_level);
        auto list = make_list("mapping", p, max_level, 99);
        fill(*list, nodes);
        std::vector<int> at_least(max_level + 2, 0);
        int tallest = 0;
        for (int h : tower_heights(*list)) {
            REQUIRE(h >= 1);
            REQUIRE(h <= int(max_level));
            tallest = std::max(tallest, h);
            for (int k = 1; k <= h; ++k)
                ++at_least[k];
        }
        CHECK(list->snapshot().height == tallest);
        for (unsigned k = 2; k <= std::min(max_level, 4u); ++k) {
            const double expected = std::pow(p, k - 1) * double(nodes);
            CHECK(std::abs(at_least[k] - expected) < 5 * std::sqrt(expected) + 1);
        }
    };
    check_distribution(0.25, 16, 20000);
    // A low cap piles the towers up at the top level (and makes it a long list).
    check_distribution(0.5, 3, 4000);
}

TEST_CASE("a skip list snapshot shows each node, its tower, tags and locks", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    sync::LockRegistry registry;
    auto list = make_list(scheme, 0.5, 8, 17, 7, registry);
    test::PagePool pool;
    const std::vector<pgoff_t> keys { 40, 3, 11, 7 };
    for (pgoff_t i : keys)
        REQUIRE(list->insert(i, pool.make(i, 7)) == InsertResult::Inserted);
    REQUIRE(list->set_tag(7, kTagDirty));
    REQUIRE(list->set_tag(40, kTagWriteback));
    REQUIRE(list->set_tag(40, kTagTowrite));

    const IndexSnapshot s = list->snapshot();
    CHECK(s.kind == IndexKind::SkipList);
    CHECK(s.scheme == parse_skiplist_scheme(scheme));
    CHECK(index_scheme_name(s.scheme) == scheme);
    CHECK(s.file == 7);
    CHECK(s.count == 4);
    CHECK(s.memory_bytes == list->memory_bytes());
    CHECK(s.fanout == 0);
    CHECK_FALSE(s.truncated);
    CHECK(s.root_tagged == std::array<bool, kTagCount> { true, true, true });
    REQUIRE(s.nodes.size() == 4);
    const std::vector<pgoff_t> sorted { 3, 7, 11, 40 };
    int tallest = 0;
    std::set<std::uint64_t> ids;
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& n = s.nodes[k];
        CAPTURE(k);
        CHECK(n.first_index == sorted[k]);
        CHECK(n.span == 1);
        CHECK(n.parent == -1);
        CHECK(n.level >= 1);
        CHECK(n.level <= 8);
        CHECK(n.slots == std::uint32_t(n.level));
        CHECK(n.occupied == 1);
        CHECK(n.lock == -1);
        REQUIRE(n.slot_bits.size() == std::size_t(n.level));
        for (std::size_t l = 1; l < n.slot_bits.size(); ++l)
            CHECK(n.slot_bits[l] == 0);
        ids.insert(n.id);
        tallest = std::max(tallest, n.level);
    }
    CHECK(ids.size() == 4);
    CHECK(s.height == tallest);
    using Snap = IndexSnapshot;
    CHECK(s.nodes[0].slot_bits[0] == Snap::kSlotOccupied);
    CHECK(s.nodes[1].slot_bits[0] == (Snap::kSlotOccupied | Snap::slot_tag_bit(kTagDirty)));
    CHECK(s.nodes[1].tagged == std::array<std::uint32_t, kTagCount> { 1, 0, 0 });
    CHECK(s.nodes[2].slot_bits[0] == Snap::kSlotOccupied);
    CHECK(s.nodes[3].slot_bits[0]
        == (Snap::kSlotOccupied | Snap::slot_tag_bit(kTagWriteback) | Snap::slot_tag_bit(kTagTowrite)));
    CHECK(s.nodes[3].tagged == std::array<std::uint32_t, kTagCount> { 0, 1, 1 });
    CHECK(tower_heights(*list)
        == std::vector<int> { s.nodes[0].level, s.nodes[1].level, s.nodes[2].level, s.nodes[3].level });
    if (scheme == "mapping") {
        // The mapping lock is drawn over the list; nobody holds it.
        REQUIRE(s.locks.size() == 1);
        CHECK(s.locks[0].name == "mapping[7].skiplist_lock");
        CHECK_FALSE(s.locks[0].state.held);
    } else {
        // Only held node locks are listed: none while nothing runs.
        CHECK(s.locks.empty());
    }

    SnapshotOptions brief;
    brief.slot_detail = false;
    brief.max_nodes = 2;
    const IndexSnapshot t = list->snapshot(brief);
    CHECK(t.truncated);
    REQUIRE(t.nodes.size() == 2);
    CHECK(t.nodes[0].first_index == 3);
    CHECK(t.nodes[1].first_index == 7);
    CHECK(t.nodes[0].slot_bits.empty());
    CHECK(t.nodes[1].tagged[kTagDirty] == 1);
    CHECK(t.count == 4);

    // Erase drops the entry and its tags.
    CHECK(list->erase(40) != nullptr);
    CHECK_FALSE(list->tagged(kTagWriteback));
    CHECK_FALSE(list->tagged(kTagTowrite));
    CHECK(list->tagged(kTagDirty));
    const IndexSnapshot u = list->snapshot();
    CHECK(u.root_tagged == std::array<bool, kTagCount> { true, false, false });
    CHECK(u.nodes.size() == 3);
}

TEST_CASE("a failed node allocation leaves the skip list intact", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme);
    test::PagePool pool;
    test::ExpectedMap expected;
    for (pgoff_t i = 0; i < 300; i += 3) {
        Page* p = pool.make(i);
        REQUIRE(list->insert(i, p) == InsertResult::Inserted);
        expected[i].page = p;
        if (i % 2) {
            REQUIRE(list->set_tag(i, kTagDirty));
            expected[i].tags[kTagDirty] = true;
        }
    }
    const IndexSnapshot before = list->snapshot();
    const std::uint64_t bytes = list->memory_bytes();

    list->alloc_failure().fail_next(1);
    CHECK(list->insert(1000, pool.make(1000)) == InsertResult::NoMemory);
    // The node is preloaded before the search, so -ENOMEM comes first even
    // where an entry exists (as radix_tree_preload before -EEXIST).
    list->alloc_failure().fail_next(1);
    CHECK(list->insert(3, pool.make(3)) == InsertResult::NoMemory);
    CHECK(list->alloc_failure().failures() == 2);
    CHECK(list->lookup(1000) == nullptr);
    CHECK(list->memory_bytes() == bytes);
    CHECK(shape(list->snapshot()) == shape(before));
    test::check_consistency(*list, expected);

    // Every third allocation fails: each insert either happened or not.
    list->alloc_failure().fail_every(3);
    for (pgoff_t i = 1; i < 300; i += 3) {
        Page* p = pool.make(i);
        const InsertResult r = list->insert(i, p);
        REQUIRE(r != InsertResult::Exists);
        if (r == InsertResult::Inserted)
            expected[i].page = p;
    }
    list->alloc_failure().clear();
    CHECK(list->alloc_failure().failures() > 2);
    test::check_consistency(*list, expected);
    CHECK(list->insert(1000, pool.make(1000)) == InsertResult::Inserted);
}

TEST_CASE("bad skip list parameters are rejected by name", "[index][skiplist]")
{
    sync::LockRegistry registry;
    IndexSpec spec;
    spec.kind = IndexKind::SkipList;
    auto build = [&] { return make_skiplist_index(spec, 0, registry); };
    using Catch::Matchers::Contains;

    spec.skiplist_p = 2;
    CHECK_THROWS_WITH(build(), Contains("skiplist_p must be in (0, 1), got 2"));
    spec.skiplist_p = 0;
    CHECK_THROWS_WITH(build(), Contains("skiplist_p") && Contains("(0, 1)"));
    spec.skiplist_p = 1;
    CHECK_THROWS_AS(build(), std::invalid_argument);
    spec.skiplist_p = std::nan("");
    CHECK_THROWS_WITH(build(), Contains("skiplist_p"));
    spec.skiplist_p = 0.5;

    spec.skiplist_max_level = 0;
    CHECK_THROWS_WITH(build(), Contains("skiplist_max_level must be in 1..32, got 0"));
    spec.skiplist_max_level = 33;
    CHECK_THROWS_WITH(build(), Contains("skiplist_max_level") && Contains("33"));
    spec.skiplist_max_level = 32;

    spec.scheme = "global";
    CHECK_THROWS_WITH(build(), Contains("scheme 'global'") && Contains("mapping, pernode"));

    SkipListConfig config;
    config.p = -0.5;
    CHECK_THROWS_WITH(SkipList(config, 0, registry), Contains("skiplist_p") && Contains("-0.5"));

    // The good values build, and the names round-trip.
    for (const std::string& scheme : skiplist_schemes()) {
        spec.scheme = scheme;
        auto index = build();
        CHECK(index->kind() == IndexKind::SkipList);
        CHECK(index->scheme() == scheme);
    }
    spec.scheme.clear();
    CHECK(build()->scheme() == "pernode");
    CHECK(skiplist_schemes() == std::vector<std::string> { "mapping", "pernode" });

    auto list = make_list("pernode", 0.5, 4, 1, 0, registry);
    CHECK_THROWS_AS(list->set_tag(0, kTagCount), std::out_of_range);
    CHECK_THROWS_AS(list->tagged(kTagCount), std::out_of_range);
}

TEST_CASE("every operation takes the mapping lock exactly once", "[index][skiplist][sync]")
{
    sync::LockRegistry registry;
    auto list = make_list("mapping", 0.25, 16, 1, 0, registry);
    test::PagePool pool;
    Page* batch[8];
    std::uint64_t ops = 0;
    for (pgoff_t i = 0; i < 64; ++i, ++ops)
        list->insert(i * 2, pool.make(i * 2));
    list->insert(4, pool.make(4)); // Exists
    ++ops;
    for (pgoff_t i = 0; i < 40; ++i, ops += 2) {
        list->lookup(i);
        list->test_tag(i, kTagDirty);
    }
    for (pgoff_t i = 0; i < 20; ++i, ops += 2) {
        list->set_tag(i, kTagDirty);
        list->clear_tag(i + 1, kTagDirty);
    }
    for (pgoff_t i = 0; i < 10; ++i, ops += 2) {
        list->gang_lookup(i * 5, 8, batch);
        list->gang_lookup_tag(i * 5, 8, kTagDirty, batch);
    }
    for (pgoff_t i = 0; i < 30; ++i, ++ops)
        list->erase(i);
    // Counters are lockless.
    (void)list->count();
    (void)list->tagged(kTagDirty);
    (void)list->memory_bytes();

    const auto rows = registry.locks();
    const sync::LockStatRow* row = test::find_row(rows, "mapping[0].skiplist_lock");
    REQUIRE(row != nullptr);
    CHECK(row->lock_class == "mapping.skiplist_lock");
    CHECK(row->acquisitions == ops);
    CHECK(row->contentions == 0);
    (void)list->snapshot();
    const auto after = registry.locks();
    REQUIRE(test::find_row(after, "mapping[0].skiplist_lock") != nullptr);
    CHECK(test::find_row(after, "mapping[0].skiplist_lock")->acquisitions == ops + 1);
    // No per-node locks in this scheme.
    const auto classes = registry.classes();
    CHECK(test::find_row(classes, "skiplist_node") == nullptr);
}

TEST_CASE("pernode skip list locks nodes, never a per-file lock", "[index][skiplist][sync]")
{
    sync::LockRegistry registry;
    {
        auto list = make_list("pernode", 0.25, 16, 1, 3, registry);
        test::PagePool pool;
        for (pgoff_t i = 0; i < 100; ++i)
            REQUIRE(list->insert(i, pool.make(i)) == InsertResult::Inserted);
        const auto classes_after_insert = registry.classes();
        const sync::LockStatRow* nodes = test::find_row(classes_after_insert, "skiplist_node");
        REQUIRE(nodes != nullptr);
        CHECK(nodes->acquisitions >= 100); // at least one pred per insert
        // Lookups and gang lookups take no lock at all.
        Page* batch[16];
        for (pgoff_t i = 0; i < 100; ++i) {
            CHECK(list->lookup(i) != nullptr);
            CHECK(list->gang_lookup(i, 16, batch) > 0);
            (void)list->test_tag(i, kTagDirty);
        }
        const auto classes_after_reads = registry.classes();
        REQUIRE(test::find_row(classes_after_reads, "skiplist_node") != nullptr);
        CHECK(test::find_row(classes_after_reads, "skiplist_node")->acquisitions == nodes->acquisitions);
        CHECK(registry.locks().empty());
        for (pgoff_t i = 0; i < 100; ++i)
            REQUIRE(list->erase(i) != nullptr);
    }
    // Destroyed with frees still deferred: rcu::barrier in the destructor.
    CHECK(registry.locks().empty());
}

TEST_CASE("skip list reports node allocation and free events", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme, 0.5, 8, 21, 3);
    test::IndexEventRecorder recorder;
    test::PagePool pool;
    for (pgoff_t i = 0; i < 200; ++i)
        REQUIRE(list->insert(i, pool.make(i, 3)) == InsertResult::Inserted);
    list->insert(5, pool.make(5, 3)); // Exists: no event
    list->alloc_failure().fail_next(1);
    list->insert(500, pool.make(500, 3)); // NoMemory: no event
    const IndexSnapshot s = list->snapshot();
    std::vector<IndexEvent> events = recorder.take();
    REQUIRE(events.size() == 200);
    for (std::size_t k = 0; k < 200; ++k) {
        const IndexEvent& e = events[k];
        CHECK(e.kind == IndexEvent::Kind::NodeAlloc);
        CHECK(e.file == 3);
        CHECK(e.index == k);
        CHECK(e.level == s.nodes[k].level);
        CHECK(e.node == s.nodes[k].id);
    }
    for (pgoff_t i = 0; i < 200; i += 2)
        REQUIRE(list->erase(i) != nullptr);
    CHECK(list->erase(0) == nullptr); // already gone: no event
    events = recorder.take();
    REQUIRE(events.size() == 100);
    for (std::size_t k = 0; k < 100; ++k) {
        CHECK(events[k].kind == IndexEvent::Kind::NodeFree);
        CHECK(events[k].index == 2 * k);
        CHECK(events[k].level == s.nodes[2 * k].level);
        CHECK(events[k].node == s.nodes[2 * k].id);
    }
}

TEST_CASE("a skip-list node's identity is its number in the list and not its address", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    test::PagePool pool;
    const auto built = test::build_twice([&] {
        auto list = make_list(scheme, 0.5, 8, 21, 3);
        for (pgoff_t i = 0; i < 100; ++i)
            REQUIRE(list->insert(i * 3, pool.make(i * 3, 3)) == InsertResult::Inserted);
        list->insert(3, pool.make(3, 3)); // Exists: its node was numbered 101 and never linked
        REQUIRE(list->insert(1, pool.make(1, 3)) == InsertResult::Inserted);
        REQUIRE(list->erase(0) != nullptr);
        return list;
    });
    REQUIRE(built.dropped == 0);
    const std::vector<IndexEvent>& first = built.first;
    const std::vector<IndexEvent>& second = built.second;
    REQUIRE(first.size() == 102);
    REQUIRE(second.size() == first.size());
    for (std::size_t k = 0; k < 100; ++k) {
        CHECK(first[k].kind == IndexEvent::Kind::NodeAlloc);
        CHECK(first[k].node == k + 1); // numbered in the order the list made them
    }
    CHECK(first[100].kind == IndexEvent::Kind::NodeAlloc);
    CHECK(first[100].index == 1);
    CHECK(first[100].node == 102);
    CHECK(first[101].kind == IndexEvent::Kind::NodeFree);
    CHECK(first[101].node == 1);
    for (std::size_t k = 0; k < first.size(); ++k) {
        CHECK(second[k].kind == first[k].kind);
        CHECK(second[k].index == first[k].index);
        CHECK(second[k].level == first[k].level);
        CHECK(second[k].node == first[k].node);
    }
    // The snapshot names the nodes as the events did.
    const IndexSnapshot s = built.one->snapshot();
    REQUIRE(s.nodes.size() == 100);
    CHECK(s.nodes[0].first_index == 1);
    CHECK(s.nodes[0].id == 102);
    for (std::size_t k = 1; k < 100; ++k) {
        CHECK(s.nodes[k].first_index == 3 * k);
        CHECK(s.nodes[k].id == k + 1);
    }
}

TEST_CASE("skip list handles the extreme page indexes", "[index][skiplist]")
{
    const std::string scheme = GENERATE(as<std::string> {}, "mapping", "pernode");
    CAPTURE(scheme);
    auto list = make_list(scheme);
    test::PagePool pool;
    constexpr pgoff_t kMax = std::numeric_limits<pgoff_t>::max();
    Page* lo = pool.make(0);
    Page* hi = pool.make(kMax);
    Page* hi1 = pool.make(kMax - 1);
    REQUIRE(list->insert(kMax, hi) == InsertResult::Inserted);
    REQUIRE(list->insert(0, lo) == InsertResult::Inserted);
    REQUIRE(list->insert(kMax - 1, hi1) == InsertResult::Inserted);
    CHECK(list->insert(kMax, hi1) == InsertResult::Exists);
    CHECK(list->lookup(kMax) == hi);
    CHECK(list->lookup(kMax - 2) == nullptr);
    Page* batch[4];
    REQUIRE(list->gang_lookup(0, 4, batch) == 3);
    CHECK(batch[0] == lo);
    CHECK(batch[1] == hi1);
    CHECK(batch[2] == hi);
    REQUIRE(list->gang_lookup(kMax, 4, batch) == 1);
    CHECK(batch[0] == hi);
    CHECK(list->set_tag(kMax, kTagTowrite));
    REQUIRE(list->gang_lookup_tag(1, 4, kTagTowrite, batch) == 1);
    CHECK(batch[0] == hi);
    CHECK(list->gang_lookup(0, 0, nullptr) == 0);
    CHECK(list->erase(kMax) == hi);
    CHECK_FALSE(list->tagged(kTagTowrite));
    CHECK(list->gang_lookup(kMax, 4, batch) == 0);
    CHECK(list->count() == 2);
}
