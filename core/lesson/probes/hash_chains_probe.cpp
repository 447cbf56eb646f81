// The hash_chains probe: the chains 2.4's page hash builds, as the
// radix-tree pagecache (2002) thread argued about them. Blanchard: the table
// "maxes out at order 9 (due to the get_free_pages limitation) which starts
// to hurt at 4GB RAM and above"; Irwin: "chi^2 is nowhere near passing a
// confidence test for uniformity on the pagecache"; Cox: "Some of the hash
// table inputs appear to be user controllable so an end user can set out to
// get worst case behaviour".
//
// It sizes a real HashIndex from the machine's memory as page_cache_init()
// did (with or without the order-9 cap), inserts real pages under one of
// three key sets, and reads the table's own chain lengths. The key sets do
// not depend on the hash function, so linux24 and mixer are judged on the
// same pages:
//   sequential   one file's offsets 0..n-1
//   many_files   files of pages_per_file pages each, offsets 0..k-1, whose
//                mappings lie where 2.4's slab allocator put inodes
//   adversarial  pages chosen against linux24 so that all of them land in
//                bucket 0 of this table (linux24_colliding_indexes), file
//                after file
#include "index/hash_index.h"
#include "index/page_hash.h"
#include "lesson/lesson_probe.h"
#include "sync/lock_stats.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pcl {

namespace {

/// One file's pages of a key set.
struct FileKeys {
    FileId file = 0;
    std::vector<pgoff_t> indexes;
};

/// The pages of key set @keys, file by file, for a table of 2^@bits buckets.
std::vector<FileKeys> key_set(const std::string& keys, std::uint64_t pages, std::uint64_t pages_per_file, unsigned bits)
{
    std::vector<FileKeys> files;
    if (keys == "sequential") {
        FileKeys& f = files.emplace_back();
        for (pgoff_t i = 0; i < pages; ++i)
            f.indexes.push_back(i);
    } else if (keys == "many_files") {
        for (std::uint64_t done = 0; done < pages;) {
            FileKeys& f = files.emplace_back();
            f.file = FileId(files.size() - 1);
            for (pgoff_t i = 0; i < pages_per_file && done < pages; ++i, ++done)
                f.indexes.push_back(i);
        }
    } else {
        for (std::uint64_t done = 0; done < pages;) {
            FileKeys& f = files.emplace_back();
            f.file = FileId(files.size() - 1);
            f.indexes = linux24_colliding_indexes(linux24_mapping_key(f.file), bits, 0, pages - done);
            done += f.indexes.size();
        }
    }
    return files;
}

ProbeFigures measure_hash_chains(const ProbeArgs& args)
{
    sync::LockRegistry registry;
    HashConfig config;
    config.function = args.text("hash") == "mixer" ? HashFunction::Mixer : HashFunction::Linux24;
    config.memory_bytes = args.count("memory_mb") << 20;
    config.order9_cap = args.flag("order9_cap");
    auto table = HashIndex::create(config, registry);

    const std::uint64_t n = args.count("pages");
    const std::vector<FileKeys> files = key_set(args.text("keys"), n, args.count("pages_per_file"), table->hash_bits());
    const auto pages = std::make_unique<Page[]>(n);
    std::uint64_t next = 0;
    for (const FileKeys& f : files) {
        auto view = table->mapping(f.file);
        for (const pgoff_t index : f.indexes) {
            Page& page = pages[next++];
            page.mapping = f.file;
            page.index = index;
            if (view->insert(index, &page) != InsertResult::Inserted)
                throw std::runtime_error(
                    "the hash table refused page " + std::to_string(index) + " of file " + std::to_string(f.file));
        }
    }

    const std::vector<std::uint32_t> loads = table->chain_lengths();
    const std::uint64_t empty = std::uint64_t(std::count(loads.begin(), loads.end(), 0u));
    ProbeFigures out;
    out["buckets"] = double(table->buckets());
    out["pages"] = double(table->count());
    out["files"] = double(files.size());
    out["load"] = double(table->count()) / double(table->buckets());
    out["empty_buckets"] = double(empty);
    out["mean_chain"] = mean_chain(loads);
    out["longest_chain"] = double(*std::max_element(loads.begin(), loads.end()));
    out["chi_square_per_df"] = loads.size() > 1 ? table->chi_square() / double(loads.size() - 1) : 0.0;
    out["probes_per_lookup"] = expected_probes(loads);
    return out;
}

} // namespace

LessonProbe hash_chains_probe()
{
    LessonProbe p;
    p.name = "hash_chains";
    p.meaning = "Sizes 2.4's page hash from the machine's memory (with or without the order-9 cap), fills it with "
                "real pages under a key set, and reads the chains: their lengths, chi-square, and the entries a "
                "lookup walks";
    p.params = {
        { "memory_mb", "the machine's physical memory in MB, which page_cache_init() sized the table from", "1024", {},
            1, double(kPageHashMaxMemory >> 20) },
        { "order9_cap",
            "true: the table stops at an order-9 allocation (2 MB, 512K buckets) as __get_free_pages "
            "made it",
            "false", { "false", "true" } },
        { "hash", "linux24: 2.4's _page_hashfn; mixer: a strong 64-bit mixer", "linux24", { "linux24", "mixer" } },
        { "keys",
            "sequential: one file's offsets 0..n-1; many_files: files of pages_per_file pages; adversarial: pages "
            "chosen against linux24 to land in one bucket",
            "many_files", { "sequential", "many_files", "adversarial" } },
        { "pages", "pages cached", "65536", {}, 1, double(std::uint64_t(1) << 22) },
        { "pages_per_file", "many_files: pages of each file, at offsets 0..k-1", "16", {}, 1,
            double(std::uint64_t(1) << 22) },
    };
    p.figures = {
        { "buckets", "buckets", "PAGE_HASH_SIZE: the table's chain heads" },
        { "pages", "pages", "pages in the table" },
        { "files", "files", "files the pages belong to" },
        { "load", "pages / bucket", "pages over buckets: the mean chain of all buckets, empty ones included" },
        { "empty_buckets", "buckets", "buckets with no page" },
        { "mean_chain", "pages / chain", "the mean length of the non-empty chains" },
        { "longest_chain", "pages", "the longest chain" },
        { "chi_square_per_df", "chi-square / (buckets - 1)",
            "Pearson's chi-square of the loads against a uniform spread over its degrees of freedom: near 1 for a "
            "random-like hash, far above for clustering" },
        { "probes_per_lookup", "entries / lookup",
            "chain entries a successful lookup walks, its own included, averaged over every page in the table" },
    };
    p.run = measure_hash_chains;
    return p;
}

} // namespace pcl
