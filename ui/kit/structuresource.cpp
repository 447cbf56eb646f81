#include "kit/structuresource.h"

#include "run/simulation.h"

#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"
#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <algorithm>

namespace pcl::ui {

/// A benchmark's structure and what it needs (declared registry first: the
/// structures' locks count into it, so it goes last).
struct StructureSource::Bench {
    std::unique_ptr<sync::LockRegistry> registry = std::make_unique<sync::LockRegistry>();
    std::unique_ptr<Page[]> pages;
    std::unique_ptr<PageIndex> index; ///< file 0's index (radix tree, skip list, hash mapping)
    std::shared_ptr<HashIndex> hash;
    std::unique_ptr<FrameAllocator> frames;
    std::unique_ptr<PageCache> cache;
    std::unique_ptr<PageTable> table;

    ~Bench()
    {
        table.reset();
        cache.reset();
        frames.reset();
        index.reset();
        hash.reset();
    }
};

StructureSource::StructureSource(Simulation& sim)
    : sim_(sim)
{
}

StructureSource::~StructureSource() = default;

StructureSource::Bench& StructureSource::fresh()
{
    bench_.reset();
    bench_ = std::make_unique<Bench>();
    return *bench_;
}

void StructureSource::clear()
{
    bench_.reset();
}

std::optional<Debugfs> StructureSource::machine() const
{
    if (bench_ || !sim_.engine())
        return std::nullopt;
    return Debugfs(*sim_.engine());
}

bool StructureSource::hasRun() const
{
    return bench_ || sim_.engine();
}

void StructureSource::loadRadixTree(std::uint64_t pages, unsigned shift)
{
    Bench& b = fresh();
    RadixTree::Config config;
    config.scheme = RadixTree::Scheme::Rcu;
    config.shift = shift;
    auto tree = std::make_unique<RadixTree>(0, config, *b.registry);
    b.pages = std::make_unique<Page[]>(pages);
    for (std::uint64_t i = 0; i < pages; ++i) {
        b.pages[i].index = i;
        tree->insert(i, &b.pages[i]);
        if (i % 7 == 3)
            tree->set_tag(i, kTagDirty);
        if (i % 61 == 5)
            tree->set_tag(i, kTagWriteback);
    }
    b.index = std::move(tree);
}

void StructureSource::loadPageHash(std::uint64_t pages)
{
    Bench& b = fresh();
    b.pages = std::make_unique<Page[]>(1);
    HashConfig config;
    config.scheme = HashScheme::Hashed;
    config.locks = 64;
    // 2.4 sized the table from physical memory: about one bucket per page frame.
    config.memory_bytes = std::max<std::uint64_t>(pages, 16 * 64) * kPageHashPageSize;
    b.hash = HashIndex::create(config, *b.registry);
    b.index = b.hash->mapping(0);
    for (std::uint64_t i = 0; i < pages; ++i)
        b.index->insert(i, &b.pages[0]);
}

void StructureSource::loadSkipList(std::uint64_t pages)
{
    Bench& b = fresh();
    b.pages = std::make_unique<Page[]>(1);
    SkipListConfig config;
    config.scheme = SkipListScheme::PerNode;
    b.index = std::make_unique<SkipList>(config, 0, *b.registry);
    for (std::uint64_t i = 0; i < pages; ++i)
        b.index->insert(i, &b.pages[0]);
}

PageCache& StructureSource::loadPageCache(std::uint64_t pages)
{
    Bench& b = fresh();
    b.frames = std::make_unique<FrameAllocator>(pages + 64, *b.registry);
    IndexSpec spec;
    spec.kind = IndexKind::Radix;
    spec.scheme = "rcu";
    b.cache = std::make_unique<PageCache>(spec, *b.frames, *b.registry);
    b.cache->add_file(pages);
    return *b.cache;
}

void StructureSource::loadPageTable(std::uint64_t pages)
{
    Bench& b = fresh();
    b.pages = std::make_unique<Page[]>(1);
    PageTable::Config config;
    config.scheme = PageTable::Scheme::Split;
    b.table = std::make_unique<PageTable>(config, *b.registry);
    pages = std::min<std::uint64_t>(pages, PageTable::kMaxVpns);
    for (std::uint64_t v = 0; v < pages; ++v)
        b.table->install(v, &b.pages[0]);
}

std::vector<FileId> StructureSource::files() const
{
    if (bench_) {
        if (bench_->index)
            return { 0 };
        std::vector<FileId> out;
        for (std::size_t f = 0; bench_->cache && f < bench_->cache->file_count(); ++f)
            out.push_back(FileId(f));
        return out;
    }
    if (auto m = machine())
        return m->files();
    return {};
}

bool StructureSource::hasFile(FileId file) const
{
    const auto ids = files();
    return std::find(ids.begin(), ids.end(), file) != ids.end();
}

PageIndex* StructureSource::index(FileId file) const
{
    if (bench_) {
        if (bench_->index)
            return file == 0 ? bench_->index.get() : nullptr;
        return bench_->cache && file < bench_->cache->file_count() ? bench_->cache->file(file).index.get() : nullptr;
    }
    if (auto m = machine())
        return m->index(file);
    return nullptr;
}

pgoff_t StructureSource::filePages(FileId file) const
{
    if (bench_) {
        if (bench_->cache)
            return file < bench_->cache->file_count() ? bench_->cache->file(file).size_pages : 0;
        return bench_->index && file == 0 ? bench_->index->count() : 0;
    }
    if (auto m = machine())
        return m->file_pages(file);
    return 0;
}

std::optional<IndexKind> StructureSource::indexKind() const
{
    if (bench_) {
        PageIndex* i = index(0);
        return i ? std::optional(i->kind()) : std::nullopt;
    }
    if (auto m = machine())
        return m->index_kind();
    return {};
}

HashIndex* StructureSource::pageHash() const
{
    if (bench_)
        return bench_->hash.get();
    if (auto m = machine())
        return m->page_hash();
    return nullptr;
}

PageCache* StructureSource::pageCache() const
{
    if (bench_)
        return bench_->cache.get();
    if (auto m = machine())
        return &m->page_cache();
    return nullptr;
}

PageTable* StructureSource::pageTable() const
{
    if (bench_)
        return bench_->table.get();
    if (auto m = machine())
        return &m->page_table();
    return nullptr;
}

std::optional<std::vector<std::uint64_t>> StructureSource::optimisticLevelsSkipped(FileId file) const
{
    if (auto m = machine())
        return m->optimistic_levels_skipped(file);
    return std::nullopt;
}

unsigned StructureSource::cpus() const
{
    if (bench_)
        return kBenchmarkCpus;
    if (auto m = machine())
        return m->cpus();
    return 0;
}

bool StructureSource::hasSecondDevice() const
{
    if (auto m = machine())
        return m->has_second_device();
    return false;
}

} // namespace pcl::ui
