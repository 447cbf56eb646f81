// Where a structure view's content comes from: the running engine's
// structures (read through core's Debugfs), or, for the frame-time
// benchmarks (`pagecache-lab --benchmark-views`), a real structure of a
// given size built without a run. A view asks the source the same questions
// either way, so a benchmark measures the code a live run paints.
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
class HashIndex;
class PageCache;
class PageIndex;
class PageTable;
} // namespace pcl

namespace pcl::ui {

class Simulation;

class StructureSource {
public:
    /// CPUs a benchmark machine has.
    static constexpr unsigned kBenchmarkCpus = 8;

    explicit StructureSource(Simulation& sim);
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
    /// @file's index; nullptr if there is none.
    PageIndex* index(FileId file) const;
    pgoff_t filePages(FileId file) const;
    /// The family of the indexes; nothing without files.
    std::optional<IndexKind> indexKind() const;
    /// The one page hash of a hash-index run; nullptr otherwise.
    HashIndex* pageHash() const;
    PageCache* pageCache() const;
    PageTable* pageTable() const;
    /// See Debugfs::optimistic_levels_skipped.
    std::optional<std::vector<std::uint64_t>> optimisticLevelsSkipped(FileId file) const;
    unsigned cpus() const;
    bool hasSecondDevice() const;

private:
    struct Bench;
    std::optional<Debugfs> machine() const;
    Bench& fresh();

    Simulation& sim_;
    std::unique_ptr<Bench> bench_;
};

} // namespace pcl::ui
