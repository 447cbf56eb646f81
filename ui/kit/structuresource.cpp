#include "kit/structuresource.h"

#include "kit/liverun.h"

#include "index/index_factory.h"
#include "index/page_hash.h"
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
    unsigned fanout = 0;              ///< the radix tree's
    std::unique_ptr<FrameAllocator> frames;
    std::unique_ptr<PageCache> cache;
    std::unique_ptr<PageTable> table;

    ~Bench()
    {
        table.reset();
        cache.reset();
        frames.reset();
        index.reset();
    }
};

StructureSource::StructureSource(const LiveRun& run)
    : run_(run)
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
    if (bench_)
        return std::nullopt;
    return run_.debugfs();
}

bool StructureSource::hasRun() const
{
    return bench_ || run_.debugfs();
}

namespace {

/// An index of @kind under @scheme, the family's parameters at their defaults.
IndexSpec specOf(IndexKind kind, const char* scheme)
{
    IndexSpec spec;
    spec.kind = kind;
    spec.scheme = scheme;
    return spec;
}

} // namespace

void StructureSource::loadRadixTree(std::uint64_t pages, unsigned shift)
{
    Bench& b = fresh();
    IndexSpec spec = specOf(IndexKind::Radix, "rcu");
    spec.radix_shift = shift;
    auto tree = make_page_index(spec, 0, *b.registry);
    b.fanout = 1u << shift;
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

void StructureSource::loadOnePage(const IndexSpec& spec, std::uint64_t pages)
{
    Bench& b = fresh();
    b.pages = std::make_unique<Page[]>(1);
    b.index = make_page_index(spec, 0, *b.registry);
    for (std::uint64_t i = 0; i < pages; ++i)
        b.index->insert(i, &b.pages[0]);
}

void StructureSource::loadPageHash(std::uint64_t pages)
{
    IndexSpec spec = specOf(IndexKind::Hash, "hashed");
    spec.hash_locks = 64;
    // 2.4 sized the table from physical memory: about one bucket per page frame.
    spec.hash_memory_bytes = std::max<std::uint64_t>(pages, 16 * 64) * kPageHashPageSize;
    loadOnePage(spec, pages);
}

void StructureSource::loadSkipList(std::uint64_t pages)
{
    loadOnePage(specOf(IndexKind::SkipList, "pernode"), pages);
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

PageIndex* StructureSource::benchIndex(FileId file) const
{
    if (bench_->index)
        return file == 0 ? bench_->index.get() : nullptr;
    return bench_->cache && file < bench_->cache->file_count() ? bench_->cache->file(file).index.get() : nullptr;
}

const PageIndex* StructureSource::index(FileId file) const
{
    if (bench_)
        return benchIndex(file);
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
        const PageIndex* i = index(0);
        return i ? std::optional(i->kind()) : std::nullopt;
    }
    if (auto m = machine())
        return m->index_kind();
    return {};
}

std::optional<HashChains> StructureSource::pageHash() const
{
    if (bench_)
        return bench_->index ? HashChains::of(*bench_->index) : std::nullopt;
    if (auto m = machine())
        return m->page_hash();
    return std::nullopt;
}

unsigned StructureSource::radixFanout(FileId file) const
{
    if (bench_)
        return file == 0 && bench_->index ? bench_->fanout : 0;
    if (auto m = machine())
        return m->radix_fanout(file);
    return 0;
}

std::optional<PageLook> StructureSource::page(FileId file, pgoff_t index) const
{
    if (bench_) {
        // The benchmark's pages are not in a page cache: nothing frees them.
        PageIndex* idx = benchIndex(file);
        const Page* page = idx ? idx->lookup(index) : nullptr;
        if (!page)
            return std::nullopt;
        return PageLook { page->flags.load(), std::nullopt };
    }
    PageCache* cache = pageCache();
    if (!cache)
        return std::nullopt;
    // One reference for the time it takes to read two words, as any
    // find_get_page user: the page cannot be freed while we look.
    Page* page = cache->find_get_page(file, index);
    if (!page)
        return std::nullopt;
    const std::uint32_t flags = page->flags.load(std::memory_order_acquire);
    const std::int32_t refs = page->count.load(std::memory_order_relaxed) - 1; // not ours
    cache->put_page(page);
    return PageLook { flags, refs };
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
