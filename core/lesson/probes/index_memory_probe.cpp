// The index_memory probe: what the index of the page cache costs in memory
// per cached page, the question of the radix-tree pagecache (2002) thread
// between Torvalds ("on my 2GB machine, I have 2MB worth of hash-tables"),
// Velikov ("one radix tree node, 68 or 516 bytes for rat-4 or rat-7"),
// Arcangeli ("500k inodes with only 1 page in them each") and Irwin
// ("(D-1)*B + 1 words per file").
//
// It fills real indexes with real pages and reads what the structures
// account for themselves: a radix tree's nodes (nodes() of node_bytes()
// each) and its memory_bytes(); the hash table's buckets and its
// memory_bytes(). Every byte is a byte of this 64-bit process: 8-byte
// pointers, as a 2.4 kernel on a 64-bit machine had; the thread's i386
// machines paid half as much for every pointer.
//
// Two totals, because this program and the kernel lay the index out
// differently:
//   index_bytes      the index as the kernel laid it out. A tree: its
//                    nodes (the root is a word of the inode in either
//                    design). The hash: the table, sized from the machine's
//                    memory as page_cache_init() did, plus the two links
//                    next_hash and pprev_hash that 2.4 kept in every
//                    struct page, cached or not (2 pointers per physical
//                    page of memory_mb), which the radix tree removed.
//   structure_bytes  everything this program's structures report through
//                    memory_bytes(): the trees' own objects too (a lock and
//                    per-CPU counters each), and the hash's table, lock and
//                    one chain entry per cached page (this program keeps
//                    the entry apart from its page, where 2.4's entry was
//                    the struct page itself).
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "index/radix_tree.h"
#include "lesson/lesson_probe.h"
#include "sync/lock_stats.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

namespace {

/// Which offsets of which files are cached.
struct MemoryLayout {
    std::string name;        ///< "dense", "one_page_files" or "sparse"
    std::uint64_t pages = 0; ///< pages cached in all
    std::uint64_t files = 0; ///< files holding them
    pgoff_t offset = 0;      ///< one_page_files: each file's one page
    std::uint64_t span = 0;  ///< sparse: each file's extent in pages
};

/// Pages of file @f when @layout's pages are shared out evenly, the first
/// files taking one more when they do not divide.
std::uint64_t pages_of(const MemoryLayout& layout, std::uint64_t f) noexcept
{
    return layout.pages / layout.files + (f < layout.pages % layout.files ? 1 : 0);
}

/// The cached offsets of file @f: 0..n-1 (dense); @offset (one page per
/// file); n offsets spread evenly over the file's span, the first at 0
/// (sparse: Velikov's "few cached pages with offsets uniformly distributed
/// across the whole file").
std::vector<pgoff_t> offsets_of(const MemoryLayout& layout, std::uint64_t f)
{
    const std::uint64_t n = pages_of(layout, f);
    std::vector<pgoff_t> offsets(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (layout.name == "dense")
            offsets[i] = i;
        else if (layout.name == "one_page_files")
            offsets[i] = layout.offset;
        else
            offsets[i] = i * (layout.span / n);
    }
    return offsets;
}

/// The figures of one measurement, before they become ProbeFigures.
struct MemoryFigures {
    std::uint64_t index_bytes = 0;        ///< the index as the kernel laid it out (the file comment)
    std::uint64_t structure_bytes = 0;    ///< the structures' memory_bytes(), summed
    std::uint64_t nodes = 0;              ///< radix tree nodes in all trees
    std::uint64_t node_bytes = 0;         ///< one radix tree node
    std::uint64_t max_nodes_per_file = 0; ///< nodes of the largest tree
    unsigned height = 0;                  ///< levels of the tallest tree
    std::uint64_t buckets = 0;            ///< the hash table's chain heads
    std::uint64_t table_bytes = 0;        ///< the hash table
    std::uint64_t link_bytes = 0;         ///< next_hash and pprev_hash in every struct page
};

/// One radix tree per file, under the mapping's spinlock as in 2002. The
/// trees share nothing, so each is built, read and freed before the next:
/// half a million one-page files cost one tree's memory at a time.
MemoryFigures measure_radix(const MemoryLayout& layout, unsigned shift)
{
    MemoryFigures m;
    sync::LockRegistry registry;
    for (std::uint64_t f = 0; f < layout.files; ++f) {
        const std::vector<pgoff_t> offsets = offsets_of(layout, f);
        std::vector<Page> pages(offsets.size());
        RadixTree tree(FileId(f), { RadixTree::Scheme::Spinlock, shift }, registry);
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            pages[i].mapping = FileId(f);
            pages[i].index = offsets[i];
            if (tree.insert(offsets[i], &pages[i]) != InsertResult::Inserted)
                throw std::runtime_error("the radix tree of file " + std::to_string(f) + " refused the page at offset "
                    + std::to_string(offsets[i]));
        }
        m.nodes += tree.nodes();
        m.node_bytes = tree.node_bytes();
        m.index_bytes += tree.nodes() * tree.node_bytes();
        m.structure_bytes += tree.memory_bytes();
        m.max_nodes_per_file = std::max(m.max_nodes_per_file, tree.nodes());
        m.height = std::max(m.height, tree.height());
    }
    return m;
}

/// 2.4's one table for all files, sized from @memory_bytes of physical
/// memory as page_cache_init() sized it, with every file's pages in it.
MemoryFigures measure_hash(const MemoryLayout& layout, std::uint64_t memory_bytes)
{
    MemoryFigures m;
    sync::LockRegistry registry;
    HashConfig config;
    config.memory_bytes = memory_bytes;
    auto table = HashIndex::create(config, registry);
    std::vector<std::unique_ptr<Page[]>> pages;
    for (std::uint64_t f = 0; f < layout.files; ++f) {
        const std::vector<pgoff_t> offsets = offsets_of(layout, f);
        auto& file_pages = pages.emplace_back(std::make_unique<Page[]>(offsets.size()));
        auto view = table->mapping(FileId(f));
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            file_pages[i].mapping = FileId(f);
            file_pages[i].index = offsets[i];
            if (view->insert(offsets[i], &file_pages[i]) != InsertResult::Inserted)
                throw std::runtime_error(
                    "the hash table refused page " + std::to_string(offsets[i]) + " of file " + std::to_string(f));
        }
    }
    m.buckets = table->buckets();
    // A chain head and each of the two links is one pointer of this process.
    m.table_bytes = table->buckets() * HashIndex::kBucketBytes;
    m.link_bytes = 2 * HashIndex::kBucketBytes * page_hash_sizing(memory_bytes, false).mempages;
    m.index_bytes = m.table_bytes + m.link_bytes;
    m.structure_bytes = table->memory_bytes();
    return m;
}

ProbeFigures measure_index_memory(const ProbeArgs& args)
{
    MemoryLayout layout;
    layout.name = args.text("layout");
    layout.pages = args.count("pages");
    layout.files = layout.name == "one_page_files" ? layout.pages : args.count("files");
    layout.offset = args.count("offset");
    layout.span = args.count("span");
    if (layout.files > layout.pages)
        throw std::runtime_error("files: " + std::to_string(layout.files) + " files cannot share "
            + std::to_string(layout.pages) + " pages; give each file at least one");
    if (layout.name == "sparse" && layout.span < pages_of(layout, 0))
        throw std::runtime_error("span: a file of " + std::to_string(layout.span) + " pages cannot hold "
            + std::to_string(pages_of(layout, 0)) + " cached pages; the span must be at least the pages of one file");

    const std::uint64_t memory_bytes = args.count("memory_mb") << 20;
    const bool hash = args.text("index") == "hash";
    const MemoryFigures m
        = hash ? measure_hash(layout, memory_bytes) : measure_radix(layout, unsigned(args.count("radix_shift")));

    const double pages = double(layout.pages);
    ProbeFigures out;
    out["pages"] = pages;
    out["files"] = double(layout.files);
    out["index_bytes"] = double(m.index_bytes);
    out["bytes_per_page"] = double(m.index_bytes) / pages;
    out["words_per_page"] = double(m.index_bytes) / double(sizeof(void*)) / pages;
    out["structure_bytes"] = double(m.structure_bytes);
    out["structure_bytes_per_page"] = double(m.structure_bytes) / pages;
    out["nodes"] = double(m.nodes);
    out["nodes_per_file"] = double(m.nodes) / double(layout.files);
    out["max_nodes_per_file"] = double(m.max_nodes_per_file);
    out["node_bytes"] = double(m.node_bytes);
    out["height"] = double(m.height);
    out["buckets"] = double(m.buckets);
    out["table_bytes"] = double(m.table_bytes);
    out["link_bytes"] = double(m.link_bytes);
    out["mempages"] = double(page_hash_sizing(memory_bytes, false).mempages);
    return out;
}

} // namespace

LessonProbe index_memory_probe()
{
    LessonProbe p;
    p.name = "index_memory";
    p.meaning = "Fills a real radix tree per file, or 2.4's one hash table, with real pages laid out dense, as "
                "one-page files or sparse, and reads the bytes the structures account for (this 64-bit "
                "process's bytes: 8-byte pointers)";
    p.params = {
        { "index", "radix: a tree per file (the mapping's spinlock, as in 2002); hash: 2.4's one table for all files",
            "radix", { "radix", "hash" } },
        { "radix_shift",
            "log2 of the tree's fanout: 4 is the thread's rat-4 (16-way), 7 rat-7 (128-way), 6 later "
            "Linux's",
            "6", {}, double(RadixTree::kMinShift), double(RadixTree::kMaxShift) },
        { "layout",
            "dense: each file's pages at offsets 0..n-1; one_page_files: every page a file of its own, at "
            "offset; sparse: each file's pages spread evenly over span offsets",
            "dense", { "dense", "one_page_files", "sparse" } },
        { "pages", "pages cached in all", "4096", {}, 1, double(std::uint64_t(1) << 22) },
        { "files", "files sharing the pages evenly (dense and sparse; one_page_files has a file per page)", "1", {}, 1,
            double(std::uint64_t(1) << 22) },
        { "offset", "one_page_files: the offset of each file's page (1048575: the last page of a 4 GB file)", "0", {},
            0, double((std::uint64_t(1) << 32) - 1) },
        { "span", "sparse: each file's extent in pages, over which its pages are spread", "1048576", {}, 1,
            double(std::uint64_t(1) << 32) },
        { "memory_mb",
            "the machine's physical memory in MB: it sizes the hash table (page_cache_init) and "
            "counts the struct pages that carry its two links",
            "384", {}, 1, double(kPageHashMaxMemory >> 20) },
    };
    p.figures = {
        { "pages", "pages", "pages cached" },
        { "files", "files", "files holding them" },
        { "index_bytes", "bytes",
            "the index as the kernel laid it out: a tree's nodes; the hash's table plus next_hash and pprev_hash "
            "in every struct page of the machine" },
        { "bytes_per_page", "bytes / page", "the index, as the kernel laid it out, per cached page" },
        { "words_per_page", "words / page", "the same in 8-byte words (pointers), the unit Irwin counted in" },
        { "structure_bytes", "bytes",
            "all that this program's structures take: the trees' own objects (lock, counters) too; the "
            "hash's table, lock and a separate chain entry per cached page" },
        { "structure_bytes_per_page", "bytes / page", "all that this program's structures take, per cached page" },
        { "nodes", "nodes", "radix tree nodes in all the trees" },
        { "nodes_per_file", "nodes / file", "radix tree nodes per file, on average" },
        { "max_nodes_per_file", "nodes", "radix tree nodes of the largest tree" },
        { "node_bytes", "bytes", "one radix tree node (slots, tags, header; a multiple of 64 bytes)" },
        { "height", "levels", "levels of the tallest tree" },
        { "buckets", "buckets", "the hash table's chain heads" },
        { "table_bytes", "bytes", "the hash table: one pointer per bucket" },
        { "link_bytes", "bytes", "next_hash and pprev_hash: two pointers in every struct page of the machine" },
        { "mempages", "pages", "physical pages of the machine (memory_mb / 4 KB)" },
    };
    p.run = measure_index_memory;
    return p;
}

} // namespace pcl
