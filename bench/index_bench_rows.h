// The insides of `pagecache-lab-cli bench indexes` (index_bench.h), shared by
// its three files: index_bench.cpp is the command (options, the targets, the
// run), index_bench_measure.cpp runs the rounds and returns one row per
// measured cell, index_bench_report.cpp turns the rows into the tables, the
// notes and the CSV.
#pragma once

#include "index/index_factory.h"
#include "lib/report.h"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace pcl::bench {
class BenchOutput;
}

namespace pcl::bench::indexes {

/// Entries per gang lookup call (pagevec-sized batches, as the kernel's
/// find_get_pages callers use).
constexpr std::size_t kGangBatch = 16;
/// How long a lookup, miss, gang or erase cell runs: long enough that losing
/// a scheduler time slice on a shared machine moves the figure by a few
/// percent, short enough for a full default run in about two minutes. A
/// cell stops at the first clock check past it (index_bench_measure.cpp).
constexpr std::uint64_t kCellNs = 100'000'000;
/// The page layouts, in the order they are measured and reported: dense
/// (indexes 0..N-1) and sparse (about one page in every 64 indexes).
constexpr std::array<const char*, 2> kLayouts = { "dense", "sparse" };
/// The operations, in the order of the tables' columns and the CSV's rows.
constexpr std::array<const char*, 5> kOps = { "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" };

/// One column of the comparison: an index x scheme of ours or a peer.
struct Target {
    std::string index; ///< kind ("radix") or peer name ("judy")
    std::string scheme;
    bool peer = false;
    bool concurrent = true; ///< lookups measured at 1..T threads
    bool ordered = true;    ///< gang lookups measured
    IndexSpec spec;         ///< ours only
    std::string failure;    ///< set when the target could not be built or gave wrong results
};

struct Plan {
    std::uint64_t pages = 0;
    std::vector<unsigned> thread_counts; ///< concurrent lookup_hit cells
    unsigned repeats = 3;
};

/// One measured cell: the median of its rounds.
struct Row {
    std::string index;  ///< Target::index
    std::string scheme; ///< Target::scheme
    std::string op;     ///< one of kOps
    unsigned threads = 1;
    std::string layout;    ///< one of kLayouts
    double ns_per_op = 0;  ///< per operation and thread (gang_lookup: per page returned)
    double cpu_share = -1; ///< lookup_hit: CPU time the threads got / what they asked for; -1 otherwise
};

/// Runs @plan's rounds of every target on every layout (built from @seed),
/// interleaved: round 1 of every target, then round 2... A target that cannot
/// be built or gives a wrong result gets its Target::failure and is not
/// measured again. Progress lines go to @err unless @quiet. Returns the rows
/// of the cells measured, in no particular order.
std::vector<Row> measure(
    const Plan& plan, std::uint64_t seed, std::vector<Target>& targets, bool quiet, std::ostream& err);

/// Prints the 1-thread table of each layout (the members dense and sparse
/// of json), each with its ratios to the peers (dense_vs_flat_array,
/// dense_vs_best_peer...), the concurrent lookup table (concurrent) and
/// the notes (@skipped peers, peers without gang lookups, a starved CPU
/// share, failed targets, the comparisons with the peers, the scaling).
void print_report(BenchOutput& output, const Plan& plan, const std::vector<Target>& targets,
    const std::vector<std::string>& skipped, const std::vector<Row>& rows);

/// Every measured cell, a row each: index,scheme,op,threads,pages,layout,
/// ns_per_op,ops_per_s (--csv's file, and the csv and cells of --format).
Report cells_table(const Plan& plan, const std::vector<Target>& targets, const std::vector<Row>& rows);

} // namespace pcl::bench::indexes
