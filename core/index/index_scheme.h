// The locking schemes of the page index families, and IndexScheme, one
// family's scheme as a value: a snapshot carries it so that a view asks
// "is this the bucket scheme?" of a value, not of a name. What each scheme
// locks is told beside its family (radix_tree.h, hash_index.h, skip_list.h).
#pragma once

#include "index/index_kind.h"

#include <cstdint>
#include <string_view>

namespace pcl {

/// The radix tree's schemes, in the order Linux went through them.
enum class RadixScheme : std::uint8_t { Spinlock, RwLock, Rcu, PerNode, Optimistic };

enum class HashScheme : std::uint8_t {
    Global, ///< "global": one pagecache_lock (2.4)
    Hashed, ///< "hashed": hash_locks locks, each over buckets / hash_locks contiguous buckets
    Bucket, ///< "bucket": one lock per bucket
};

/// Locking schemes of the skip list, in historical order.
enum class SkipListScheme : std::uint8_t {
    Mapping, ///< "mapping": one per-file spinlock around every operation
    PerNode, ///< "pernode": per-node spinlocks, lock-free search under RCU
};

/// A scheme of any family; it knows its family, so the radix "pernode" and
/// the skip list's "pernode" are different values.
class IndexScheme {
public:
    /// The radix tree's default.
    constexpr IndexScheme() noexcept = default;
    constexpr IndexScheme(RadixScheme scheme) noexcept
        : kind_(IndexKind::Radix)
        , value_(std::uint8_t(scheme))
    {
    }
    constexpr IndexScheme(HashScheme scheme) noexcept
        : kind_(IndexKind::Hash)
        , value_(std::uint8_t(scheme))
    {
    }
    constexpr IndexScheme(SkipListScheme scheme) noexcept
        : kind_(IndexKind::SkipList)
        , value_(std::uint8_t(scheme))
    {
    }

    constexpr IndexKind kind() const noexcept { return kind_; }

    friend constexpr bool operator==(const IndexScheme&, const IndexScheme&) noexcept = default;
    friend std::string_view index_scheme_name(IndexScheme scheme) noexcept;

private:
    IndexKind kind_ = IndexKind::Radix;
    std::uint8_t value_ = std::uint8_t(RadixScheme::Rcu);
};

/// The scheme's name as its family spells it ("rcu", "bucket", "pernode").
std::string_view index_scheme_name(IndexScheme scheme) noexcept;

} // namespace pcl
