#include "sim/debugfs.h"

#include "index/hash_index.h"
#include "index/radix_tree.h"
#include "sim/engine.h"

#include <algorithm>

namespace pcl {

const std::vector<FileId>& Debugfs::files() const noexcept
{
    return engine_.files();
}

bool Debugfs::has_file(FileId file) const noexcept
{
    const auto& ids = engine_.files();
    return std::find(ids.begin(), ids.end(), file) != ids.end() && file < engine_.page_cache().file_count();
}

std::optional<IndexKind> Debugfs::index_kind() const
{
    const auto& ids = engine_.files();
    if (ids.empty())
        return std::nullopt;
    return engine_.page_cache().file(ids.front()).index->kind();
}

PageIndex* Debugfs::index(FileId file) const
{
    return has_file(file) ? engine_.page_cache().file(file).index.get() : nullptr;
}

pgoff_t Debugfs::file_pages(FileId file) const
{
    return has_file(file) ? engine_.page_cache().file(file).size_pages : 0;
}

HashIndex* Debugfs::page_hash() const
{
    const auto& ids = engine_.files();
    if (ids.empty())
        return nullptr;
    auto* mapping = dynamic_cast<HashMapping*>(engine_.page_cache().file(ids.front()).index.get());
    return mapping ? mapping->table().get() : nullptr;
}

std::optional<std::vector<std::uint64_t>> Debugfs::optimistic_levels_skipped(FileId file) const
{
    auto* tree = dynamic_cast<RadixTree*>(index(file));
    if (!tree || tree->config().scheme != RadixTree::Scheme::Optimistic)
        return std::nullopt;
    return tree->optimistic_stats().levels_skipped;
}

PageCache& Debugfs::page_cache() const noexcept
{
    return engine_.page_cache();
}

PageTable& Debugfs::page_table() const noexcept
{
    return engine_.page_table();
}

unsigned Debugfs::cpus() const noexcept
{
    return unsigned(engine_.config().workload.cpus);
}

bool Debugfs::has_second_device() const noexcept
{
    return engine_.second_device() != nullptr;
}

} // namespace pcl
