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

/// An index of @kind under @scheme, a hash one of 1,024 buckets.
inline IndexSpec cache_index_spec(const char* kind, const char* scheme)
{
    return index_spec(kind, scheme, 1024);
}

/// The radix tree under RCU, as Linux's page cache has it since 2.6.
inline IndexSpec radix_rcu_spec()
{
    return index_spec("radix", "rcu");
}

/// One of each family's locking disciplines: a page cache test that holds
/// on these holds whatever index the run uses.
inline constexpr std::pair<const char*, const char*> kCacheIndexes[] = { { "radix", "rcu" }, { "radix", "spinlock" },
    { "radix", "optimistic" }, { "hash", "global" }, { "hash", "bucket" }, { "skiplist", "pernode" } };

} // namespace pcl::test
