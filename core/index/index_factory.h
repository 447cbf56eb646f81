// Builds any page index from a run-time description: which family, which
// locking scheme, and the family's parameters. Used by the benchmarks, the
// engine and the scenario files, so every index x scheme is reachable by name.
#pragma once

#include "index/index_kind.h"
#include "index/page_index.h"
#include "sync/lock_stats.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

struct IndexSpec {
    IndexKind kind = IndexKind::Radix;
    std::string scheme; ///< a scheme of that kind (index_schemes()); empty: the kind's default

    // radix
    unsigned radix_shift = 6; ///< log2 of the fanout, 2..7 (4 = rat-4, 7 = rat-7, 6 = modern Linux)

    // hash
    std::uint64_t hash_buckets = 0; ///< bucket count (power of two); 0: size from hash_memory_bytes like 2.4
    std::uint64_t hash_memory_bytes = std::uint64_t(256) << 20; ///< "physical memory" the table is sized for
    bool hash_order9_cap = false;          ///< cap the table at an order-9 allocation, as __get_free_pages did
    std::string hash_function = "linux24"; ///< "linux24" or "mixer"
    unsigned hash_locks = 64;              ///< number of locks for the "hashed" scheme

    // skip list
    double skiplist_p = 0.25;         ///< probability that a node reaches the next level, (0, 1)
    unsigned skiplist_max_level = 16; ///< highest level, 1..32
    std::uint64_t skiplist_seed = 1;  ///< seed for tower heights

    /// Checks the kind, the scheme against the kind, and the parameters of
    /// every family whichever kind runs, so that a value is never accepted
    /// only to fail when the kind changes. Throws FieldError naming the
    /// field as the index object of a scenario does ("radix_shift").
    void validate() const;
};

/// The index families, in display order (kIndexKinds).
std::vector<IndexKind> index_kinds();
/// The family named @name; throws FieldError for "kind" naming the allowed
/// values, as a scenario's index.kind reports an unknown name.
IndexKind index_kind_named(std::string_view name);
/// The schemes of a family, in historical order; throws FieldError for a
/// value outside the enumeration.
std::vector<std::string> index_schemes(IndexKind kind);

/// Creates the index of file @file. For a hash, the table is created for this
/// one index; an engine with several files shares one HashIndex between them.
/// Throws std::invalid_argument naming the bad field and the allowed values.
std::unique_ptr<PageIndex> make_page_index(
    const IndexSpec& spec, FileId file = 0, sync::LockRegistry& registry = sync::LockRegistry::global());

// Each family builds its own kind; defined beside the family.
std::unique_ptr<PageIndex> make_radix_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry);
std::unique_ptr<PageIndex> make_hash_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry);
std::unique_ptr<PageIndex> make_skiplist_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry);
std::vector<std::string> radix_schemes();
std::vector<std::string> hash_schemes();
std::vector<std::string> skiplist_schemes();

} // namespace pcl
