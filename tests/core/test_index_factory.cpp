// The index factory: every kind x scheme is reachable by name, behaves as a
// PageIndex, and bad specifications are refused with the field named.
#include "index/index_factory.h"
#include "index_oracle.h"

#include <catch2/catch.hpp>

using namespace pcl;

TEST_CASE("every index kind and scheme is built by name and passes the oracle", "[factory]")
{
    CHECK(index_kinds() == std::vector<IndexKind> { IndexKind::Radix, IndexKind::Hash, IndexKind::SkipList });
    CHECK(index_schemes(IndexKind::Radix)
        == std::vector<std::string> { "spinlock", "rwlock", "rcu", "pernode", "optimistic" });
    CHECK(index_schemes(IndexKind::Hash) == std::vector<std::string> { "global", "hashed", "bucket" });
    CHECK(index_schemes(IndexKind::SkipList) == std::vector<std::string> { "mapping", "pernode" });
    for (const IndexKind kind : index_kinds())
        for (const auto& scheme : index_schemes(kind)) {
            INFO(index_kind_name(kind) << "/" << scheme);
            IndexSpec spec;
            spec.kind = kind;
            spec.scheme = scheme;
            spec.hash_buckets = 1024;
            sync::LockRegistry registry;
            auto index = make_page_index(spec, 2, registry);
            REQUIRE(index);
            CHECK(index->kind() == kind);
            CHECK(index->scheme() == scheme);
            CHECK(index->snapshot().kind == kind);
            CHECK(index->snapshot().file == 2);
            test::run_oracle(*index, 77, 4000, 3000);
        }
}

TEST_CASE("an empty scheme picks the kind's default", "[factory]")
{
    IndexSpec spec;
    spec.kind = IndexKind::Radix;
    CHECK(make_page_index(spec)->scheme() == "rcu");
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 64;
    CHECK(make_page_index(spec)->scheme() == "global");
    spec.kind = IndexKind::SkipList;
    CHECK(make_page_index(spec)->scheme() == "pernode");
}

TEST_CASE("bad index specifications name the field and what is allowed", "[factory][params]")
{
    IndexSpec spec;
    // A kind is an IndexKind, so an unknown one is refused where its name is read.
    REQUIRE_THROWS_WITH(
        spec.kind = index_kind_named("btree"), Catch::Contains("btree") && Catch::Contains("radix, hash, skiplist"));
    REQUIRE_THROWS_WITH(index_schemes(index_kind_named("btree")), Catch::Contains("btree"));
    REQUIRE_THROWS_WITH(index_schemes(static_cast<IndexKind>(kIndexKinds.size())), Catch::Contains("is unknown"));

    spec = {};
    spec.scheme = "bogus";
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("bogus") && Catch::Contains("optimistic"));
    spec = {};
    spec.radix_shift = 9;
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("radix_shift") && Catch::Contains("got 9"));

    spec = {};
    spec.kind = IndexKind::Hash;
    spec.hash_buckets = 1000; // not a power of two
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("hash_buckets"));
    spec.hash_buckets = 1024;
    spec.scheme = "hashed";
    spec.hash_locks = 0;
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("hash_locks"));
    spec.hash_locks = 64;
    spec.hash_function = "md5";
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("hash_function") && Catch::Contains("md5"));

    spec = {};
    spec.kind = IndexKind::SkipList;
    spec.skiplist_p = 2.0;
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("skiplist_p") && Catch::Contains("(0, 1)"));
    spec.skiplist_p = 0.5;
    spec.skiplist_max_level = 0;
    REQUIRE_THROWS_WITH(make_page_index(spec), Catch::Contains("skiplist_max_level"));
}
