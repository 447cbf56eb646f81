// Where a structure view's content comes from: the running engine's
// structures (read through core's Debugfs, from the LiveRun the view
// follows), or, for the frame-time benchmarks (`pagecache-lab
// --benchmark-views`), a real structure of a given size built without a run.
// A view asks the source the same questions either way, so a benchmark
// measures the code a live run paints. Indexes are handed out read-only
// (const PageIndex: kind, count, shape, snapshot) and the page hash as
// HashChains, so no view knows the class behind an index.
//
// A benchmark structure stays until clear() (a run's reset): it is served
// in place of the run's.
#pragma once

#include "base/page.h"
#include "sim/debugfs.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace pcl {
struct IndexSpec;
class PageCache;
class PageIndex;
class PageTable;
} // namespace pcl

namespace pcl::ui {

class LiveRun;

/// What a tooltip shows of one cached page.
struct PageLook {
    std::uint32_t flags = 0; ///< PG_* bits
    /// References others hold (the run's pages); nothing for a benchmark's
    /// pages, which no page cache counts.
    std::optional<std::int32_t> references;
};

class StructureSource {
public:
    /// CPUs a benchmark machine has.
    static constexpr unsigned kBenchmarkCpus = 8;

    explicit StructureSource(const LiveRun& run);
    ~StructureSource();

    /// A radix tree (RCU, 2^@shift slots a node) of pages 0 .. @pages - 1,
    /// every 7th tagged dirty and every 61st under writeback.
    void loadRadixTree(std::uint64_t pages, unsigned shift);
    /// 2.4's page hash holding @pages pages of one file, sized as 2.4 sized
    /// it from memory (about one bucket per page) with 64 hashed locks.
    void loadPageHash(std::uint64_t pages);
    /// A per-node-locked skip list of @pages pages.
    void loadSkipList(std::uint64_t pages);
    /// A page cache (radix tree, RCU) with one empty file of @pages pages;
    /// the caller fills it. Returns the cache.
    PageCache& loadPageCache(std::uint64_t pages);
    /// A page table (split locks) with @pages pages mapped from vpn 0
    /// (at most PageTable::kMaxVpns).
    void loadPageTable(std::uint64_t pages);
    /// Back to the run's structures.
    void clear();
    /// Whether a benchmark structure is served.
    bool benchmark() const { return bench_ != nullptr; }
    /// Whether there is a run (benchmark or not).
    bool hasRun() const;

    /// The files (a benchmark has file 0).
    std::vector<FileId> files() const;
    bool hasFile(FileId file) const;
    /// @file's index, to read; nullptr if there is none.
    const PageIndex* index(FileId file) const;
    pgoff_t filePages(FileId file) const;
    /// The family of the indexes; nothing without files.
    std::optional<IndexKind> indexKind() const;
    /// The one page hash of a hash-index run; nothing otherwise.
    std::optional<HashChains> pageHash() const;
    /// Slots per node of @file's radix tree; 0 for another index.
    unsigned radixFanout(FileId file) const;
    /// The page at @index of @file, looked at for as long as it takes to
    /// read its flags (a run's page under a reference taken and dropped,
    /// as find_get_page and put_page do); nothing if there is none.
    std::optional<PageLook> page(FileId file, pgoff_t index) const;
    PageCache* pageCache() const;
    PageTable* pageTable() const;
    /// See Debugfs::optimistic_levels_skipped.
    std::optional<std::vector<std::uint64_t>> optimisticLevelsSkipped(FileId file) const;
    unsigned cpus() const;
    bool hasSecondDevice() const;

private:
    struct Bench;
    std::optional<Debugfs> machine() const;
    /// The benchmark's index of @file, which only the source itself changes.
    PageIndex* benchIndex(FileId file) const;
    Bench& fresh();
    /// An index built from @spec holding one page descriptor at indexes
    /// 0 .. @pages - 1 (a view of the index draws entries, not their pages).
    void loadOnePage(const IndexSpec& spec, std::uint64_t pages);

    const LiveRun& run_;
    std::unique_ptr<Bench> bench_;
};

} // namespace pcl::ui
