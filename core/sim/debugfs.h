// What a running machine shows of itself to someone looking, as debugfs and
// /proc show a kernel's internals: its files and their page indexes (kind,
// shape, snapshot), the one page hash of a hash-index run, the page cache,
// the page table, the CPUs and the disks, the operations done and the fault
// latencies. The views read a run through this alone, so they never need to
// know which class stands behind an index: an index is handed out as the
// read-only side of PageIndex (kind, count, shape, snapshot), the page hash
// as HashChains.
//
// It changes nothing: what it hands out is for the structures' own read
// paths (snapshot, shape, chain copies, find_get_page/put_page), which are
// safe while the CPUs run, exactly as the engine's own readers are.
#pragma once

#include "base/page.h"
#include "index/hash_chains.h"
#include "index/page_index.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pcl {

enum class FaultKind : std::uint8_t;
class Engine;
class LatencyHistogram;
class PageCache;
class PageTable;

class Debugfs {
public:
    explicit Debugfs(Engine& engine) noexcept
        : engine_(engine)
    {
    }

    /// The run's files, in the order it created them.
    const std::vector<FileId>& files() const noexcept;
    bool has_file(FileId file) const noexcept;
    /// The kind of index the files share, as the indexes report it;
    /// nothing in a run without files.
    std::optional<IndexKind> index_kind() const;
    /// @file's page index, to read; nullptr if the run has no such file.
    const PageIndex* index(FileId file) const;
    /// @file's size in pages (0 if no such file).
    pgoff_t file_pages(FileId file) const;
    /// The one page hash all files share in a hash-index run; nothing in others.
    std::optional<HashChains> page_hash() const;
    /// Slots per node of @file's radix tree (RADIX_TREE_MAP_SIZE); 0 for
    /// another index or no such file.
    unsigned radix_fanout(FileId file) const;
    /// In a radix tree under the optimistic scheme, how many levels each
    /// operation's lockless walk let it skip so far (by depth); nullopt
    /// for any other index or scheme.
    std::optional<std::vector<std::uint64_t>> optimistic_levels_skipped(FileId file) const;

    PageCache& page_cache() const noexcept;
    PageTable& page_table() const noexcept;
    /// Simulated CPUs.
    unsigned cpus() const noexcept;
    /// Whether the run has a second disk (Morton's streamer reads from one).
    bool has_second_device() const noexcept;
    /// Disks the run was configured with (EngineConfig::disks).
    unsigned disks() const;
    /// Operations the CPUs have done so far, all together.
    std::uint64_t operations() const;
    /// The latency histogram of faults of @kind so far.
    const LatencyHistogram& fault_latency(FaultKind kind) const noexcept;

private:
    Engine& engine_;
};

} // namespace pcl
