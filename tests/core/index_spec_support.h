// The page indexes the mm tests run their page caches on, named as a
// scenario names them.
#pragma once

#include "index/index_factory.h"

#include <cstdint>
#include <utility>

namespace pcl::test {

/// An index of @kind under @scheme; @hash_buckets (0: sized as 2.4 sizes
/// it) for a hash, so that a small test table has a known size.
inline IndexSpec index_spec(const char* kind, const char* scheme, std::uint64_t hash_buckets = 0)
{
    IndexSpec s;
    s.kind = index_kind_named(kind);
    s.scheme = scheme;
    s.hash_buckets = hash_buckets;
    return s;
}

/// One of each family's locking disciplines: a page cache test that holds
/// on these holds whatever index the run uses.
inline constexpr std::pair<const char*, const char*> kCacheIndexes[] = { { "radix", "rcu" }, { "radix", "spinlock" },
    { "radix", "optimistic" }, { "hash", "global" }, { "hash", "bucket" }, { "skiplist", "pernode" } };

} // namespace pcl::test
