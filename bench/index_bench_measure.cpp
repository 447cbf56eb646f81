// `bench indexes`, the measuring half: the layouts' pages and operation
// orders, one round of every operation on one target, and the interleaved
// rounds of every target (index_bench_rows.h).
#include "bench_progress.h"
#include "index_bench_rows.h"

#include "lib/report.h"
#include "peers.h"
#include "start_line.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "base/splitmix64.h"
#include "index/index_factory.h"
#include "index/page_layout.h"
#include "sync/lock_stats.h"
#include "sync/rcu.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace pcl::bench::indexes {

namespace {

/// The clock is read once per kCheckEvery operations (gang lookup calls) of
/// a cell, a negligible cost.
constexpr std::uint64_t kCheckEvery = 256;

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
    // The layouts the lesson probes use too (index/page_layout.h).
    const LayoutOffsets offsets = layout_offsets(layout == "dense" ? PageLayout::Dense : PageLayout::Sparse, n, rng);
    w.pages = std::vector<Page>(n); // pages are not copyable or movable: built in place
    for (std::uint64_t i = 0; i < n; ++i)
        w.pages[i].index = offsets.present[i];
    const auto p1 = shuffled_order(n, rng);
    const auto p2 = shuffled_order(n, rng);
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
        w.miss_keys[i] = offsets.absent[p2[i]];
    }
    return w;
}

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

double median_of(const Samples& s, const CellKey& key)
{
    const auto it = s.find(key);
    return it == s.end() || it->second.empty() ? -1.0 : median(it->second);
}

} // namespace

std::vector<Row> measure(
    const Plan& plan, std::uint64_t seed, std::vector<Target>& targets, bool quiet, std::ostream& err)
{
    // The main thread inserts, erases and walks as simulated CPU 0; the
    // lookup workers take CPUs 0..T-1 while it waits.
    CpuScope cpu(0);
    sync::LockRegistry registry;
    std::vector<Workload> workloads;
    for (const char* layout : kLayouts)
        workloads.push_back(make_workload(layout, plan.pages, seed));

    // Rounds are interleaved (round 1 of every target, then round 2...) so a
    // slow spell on this shared machine spreads over all targets instead of
    // landing on one.
    Samples samples;
    Samples cpu_share;
    BenchProgress progress(err, plan.repeats * workloads.size() * targets.size(), true, quiet);
    for (unsigned round = 0; round < plan.repeats; ++round) {
        for (const auto& w : workloads) {
            for (auto& t : targets) {
                if (!t.failure.empty())
                    continue; // failed in an earlier round: not run again
                progress.step("round " + std::to_string(round + 1) + '/' + std::to_string(plan.repeats) + ' ' + w.layout
                    + ' ' + t.index + '/' + t.scheme);
                run_target_round(t, w, plan, registry, samples, cpu_share);
            }
        }
    }
    progress.finish();
    (void)g_sink.load(std::memory_order_relaxed);

    std::vector<Row> rows;
    for (const auto& [key, values] : samples) {
        if (values.empty())
            continue;
        Row r;
        std::tie(r.index, r.scheme, r.op, r.threads, r.layout) = key;
        r.ns_per_op = median(values);
        r.cpu_share = median_of(cpu_share, key);
        rows.push_back(std::move(r));
    }
    return rows;
}

} // namespace pcl::bench::indexes
