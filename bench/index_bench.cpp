#include "index_bench.h"

#include "lib/arg_parser.h"
#include "lib/report.h"
#include "peers.h"
#include "start_line.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "index/index_factory.h"
#include "sync/lock_stats.h"
#include "sync/rcu.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <ctime>
#include <exception>
#include <iomanip>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace pcl::bench {

namespace {

/// Entries per gang lookup call (pagevec-sized batches, as the kernel's
/// find_get_pages callers use).
constexpr std::size_t kGangBatch = 16;
/// How long a lookup, miss, gang or erase cell runs: long enough that losing
/// a scheduler time slice on a shared machine moves the figure by a few
/// percent, short enough for a full default run in about two minutes. A
/// cell stops at the first clock check past it; the clock is read once per
/// kCheckEvery operations (gang lookup calls), a negligible cost.
constexpr std::uint64_t kCellNs = 100'000'000;
constexpr std::uint64_t kCheckEvery = 256;
/// Sparse layout: page i sits at i * kSparseStride + jitter, jitter in
/// [0, kSparseStride): about one page per 64-slot radix node.
constexpr pgoff_t kSparseStride = 64;
constexpr unsigned kMaxThreads = 256;

/// Reproducible everywhere (std::shuffle's use of the engine is
/// implementation-defined): splitmix64 and a Fisher-Yates shuffle.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : s_(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, bound), bound > 0 (Lemire's multiply-shift; the bias is
    /// below 2^-32 for the sizes used here).
    std::uint64_t below(std::uint64_t bound)
    {
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
    }

private:
    std::uint64_t s_;
};

std::vector<std::uint32_t> permutation(std::uint64_t n, SplitMix64& rng)
{
    std::vector<std::uint32_t> p(n);
    for (std::uint64_t i = 0; i < n; ++i)
        p[i] = static_cast<std::uint32_t>(i);
    for (std::uint64_t i = n; i > 1; --i)
        std::swap(p[i - 1], p[rng.below(i)]);
    return p;
}

/// One layout's pages and operation orders. Every index and peer runs
/// exactly these keys in exactly this order.
struct Workload {
    std::string layout;               ///< "dense" or "sparse"
    std::vector<Page> pages;          ///< page i, ascending index
    std::vector<pgoff_t> insert_keys; ///< insert and erase order (a seeded permutation)
    std::vector<Page*> insert_pages;  ///< the page to insert at insert_keys[i]
    std::vector<pgoff_t> hit_keys;    ///< lookup order (another seeded permutation)
    std::vector<Page*> hit_pages;     ///< what lookup(hit_keys[i]) must return
    std::vector<pgoff_t> miss_keys;   ///< absent indexes, in shuffled order
};

Workload make_workload(const std::string& layout, std::uint64_t n, std::uint64_t seed)
{
    Workload w;
    w.layout = layout;
    SplitMix64 rng(seed ^ (layout == "dense" ? 0x64656e7365ull : 0x737061727365ull));
    const bool dense = layout == "dense";
    w.pages = std::vector<Page>(n); // pages are not copyable or movable: built in place
    std::vector<pgoff_t> misses(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        if (dense) {
            // No holes inside a dense file: a miss is a read past the cached end.
            w.pages[i].index = i;
            misses[i] = n + i;
        } else {
            // A miss lands in the same 64-index block as a present page, so a
            // radix tree walks to a leaf and a hash table searches a chain.
            const pgoff_t jitter = rng.below(kSparseStride);
            w.pages[i].index = i * kSparseStride + jitter;
            misses[i] = i * kSparseStride + (jitter + kSparseStride / 2) % kSparseStride;
        }
    }
    const auto p1 = permutation(n, rng);
    const auto p2 = permutation(n, rng);
    w.insert_keys.resize(n);
    w.insert_pages.resize(n);
    w.hit_keys.resize(n);
    w.hit_pages.resize(n);
    w.miss_keys.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        w.insert_pages[i] = &w.pages[p1[i]];
        w.insert_keys[i] = w.pages[p1[i]].index;
        w.hit_pages[i] = &w.pages[p2[i]];
        w.hit_keys[i] = w.pages[p2[i]].index;
        w.miss_keys[i] = misses[p2[i]];
    }
    return w;
}

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

/// Samples of ns per operation (per thread), one per round, keyed by cell.
using CellKey
    = std::tuple<std::string, std::string, std::string, unsigned, std::string>; // index, scheme, op, threads, layout
using Samples = std::map<CellKey, std::vector<double>>;

// The results feed checks, so the loops cannot be discarded; the sink keeps
// the compiler from dropping the pointer arithmetic as well.
std::atomic<std::uintptr_t> g_sink { 0 };

inline void thread_enter(PageIndex&) { }
inline void thread_exit(PageIndex&) { }
inline void thread_enter(PeerIndex& p)
{
    p.thread_enter();
}
inline void thread_exit(PeerIndex& p)
{
    p.thread_exit();
}

struct Timing {
    double ns = 0;        ///< per operation and thread: wall time / operations per thread
    double cpu_share = 0; ///< CPU time the threads got / (threads x wall time)
};

/// Lookups of present pages on @threads threads at once for kCellNs, each on
/// its own simulated CPU, each starting at its own place in the shared
/// shuffled order (so for a large index each thread looks up a uniform random
/// sample of it); counts wrong answers into @wrong. The CPU share tells whether the
/// threads really ran side by side: on a busy machine they take turns and
/// the figure understates what the index can do.
template <class Index> Timing concurrent_lookups(Index& idx, const Workload& w, unsigned threads, std::uint64_t& wrong)
{
    const std::uint64_t n = w.hit_keys.size();
    std::atomic<std::uint64_t> deadline { 0 };
    std::vector<std::uint64_t> end_ns(threads, 0);
    std::vector<std::uint64_t> cpu_ns(threads, 0);
    std::vector<std::uint64_t> ops(threads, 0);
    std::vector<std::uint64_t> bad(threads, 0);
    auto worker = [&](unsigned k, StartLine& line) {
        thread_enter(idx);
        std::uint64_t pos = n * k / threads;
        // Registers the thread with liburcu / libcds before the clock starts.
        g_sink.fetch_xor(reinterpret_cast<std::uintptr_t>(idx.lookup(w.hit_keys[pos])), std::memory_order_relaxed);
        line.wait();
        const std::uint64_t cpu0 = thread_cpu_ns();
        const std::uint64_t stop = deadline.load(std::memory_order_relaxed);
        std::uint64_t errors = 0;
        std::uint64_t done = 0;
        std::uintptr_t acc = 0;
        std::uint64_t now;
        do {
            for (std::uint64_t op = 0; op < kCheckEvery; ++op) {
                Page* p = idx.lookup(w.hit_keys[pos]);
                errors += p != w.hit_pages[pos];
                acc ^= reinterpret_cast<std::uintptr_t>(p);
                if (++pos == n)
                    pos = 0;
            }
            done += kCheckEvery;
        } while ((now = now_ns()) < stop);
        end_ns[k] = now;
        cpu_ns[k] = thread_cpu_ns() - cpu0;
        ops[k] = done;
        bad[k] = errors;
        g_sink.fetch_xor(acc, std::memory_order_relaxed);
        thread_exit(idx);
    };
    const std::uint64_t start = StartLine::run(
        threads, worker, [&](std::uint64_t release) { deadline.store(release + kCellNs, std::memory_order_relaxed); });
    const double wall = double(*std::max_element(end_ns.begin(), end_ns.end()) - start);
    std::uint64_t total = 0;
    std::uint64_t cpu = 0;
    for (unsigned k = 0; k < threads; ++k) {
        wrong += bad[k];
        total += ops[k];
        cpu += cpu_ns[k];
    }
    Timing t;
    t.ns = wall * threads / double(total);
    t.cpu_share = double(cpu) / (double(threads) * wall);
    return t;
}

/// One round on a fresh, empty @idx: insert all, lookups (hits, misses,
/// concurrent hits), gang walks, erase all. Wrong results are described in
/// @failure; samples go into @samples, CPU shares of the lookup threads into @cpu.
template <class Index>
void run_round(Index& idx, const Workload& w, const Target& t, const Plan& plan, Samples& samples, Samples& cpu,
    std::string& failure)
{
    const std::uint64_t n = w.insert_keys.size();
    auto record = [&](const char* op, unsigned threads, double ns) {
        samples[CellKey(t.index, t.scheme, op, threads, w.layout)].push_back(ns);
    };
    auto check = [&](const char* op, std::uint64_t wrong) {
        if (wrong && failure.empty())
            failure = std::string(op) + " gave " + std::to_string(wrong) + " wrong results (" + w.layout + ")";
    };
    thread_enter(idx);

    std::uint64_t wrong = 0;
    std::uint64_t t0 = now_ns();
    for (std::uint64_t i = 0; i < n; ++i)
        wrong += idx.insert(w.insert_keys[i], w.insert_pages[i]) != InsertResult::Inserted;
    record("insert", 1, double(now_ns() - t0) / double(n));
    check("insert", wrong);

    // An untimed cell of lookups first: right after the build the first
    // lookups run measurably slower (up to 2x for some structures here), and
    // that start-up cost would otherwise all land on the 1-thread cell.
    wrong = 0;
    (void)concurrent_lookups(idx, w, 1, wrong);
    check("lookup_hit", wrong);

    for (unsigned threads : plan.thread_counts) {
        if (threads > 1 && !t.concurrent)
            break;
        wrong = 0;
        const Timing timing = concurrent_lookups(idx, w, threads, wrong);
        record("lookup_hit", threads, timing.ns);
        cpu[CellKey(t.index, t.scheme, "lookup_hit", threads, w.layout)].push_back(timing.cpu_share);
        check("lookup_hit", wrong);
    }

    wrong = 0;
    std::uintptr_t acc = 0;
    std::uint64_t pos = 0;
    std::uint64_t done = 0;
    std::uint64_t now;
    t0 = now_ns();
    do {
        for (std::uint64_t op = 0; op < kCheckEvery; ++op) {
            Page* p = idx.lookup(w.miss_keys[pos]);
            wrong += p != nullptr;
            acc ^= reinterpret_cast<std::uintptr_t>(p);
            if (++pos == n)
                pos = 0;
        }
        done += kCheckEvery;
    } while ((now = now_ns()) < t0 + kCellNs);
    record("lookup_miss", 1, double(now - t0) / double(done));
    check("lookup_miss", wrong);

    if (t.ordered) {
        // Walks from index 0 in gang lookups of kGangBatch, each call starting
        // after the last page returned (as the kernel's find_get_pages
        // callers do), for kCellNs: whole walks, repeated, for a small index;
        // the start of a large one, which, the layouts being uniform, costs
        // per page what the rest does. Every page returned is checked against
        // the page a correct walk returns at that position, before its index
        // is followed.
        Page* batch[kGangBatch] = {};
        std::uint64_t returned = 0;
        std::uint64_t expect = 0; // position in w.pages of the next page due
        pgoff_t next = 0;
        wrong = 0;
        std::uint64_t calls = 0;
        t0 = now = now_ns();
        for (;;) {
            if (++calls % (kCheckEvery / kGangBatch) == 0 && (now = now_ns()) >= t0 + kCellNs)
                break;
            const std::size_t got = idx.gang_lookup(next, kGangBatch, batch);
            std::size_t right = 0;
            while (right < got && expect + right < n && batch[right] == &w.pages[expect + right])
                ++right;
            returned += got;
            if (right != got) {
                ++wrong;
                break;
            }
            expect += got;
            if (got < kGangBatch) {
                // The walk ended: it must have seen every page.
                if (expect != n || returned == 0) {
                    ++wrong;
                    break;
                }
                expect = 0;
                next = 0;
            } else {
                next = batch[got - 1]->index + 1;
            }
        }
        record("gang_lookup", 1, double(now_ns() - t0) / double(std::max<std::uint64_t>(returned, 1)));
        check("gang_lookup", wrong);
        acc ^= reinterpret_cast<std::uintptr_t>(batch[0]);
    }

    // Erases in the shuffled insert order for kCellNs or until the index is
    // empty: a uniform sample of a large index, whose rest goes with the
    // index's destructor, untimed (erasing a million skip-list entries would
    // take seconds and say no more).
    std::uint64_t erased = 0;
    wrong = 0;
    t0 = now_ns();
    do {
        const std::uint64_t stop = std::min(n, erased + kCheckEvery);
        for (; erased < stop; ++erased)
            wrong += idx.erase(w.insert_keys[erased]) != w.insert_pages[erased];
    } while (erased < n && (now = now_ns()) < t0 + kCellNs);
    record("erase", 1, double(now_ns() - t0) / double(erased));
    check("erase", wrong);
    g_sink.fetch_xor(acc, std::memory_order_relaxed);
}

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

ArgParser make_parser()
{
    const unsigned hw = std::thread::hardware_concurrency();
    ArgParser p("bench indexes");
    p.add_uint("pages", std::uint64_t(1) << 20, 1, std::uint64_t(64) << 20, "N", "pages in each index");
    p.add_uint("threads", std::clamp(hw, 2u, kMaxThreads), 1, kMaxThreads, "T",
        "concurrent lookups run at 1..T threads; T is max(2, hardware threads) unless given");
    p.add_string("csv", "", "FILE", "also write the results as CSV to FILE");
    p.add_uint("repeats", 3, 1, 15, "R", "rounds per cell; the median is reported");
    p.add_uint("seed", 1, 0, ~std::uint64_t(0), "S", "seed of the page layout and operation orders");
    p.add_string(
        "only", "", "LIST", "comma-separated index kinds and peer names to run (default: all), e.g. radix,judy");
    p.add_flag("quiet", "no progress lines on stderr");
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
    for (const auto& kind : index_kinds()) {
        if (!wanted(kind))
            continue;
        for (const auto& scheme : index_schemes(kind)) {
            Target t;
            t.index = kind;
            t.scheme = scheme;
            t.spec.kind = kind;
            t.spec.scheme = scheme;
            // Size the hash table as 2.4 would on a machine whose memory just
            // holds the N pages: one bucket per physical page, mean chain
            // length about 1 (FACTS.md section 1), not the default 256 MB.
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

/// Builds the target, runs one round, destroys it. Build errors and wrong
/// results mark the target failed; it is not measured again.
void run_target_round(
    Target& t, const Workload& w, const Plan& plan, sync::LockRegistry& registry, Samples& samples, Samples& cpu)
{
    try {
        if (t.peer) {
            auto peer = make_peer(t.index);
            if (!peer)
                throw std::runtime_error("peer is not built");
            run_round(*peer, w, t, plan, samples, cpu, t.failure);
        } else {
            {
                auto idx = make_page_index(t.spec, 0, registry);
                run_round(*idx, w, t, plan, samples, cpu, t.failure);
            }
            // Deferred frees of the index just destroyed run now, not during
            // the next target's timing.
            rcu::barrier();
        }
    } catch (const std::exception& e) {
        t.failure = e.what();
    }
}

double cell(const Samples& s, const Target& t, const char* op, unsigned threads, const std::string& layout)
{
    const auto it = s.find(CellKey(t.index, t.scheme, op, threads, layout));
    return it == s.end() || it->second.empty() ? -1.0 : median(it->second);
}

} // namespace

std::string index_bench_usage()
{
    return make_parser().usage();
}

int run_index_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser = make_parser();
    std::vector<std::string> only;
    try {
        parser.parse(args);
        only = split_list(parser.get_string("only"));
        std::vector<std::string> known = index_kinds();
        for (const auto& p : peer_list())
            known.push_back(p.name);
        for (const auto& name : only)
            if (std::find(known.begin(), known.end(), name) == known.end()) {
                std::string list;
                for (const auto& k : known)
                    list += (list.empty() ? "" : ", ") + k;
                throw ArgError("--only: '" + name + "' is not an index kind or peer (allowed: " + list + ")");
            }
        if (!parser.get_string("csv").empty())
            check_writable_path(parser.get_string("csv"), "--csv");
    } catch (const ArgError& e) {
        return report_arg_error(parser, e, err);
    }
    if (parser.help_requested()) {
        out << "usage: " << kProgram << " bench indexes [options]\n\n"
            << "Times insert, lookup (hit and miss), gang lookup and erase on every page index x locking\n"
            << "scheme and on peer libraries, on a dense and a sparse file, and concurrent lookups at\n"
            << "1..T threads. Prints tables; --csv writes index,scheme,op,threads,pages,layout,ns_per_op,ops_per_s.\n\n"
            << "options:\n"
            << parser.usage();
        return 0;
    }

    Plan plan;
    plan.pages = parser.get_uint("pages");
    plan.repeats = static_cast<unsigned>(parser.get_uint("repeats"));
    plan.thread_counts = thread_counts(static_cast<unsigned>(parser.get_uint("threads")));
    const unsigned max_threads = plan.thread_counts.back();
    const std::uint64_t seed = parser.get_uint("seed");
    const std::string csv_path = parser.get_string("csv");
    const bool quiet = parser.get_flag("quiet");

    std::vector<std::string> skipped;
    std::vector<Target> targets;
    try {
        targets = make_targets(plan.pages, only, skipped);
    } catch (const std::exception& e) {
        err << kProgram << " bench indexes: " << e.what() << '\n';
        return 1;
    }

    // The main thread inserts, erases and walks as simulated CPU 0; the
    // lookup workers take CPUs 0..T-1 while it waits.
    CpuScope cpu(0);
    sync::LockRegistry registry;
    const std::uint64_t started = now_ns();
    std::vector<Workload> workloads;
    workloads.push_back(make_workload("dense", plan.pages, seed));
    workloads.push_back(make_workload("sparse", plan.pages, seed));

    out << "bench indexes: " << plan.pages << " pages, lookups at 1.." << max_threads << " threads, median of "
        << plan.repeats << " rounds, " << kCellNs / 1000000 << " ms per lookup/gang/erase cell, gang lookups of "
        << kGangBatch << ", seed " << seed << "\n";

    // Rounds are interleaved (round 1 of every target, then round 2...) so a
    // slow spell on this shared machine spreads over all targets instead of
    // landing on one.
    Samples samples;
    Samples cpu_share;
    for (unsigned round = 0; round < plan.repeats; ++round) {
        for (const auto& w : workloads) {
            for (auto& t : targets) {
                if (!t.failure.empty())
                    continue;
                if (!quiet)
                    err << "round " << round + 1 << '/' << plan.repeats << ' ' << w.layout << ' ' << t.index << '/'
                        << t.scheme << '\n';
                run_target_round(t, w, plan, registry, samples, cpu_share);
            }
        }
    }

    Report csv({ "index", "scheme", "op", "threads", "pages", "layout", "ns_per_op", "ops_per_s" });
    static const char* const kOps[] = { "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" };
    for (const auto& w : workloads) {
        Report table({ "index", "scheme", "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" });
        for (const auto& t : targets) {
            table.add_row();
            table.set("index", t.index);
            table.set("scheme", t.scheme);
            for (const char* op : kOps) {
                const double ns = cell(samples, t, op, 1, w.layout);
                table.set(op, ns < 0 ? std::string("-") : fixed(ns, 1));
            }
            for (const char* op : kOps) {
                for (unsigned threads : plan.thread_counts) {
                    const double ns = cell(samples, t, op, threads, w.layout);
                    if (ns < 0)
                        continue;
                    csv.add_row();
                    csv.set("index", t.index);
                    csv.set("scheme", t.scheme);
                    csv.set("op", op);
                    csv.set("threads", std::uint64_t(threads));
                    csv.set("pages", plan.pages);
                    csv.set("layout", w.layout);
                    csv.set("ns_per_op", ns, 2);
                    // ns_per_op is per thread; throughput is all threads together.
                    csv.set("ops_per_s", std::uint64_t(double(threads) * 1e9 / ns + 0.5));
                }
            }
        }
        out << "\n" << w.layout << " layout, 1 thread, ns per operation (gang_lookup: per page returned):\n";
        table.print(out);
    }

    std::vector<std::string> concurrent_cols { "index", "scheme", "layout" };
    for (unsigned threads : plan.thread_counts)
        concurrent_cols.push_back(std::to_string(threads) + "t Mops/s");
    concurrent_cols.push_back("scaling");
    concurrent_cols.push_back("cpu %");
    Report conc(concurrent_cols);
    double lowest_share = 1.0;
    for (const auto& w : workloads)
        for (const auto& t : targets) {
            if (!t.concurrent)
                continue;
            conc.add_row();
            conc.set("index", t.index);
            conc.set("scheme", t.scheme);
            conc.set("layout", w.layout);
            for (unsigned threads : plan.thread_counts) {
                const double ns = cell(samples, t, "lookup_hit", threads, w.layout);
                conc.set(
                    std::to_string(threads) + "t Mops/s", ns < 0 ? std::string("-") : fixed(threads * 1e3 / ns, 2));
            }
            const double one = cell(samples, t, "lookup_hit", 1, w.layout);
            const double many = cell(samples, t, "lookup_hit", max_threads, w.layout);
            conc.set("scaling", one < 0 || many < 0 ? std::string("-") : fixed(one * max_threads / many, 2) + "x");
            // The lowest share of the row's cells: one disturbed cell is
            // enough to skew its scaling factor.
            double share = -1;
            for (unsigned threads : plan.thread_counts) {
                const double c = cell(cpu_share, t, "lookup_hit", threads, w.layout);
                if (c >= 0)
                    share = share < 0 ? c : std::min(share, c);
            }
            conc.set("cpu %", share < 0 ? std::string("-") : fixed(100 * share, 0));
            if (share >= 0)
                lowest_share = std::min(lowest_share, share);
        }
    out << "\nconcurrent lookup_hit, all threads together (scaling: throughput at " << max_threads
        << " threads / at 1;\ncpu %: CPU time the lookup threads got / what they asked for, lowest cell of the row):\n";
    conc.print(out);

    out << "\nnotes:\n";
    for (const auto& s : skipped)
        out << "  skipped " << s << '\n';
    for (const auto& info : peer_list())
        if (info.available && !info.ordered
            && std::any_of(targets.begin(), targets.end(), [&](const Target& t) { return t.index == info.name; }))
            out << "  " << info.name << ": no gang_lookup (unordered or no seek to a key)\n";
    if (lowest_share < 0.9)
        out << "  the lookup threads got as little as " << fixed(100 * lowest_share, 0)
            << "% of the CPU they asked for (a busy machine, or more threads than\n"
            << "  CPUs): they partly took turns, so rows with a low cpu % have unreliable Mops/s and scaling\n";
    bool failed = false;
    for (const auto& t : targets)
        if (!t.failure.empty()) {
            out << "  FAILED " << t.index << '/' << t.scheme << ": " << t.failure << '\n';
            failed = true;
        }

    // The comparisons the project is asked about: the lockless radix tree
    // against the best-known sparse array and the standard hash table.
    const auto find = [&](const std::string& index, const std::string& scheme) -> const Target* {
        for (const auto& t : targets)
            if (t.index == index && (scheme.empty() || t.scheme == scheme))
                return &t;
        return nullptr;
    };
    const Target* rcu_radix = find("radix", "rcu");
    if (!rcu_radix) {
        out << "  radix/rcu was not measured, so there is no lookup_hit comparison with the peers\n";
    } else {
        const double ours = cell(samples, *rcu_radix, "lookup_hit", 1, "dense");
        for (const char* peer : { "judy", "std_unordered_map" }) {
            const Target* p = find(peer, "");
            const double theirs = p ? cell(samples, *p, "lookup_hit", 1, "dense") : -1.0;
            if (ours < 0 || theirs < 0) {
                out << "  lookup_hit radix/rcu vs " << peer << ": not measured\n";
                continue;
            }
            out << "  lookup_hit, dense, " << plan.pages << " pages, 1 thread: radix/rcu " << fixed(ours, 1) << " ns, "
                << peer << ' ' << fixed(theirs, 1) << " ns; radix/rcu takes " << fixed(ours / theirs, 2) << "x " << peer
                << "'s time\n";
        }
    }
    out << "  lookup_hit scaling 1->" << max_threads << " threads (throughput ratio), dense / sparse:\n";
    for (const auto& t : targets) {
        if (!t.concurrent)
            continue;
        out << "    " << t.index << '/' << t.scheme << ':';
        for (const auto& w : workloads) {
            const double one = cell(samples, t, "lookup_hit", 1, w.layout);
            const double many = cell(samples, t, "lookup_hit", max_threads, w.layout);
            out << ' ' << (one < 0 || many < 0 ? std::string("-") : fixed(one * max_threads / many, 2) + "x");
        }
        out << '\n';
    }
    out << "  total time " << fixed(double(now_ns() - started) / 1e9, 1) << " s\n";

    if (!csv_path.empty()) {
        try {
            write_file_atomically(csv_path, csv.csv());
            out << "  wrote " << csv_path << '\n';
        } catch (const std::exception& e) {
            err << kProgram << " bench indexes: " << e.what() << '\n';
            return 1;
        }
    }
    (void)g_sink.load(std::memory_order_relaxed);
    return failed ? 1 : 0;
}

} // namespace pcl::bench
