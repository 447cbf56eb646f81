// The page index families, as a value code switches on rather than a name
// it compares: a scenario file, the CLI and the Parameters panel spell them
// "radix", "hash" and "skiplist", and only reading and printing meet the name.
#pragma once

#include "base/enum_words.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pcl {

enum class IndexKind : std::uint8_t {
    Radix,    ///< a radix tree per file (address_space->page_tree, 2.5.8)
    Hash,     ///< one page hash for the machine (2.4's page_hash_table)
    SkipList, ///< a skip list per file
};

/// The families, in display order.
inline constexpr std::array<IndexKind, 3> kIndexKinds { IndexKind::Radix, IndexKind::Hash, IndexKind::SkipList };
/// Their names, in the same order: the choices of the index.kind field.
inline constexpr std::array<std::string_view, 3> kIndexKindNames { "radix", "hash", "skiplist" };

/// "radix", "hash" or "skiplist"; "?" for a value outside the enumeration.
constexpr std::string_view index_kind_name(IndexKind kind) noexcept
{
    return enum_word(kIndexKindNames, kind);
}

/// The family named @name, or nothing for a name that is none of them.
constexpr std::optional<IndexKind> parse_index_kind(std::string_view name) noexcept
{
    return parse_enum_word<IndexKind>(kIndexKindNames, name);
}

/// The lock classes the page indexes take to find and insert a page (2.4's
/// pagecache_lock and the hashed locks, the mapping's tree or skip-list
/// lock, the per-node locks): what a lesson compares when it asks whether
/// CPUs fight over the index, apart from the allocator's and the LRU's.
inline constexpr std::array<std::string_view, 7> kIndexLockClasses { "pagecache_lock", "hash_lock", "hash_bucket_lock",
    "mapping.tree_lock", "radix_node", "mapping.skiplist_lock", "skiplist_node" };

constexpr bool is_index_lock_class(std::string_view lock_class) noexcept
{
    for (const std::string_view name : kIndexLockClasses)
        if (name == lock_class)
            return true;
    return false;
}

} // namespace pcl
