// The page hash table read from outside: its buckets, their chain lengths
// and the pages on one chain, for whoever draws 2.4's page_hash_table
// without knowing the class that keeps it. Every file of a hash-index run
// looks into the same table; of() finds it behind any file's index.
//
// It changes nothing. Chain lengths and the page count are the counters the
// table keeps (read without a lock, each a moment's value); one chain's
// pages are copied under that bucket's lock, as any lookup of the bucket
// takes it, so a running machine's CPUs wait for the copy no longer than
// for one lookup.
#pragma once

#include "base/page.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace pcl {

class HashIndex;
class PageIndex;

/// What a view shows of one entry on a chain: its key and tags.
struct HashChainEntry {
    FileId file = 0;
    pgoff_t index = 0;
    std::uint8_t tags = 0; ///< bit t set: the entry carries tag t
};

class HashChains {
public:
    /// The table behind @index when it is a file's view of the page hash;
    /// nothing for a radix tree or a skip list.
    static std::optional<HashChains> of(const PageIndex& index);

    /// PAGE_HASH_SIZE.
    std::uint64_t buckets() const noexcept;
    /// Pages of every file in the table (2.4's page_cache_size).
    std::uint64_t pages() const noexcept;
    /// Entries on @bucket's chain, read without its lock.
    std::uint32_t chain_length(std::uint64_t bucket) const noexcept;
    /// The entries on @bucket's chain, head first, at most @max, copied
    /// under the bucket's lock. Throws std::invalid_argument if @bucket is
    /// not below buckets().
    std::vector<HashChainEntry> chain_entries(std::uint64_t bucket, std::size_t max = 4096) const;

private:
    explicit HashChains(std::shared_ptr<HashIndex> table) noexcept
        : table_(std::move(table))
    {
    }
    /// Shared, as each file's view shares it: the table stays while it is read.
    std::shared_ptr<HashIndex> table_;
};

} // namespace pcl
