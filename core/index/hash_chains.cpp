#include "index/hash_chains.h"

#include "index/hash_index.h"

namespace pcl {

std::optional<HashChains> HashChains::of(const PageIndex& index)
{
    const auto* mapping = dynamic_cast<const HashMapping*>(&index);
    if (!mapping)
        return std::nullopt;
    return HashChains(mapping->table());
}

std::uint64_t HashChains::buckets() const noexcept
{
    return table_->buckets();
}

std::uint64_t HashChains::pages() const noexcept
{
    return table_->count();
}

std::uint32_t HashChains::chain_length(std::uint64_t bucket) const noexcept
{
    return table_->chain_length(bucket);
}

std::vector<HashChainEntry> HashChains::chain_entries(std::uint64_t bucket, std::size_t max) const
{
    return table_->chain_entries(bucket, max);
}

} // namespace pcl
