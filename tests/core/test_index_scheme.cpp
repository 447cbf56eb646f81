// IndexScheme: a scheme of any family, named as its family names it, and
// never equal to a scheme of another family that shares its name.
#include "index/hash_index.h"
#include "index/index_scheme.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"

#include <catch2/catch.hpp>

using namespace pcl;

TEST_CASE("an index scheme knows its family and its name", "[factory]")
{
    for (const RadixScheme s : { RadixScheme::Spinlock, RadixScheme::RwLock, RadixScheme::Rcu, RadixScheme::PerNode,
             RadixScheme::Optimistic }) {
        CHECK(IndexScheme(s).kind() == IndexKind::Radix);
        CHECK(index_scheme_name(s) == RadixTree::scheme_name(s));
        CHECK(IndexScheme(RadixTree::parse_scheme(index_scheme_name(s))) == s);
    }
    for (const HashScheme s : { HashScheme::Global, HashScheme::Hashed, HashScheme::Bucket }) {
        CHECK(IndexScheme(s).kind() == IndexKind::Hash);
        CHECK(index_scheme_name(s) == hash_scheme_name(s));
    }
    for (const SkipListScheme s : { SkipListScheme::Mapping, SkipListScheme::PerNode }) {
        CHECK(IndexScheme(s).kind() == IndexKind::SkipList);
        CHECK(index_scheme_name(s) == skiplist_scheme_name(s));
        CHECK(IndexScheme(parse_skiplist_scheme(index_scheme_name(s))) == s);
    }
    CHECK(IndexScheme() == RadixScheme::Rcu);
    CHECK(index_scheme_name(RadixScheme::PerNode) == index_scheme_name(SkipListScheme::PerNode));
    CHECK(IndexScheme(RadixScheme::PerNode) != SkipListScheme::PerNode);
    CHECK(IndexScheme(HashScheme::Global) != RadixScheme::Spinlock);
}
