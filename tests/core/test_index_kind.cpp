// The index families' names: each kind reads back from the name it prints,
// as a scenario file written and read again must.
#include "index/index_kind.h"

#include <catch2/catch.hpp>

#include <string>

using namespace pcl;

TEST_CASE("every index kind reads back from its name", "[factory]")
{
    for (const IndexKind kind : kIndexKinds) {
        const std::string name(index_kind_name(kind));
        INFO(name);
        REQUIRE(parse_index_kind(name).has_value());
        CHECK(*parse_index_kind(name) == kind);
    }
    CHECK(index_kind_name(IndexKind::Radix) == "radix");
    CHECK(index_kind_name(IndexKind::Hash) == "hash");
    CHECK(index_kind_name(IndexKind::SkipList) == "skiplist");
}

TEST_CASE("a name that is no index kind reads as none", "[factory]")
{
    CHECK_FALSE(parse_index_kind("btree").has_value());
    CHECK_FALSE(parse_index_kind("").has_value());
    CHECK_FALSE(parse_index_kind("Radix").has_value());
    CHECK(index_kind_name(static_cast<IndexKind>(kIndexKinds.size())) == "?");
}
