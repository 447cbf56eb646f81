// The index_lookup probe: what one lookup costs in 2.4's global page hash
// and in a per-file radix tree, and how much of each structure it reads.
//
// Torvalds, in the radix-tree pagecache (2002) thread, asked for "the
// impact of the hash chain lookup/walk vs the radix tree walk", not the
// locking. So both indexes are filled as the 2002 code had them and looked
// up one key at a time on one thread, each lookup taking its one uncontended
// lock (2.4's pagecache_lock for the hash, the mapping's tree_lock for the
// tree, as Velikov's patch did): the lock costs both sides the same, and the
// difference is the walk.
//
// The lookups visit the pages in a shuffled order, so that the CPU's
// prefetcher cannot fetch the next chain or node ahead of the walk. Each
// pass is timed in blocks of a few hundred lookups, after an untimed pass,
// and the figure is the 10th percentile of all the blocks: on a machine shared
// with other work, a block during which another process took the CPU, or
// filled the cache with its own lines, runs slower, by an amount that
// changes from one run to the next; the blocks that ran undisturbed are the
// fastest, and their cost is the lookup's own. Each block's 256 lookups go
// to random pages, so undisturbed blocks cost nearly the same.
//
// The structural figures are exact counts, not timings:
//   levels_walked     tree nodes a lookup reads. A hit walks from the root
//                     to a leaf: the tree's height. A miss stops at the
//                     first empty slot, or at the root when the offset lies
//                     beyond what the tree's height can hold. Computed from
//                     the offsets present (a node exists where some cached
//                     offset shares its prefix), and checked against the
//                     tree's own node count and height.
//   chain_per_lookup  chain entries a lookup compares. A hit stops at its
//                     own entry; a miss reads the whole chain. Read from the
//                     table's chains themselves.
#include "lesson/lesson_probe.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "base/splitmix64.h"
#include "index/hash_index.h"
#include "index/index_factory.h"
#include "index/page_layout.h"
#include "index/radix_tree.h"
#include "sync/lock_stats.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

namespace {

/// Pages the probe builds at most over all its files: 4 Mi descriptors.
/// The largest run, a sparse file in a 128-way tree, then takes about 3 GB
/// (a 1 KB node for every two pages) and some seconds to build.
constexpr std::uint64_t kMaxTotalPages = std::uint64_t(1) << 22;

/// One lookup of a pass: which file's index, which offset, and what it
/// must return.
struct Lookup {
    PageIndex* index = nullptr; ///< the file's index (a radix tree, or the file's view of the hash)
    FileId file = 0;            ///< the file looked up in
    pgoff_t offset = 0;         ///< the page offset looked up
    Page* expect = nullptr;     ///< the page that must come back; nullptr for a miss
};

/// Lookups timed together: well under a millisecond, shorter than the
/// time slice another process takes when it preempts the probe on a busy
/// machine, so that a disturbed block is one of many instead of a share of
/// every pass.
constexpr std::size_t kBlock = 256;

// The timed loops' results feed the check of every answer, and the sink
// keeps the compiler from dropping the pointer chase itself.
std::atomic<std::uintptr_t> g_sink { 0 };

/// Tree nodes a lookup of @offset reads in a radix tree of height @height
/// and @shift holding exactly the offsets @present (ascending), following
/// RadixTree::walk: at height 0 the root word is the entry and no node is
/// read; an offset beyond max_index(height) is turned away after reading
/// the root node; otherwise the walk goes down while the node on the path
/// exists, and a node of height l exists when some present offset shares
/// the offset's bits above the lowest l * shift.
unsigned nodes_read(const std::vector<pgoff_t>& present, unsigned height, unsigned shift, pgoff_t offset)
{
    if (height == 0)
        return 0;
    if (offset > RadixTree::max_index(height, shift))
        return 1;
    unsigned nodes = 1; // the root
    for (unsigned level = height - 1; level >= 1; --level) {
        const unsigned bits = level * shift;
        const pgoff_t first = (offset >> bits) << bits;
        const pgoff_t last = first + ((pgoff_t(1) << bits) - 1);
        const auto it = std::lower_bound(present.begin(), present.end(), first);
        if (it == present.end() || *it > last)
            break;
        ++nodes;
    }
    return nodes;
}

/// The height and node count a radix tree holding exactly @present must
/// have: the smallest height whose max_index reaches the largest offset
/// (0 when only offset 0 is cached, held in the root word), and one node
/// per distinct prefix at every level below it.
void tree_shape(const std::vector<pgoff_t>& present, unsigned shift, unsigned& height, std::uint64_t& nodes)
{
    height = 0;
    nodes = 0;
    if (present.empty())
        return;
    while (RadixTree::max_index(height, shift) < present.back())
        ++height;
    for (unsigned level = 1; level <= height; ++level) {
        const unsigned bits = level * shift;
        pgoff_t previous = 0;
        for (std::size_t i = 0; i < present.size(); ++i) {
            const pgoff_t prefix = bits >= 64 ? 0 : present[i] >> bits;
            if (i == 0 || prefix != previous)
                ++nodes;
            previous = prefix;
        }
    }
}

/// Position of (@file, @offset) in its chain (1 = the head), or the chain's
/// length when it is not there: the entries HashIndex's lookup compares.
std::uint64_t chain_walked(HashIndex& table, FileId file, pgoff_t offset)
{
    const std::uint64_t bucket = table.bucket_of(file, offset);
    const std::vector<HashChainEntry> chain = table.chain_entries(bucket, table.chain_length(bucket) + 1);
    std::uint64_t walked = 0;
    for (const HashChainEntry& e : chain) {
        ++walked;
        if (e.file == file && e.index == offset)
            return walked;
    }
    return walked;
}

/// One timed pass over @lookups, in blocks of kBlock: appends each block's
/// ns per lookup to @samples and counts the pages found into @found. Throws
/// when an answer is wrong.
void timed_pass(const std::vector<Lookup>& lookups, std::vector<double>& samples, std::uint64_t& found)
{
    std::uint64_t wrong = 0;
    std::uint64_t hits = 0;
    std::uintptr_t acc = 0;
    for (std::size_t first = 0; first < lookups.size(); first += kBlock) {
        const std::size_t last = std::min(lookups.size(), first + kBlock);
        // The host's clock, always: the probe measures what a lookup costs
        // the machine it runs on.
        const std::uint64_t t0 = host_now_ns();
        for (std::size_t k = first; k < last; ++k) {
            const Lookup& l = lookups[k];
            Page* p = l.index->lookup(l.offset);
            wrong += p != l.expect;
            hits += p != nullptr;
            acc ^= reinterpret_cast<std::uintptr_t>(p);
        }
        samples.push_back(double(host_now_ns() - t0) / double(last - first));
    }
    g_sink.fetch_xor(acc, std::memory_order_relaxed);
    if (wrong)
        throw std::runtime_error("index_lookup: " + std::to_string(wrong) + " of " + std::to_string(lookups.size())
            + " lookups returned the wrong page");
    found = hits;
}

ProbeFigures measure_index_lookup(const ProbeArgs& args)
{
    const bool radix = args.text("index") == "radix";
    const unsigned shift = unsigned(args.count("radix_shift"));
    const PageLayout layout = *parse_page_layout(args.text("layout"));
    const std::uint64_t pages = args.count("pages");
    const std::uint64_t files = args.count("files");
    const bool hits = args.text("outcome") == "hit";
    const std::uint64_t nr_lookups = args.count("lookups");
    const std::uint64_t passes = args.count("passes");
    if (pages * files > kMaxTotalPages)
        throw std::runtime_error("index_lookup: pages x files is " + std::to_string(pages * files)
            + ", above the probe's limit of " + std::to_string(kMaxTotalPages) + " pages; lower pages or files");

    SplitMix64 rng(args.count("seed"));
    // Every file has the same layout but its own jitter (sparse).
    std::vector<LayoutOffsets> offsets;
    offsets.reserve(files);
    for (std::uint64_t f = 0; f < files; ++f)
        offsets.push_back(layout_offsets(layout, pages, rng));
    // Real page descriptors, built in place (a Page is neither copied nor moved).
    std::vector<Page> descriptors(pages * files);
    for (std::uint64_t f = 0; f < files; ++f)
        for (std::uint64_t i = 0; i < pages; ++i) {
            Page& p = descriptors[f * pages + i];
            p.mapping = FileId(f);
            p.index = offsets[f].present[i];
        }

    IndexSpec spec;
    spec.kind = radix ? IndexKind::Radix : IndexKind::Hash;
    // One lock per lookup on both sides, as in 2002 (see the file comment).
    spec.scheme = radix ? "spinlock" : "global";
    spec.radix_shift = shift;
    spec.hash_memory_bytes = args.count("memory_mb") << 20;
    spec.hash_function = args.text("hash_function");

    CpuScope cpu(0);
    sync::LockRegistry registry;
    std::vector<std::unique_ptr<PageIndex>> indexes;
    std::shared_ptr<HashIndex> table;
    indexes.reserve(files);
    for (std::uint64_t f = 0; f < files; ++f) {
        if (radix) {
            indexes.push_back(make_page_index(spec, FileId(f), registry));
        } else {
            // One table for every file, each file seeing it through its own view.
            if (!table)
                table = dynamic_cast<HashMapping&>(*make_page_index(spec, FileId(f), registry)).table();
            indexes.push_back(table->mapping(FileId(f)));
        }
    }
    // Files are filled in offset order, as reading them from the start
    // through readahead would cache them.
    for (std::uint64_t f = 0; f < files; ++f)
        for (std::uint64_t i = 0; i < pages; ++i)
            if (indexes[f]->insert(offsets[f].present[i], &descriptors[f * pages + i]) != InsertResult::Inserted)
                throw std::runtime_error("index_lookup: inserting page " + std::to_string(offsets[f].present[i])
                    + " of file " + std::to_string(f) + " failed");

    ProbeFigures out;
    out["tree_height"] = 0;
    out["buckets"] = 0;
    if (radix) {
        std::uint64_t bytes = 0;
        for (std::uint64_t f = 0; f < files; ++f) {
            auto& tree = dynamic_cast<RadixTree&>(*indexes[f]);
            unsigned height = 0;
            std::uint64_t nodes = 0;
            tree_shape(offsets[f].present, shift, height, nodes);
            if (tree.height() != height || tree.nodes() != nodes)
                throw std::runtime_error("index_lookup: file " + std::to_string(f) + "'s radix tree has height "
                    + std::to_string(tree.height()) + " and " + std::to_string(tree.nodes())
                    + " nodes where its offsets call for " + std::to_string(height) + " and " + std::to_string(nodes));
            out["tree_height"] = std::max(out["tree_height"], double(height));
            bytes += tree.memory_bytes();
        }
        out["index_bytes"] = double(bytes);
    } else {
        out["index_bytes"] = double(table->memory_bytes());
        out["buckets"] = double(table->buckets());
    }

    out["bytes_per_page"] = out["index_bytes"] / double(pages * files);

    // The passes' order: every (file, page) once in a shuffled order, again
    // in another shuffled order when more lookups are asked than pages exist.
    std::vector<Lookup> lookups;
    lookups.reserve(nr_lookups);
    const std::uint64_t total = pages * files;
    while (lookups.size() < nr_lookups) {
        const std::vector<std::uint64_t> order = shuffled_order(total, rng);
        for (std::uint64_t k = 0; k < total && lookups.size() < nr_lookups; ++k) {
            const std::uint64_t f = order[k] / pages;
            const std::uint64_t i = order[k] % pages;
            if (hits)
                lookups.push_back({ indexes[f].get(), FileId(f), offsets[f].present[i], &descriptors[f * pages + i] });
            else
                lookups.push_back({ indexes[f].get(), FileId(f), offsets[f].absent[i], nullptr });
        }
    }

    // What each lookup reads of the structure, summed over one pass.
    std::uint64_t levels = 0;
    std::uint64_t chain = 0;
    for (const Lookup& l : lookups) {
        if (radix)
            levels += nodes_read(offsets[l.file].present, dynamic_cast<RadixTree&>(*l.index).height(), shift, l.offset);
        else
            chain += chain_walked(*table, l.file, l.offset);
    }
    out["levels_walked"] = double(levels) / double(lookups.size());
    out["chain_per_lookup"] = double(chain) / double(lookups.size());

    std::uint64_t found = 0;
    std::vector<double> samples;
    timed_pass(lookups, samples, found); // the first lookups after the build run slower: untimed
    samples.clear();
    for (std::uint64_t pass = 0; pass < passes; ++pass)
        timed_pass(lookups, samples, found);
    const auto decile = samples.begin() + std::ptrdiff_t(samples.size() / 10);
    std::nth_element(samples.begin(), decile, samples.end());
    out["ns_per_lookup"] = *decile;
    out["found"] = double(found);
    return out;
}

} // namespace

LessonProbe index_lookup_probe()
{
    LessonProbe p;
    p.name = "index_lookup";
    p.meaning = "ns per lookup in 2.4's global page hash or a per-file radix tree, one uncontended lock per lookup, "
                "keys in a shuffled order; and the chain entries or tree levels one lookup reads, counted exactly";
    p.params = {
        { "index", "which index: hash (2.4's one table for every file) or radix (a tree per file)", "radix",
            { "hash", "radix" } },
        { "radix_shift",
            "log2 of the radix tree's fanout: 4 is the thread's rat-4 (16-way), 7 its rat-7 (128-way), "
            "6 later Linux's",
            "6", {}, 4, 7 },
        { "layout",
            "which offsets are cached: dense (0..pages-1) or sparse (one page in every 64 offsets, at a random place "
            "in its block)",
            "dense", { "dense", "sparse" } },
        { "pages", "pages cached per file", "262144", {}, 1, double(kMaxTotalPages) },
        { "files", "files, each with the same layout; the hash holds them all, the radix tree is one per file", "1", {},
            1, 64 },
        { "outcome",
            "hit: look up cached pages; miss: look up uncached offsets (dense: past the cached end; sparse: half a "
            "block from a cached page)",
            "hit", { "hit", "miss" } },
        { "lookups", "lookups per timed pass, over the pages in a shuffled order", "131072", {}, 1,
            double(kMaxTotalPages) },
        { "passes", "timed passes over the lookups", "5", {}, 1, 51 },
        { "memory_mb",
            "physical memory the hash table is sized for, as 2.4's page_cache_init did: one bucket per 4 KB page",
            "1024", {}, 1, 65536 },
        { "hash_function", "the hash's function: linux24 (2.4's _page_hashfn) or mixer (a strong 64-bit mixer)",
            "linux24", { "linux24", "mixer" } },
        { "seed", "seed of the sparse layout's places and of the lookup order", "1", {}, 0, 4294967295.0 },
    };
    p.figures = {
        { "ns_per_lookup", "ns / lookup",
            "one lookup, lock included: the 10th percentile of the timed blocks of 256 lookups, the cost undisturbed "
            "by other processes" },
        { "levels_walked", "nodes / lookup",
            "radix tree nodes one lookup reads, on average: the height for a hit (0 for the hash)" },
        { "chain_per_lookup", "entries / lookup",
            "hash chain entries one lookup compares, on average: to its own entry for a hit, the whole chain for a "
            "miss (0 for the radix tree)" },
        { "tree_height", "levels", "the tallest file's radix tree (0 for the hash)" },
        { "buckets", "buckets", "the hash table's chain heads (0 for the radix tree)" },
        { "index_bytes", "bytes", "what the index itself takes: every file's tree, or the whole hash table" },
        { "bytes_per_page", "bytes / page", "index_bytes over the pages cached" },
        { "found", "lookups", "lookups of the last pass that found a page" },
    };
    p.run = measure_index_lookup;
    return p;
}

} // namespace pcl
