// HashIndex: oracle runs for every scheme and hash function, files sharing
// one table, snapshots, events, memory, failure injection, parameter checks,
// lock counts, and concurrent stress. The hash function and the table's
// sizing: test_page_hash.cpp.
#include "hash_test_support.h"
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index_oracle.h"
#include "ring_events.h"
#include "sync/lock_stats.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using namespace pcl;
using Catch::Matchers::Contains;
using namespace pcl::test;

namespace {

/// The mix of the random runs over several files of one table: of six
/// operations, two inserts, an erase, a tag set, a tag cleared and a lookup.
constexpr OracleOp kMix[]
    = { OracleOp::Insert, OracleOp::Insert, OracleOp::Erase, OracleOp::SetTag, OracleOp::ClearTag, OracleOp::Lookup };

} // namespace

TEST_CASE("hash schemes are listed in historical order", "[hash][names]")
{
    CHECK(hash_schemes() == std::vector<std::string> { "global", "hashed", "bucket" });
    IndexSpec spec;
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 64;
    sync::LockRegistry registry;
    auto index = make_hash_index(spec, 3, registry);
    CHECK(index->kind() == IndexKind::Hash);
    CHECK(index->scheme() == "global"); // empty scheme: 2.4's own
    for (const std::string& name : hash_schemes()) {
        spec.scheme = name;
        CHECK(make_hash_index(spec, 0, registry)->scheme() == name);
    }
}

TEST_CASE("hash index matches std::map for every scheme and hash function", "[hash][oracle][one-thread]")
{
    test::for_each_table([&](HashScheme scheme, HashFunction function) {
        sync::LockRegistry registry;
        // 256 buckets for up to 5000 pages: chains of ~10, so linking and
        // unlinking in the middle of chains is exercised.
        auto table = make_table(scheme, function, 256, 16, registry);
        auto view = table->mapping(7);
        test::run_oracle(*view, 2000 + unsigned(scheme) * 10 + unsigned(function), 30000, 5000);
        CHECK(table->count() == 0);
        CHECK(histogram_sum(table->chain_histogram()) == 256);
        CHECK(table->chain_histogram().size() == 1); // every chain empty again
        CHECK(view->memory_bytes() == 256 * HashIndex::kBucketBytes + table->lock_count() * HashIndex::kLockBytes);
    });
    // Sized from the default "physical memory" (256 MB: 65536 buckets).
    IndexSpec spec;
    spec.kind = IndexKind::Hash;
    sync::LockRegistry registry;
    auto index = make_hash_index(spec, 0, registry);
    test::run_oracle(*index, 77, 30000, 5000);
}

TEST_CASE("files sharing one table see only their own pages", "[hash][files]")
{
    for (HashFunction function : kFunctions) {
        INFO("hash " << hash_function_name(function));
        auto table = make_table(HashScheme::Hashed, function, 64, 4);
        auto f0 = table->mapping(0), f1 = table->mapping(1), f2 = table->mapping(2);
        Page p0 { 0, 5 }, p1 { 1, 5 }, p2 { 2, 5 }, q1 { 1, 6 };
        REQUIRE(f0->insert(5, &p0) == InsertResult::Inserted);
        REQUIRE(f1->insert(5, &p1) == InsertResult::Inserted);
        REQUIRE(f2->insert(5, &p2) == InsertResult::Inserted);
        REQUIRE(f1->insert(6, &q1) == InsertResult::Inserted);
        CHECK(f0->lookup(5) == &p0);
        CHECK(f1->lookup(5) == &p1);
        CHECK(f2->lookup(5) == &p2);
        CHECK(f0->lookup(6) == nullptr);
        CHECK(f0->count() == 1);
        CHECK(f1->count() == 2);
        CHECK(table->count() == 4);
        // All views report the same shared memory.
        CHECK(f0->memory_bytes() == f2->memory_bytes());
        CHECK(f0->memory_bytes()
            == 64 * HashIndex::kBucketBytes + 4 * HashIndex::kEntryBytes + 4 * HashIndex::kLockBytes);

        CHECK(f1->set_tag(5, kTagDirty));
        CHECK(f1->tagged(kTagDirty));
        CHECK_FALSE(f0->tagged(kTagDirty));
        CHECK_FALSE(f0->test_tag(5, kTagDirty));
        Page* out[4];
        CHECK(f0->gang_lookup(0, 4, out) == 1);
        CHECK(out[0] == &p0);
        CHECK(f1->gang_lookup(0, 4, out) == 2);
        CHECK(out[0] == &p1);
        CHECK(out[1] == &q1);
        CHECK(f2->gang_lookup_tag(0, 4, kTagDirty, out) == 0);
        CHECK(f1->gang_lookup_tag(0, 4, kTagDirty, out) == 1);

        // A second view of file 1 shares its pages and counts.
        auto f1b = table->mapping(1);
        CHECK(f1b->lookup(6) == &q1);
        CHECK(f1b->count() == 2);

        CHECK(f0->erase(5) == &p0);
        CHECK(f1->lookup(5) == &p1);
        CHECK(f2->lookup(5) == &p2);
        CHECK(f0->erase(5) == nullptr);
        CHECK(f1->erase(5) == &p1);
        CHECK_FALSE(f1->tagged(kTagDirty)); // the tag went with the entry
        CHECK(table->count() == 2);
    }
}

TEST_CASE("interleaved random operations on several files of one table", "[hash][files][oracle]")
{
    test::for_each_table([&](HashScheme scheme, HashFunction function) {
        constexpr unsigned kFiles = 4;
        constexpr pgoff_t kRange = 1500; // the same indexes in every file
        auto table = make_table(scheme, function, 128, 8);
        const auto views = test::mappings_of(*table, kFiles, 9); // spread over inode slabs
        std::vector<test::ExpectedMap> oracle(kFiles);
        PagePool pool;
        std::mt19937_64 rng(42 + unsigned(scheme));
        for (int n = 0; n < 20000; ++n) {
            const unsigned f = unsigned(rng() % kFiles);
            const pgoff_t i = rng() % kRange;
            const unsigned tag = unsigned(rng() % kTagCount);
            const OracleOp op = kMix[rng() % std::size(kMix)];
            INFO("operation " << n << ": " << int(op) << " at file " << f << " page " << i);
            REQUIRE(test::apply_op(*views[f], oracle[f], op, i, tag, pool, views[f]->file()));
        }
        test::check_table(*table, views, oracle);
    });
}

TEST_CASE("a file's oracle run leaves another file of the table untouched", "[hash][files][oracle]")
{
    auto table = make_table(HashScheme::Bucket, HashFunction::Linux24, 512);
    auto resident = table->mapping(0);
    PagePool pool;
    test::ExpectedMap expected;
    for (pgoff_t i = 0; i < 3000; i += 2) {
        Page* p = pool.make(i, 0);
        REQUIRE(resident->insert(i, p) == InsertResult::Inserted);
        expected[i].page = p;
        if (i % 6 == 0) {
            REQUIRE(resident->set_tag(i, kTagWriteback));
            expected[i].tags[kTagWriteback] = true;
        }
    }
    auto other = table->mapping(1);
    test::run_oracle(*other, 5, 20000, 4000);
    test::check_consistency(*resident, expected);
    CHECK(table->count() == expected.size());
}

TEST_CASE("gang lookups on a sparse file walk the table instead of probing", "[hash][gang]")
{
    // High-water mark 2^64 - 1: probing every index would never end. After
    // buckets + entries probes the lookup walks every chain instead.
    const pgoff_t far[] = { 0, 5, pgoff_t(1) << 40, pgoff_t(1) << 63, ~pgoff_t(0) };
    test::for_each_table([&](HashScheme scheme, HashFunction function) {
        auto table = make_table(scheme, function, 64, 4);
        auto view = table->mapping(0), neighbour = table->mapping(1);
        PagePool pool;
        std::vector<Page*> pages;
        for (pgoff_t i : far) {
            pages.push_back(pool.make(i, 0));
            REQUIRE(view->insert(i, pages.back()) == InsertResult::Inserted);
            // The other file holds the same indexes and more: the walk must skip them.
            REQUIRE(neighbour->insert(i, pool.make(i, 1)) == InsertResult::Inserted);
            REQUIRE(neighbour->insert(i ^ 1, pool.make(i ^ 1, 1)) == InsertResult::Inserted);
        }
        REQUIRE(view->set_tag(pgoff_t(1) << 40, kTagWriteback));
        REQUIRE(view->set_tag(~pgoff_t(0), kTagWriteback));
        Page* out[8];
        REQUIRE(view->gang_lookup(0, 8, out) == 5);
        CHECK(std::vector<Page*>(out, out + 5) == pages);
        REQUIRE(view->gang_lookup(6, 1, out) == 1);
        CHECK(out[0] == pages[2]);
        REQUIRE(view->gang_lookup(6, 2, out) == 2);
        CHECK(out[1] == pages[3]);
        REQUIRE(view->gang_lookup((pgoff_t(1) << 63) + 1, 8, out) == 1);
        CHECK(out[0] == pages[4]);
        REQUIRE(view->gang_lookup_tag(1, 8, kTagWriteback, out) == 2);
        CHECK(out[0] == pages[2]);
        CHECK(out[1] == pages[4]);
        CHECK(view->gang_lookup_tag(0, 8, kTagDirty, out) == 0);
        test::ExpectedMap full;
        for (std::size_t k = 0; k < pages.size(); ++k) {
            full[far[k]].page = pages[k];
            full[far[k]].tags[kTagWriteback] = k == 2 || k == 4;
        }
        test::check_consistency(*view, full);
    });
}

TEST_CASE("snapshot of the shared table", "[hash][snapshot]")
{
    for (HashScheme scheme : kSchemes) {
        INFO("scheme " << hash_scheme_name(scheme));
        sync::LockRegistry registry;
        auto table = make_table(scheme, HashFunction::Mixer, 1024, 16, registry);
        auto f0 = table->mapping(0), f1 = table->mapping(1);
        PagePool pool;
        for (pgoff_t i = 0; i < 3000; ++i)
            REQUIRE(f0->insert(i, pool.make(i, 0)) == InsertResult::Inserted);
        for (pgoff_t i = 0; i < 100; ++i)
            REQUIRE(f1->insert(i, pool.make(i, 1)) == InsertResult::Inserted);
        REQUIRE(f1->set_tag(3, kTagTowrite));

        const IndexSnapshot s = f1->snapshot();
        CHECK(s.kind == IndexKind::Hash);
        CHECK(s.scheme == scheme);
        CHECK(index_scheme_name(s.scheme) == hash_scheme_name(scheme));
        CHECK(s.file == 1);
        CHECK(s.count == 100);
        CHECK(s.height == 0);
        CHECK(s.nodes.empty());
        CHECK_FALSE(s.truncated);
        CHECK(s.root_tagged == std::array<bool, kTagCount> { false, false, true });
        CHECK(s.memory_bytes
            == 1024 * HashIndex::kBucketBytes + 3100 * HashIndex::kEntryBytes
                + table->lock_count() * HashIndex::kLockBytes);
        CHECK(s.chain_lengths == table->chain_lengths());
        CHECK(std::accumulate(s.chain_lengths.begin(), s.chain_lengths.end(), 0ull) == 3100);
        CHECK(histogram_sum(s.chain_histogram) == 1024);
        CHECK(s.chain_histogram == table->chain_histogram());
        CHECK(s.chi_square == Approx(chi_square(s.chain_lengths)));
        CHECK(s.chi_square == Approx(table->chi_square()));

        switch (scheme) {
        case HashScheme::Global:
            CHECK(s.buckets_per_lock == 1024);
            REQUIRE(s.locks.size() == 1);
            CHECK(s.locks[0].name == "pagecache_lock");
            CHECK_FALSE(s.locks[0].state.held);
            break;
        case HashScheme::Hashed:
            CHECK(s.buckets_per_lock == 64);
            REQUIRE(s.locks.size() == 16);
            CHECK(s.locks[0].name == "hash_lock[0]");
            CHECK(s.locks[15].name == "hash_lock[15]");
            break;
        case HashScheme::Bucket:
            CHECK(s.buckets_per_lock == 1);
            CHECK(s.locks.empty()); // none held
            break;
        }

        // A held lock shows in the snapshot.
        const std::uint64_t bucket = 700;
        table->bucket_lock(bucket).lock();
        const IndexSnapshot held = f0->snapshot();
        table->bucket_lock(bucket).unlock();
        const std::string name = scheme == HashScheme::Global ? "pagecache_lock"
            : scheme == HashScheme::Hashed                    ? "hash_lock[10]"
                                                              : "hash_bucket_lock[700]";
        bool seen = false;
        for (const auto& lock : held.locks) {
            if (lock.name == name) {
                seen = true;
                CHECK(lock.state.held);
                CHECK(lock.state.holder_cpu >= 0);
            } else {
                CHECK_FALSE(lock.state.held);
            }
        }
        CHECK(seen);

        // Beyond max_nodes the per-bucket vector is cut; the statistics are not.
        SnapshotOptions small;
        small.max_nodes = 100;
        const IndexSnapshot cut = f0->snapshot(small);
        CHECK(cut.truncated);
        CHECK(cut.chain_lengths.size() == 100);
        CHECK(histogram_sum(cut.chain_histogram) == 1024);
        CHECK(cut.chi_square == Approx(s.chi_square));
    }
}

TEST_CASE("inserts and erases report the new chain length", "[hash][events]")
{
    auto table = make_table(HashScheme::Global, HashFunction::Linux24, 16);
    auto view = table->mapping(0);
    test::IndexEventRecorder recorder;
    Page a { 0, 3 }, b { 0, 19 };
    // 16 buckets (4 bits): indexes 3 and 19 differ by 16. With i = 0x06080002,
    // x = 0x06080005 and 0x06080015; x >> 4 = 0x608000 and 0x608001, so
    // s & 0xF = 0x5 and 0x6: neighbouring buckets, not one.
    const std::uint64_t ba = table->bucket_of(0, 3), bb = table->bucket_of(0, 19);
    CHECK(ba == 5);
    CHECK(bb == 6);
    REQUIRE(view->insert(3, &a) == InsertResult::Inserted);
    REQUIRE(view->insert(3, &b) == InsertResult::Exists); // no event: nothing changed
    REQUIRE(view->insert(19, &b) == InsertResult::Inserted);
    // A third page into bucket 5: index 2 is bucket 4, index 18 bucket 5.
    Page c { 0, 18 };
    REQUIRE(table->bucket_of(0, 18) == 5);
    REQUIRE(view->insert(18, &c) == InsertResult::Inserted);
    REQUIRE(view->erase(3) == &a);
    const std::vector<IndexEvent> events = recorder.take();
    REQUIRE(events.size() == 4);
    for (const auto& e : events) {
        CHECK(e.kind == IndexEvent::Kind::ChainLength);
        CHECK(e.file == 0);
    }
    CHECK(events[0].node == 5);
    CHECK(events[0].value == 1);
    CHECK(events[0].index == 3);
    CHECK(events[1].node == 6);
    CHECK(events[1].value == 1);
    CHECK(events[2].node == 5);
    CHECK(events[2].value == 2);
    CHECK(events[3].node == 5);
    CHECK(events[3].value == 1); // erase shortened the chain
    CHECK(events[3].index == 3);
}

TEST_CASE("memory accounting counts the whole table exactly", "[hash][memory]")
{
    for (HashScheme scheme : kSchemes) {
        INFO("scheme " << hash_scheme_name(scheme));
        auto table = make_table(scheme, HashFunction::Linux24, 256, 8);
        const std::uint64_t locks = scheme == HashScheme::Global ? 1 : scheme == HashScheme::Hashed ? 8 : 256;
        CHECK(table->lock_count() == locks);
        const std::uint64_t empty = 256 * HashIndex::kBucketBytes + locks * HashIndex::kLockBytes;
        CHECK(table->memory_bytes() == empty);
        auto f0 = table->mapping(0), f1 = table->mapping(1);
        PagePool pool;
        for (pgoff_t i = 0; i < 50; ++i) {
            REQUIRE(f0->insert(i, pool.make(i)) == InsertResult::Inserted);
            REQUIRE(f1->insert(i * 7, pool.make(i * 7)) == InsertResult::Inserted);
        }
        CHECK(f0->memory_bytes() == empty + 100 * HashIndex::kEntryBytes);
        CHECK(f1->memory_bytes() == f0->memory_bytes());
        for (pgoff_t i = 0; i < 50; ++i)
            REQUIRE(f0->erase(i) != nullptr);
        CHECK(f1->memory_bytes() == empty + 50 * HashIndex::kEntryBytes);
    }
}

TEST_CASE("injected allocation failure leaves the index intact", "[hash][enomem]")
{
    for (HashScheme scheme : kSchemes) {
        INFO("scheme " << hash_scheme_name(scheme));
        auto table = make_table(scheme, HashFunction::Mixer, 64, 4);
        auto view = table->mapping(0);
        PagePool pool;
        test::ExpectedMap expected;
        for (pgoff_t i = 0; i < 200; i += 2) {
            Page* p = pool.make(i);
            REQUIRE(view->insert(i, p) == InsertResult::Inserted);
            expected[i].page = p;
        }
        REQUIRE(view->set_tag(10, kTagDirty));
        expected[10].tags[kTagDirty] = true;
        const auto lengths = table->chain_lengths();
        const std::uint64_t memory = view->memory_bytes();

        view->alloc_failure().fail_next(2);
        CHECK(view->insert(201, pool.make(201)) == InsertResult::NoMemory);
        // The entry is allocated before the bucket is searched, so a failed
        // allocation wins over -EEXIST, as radix_tree_preload() did.
        CHECK(view->insert(10, pool.make(10)) == InsertResult::NoMemory);
        CHECK(view->alloc_failure().failures() == 2);
        CHECK(view->lookup(201) == nullptr);
        CHECK(view->memory_bytes() == memory);
        CHECK(table->chain_lengths() == lengths);
        test::check_consistency(*view, expected);

        // Every third allocation fails; exactly the others go in.
        view->alloc_failure().fail_every(3);
        int failed = 0;
        for (pgoff_t i = 1; i < 31; i += 2) {
            Page* p = pool.make(i);
            const InsertResult r = view->insert(i, p);
            if (r == InsertResult::NoMemory)
                ++failed;
            else {
                REQUIRE(r == InsertResult::Inserted);
                expected[i].page = p;
            }
        }
        CHECK(failed == 5);
        view->alloc_failure().clear();
        test::check_consistency(*view, expected);
        Page* p = pool.make(201);
        CHECK(view->insert(201, p) == InsertResult::Inserted);
        CHECK(view->lookup(201) == p);
    }
}

TEST_CASE("bad hash parameters are refused with the parameter named", "[hash][params]")
{
    sync::LockRegistry registry;
    auto refused = [&](auto&& change) {
        IndexSpec spec;
        spec.kind = IndexKind::Hash;
        spec.scheme = "hashed";
        spec.hash_buckets = 1024;
        spec.hash_locks = 16;
        change(spec);
        return [spec, &registry] { make_hash_index(spec, 0, registry); };
    };
    CHECK_NOTHROW(refused([](IndexSpec&) {})());
    // No buckets: the table is sized from memory, and less than a page gives none.
    CHECK_THROWS_WITH(refused([](IndexSpec& s) {
        s.hash_buckets = 0;
        s.hash_memory_bytes = 0;
    })(),
        Contains("hash_memory_bytes") && Contains("4096"));
    CHECK_THROWS_WITH(
        refused([](IndexSpec& s) { s.hash_buckets = 1000; })(), Contains("hash_buckets") && Contains("power of two"));
    CHECK_THROWS_WITH(refused([](IndexSpec& s) { s.hash_buckets = 3; })(), Contains("hash_buckets"));
    CHECK_THROWS_WITH(refused([](IndexSpec& s) { s.hash_buckets = std::uint64_t(1) << 25; })(),
        Contains("hash_buckets") && Contains("16777216"));
    CHECK_THROWS_WITH(refused([](IndexSpec& s) {
        s.hash_buckets = 0;
        s.hash_memory_bytes = std::uint64_t(128) << 30;
    })(),
        Contains("hash_memory_bytes") && Contains("64 GiB"));
    CHECK_THROWS_WITH(
        refused([](IndexSpec& s) { s.hash_locks = 0; })(), Contains("hash_locks") && Contains("power of two"));
    CHECK_THROWS_WITH(refused([](IndexSpec& s) { s.hash_locks = 12; })(), Contains("hash_locks"));
    CHECK_THROWS_WITH(
        refused([](IndexSpec& s) { s.hash_locks = 2048; })(), Contains("hash_locks") && Contains("(1024)"));
    CHECK_THROWS_WITH(refused([](IndexSpec& s) { s.hash_function = "fnv"; })(),
        Contains("hash_function") && Contains("linux24, mixer"));
    CHECK_THROWS_WITH(
        refused([](IndexSpec& s) { s.scheme = "rcu"; })(), Contains("scheme") && Contains("global, hashed, bucket"));
    // hash_locks only matters for the hashed scheme.
    CHECK_NOTHROW(refused([](IndexSpec& s) {
        s.scheme = "bucket";
        s.hash_locks = 0;
    })());
    // Bad tags are refused too.
    IndexSpec spec;
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 8;
    auto view = make_hash_index(spec, 0, registry);
    CHECK_THROWS_AS(view->set_tag(0, kTagCount), std::out_of_range);
    CHECK_THROWS_AS(view->tagged(kTagCount), std::out_of_range);
}

TEST_CASE("every operation takes the scheme's lock exactly once", "[hash][locks]")
{
    // N single-page operations: N acquisitions. count() and tagged() read
    // atomics and take nothing.
    auto run = [](PageIndex& index, PagePool& pool) {
        std::uint64_t ops = 0;
        for (pgoff_t i = 0; i < 100; ++i, ++ops)
            REQUIRE(index.insert(i, pool.make(i)) == InsertResult::Inserted);
        for (pgoff_t i = 0; i < 100; i += 3, ++ops)
            REQUIRE(index.set_tag(i, kTagDirty));
        for (pgoff_t i = 0; i < 120; ++i, ++ops)
            index.lookup(i);
        for (pgoff_t i = 0; i < 100; i += 2, ++ops)
            index.test_tag(i, kTagDirty);
        for (pgoff_t i = 0; i < 100; i += 6, ++ops)
            REQUIRE(index.clear_tag(i, kTagDirty));
        for (pgoff_t i = 50; i < 150; ++i, ++ops)
            index.erase(i);
        CHECK(index.count() == 50);
        CHECK(index.tagged(kTagDirty));
        return ops;
    };
    PagePool pool;
    sync::LockRegistry registry;
    // A table of @scheme, and the operations above run through file 0's view.
    auto counted = [&](HashScheme scheme, HashFunction function) {
        auto table = make_table(scheme, function, 256, 16, registry);
        auto view = table->mapping(0);
        const std::uint64_t ops = run(*view, pool);
        return std::tuple { table, std::move(view), ops };
    };
    SECTION("global: pagecache_lock")
    {
        auto [table, view, ops] = counted(HashScheme::Global, HashFunction::Linux24);
        CHECK(acquisitions(registry, "pagecache_lock") == ops);
        CHECK(class_acquisitions(registry, "pagecache_lock") == ops);

        // A gang lookup probes up to the high-water mark, 99 (erasing does
        // not lower it): 100 probes, one acquisition per kGangProbesPerLock
        // = 64 of them, so 2.
        static_assert(HashIndex::kGangProbesPerLock == 64);
        registry.reset();
        Page* out[200];
        CHECK(view->gang_lookup(0, 200, out) == 50);
        CHECK(acquisitions(registry, "pagecache_lock") == 2);
    }
    SECTION("hashed: the lock over the bucket's band")
    {
        auto [table, view, ops] = counted(HashScheme::Hashed, HashFunction::Mixer);
        CHECK(all_acquisitions(registry) == ops);
        CHECK(class_acquisitions(registry, "hash_lock") == ops);
        // One lookup: one acquisition, on hash_lock[bucket / 16].
        registry.reset();
        const std::uint64_t b = table->bucket_of(0, 33);
        view->lookup(33);
        CHECK(acquisitions(registry, "hash_lock[" + std::to_string(b / 16) + "]") == 1);
        CHECK(all_acquisitions(registry) == 1);
    }
    SECTION("bucket: one anonymous lock per bucket")
    {
        auto [table, view, ops] = counted(HashScheme::Bucket, HashFunction::Linux24);
        CHECK(class_acquisitions(registry, "hash_bucket_lock") == ops);
        CHECK(registry.locks().empty());
        const auto classes = registry.classes();
        const sync::LockStatRow* row = find_row(classes, "hash_bucket_lock");
        REQUIRE(row);
        CHECK(row->instances == 256);
    }
}

TEST_CASE("the hash locks start a cache line: 2.4's pagecache_lock had one of its own", "[hash][locks]")
{
    // spinlock_cacheline_t pagecache_lock_cacheline (2.4.10 on): the one
    // lock every lookup takes shares its line with nothing, so a handoff
    // moves one line. A lock fits a line, and the array starts one.
    static_assert(sizeof(sync::SpinLock) <= 64);
    sync::LockRegistry registry;
    for (const HashScheme scheme : { HashScheme::Global, HashScheme::Hashed, HashScheme::Bucket }) {
        auto table = make_table(scheme, HashFunction::Linux24, 256, 16, registry);
        const auto first = reinterpret_cast<std::uintptr_t>(&table->bucket_lock(0));
        CHECK(first % 64 == 0);
        if (scheme == HashScheme::Global)
            CHECK(&table->bucket_lock(0) == &table->bucket_lock(255));
    }
}

TEST_CASE("concurrent operations lose nothing, every scheme", "[hash][stress][modelled-too]")
{
    test::on_test_machine([&] {
        for (HashScheme scheme : kSchemes)
            for (HashFunction function : kFunctions)
                for (bool overlapping : { false, true }) {
                    INFO("scheme " << hash_scheme_name(scheme) << " hash " << hash_function_name(function)
                                   << (overlapping ? " overlapping" : " disjoint"));
                    auto table = make_table(scheme, function, 1024, 8);
                    auto view = table->mapping(3);
                    test::StressOptions o;
                    o.threads = 4;
                    o.ops_per_thread = test::rounds(8000);
                    o.range = overlapping ? 1000 : 2000;
                    o.overlapping = overlapping;
                    o.seed = 17 + unsigned(scheme);
                    test::run_stress(*view, o);
                    CHECK(table->count() == view->count());
                    CHECK(histogram_entries(table->chain_histogram()) == table->count());
                }
    });
}

TEST_CASE("threads on their own files of one table, with a snapshot reader", "[hash][stress][files]")
{
    test::for_each_table([&](HashScheme scheme, HashFunction function) {
        constexpr unsigned kThreads = 4;
        constexpr pgoff_t kRange = 1500; // the same indexes in every file
        auto table = make_table(scheme, function, 512, 8);
        const auto views = test::mappings_of(*table, kThreads);
        std::vector<test::ExpectedMap> owned(kThreads);
        PagePool pool;
        std::atomic<bool> failed { false }, stop { false };
        std::atomic<std::uint64_t> snapshots { 0 };
        std::vector<std::thread> threads;
        for (unsigned k = 0; k < kThreads; ++k)
            threads.emplace_back([&, k] {
                // Start once the reader is taking snapshots, so they
                // overlap the writers however the threads are scheduled.
                while (snapshots.load() == 0)
                    std::this_thread::yield();
                std::mt19937_64 rng(100 + k);
                HashMapping& v = *views[k];
                test::ExpectedMap& o = owned[k];
                Page* batch[8];
                for (int n = 0; n < 6000 && !failed.load(std::memory_order_relaxed); ++n) {
                    const pgoff_t i = rng() % kRange;
                    const unsigned tag = unsigned(rng() % kTagCount);
                    // The mix above, with a gang lookup for the clear.
                    const std::size_t pick = rng() % std::size(kMix);
                    if (kMix[pick] == OracleOp::ClearTag) {
                        const std::size_t got = v.gang_lookup(i, 8, batch);
                        auto e = o.lower_bound(i);
                        for (std::size_t j = 0; j < got; ++j, ++e)
                            if (e == o.end() || batch[j] != e->second.page)
                                failed = true;
                    } else if (!test::apply_op(v, o, kMix[pick], i, tag, pool, v.file())) {
                        failed = true;
                    }
                }
            });
        // Snapshots read chain lengths and lock states while the table changes.
        std::thread reader([&] {
            while (!stop.load()) {
                const IndexSnapshot s = views[0]->snapshot();
                if (histogram_sum(s.chain_histogram) != 512 || s.chain_lengths.size() != 512)
                    failed = true;
                snapshots.fetch_add(1);
                std::this_thread::yield();
            }
        });
        for (auto& t : threads)
            t.join();
        stop = true;
        reader.join();
        REQUIRE_FALSE(failed.load());
        CHECK(snapshots.load() > 0);
        test::check_table(*table, views, owned);
    });
}
