// `bench indexes`, the command: its options, the targets to measure, and the
// run - measured by index_bench_measure.cpp, reported by
// index_bench_report.cpp (index_bench_rows.h).
#include "index_bench.h"

#include "bench_output.h"
#include "index_bench_rows.h"
#include "lib/arg_parser.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"
#include "peers.h"

#include "base/clock.h"
#include "index/index_factory.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace pcl::bench {

namespace {

using indexes::kCellNs;
using indexes::kGangBatch;
using indexes::Plan;
using indexes::Target;

constexpr unsigned kMaxIndexThreads = 256;

std::vector<unsigned> thread_counts(unsigned t)
{
    // Every count up to 8; beyond, powers of two and T itself, so a big
    // machine does not spend minutes on points of one smooth curve.
    std::vector<unsigned> c;
    for (unsigned k = 1; k <= t; k = (k < 8 ? k + 1 : k * 2))
        c.push_back(k);
    if (c.back() != t)
        c.push_back(t);
    return c;
}

std::vector<std::string> split_list(const std::string& s)
{
    std::vector<std::string> v;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = std::min(s.find(',', start), s.size());
        if (comma > start)
            v.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return v;
}

ArgParser index_bench_parser()
{
    const unsigned hw = std::thread::hardware_concurrency();
    ArgParser p("bench indexes");
    p.add_uint("pages", std::uint64_t(1) << 20, 1, std::uint64_t(64) << 20, "N", "pages in each index");
    p.add_uint("threads", std::clamp(hw, 2u, kMaxIndexThreads), 1, kMaxIndexThreads, "T",
        "concurrent lookups run at 1..T threads; T is max(2, hardware threads) unless given");
    p.add_output("csv", "FILE", "also write the results as CSV to FILE");
    p.add_uint("repeats", 3, 1, 15, "R", "rounds per cell; the median is reported");
    p.add_uint("seed", 1, 0, ~std::uint64_t(0), "S", "seed of the page layout and operation orders");
    p.add_string("only", "", "LIST",
        "comma-separated index kinds and peer names to run (default: all), e.g. radix,flat_array,xarray");
    p.add_flag("quiet", "no progress lines on stderr");
    add_format_option(p,
        "dense and sparse (ns per operation), dense_vs_flat_array, dense_vs_best_peer, the same of sparse, "
        "concurrent and cells (every measured cell, as --csv writes them)",
        "cells");
    p.describe("[options]",
        "Times insert, lookup (hit and miss), gang lookup and erase on every page index x locking\n"
        "scheme and on peer libraries, on a dense and a sparse file, and concurrent lookups at\n"
        "1..T threads. Prints tables; --csv writes index,scheme,op,threads,pages,layout,ns_per_op,ops_per_s.");
    return p;
}

/// Everything the run measures, in display order; peers that are not built
/// come back with their reason in @skipped.
std::vector<Target> make_targets(
    const std::uint64_t pages, const std::vector<std::string>& only, std::vector<std::string>& skipped)
{
    auto wanted = [&](const std::string& name) {
        return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
    };
    std::vector<Target> targets;
    for (const IndexKind kind : index_kinds()) {
        const std::string name(index_kind_name(kind));
        if (!wanted(name))
            continue;
        for (const auto& scheme : index_schemes(kind)) {
            Target t;
            t.index = name;
            t.scheme = scheme;
            t.spec.kind = kind;
            t.spec.scheme = scheme;
            // Size the hash table as 2.4 would on a machine whose memory just
            // holds the N pages: one bucket per physical page, mean chain
            // length about 1 (radix-tree pagecache (2002) in docs/history.md),
            // not the default 256 MB.
            t.spec.hash_memory_bytes = std::max<std::uint64_t>(t.spec.hash_memory_bytes, pages * 4096);
            targets.push_back(std::move(t));
        }
    }
    for (const auto& info : peer_list()) {
        if (!wanted(info.name))
            continue;
        if (!info.available) {
            skipped.push_back(info.name + ": " + info.note);
            continue;
        }
        Target t;
        t.index = info.name;
        t.scheme = info.scheme;
        t.peer = true;
        t.concurrent = info.concurrent;
        t.ordered = info.ordered;
        targets.push_back(std::move(t));
    }
    return targets;
}

} // namespace

std::string index_bench_usage()
{
    return index_bench_parser().usage();
}

int run_index_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser = index_bench_parser();
    std::vector<std::string> only;
    if (const auto code = parser.parse_command(args, out, err, [&](const ArgParser& p) {
            only = split_list(p.get_string("only"));
            std::vector<std::string> known(kIndexKindNames.begin(), kIndexKindNames.end());
            for (const auto& peer : peer_list())
                known.push_back(peer.name);
            for (const auto& name : only)
                if (std::find(known.begin(), known.end(), name) == known.end()) {
                    std::string list;
                    for (const auto& k : known)
                        list += (list.empty() ? "" : ", ") + k;
                    throw ArgError("--only: '" + name + "' is not an index kind or peer (allowed: " + list + ")");
                }
            check_format_option(p);
        }))
        return *code;
    BenchOutput output(parser, out, err, "cells");

    Plan plan;
    plan.pages = parser.get_uint("pages");
    plan.repeats = static_cast<unsigned>(parser.get_uint("repeats"));
    plan.thread_counts = thread_counts(static_cast<unsigned>(parser.get_uint("threads")));
    const unsigned max_threads = plan.thread_counts.back();
    const std::uint64_t seed = parser.get_uint("seed");
    const bool quiet = parser.get_flag("quiet");

    std::vector<std::string> skipped;
    std::vector<Target> targets;
    try {
        targets = make_targets(plan.pages, only, skipped);
    } catch (const std::exception& e) {
        err << kProgram << " bench indexes: " << e.what() << '\n';
        return 1;
    }

    const std::uint64_t started = now_ns();
    output.notes() << "bench indexes: " << counted(plan.pages, "page") << ", lookups at 1.."
                   << counted(max_threads, "thread") << ", median of " << counted(plan.repeats, "round") << ", "
                   << kCellNs / 1000000 << " ms per lookup/gang/erase cell, gang lookups of " << kGangBatch << ", seed "
                   << seed << "\n";

    const std::vector<indexes::Row> rows = indexes::measure(plan, seed, targets, quiet, err);
    indexes::print_report(output, plan, targets, skipped, rows);
    output.notes() << "  total time " << fixed(double(now_ns() - started) / 1e9, 1) << " s\n";

    const Report cells = indexes::cells_table(plan, targets, rows);
    output.data("cells", cells);
    if (!output.write_csv(cells.csv(), "  "))
        return 1;
    output.finish();
    const bool failed = std::any_of(targets.begin(), targets.end(), [](const Target& t) { return !t.failure.empty(); });
    return failed ? 1 : 0;
}

} // namespace pcl::bench
