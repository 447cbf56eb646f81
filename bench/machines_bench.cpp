#include "machines_bench.h"

#include "bench_output.h"

#include "lib/arg_parser.h"
#include "lib/bundle.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"
#include "probe/cpu_topology.h"
#include "probe/host_profile.h"
#include "probe/line_pingpong.h"
#include "probe/operation_cost.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace pcl::bench {

namespace {

// Lameter's pft in the pagefault scalability thread (2005), the 16 GB runs
// (first sample), faults per wall-second: his patches on 2.6.13-rc6-mm1, and
// Dickins' split locks on 2.6.13-rc1-mm1 ("equivalent").
struct PostedPft {
    unsigned threads;
    double rc6_mm1;
    double split;
};
constexpr PostedPft kLameter[] = { { 1, 77176, 76894 }, { 2, 151015, 150731 }, { 4, 263918, 263253 },
    { 8, 399411, 398115 }, { 16, 429355, 424757 }, { 32, 333249, 325968 }, { 60, 235491, 244372 } };

Scenario preset(const std::string& name)
{
    const auto text = bundled_file("scenarios/" + name + ".json");
    if (!text)
        throw std::runtime_error("no bundled scenario " + name);
    return parse_scenario(*text, name);
}

RunResult run_finished(const Scenario& s, const std::string& what)
{
    RunResult r = run_scenario(s);
    if (r.state != "finished")
        throw std::runtime_error(what + " did not finish: " + r.error);
    return r;
}

/// What the host loop compares of one run.
struct LoopFigures {
    double per_cpu = 0;    ///< operations per second per CPU
    double contended = 0;  ///< contended acquisitions per 1000 operations, every lock class
    double bounces = 0;    ///< acquisitions on another CPU than the last, per 1000 operations
    double throughput = 0; ///< operations per second
};

LoopFigures figures_of(const RunResult& r)
{
    LoopFigures f;
    const double ops = double(std::max<std::uint64_t>(r.operations, 1));
    f.throughput = ops / std::max(r.wall_seconds, 1e-9);
    f.per_cpu = f.throughput / double(std::max<std::size_t>(r.cpus.size(), 1));
    for (const sync::LockStatRow& c : r.lock_classes) {
        f.contended += double(c.contentions);
        f.bounces += double(c.acq_bounces);
    }
    f.contended *= 1000.0 / ops;
    f.bounces *= 1000.0 / ops;
    return f;
}

LoopFigures median_of(const std::vector<LoopFigures>& runs)
{
    const auto med = [&](double LoopFigures::*m) {
        std::vector<double> v;
        for (const LoopFigures& f : runs)
            v.push_back(f.*m);
        return median(v);
    };
    return { med(&LoopFigures::per_cpu), med(&LoopFigures::contended), med(&LoopFigures::bounces),
        med(&LoopFigures::throughput) };
}

/// The model's error over this computer's figure, in percent: "-12 %";
/// "0 both" (0 in the data) when both are 0, "-" when only this computer's is.
void set_error(Report& table, double host, double model)
{
    if (host == 0 && model == 0)
        table.set("error", "0 both", 0.0);
    else if (host == 0)
        table.set_missing("error");
    else
        table.set("error", fixed(100.0 * (model / host - 1.0), 0) + " %", 100.0 * (model / host - 1.0));
}

struct LoopScenario {
    const char* preset;
    const char* what;
    const char* files = nullptr; ///< workload.files, when it differs from the preset's
    bool one_cpu = true;         ///< the workload runs on one CPU (morton needs two)
};

/// Each transfer latency of @host measured again now, between the CPUs
/// calibrate takes for that distance, with a note and a CSV row for each
/// and a warning for each that moved (moved_latencies, probe/host_profile.h):
/// the model was calibrated where the hypervisor had the vCPUs then, and a
/// loop run after they moved compares this computer with a model of
/// another placement. The ping-pong is calibrate --quick's, a few ms.
void transfers_now(const sched::MachineProfile& host, const std::string& when, Report& csv, std::ostream& notes)
{
    constexpr unsigned kRounds = 15;
    constexpr std::uint64_t kRoundTrips = 500;
    sched::MachineProfile now = host;
    const HostTopology topology = read_host_topology("/sys/devices/system/cpu", allowed_cpus());
    for (std::size_t k = std::size_t(sched::DistanceKind::Smt); k < topology.pairs.size(); ++k)
        for (const auto& f : sched::latency_figure_fields()) {
            std::optional<sched::Figure>& figure = now.latency.*f.optional;
            if (f.name != sched::kDistanceKinds[k] || !figure || !topology.pairs[k])
                continue;
            const auto [a, b] = *topology.pairs[k];
            const double ns = line_pingpong(a, b, kRounds, kRoundTrips).one_way_ns;
            notes << "This computer " << when << ": a line passed between CPUs " << a << " and " << b << " in "
                  << significant(ns) << " ns (latency." << f.name << " of the profile: " << figure->ns << " ns)\n";
            csv.add_row();
            csv.set("part", std::string("host-loop"));
            csv.set("case", "this computer's transfer, " + when);
            csv.set("measure", "latency." + std::string(f.name) + ", ns");
            csv.set("measured", ns, 1);
            csv.set("modelled", double(figure->ns), 0);
            figure->ns = std::uint64_t(std::llround(ns));
        }
    for (const std::string& moved : moved_latencies(host, now))
        notes << moved << "\n";
}

/// Each scenario at 1 and 2 CPUs on this computer's threads (@repeats
/// times, alternated, medians) and on its calibrated model (with @repeats
/// schedule seeds, medians: one seed gives one run, and a scenario whose
/// figures move with the interleaving, as readahead thrashing's do, is
/// compared by the middle of its runs on both sides), the event stream off
/// in both.
int host_loop(std::uint64_t ops, unsigned repeats, Report& table, Report& csv, std::ostream& out)
{
    const LoopScenario scenarios[] = {
        { "2002-global-hash-lock", "own files, one global hash lock" },
        { "2002-radix-tree-per-file", "own files, a radix tree per file" },
        { "2002-radix-tree-per-file", "one shared file, its tree's lock", "shared" },
        { "2005-pft-single-page-table-lock", "pft, one page_table_lock" },
        { "2005-pft-split-page-table-lock", "pft, split PTE locks" },
        { "2002-readahead-thrashing-ondemand", "readahead thrashing (a reader of 48 files, a streamer)", nullptr,
            false },
    };
    for (const LoopScenario& ls : scenarios) {
        Scenario s = preset(ls.preset);
        s.engine.events = false;
        if (ls.files)
            s.engine.workload.files = *parse_file_sharing(ls.files);
        if (ls.one_cpu)
            s.engine.workload.operations_per_cpu = ops;
        const bool pft = s.engine.workload.pattern == WorkloadPattern::Pft;
        // This computer's mm: 2005's mm_struct puts mmap_sem and
        // page_table_lock on one line in the model only (the engine's two
        // locks are objects of their own here), which its threads could
        // not be compared with.
        s.engine.mm_struct_2005 = false;
        const std::uint64_t faults = std::min(ops, kOperationCostFaults);
        // calibrate's pft: 2^18 faults a CPU (fewer if --ops says so), and
        // only the memory they take. The engine's fault over 16 GiB of
        // frames costs this computer's caches several times what it costs
        // over 1 GiB, which the model does not know.
        const auto set_cpus = [&](unsigned n) {
            s.engine.workload.cpus = n;
            if (pft) {
                s.engine.workload.operations_per_cpu = faults;
                s.engine.workload.file_pages = n * faults;
                s.engine.memory_pages = n * faults + 16384;
            }
        };
        const std::vector<unsigned> cpus = ls.one_cpu ? std::vector<unsigned> { 1, 2 } : std::vector<unsigned> { 2 };
        std::vector<std::vector<LoopFigures>> host(cpus.size());
        std::vector<LoopFigures> model(cpus.size());
        s.engine.machine.modelled = false;
        for (std::size_t k = 0; k < cpus.size(); ++k) {
            // A first run, not counted: the process takes its memory from
            // the kernel for it (the host's own page faults, which no model
            // of the machine knows), and later runs reuse it.
            set_cpus(cpus[k]);
            run_finished(s, std::string(ls.preset) + " on this computer");
        }
        for (unsigned r = 0; r < repeats; ++r)
            for (std::size_t k = 0; k < cpus.size(); ++k) {
                set_cpus(cpus[k]);
                host[k].push_back(figures_of(run_finished(s, std::string(ls.preset) + " on this computer")));
            }
        s.engine.machine.modelled = true;
        for (std::size_t k = 0; k < cpus.size(); ++k) {
            set_cpus(cpus[k]);
            std::vector<LoopFigures> seeds;
            for (unsigned r = 0; r < repeats; ++r) {
                // The scenario's own seed first (schedule_seed 0), then the
                // next ones: its runs on the threads keep their seed too.
                s.engine.machine.schedule_seed = r == 0 ? 0 : s.engine.workload.seed + r;
                seeds.push_back(figures_of(run_finished(s, std::string(ls.preset) + " on the model")));
            }
            s.engine.machine.schedule_seed = 0;
            model[k] = median_of(seeds);
        }
        const auto row = [&](const std::string& measure, double h, double m, int precision) {
            table.add_row();
            table.set("scenario", std::string(ls.what));
            table.set("measure", measure);
            table.set("this computer", h, precision);
            table.set("model", m, precision);
            set_error(table, h, m);
            csv.add_row();
            csv.set("part", std::string("host-loop"));
            csv.set("case", std::string(ls.what));
            csv.set("measure", measure);
            csv.set("measured", h, 6);
            csv.set("modelled", m, 6);
        };
        std::vector<LoopFigures> h;
        for (const auto& runs : host)
            h.push_back(median_of(runs));
        for (std::size_t k = 0; k < cpus.size(); ++k)
            row("ops/s per CPU, " + std::to_string(cpus[k]) + " CPU" + (cpus[k] > 1 ? "s" : ""), h[k].per_cpu,
                model[k].per_cpu, 0);
        const std::size_t two = cpus.size() - 1;
        if (cpus.size() == 2)
            row("throughput 2 CPUs / 1 CPU", h[1].throughput / h[0].throughput,
                model[1].throughput / model[0].throughput, 2);
        row("contended per 1000 ops, 2 CPUs", h[two].contended, model[two].contended, 2);
        row("bounces per 1000 ops, 2 CPUs", h[two].bounces, model[two].bounces, 1);
        out << "." << std::flush;
    }
    out << "\n";
    return 0;
}

/// Faults per virtual second of pft on altix-2005 at 1..60 threads, under
/// each page-table lock scheme, beside Lameter's tables.
void pft_knee(std::uint64_t faults, double scale, Report& table, Report& csv)
{
    const char* const schemes[] = { "single_walk", "single", "split" };
    for (const PostedPft& posted : kLameter) {
        table.add_row();
        table.set("threads", std::uint64_t(posted.threads));
        for (const char* scheme : schemes) {
            Scenario s = preset("2005-pft-split-page-table-lock");
            s.engine.machine.profile = "altix-2005";
            s.engine.machine.latency_scale = scale;
            s.engine.workload.cpus = posted.threads;
            s.engine.workload.operations_per_cpu = faults;
            s.engine.page_table_lock = PageTable::parse_scheme(scheme);
            const RunResult r = run_finished(s, std::string("pft (") + scheme + ")");
            const double rate = double(r.operations) / r.wall_seconds;
            table.set(scheme, rate, 0);
            csv.add_row();
            csv.set("part", std::string("pft"));
            csv.set("case", std::string(scheme) + " x" + significant(scale));
            csv.set("measure", "faults/s at " + counted(posted.threads, "thread"));
            csv.set("modelled", rate, 0);
            csv.set("measured", posted.rc6_mm1, 0);
        }
        table.set("Lameter rc6-mm1", posted.rc6_mm1, 0);
        table.set("Lameter split", posted.split, 0);
    }
}

/// Random 4 KiB reads on pentium3-xeon-8way-2002 at 1..8 CPUs, operations
/// per virtual second: the radix-tree thread's question.
void p3_reads(std::uint64_t ops, double scale, Report& table, Report& csv)
{
    struct Case {
        const char* column;
        const char* preset;
        const char* files;
        const char* hash_scheme; ///< index.scheme for the hash, or null
    };
    const Case cases[] = {
        { "own files, global hash lock", "2002-global-hash-lock", "separate", nullptr },
        { "own files, radix tree per file", "2002-radix-tree-per-file", "separate", nullptr },
        { "shared file, global hash lock", "2002-global-hash-lock", "shared", nullptr },
        { "shared file, hashed locks", "2002-global-hash-lock", "shared", "hashed" },
        { "shared file, radix tree", "2002-radix-tree-per-file", "shared", nullptr },
    };
    for (unsigned cpus : { 1u, 2u, 4u, 8u }) {
        table.add_row();
        table.set("CPUs", std::uint64_t(cpus));
        for (const Case& c : cases) {
            Scenario s = preset(c.preset);
            s.engine.machine.profile = "pentium3-xeon-8way-2002";
            s.engine.machine.latency_scale = scale;
            s.engine.workload.cpus = cpus;
            s.engine.workload.operations_per_cpu = ops;
            s.engine.workload.files = *parse_file_sharing(c.files);
            s.engine.memory_pages = 40000;
            if (c.hash_scheme)
                s.engine.index.scheme = c.hash_scheme;
            const RunResult r = run_finished(s, std::string(c.column));
            const double rate = double(r.operations) / r.wall_seconds;
            table.set(c.column, rate, 0);
            csv.add_row();
            csv.set("part", std::string("p3"));
            csv.set("case", std::string(c.column) + " x" + significant(scale));
            csv.set("measure", "reads/s at " + counted(cpus, "CPU"));
            csv.set("modelled", rate, 0);
        }
    }
}

std::vector<double> parse_scales(const std::string& text)
{
    std::vector<double> scales;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != item.size() || !(v > 0) || v > 1000)
            throw ArgError("--scales: '" + item + "' is not a latency scale (a number above 0, at most 1000)");
        scales.push_back(v);
        start = comma + 1;
    }
    return scales;
}

} // namespace

int run_machines_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("bench machines");
    p.add_string("part", "all", "P", "host-loop, pft, p3 or all");
    p.add_uint("repeats", 5, 1, 100, "R",
        "host loop: runs on this computer's threads of each case, alternated, and on the model with as many schedule "
        "seeds; medians");
    p.add_uint("ops", 2'000'000, 1000, 1ull << 24, "N",
        "host loop: reads per CPU (enough that the first read of each page, an I/O, is a small part); pft takes "
        "calibrate's 2^18 faults a CPU, or N if fewer");
    p.add_uint("pft-faults", 20'000, 100, 1ull << 24, "N", "pft and p3: faults (reads) per modelled CPU");
    p.add_string("scales", "1", "S,...", "pft and p3: the transfer latency scales to run at (0.5,1,2 for sensitivity)");
    p.add_output("csv", "FILE", "also write every figure as CSV");
    add_format_option(p,
        "host_loop, pft and p3 (at a scale S other than 1, pft_xS and p3_xS) and figures (every figure, as --csv "
        "writes them)",
        "the figures table: part,case,measure,measured,modelled");
    p.describe("[options]",
        "How well the modelled machines predict. host-loop: six bundled scenarios at 1 and 2 CPUs on\n"
        "this computer's threads and on its calibrated model ('calibrate' first), the event stream off,\n"
        "with the model's error; the transfer between two CPUs measured again before and after the runs,\n"
        "with a warning when it has moved more than a quarter from the profile's (a virtual machine's\n"
        "vCPUs may be placed elsewhere than when it was calibrated). pft: Lameter's pft on altix-2005\n"
        "at 1 to 60 threads under each page-table lock scheme, beside his tables. p3: random reads on\n"
        "pentium3-xeon-8way-2002 at 1 to 8 CPUs, own files and one shared file, global hash lock, hashed\n"
        "locks and radix trees.");
    std::vector<double> scales;
    if (const auto code = p.parse_command(args, out, err, [&](const ArgParser& a) {
            const std::string& part = a.get_string("part");
            if (part != "host-loop" && part != "pft" && part != "p3" && part != "all")
                throw ArgError("--part: '" + part + "' is not one of host-loop, pft, p3, all");
            scales = parse_scales(a.get_string("scales"));
            check_format_option(a);
        }))
        return *code;
    BenchOutput output(p, out, err, "figures");
    std::ostream& notes = output.notes();
    const std::string& part = p.get_string("part");
    Report csv({ "part", "case", "measure", "measured", "modelled" });
    try {
        if (part == "host-loop" || part == "all") {
            std::optional<sched::MachineProfile> host;
            try {
                host = sched::load_machine_profile("host");
            } catch (const std::exception& e) {
                err << kProgram << " bench machines: " << e.what() << "\n";
                return 1;
            }
            Report table({ "scenario", "measure", "this computer", "model", "error" });
            transfers_now(*host, "before the runs", csv, notes);
            notes << "Closing the loop: this computer's threads against its calibrated model, the event stream off ("
                  << counted(p.get_uint("repeats"), "run")
                  << " each on the threads and as many schedule seeds on the model, "
                  << "medians)";
            host_loop(p.get_uint("ops"), unsigned(p.get_uint("repeats")), table, csv, notes);
            output.table("host_loop", table);
            transfers_now(*host, "after the runs", csv, notes);
            notes << "\n";
        }
        for (const double scale : scales) {
            const std::string at = scale == 1 ? "" : ", transfer latencies x" + significant(scale);
            const std::string suffix = scale == 1 ? "" : "_x" + significant(scale);
            if (part == "pft" || part == "all") {
                Report table({ "threads", "single_walk", "single", "split", "Lameter rc6-mm1", "Lameter split" });
                pft_knee(p.get_uint("pft-faults"), scale, table, csv);
                notes << "pft on altix-2005, faults per virtual second" << at
                      << " (single_walk: stock 2.6.13's lock across the walk; single: one lock, unlocked walk; "
                         "split: a lock per PTE page), beside Lameter's 16 GB runs (faults per wall-second):\n";
                output.table("pft" + suffix, table);
                notes << "\n";
            }
            if (part == "p3" || part == "all") {
                Report table({ "CPUs", "own files, global hash lock", "own files, radix tree per file",
                    "shared file, global hash lock", "shared file, hashed locks", "shared file, radix tree" });
                p3_reads(p.get_uint("pft-faults"), scale, table, csv);
                notes << "random 4 KiB reads on pentium3-xeon-8way-2002, reads per virtual second" << at << ":\n";
                output.table("p3" + suffix, table);
                notes << "\n";
            }
        }
    } catch (const std::exception& e) {
        err << kProgram << " bench machines: " << e.what() << "\n";
        return 1;
    }
    output.data("figures", csv);
    if (!output.write_csv(csv.csv()))
        return 1;
    output.finish();
    return 0;
}

} // namespace pcl::bench
