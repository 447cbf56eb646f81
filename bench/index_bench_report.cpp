// `bench indexes`, the reporting half: the measured rows (index_bench_rows.h)
// as the 1-thread tables, the concurrent lookup table, the notes and the CSV.
#include "index_bench_rows.h"

#include "bench_output.h"
#include "lib/report.h"
#include "lib/text.h"
#include "peers.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

namespace pcl::bench::indexes {

namespace {

/// The rows by cell, for the tables' lookups.
class Cells {
public:
    explicit Cells(const std::vector<Row>& rows)
    {
        for (const Row& r : rows)
            rows_.emplace(Key(r.index, r.scheme, r.op, r.threads, r.layout), &r);
    }
    /// ns per operation of the cell, -1 if it was not measured.
    double ns(const Target& t, const char* op, unsigned threads, const std::string& layout) const
    {
        const Row* r = find(t, op, threads, layout);
        return r ? r->ns_per_op : -1.0;
    }
    /// The lookup threads' CPU share in the cell, -1 if it was not measured.
    double cpu_share(const Target& t, const char* op, unsigned threads, const std::string& layout) const
    {
        const Row* r = find(t, op, threads, layout);
        return r ? r->cpu_share : -1.0;
    }

private:
    using Key = std::tuple<std::string, std::string, std::string, unsigned, std::string>;
    const Row* find(const Target& t, const char* op, unsigned threads, const std::string& layout) const
    {
        const auto it = rows_.find(Key(t.index, t.scheme, op, threads, layout));
        return it == rows_.end() ? nullptr : it->second;
    }
    std::map<Key, const Row*> rows_;
};

/// The flat array: one slot per index, the floor of a lookup (peers.cpp).
constexpr const char* kFloorPeer = "flat_array";
/// The least share of its CPU a lookup thread must get for a concurrent cell to count.
constexpr double kValidCpuShare = 0.9;

/// @table's @column: "2.31x", @ns over @base, or "-" when either was not
/// measured.
void set_ratio(Report& table, const std::string& column, double ns, double base)
{
    if (ns < 0 || base <= 0)
        table.set_missing(column);
    else
        table.set(column, fixed(ns / base, 2) + "x", ns / base);
}

/// @table's @column: @v with @precision digits, or "-" for a cell that was
/// not measured (@measured false).
void set_measured(Report& table, const std::string& column, bool measured, double v, int precision)
{
    if (measured)
        table.set(column, v, precision);
    else
        table.set_missing(column);
}

/// Each target's 1-thread time on @layout over the flat array's, and over the
/// fastest other peer's of the same operation in this run (named in the
/// table's first row): how far an index is from the floor, and from the best
/// structure someone else wrote.
void print_ratios(
    BenchOutput& output, const Cells& cells, const std::vector<Target>& targets, const std::string& layout)
{
    const Target* floor = nullptr;
    for (const auto& t : targets)
        if (t.peer && t.index == kFloorPeer)
            floor = &t;
    std::map<std::string, const Target*> best; // op -> fastest peer other than the floor
    for (const char* op : kOps)
        for (const auto& t : targets) {
            if (!t.peer || t.index == kFloorPeer)
                continue;
            const double ns = cells.ns(t, op, 1, layout);
            if (ns >= 0 && (!best[op] || ns < cells.ns(*best[op], op, 1, layout)))
                best[op] = &t;
        }

    if (floor) {
        Report vs_floor({ "index", "scheme", "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" });
        for (const auto& t : targets) {
            vs_floor.add_row();
            vs_floor.set("index", t.index);
            vs_floor.set("scheme", t.scheme);
            for (const char* op : kOps)
                set_ratio(vs_floor, op, cells.ns(t, op, 1, layout), cells.ns(*floor, op, 1, layout));
        }
        output.notes() << "\n" << layout << " layout, 1 thread, time / " << kFloorPeer << "'s time:\n";
        output.table(layout + "_vs_" + kFloorPeer, vs_floor);
    }
    if (std::any_of(kOps.begin(), kOps.end(), [&](const char* op) { return best[op] != nullptr; })) {
        Report vs_best({ "index", "scheme", "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" });
        vs_best.add_row();
        vs_best.set("index", "best peer");
        vs_best.set("scheme", "");
        for (const char* op : kOps)
            vs_best.set(op, best[op] ? best[op]->index : std::string("-"));
        for (const auto& t : targets) {
            vs_best.add_row();
            vs_best.set("index", t.index);
            vs_best.set("scheme", t.scheme);
            for (const char* op : kOps)
                set_ratio(
                    vs_best, op, cells.ns(t, op, 1, layout), best[op] ? cells.ns(*best[op], op, 1, layout) : -1.0);
        }
        output.notes() << "\n"
                       << layout << " layout, 1 thread, time / the best peer's time (the fastest peer but "
                       << kFloorPeer << " of each operation, named in the first row):\n";
        output.table(layout + "_vs_best_peer", vs_best);
    }
}

} // namespace

void print_report(BenchOutput& output, const Plan& plan, const std::vector<Target>& targets,
    const std::vector<std::string>& skipped, const std::vector<Row>& rows)
{
    std::ostream& out = output.notes();
    const Cells cells(rows);
    const unsigned max_threads = plan.thread_counts.back();
    for (const std::string layout : kLayouts) {
        Report table({ "index", "scheme", "insert", "lookup_hit", "lookup_miss", "gang_lookup", "erase" });
        for (const auto& t : targets) {
            table.add_row();
            table.set("index", t.index);
            table.set("scheme", t.scheme);
            for (const char* op : kOps) {
                const double ns = cells.ns(t, op, 1, layout);
                set_measured(table, op, ns >= 0, ns, 1);
            }
        }
        out << "\n" << layout << " layout, 1 thread, ns per operation (gang_lookup: per page returned):\n";
        output.table(layout, table);
        print_ratios(output, cells, targets, layout);
    }

    std::vector<std::string> concurrent_cols { "index", "scheme", "layout" };
    for (unsigned threads : plan.thread_counts)
        concurrent_cols.push_back(std::to_string(threads) + "t Mops/s");
    concurrent_cols.push_back("scaling");
    concurrent_cols.push_back("cpu %");
    Report conc(concurrent_cols);
    double lowest_share = 1.0;
    for (const std::string layout : kLayouts)
        for (const auto& t : targets) {
            if (!t.concurrent)
                continue;
            conc.add_row();
            conc.set("index", t.index);
            conc.set("scheme", t.scheme);
            conc.set("layout", layout);
            for (unsigned threads : plan.thread_counts) {
                const double ns = cells.ns(t, "lookup_hit", threads, layout);
                set_measured(conc, std::to_string(threads) + "t Mops/s", ns >= 0, threads * 1e3 / ns, 2);
            }
            const double one = cells.ns(t, "lookup_hit", 1, layout);
            const double many = cells.ns(t, "lookup_hit", max_threads, layout);
            // Throughput at T threads over at 1: T x the 1-thread time over the T-thread time.
            set_ratio(conc, "scaling", one < 0 ? -1.0 : one * max_threads, many);
            // The lowest share of the row's cells: one disturbed cell is
            // enough to skew its scaling factor.
            double share = -1;
            for (unsigned threads : plan.thread_counts) {
                const double c = cells.cpu_share(t, "lookup_hit", threads, layout);
                if (c >= 0)
                    share = share < 0 ? c : std::min(share, c);
            }
            set_measured(conc, "cpu %", share >= 0, 100 * share, 0);
            if (share >= 0)
                lowest_share = std::min(lowest_share, share);
        }
    out << "\nconcurrent lookup_hit, all threads together (scaling: throughput at " << counted(max_threads, "thread")
        << " / at 1;\ncpu %: CPU time the lookup threads got / what they asked for, lowest cell of the row):\n";
    output.table("concurrent", conc);

    out << "\nnotes:\n";
    for (const auto& s : skipped)
        out << "  skipped " << s << '\n';
    for (const auto& info : peer_list())
        if (info.available && !info.ordered
            && std::any_of(targets.begin(), targets.end(), [&](const Target& t) { return t.index == info.name; }))
            out << "  " << info.name << ": no gang_lookup (unordered or no seek to a key)\n";
    if (lowest_share < kValidCpuShare)
        out << "  the lookup threads got as little as " << fixed(100 * lowest_share, 0)
            << "% of the CPU they asked for (a busy machine, or more threads than\n"
            << "  CPUs): they partly took turns, so rows with a low cpu % have unreliable Mops/s and scaling\n";
    for (const auto& t : targets)
        if (!t.failure.empty())
            out << "  FAILED " << t.index << '/' << t.scheme << ": " << t.failure << '\n';

    // The comparisons the project is asked about: the lockless radix tree
    // against the floor of a lookup, the kernel's own xarray, the best-known
    // sparse array and the standard hash table.
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
        const double ours = cells.ns(*rcu_radix, "lookup_hit", 1, "dense");
        for (const char* peer : { kFloorPeer, "xarray", "judy", "std_unordered_map" }) {
            const Target* p = find(peer, "");
            const double theirs = p ? cells.ns(*p, "lookup_hit", 1, "dense") : -1.0;
            if (ours < 0 || theirs < 0) {
                out << "  lookup_hit radix/rcu vs " << peer << ": not measured\n";
                continue;
            }
            out << "  lookup_hit, dense, " << counted(plan.pages, "page") << ", 1 thread: radix/rcu " << fixed(ours, 1)
                << " ns, " << peer << ' ' << fixed(theirs, 1) << " ns; radix/rcu takes " << fixed(ours / theirs, 2)
                << "x " << peer << "'s time\n";
        }
    }
    // A scaling figure means something only if every thread ran: on a
    // busy machine, or with more threads than CPUs, they take turns and the
    // ratio measures the scheduler. Each figure says whether its run was valid.
    out << "  lookup_hit scaling 1->" << counted(max_threads, "thread")
        << " (throughput ratio), dense / sparse; a run is valid when every\n"
        << "  thread got at least " << fixed(100 * kValidCpuShare, 0) << "% of the CPU it asked for:\n";
    for (const auto& t : targets) {
        if (!t.concurrent)
            continue;
        out << "    " << t.index << '/' << t.scheme << ':';
        for (const std::string layout : kLayouts) {
            const double one = cells.ns(t, "lookup_hit", 1, layout);
            const double many = cells.ns(t, "lookup_hit", max_threads, layout);
            if (one < 0 || many < 0) {
                out << " -";
                continue;
            }
            out << ' ' << fixed(one * max_threads / many, 2) << 'x';
            const double share = std::min(
                cells.cpu_share(t, "lookup_hit", 1, layout), cells.cpu_share(t, "lookup_hit", max_threads, layout));
            if (share >= 0 && share < kValidCpuShare)
                out << " (not valid: cpu " << fixed(100 * share, 0) << "%)";
        }
        out << '\n';
    }
}

Report cells_table(const Plan& plan, const std::vector<Target>& targets, const std::vector<Row>& rows)
{
    const Cells cells(rows);
    Report csv({ "index", "scheme", "op", "threads", "pages", "layout", "ns_per_op", "ops_per_s" });
    for (const std::string layout : kLayouts)
        for (const auto& t : targets)
            for (const char* op : kOps)
                for (unsigned threads : plan.thread_counts) {
                    const double ns = cells.ns(t, op, threads, layout);
                    if (ns < 0)
                        continue;
                    csv.add_row();
                    csv.set("index", t.index);
                    csv.set("scheme", t.scheme);
                    csv.set("op", op);
                    csv.set("threads", std::uint64_t(threads));
                    csv.set("pages", plan.pages);
                    csv.set("layout", layout);
                    csv.set("ns_per_op", ns, 2);
                    // ns_per_op is per thread; throughput is all threads together.
                    csv.set("ops_per_s", std::uint64_t(double(threads) * 1e9 / ns + 0.5));
                }
    return csv;
}

} // namespace pcl::bench::indexes
