#include "sim/debugfs.h"

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

const PageIndex* Debugfs::index(FileId file) const
{
    return has_file(file) ? engine_.page_cache().file(file).index.get() : nullptr;
}

pgoff_t Debugfs::file_pages(FileId file) const
{
    return has_file(file) ? engine_.page_cache().file(file).size_pages : 0;
}

std::optional<HashChains> Debugfs::page_hash() const
{
    const auto& ids = engine_.files();
    if (ids.empty())
        return std::nullopt;
    return HashChains::of(*engine_.page_cache().file(ids.front()).index);
}

unsigned Debugfs::radix_fanout(FileId file) const
{
    const auto* tree = dynamic_cast<const RadixTree*>(index(file));
    return tree ? tree->fanout() : 0;
}

std::optional<std::vector<std::uint64_t>> Debugfs::optimistic_levels_skipped(FileId file) const
{
    const auto* tree = dynamic_cast<const RadixTree*>(index(file));
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

unsigned Debugfs::disks() const
{
    return engine_.config().disks();
}

std::uint64_t Debugfs::operations() const
{
    return engine_.operations();
}

const LatencyHistogram& Debugfs::fault_latency(FaultKind kind) const noexcept
{
    return engine_.faults().fault_latency(kind);
}

} // namespace pcl
