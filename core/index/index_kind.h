// The page index families, as a value code switches on rather than a name
// it compares: a scenario file, the CLI and the Parameters panel spell them
// "radix", "hash" and "skiplist", and only reading and printing meet the name.
#pragma once

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
    const auto i = static_cast<std::size_t>(kind);
    return i < kIndexKindNames.size() ? kIndexKindNames[i] : "?";
}

/// The family named @name, or nothing for a name that is none of them.
constexpr std::optional<IndexKind> parse_index_kind(std::string_view name) noexcept
{
    for (const IndexKind kind : kIndexKinds)
        if (index_kind_name(kind) == name)
            return kind;
    return std::nullopt;
}

} // namespace pcl
