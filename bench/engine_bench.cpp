#include "engine_bench.h"

#include "bench_output.h"
#include "bench_progress.h"
#include "engine_run.h"

#include "base/clock.h"
#include "events/tracepoint.h"
#include "lib/arg_parser.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"
#include "mm/fault.h"
#include "sched/machine_profiles.h"
#include "sim/engine.h"
#include "sim/runner.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <ostream>
#include <thread>
#include <tuple>

namespace pcl::bench {

namespace {

// Christoph Lameter's pft figures in the pagefault scalability thread (2005;
// docs/history.md): 2.6.13-rc6-mm1, a 16 GB region, faults per wall-second:
// threads -> faults/s.
constexpr std::pair<unsigned, double> kPostedPft[]
    = { { 1, 77176 }, { 2, 151015 }, { 4, 263918 }, { 8, 399411 }, { 16, 429355 }, { 32, 333249 }, { 60, 235491 } };

double posted_pft(unsigned threads)
{
    for (auto [t, f] : kPostedPft)
        if (t == threads)
            return f;
    return 0;
}

/// What watching a CPU costs: its ring, drained every 10 ms by a reader
/// thread, as the GUI's timer and the runner's sampler drain it.
struct Watcher {
    explicit Watcher(bool all_events)
        : all(all_events)
    {
    }
    bool all; ///< record every fault and lock acquisition, as at demo speed
    EventRing ring { std::size_t(1) << 14 };
    std::atomic<bool> done { false };
    std::uint64_t drained = 0;
    std::thread reader;

    void start()
    {
        reader = std::thread([this] {
            std::vector<Event> batch;
            while (!done.load(std::memory_order_acquire)) {
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
                batch.clear();
                drained += ring.drain(batch);
            }
            batch.clear();
            drained += ring.drain(batch);
        });
    }
    void finish()
    {
        done.store(true, std::memory_order_release);
        reader.join();
    }
};

/// Minor faults: the file is read into the cache with read(2) first, then
/// every page is faulted at its own address, each a minor fault. One CPU,
/// unpaced, with the event stream on (@watcher) or off; returns faults per
/// second.
double minor_faults_per_second(std::uint64_t pages, std::uint64_t& faults, Watcher* watcher = nullptr)
{
    sync::LockRegistry registry;
    FrameAllocator frames(pages + 64, registry);
    IndexSpec spec; // radix tree, lockless (RCU) lookups
    PageCache cache(spec, frames, registry);
    PageTable table({ PageTable::Scheme::Split, 0 }, registry);
    BlockDevice device({ 0, 0, 0.0 }, cache.page_locks());
    NoReadahead readahead;
    FaultHandler handler(cache, table, device, readahead);
    const FileId f = cache.add_file(pages);
    for (pgoff_t i = 0; i < pages; i += 64)
        handler.read(f, i, std::min<pgoff_t>(64, pages - i));
    if (watcher)
        watcher->start();
    std::uint64_t ns = 0;
    {
        trace::ThreadTrace trace(watcher ? &watcher->ring : nullptr, -1, watcher && watcher->all);
        const std::uint64_t t0 = now_ns();
        for (pgoff_t i = 0; i < pages; ++i)
            faults += handler.file_fault(f, i, i) == FaultKind::Minor;
        ns = std::max<std::uint64_t>(now_ns() - t0, 1);
    }
    if (watcher)
        watcher->finish();
    for (pgoff_t i = 0; i < pages; ++i)
        if (Page* p = table.unmap(i))
            cache.put_page(p);
    return double(pages) * 1e9 / double(ns);
}

struct PftRun {
    double faults_per_s = 0;     ///< per wall-clock second
    double faults_per_cpu_s = 0; ///< per second of CPU time the process used
    double cpus_used = 0;        ///< CPU time over wall time: the CPUs the run got
    bool ok = false;
};

/// pft: @threads CPUs each fault their own part of an anonymous region
/// once; @pcp: frames through the per-CPU free lists, or every one through
/// zone.lock.
PftRun pft(unsigned threads, std::uint64_t pages_per_thread, PageTable::Scheme scheme, bool pcp = true)
{
    EngineConfig c;
    c.workload.pattern = WorkloadPattern::Pft;
    c.workload.cpus = threads;
    c.workload.file_pages = pages_per_thread * threads;
    c.workload.operations_per_cpu = pages_per_thread;
    c.page_table_lock = scheme;
    c.reclaim.percpu_pagelists = pcp;
    // Room beside the region for the reserve under the min watermark and
    // the CPUs' free lists: anonymous pages are never reclaimed.
    c.memory_pages = c.workload.file_pages + 16384;
    EngineRun run(c);
    PftRun r;
    r.ok = run.finished() && run.engine.page_table().mapped_count() == c.workload.file_pages;
    r.faults_per_s = double(c.workload.file_pages) * 1e9 / double(run.wall_ns);
    r.faults_per_cpu_s = double(c.workload.file_pages) * 1e9 / double(run.cpu_ns);
    r.cpus_used = double(run.cpu_ns) / double(run.wall_ns);
    return r;
}

struct SharingRun {
    std::uint64_t operations = 0;
    sync::LockStatRow lock; ///< the index lock's class
    bool ok = false;
};

/// The question of the radix-tree pagecache thread (2002): N CPUs reading
/// through the page cache, each on its own file or all on one, with 2.4's one
/// global hash lock or a per-file tree lock. Every read(2) looks its page up
/// under the index lock.
SharingRun sharing(
    const char* kind, const char* scheme, const char* lock_class, const char* files, unsigned cpus, std::uint64_t ops)
{
    EngineConfig c;
    c.workload.pattern = WorkloadPattern::Random;
    c.workload.access = WorkloadAccess::Read;
    c.workload.files = parse_file_sharing(files).value();
    c.workload.cpus = cpus;
    c.workload.file_pages = 4096;
    c.workload.operations_per_cpu = ops;
    c.index.kind = index_kind_named(kind);
    c.index.scheme = scheme;
    c.index.hash_buckets = 1 << 14;
    c.memory_pages = 4096 * (cpus + 1);
    c.device = { 0, 0, 0.0 }; // an instant disk: the locks are what is measured
    EngineRun run(c);
    SharingRun r;
    r.ok = run.finished();
    r.operations = run.engine.operations();
    for (const auto& row : run.registry.classes())
        if (row.name == lock_class)
            r.lock = row;
    return r;
}

/// What a dd-like writer run did.
struct WritebackRun {
    bool ok = false;
    double seconds = 0;
    std::uint64_t dirtied = 0, written = 0, evictions = 0, throttled = 0, requests = 0;
};

/// @cpus CPUs each write(2) @pages pages of a file of their own in 16-page
/// calls, into a memory of @frames, on an instant disk: writeback's own
/// cost (tagging, locking, submitting, completing, throttling, reclaim of
/// the written pages), not a disk's.
WritebackRun writeback_run(unsigned cpus, std::uint64_t pages, std::uint64_t frames)
{
    EngineConfig c;
    c.workload.pattern = WorkloadPattern::Sequential;
    c.workload.access = WorkloadAccess::Write;
    c.workload.cpus = cpus;
    c.workload.file_pages = pages;
    c.workload.request_pages = 16;
    c.workload.operations_per_cpu = pages / 16;
    c.index.kind = IndexKind::Radix;
    c.index.scheme = "rcu";
    c.memory_pages = frames;
    c.device = { 0, 0, 0.0 };
    c.events = false;
    EngineRun run(c);
    Engine& engine = run.engine;
    WritebackRun r;
    r.seconds = double(run.wall_ns) / 1e9;
    r.ok = run.finished();
    const PageCacheStats s = engine.page_cache().stats();
    r.dirtied = s.dirtied;
    r.written = engine.device().pages_written();
    r.evictions = s.evictions;
    r.throttled = engine.writeback().stats().throttled;
    r.requests = engine.device().write_requests();
    return r;
}

/// What a run on modelled machine @machine costs the host: pft with split
/// PTE locks (mmap_sem read in every fault, as 2.6.13's) at 1, 8 and 64
/// CPUs (as many as the profile has), 2^20 faults in all, each beside the
/// same run on this computer's threads. The modelled faults per second of
/// host time are the simulator's speed; per virtual second, the modelled
/// machine's rate.
int modelled_speed(const std::string& machine, BenchOutput& output, std::ostream& err)
{
    sched::MachineProfile profile;
    try {
        profile = sched::load_machine_profile(machine);
    } catch (const std::exception& e) {
        err << kProgram << " bench engine: --machine: " << e.what() << "\n";
        return 2;
    }
    constexpr std::uint64_t kFaults = std::uint64_t(1) << 20;
    Report table({ "CPUs", "faults", "modelled faults/host-s", "modelled faults/virtual-s", "host run faults/s",
        "host-s modelled", "host-s host run" });
    for (unsigned cpus : { 1u, 8u, 64u }) {
        if (cpus > profile.max_cpus)
            break;
        Scenario s;
        EngineConfig& c = s.engine;
        c.workload.pattern = WorkloadPattern::Pft;
        c.workload.cpus = cpus;
        c.workload.operations_per_cpu = kFaults / cpus;
        c.workload.file_pages = c.workload.operations_per_cpu * cpus;
        c.page_table_lock = PageTable::Scheme::Split;
        c.mmap_sem = true;
        c.memory_pages = c.workload.file_pages + 16384;
        c.events = false;
        const RunResult host = run_scenario(s);
        c.machine.profile = machine;
        const RunResult modelled = run_scenario(s);
        if (host.state != "finished" || modelled.state != "finished") {
            err << kProgram << " bench engine: a pft run did not finish: " << host.error << modelled.error << "\n";
            return 1;
        }
        const double faults = double(modelled.operations);
        table.add_row();
        table.set("CPUs", std::uint64_t(cpus));
        table.set("faults", modelled.operations);
        table.set("modelled faults/host-s", faults / modelled.host_wall_seconds, 0);
        table.set("modelled faults/virtual-s", faults / modelled.wall_seconds, 0);
        table.set("host run faults/s", double(host.operations) / host.wall_seconds, 0);
        table.set("host-s modelled", modelled.host_wall_seconds, 2);
        table.set("host-s host run", host.host_wall_seconds, 2);
    }
    output.notes() << "pft on the modelled " << machine
                   << " (split PTE locks, mmap_sem read in every fault, 2^20 faults in all), beside the same run on "
                      "this computer's threads:\n";
    output.table("modelled_speed", table);
    output.finish();
    return 0;
}
} // namespace

int run_engine_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("bench engine");
    p.add_uint("pages", 1 << 18, 1000, 1 << 24, "N", "pages faulted per measurement (per thread for pft)");
    p.add_uint("max-threads", 4, 1, 64, "T", "pft runs at 1, 2, 4 ... up to T threads");
    p.add_uint("repeats", 5, 1, 100, "R",
        "rounds of the minor-fault measurements (event stream off and on) and of the pft sweep, alternated; medians");
    p.add_output("csv", "FILE", "also write the results as CSV");
    p.add_string("machine", "", "NAME",
        "instead: the speed of runs on modelled machine NAME (pagecache-lab-cli machines lists them): pft at 1, 8 "
        "and 64 CPUs, modelled faults per second of host time, beside the same runs on this computer's threads");
    add_format_option(p, "minor_faults, pft, read_locks and writeback (with --machine, modelled_speed)",
        "the pft table; with --machine, its one table");
    p.describe("[options]",
        "Unpaced minor faults per second on one CPU, and the pft sweep of the pagefault scalability\n"
        "thread (2005; anonymous faults, 1..T threads) under mm->page_table_lock and under split PTE\n"
        "locks; lock traffic of read(2) on separate and shared files; and writeback: dd-like writers\n"
        "in a memory a quarter of their data, pages written back per second.");
    if (const auto code = p.parse_command(args, out, err, check_format_option))
        return *code;
    const std::string& machine = p.get_string("machine");
    BenchOutput output(p, out, err, machine.empty() ? "pft" : "modelled_speed");
    std::ostream& notes = output.notes();
    if (!machine.empty()) {
        // Its runs are fixed (2^20 faults at 1, 8 and 64 CPUs, once each: a
        // modelled run is the same every time): say so rather than ignore.
        for (const char* option : { "pages", "max-threads", "repeats" })
            if (p.given(option)) {
                err << kProgram << " bench engine: --" << option
                    << " does not apply with --machine: its pft is 2^20 faults at 1, 8 and 64 CPUs, once each\n";
                return 2;
            }
        return modelled_speed(machine, output, err);
    }
    const std::uint64_t pages = p.get_uint("pages");
    const unsigned max_threads = unsigned(p.get_uint("max-threads"));

    Report csv({ "measure", "scheme", "threads", "pages", "per_s" });
    // Off, notable and all alternated, so each sees the same machine.
    const char* const modes[] = { "off", "notable", "all" };
    std::vector<double> rate[3];
    std::uint64_t events[3] = {}, dropped[3] = {};
    const std::uint64_t repeats = p.get_uint("repeats");
    for (std::uint64_t r = 0; r < repeats; ++r)
        for (int m = 0; m < 3; ++m) {
            std::uint64_t minor_faults = 0;
            std::unique_ptr<Watcher> watcher = m ? std::make_unique<Watcher>(m == 2) : nullptr;
            rate[m].push_back(minor_faults_per_second(pages, minor_faults, watcher.get()));
            if (watcher) {
                events[m] += watcher->ring.pushed();
                dropped[m] += watcher->ring.dropped();
            }
            if (minor_faults != pages) {
                err << kProgram << " bench engine: faults on cached pages that were not minor faults\n";
                return 1;
            }
        }
    const double mps = median(rate[0]);
    Report minor({ "event stream", "minor faults/s", "ns/fault", "time vs off", "events/fault", "dropped" });
    for (int m = 0; m < 3; ++m) {
        const double v = median(rate[m]);
        minor.add_row();
        minor.set("event stream", modes[m]);
        minor.set("minor faults/s", v, 0);
        minor.set("ns/fault", 1e9 / v, 1);
        minor.set("time vs off", mps / v, 3);
        minor.set("events/fault", double(events[m]) / double(pages * repeats), 3);
        if (m)
            minor.set("dropped", dropped[m]);
        else
            minor.set_missing("dropped");
        csv.add_row();
        csv.set("measure", "minor_faults");
        csv.set("scheme", std::string("events_") + modes[m]);
        csv.set("threads", std::uint64_t(1));
        csv.set("pages", pages);
        csv.set("per_s", v, 0);
    }
    notes << "minor faults, 1 CPU, unpaced (" << pages
          << " faults on pages read in by read(2), radix tree with RCU lookups, split PTE locks;\nmedian of "
          << counted(repeats, "run")
          << " each, alternated; the stream into a 16K-record ring drained every 10 ms,\nrecording what is notable "
             "(the engine's unpaced default) or everything (its demo-speed default)):\n";
    output.table("minor_faults", minor);
    notes << "\n";

    Report table({ "threads", "single faults/s", "split faults/s", "split/single", "split scaling", "CPUs used",
        "single /CPU-s", "split /CPU-s", "split, zone.lock only", "pcp/zone", "2005 faults/s" });
    // Every thread count once per round, the rounds alternated, so that
    // each ratio compares runs that saw the same machine; a 2-thread run
    // can scale only as far as the CPUs it got ("CPUs used").
    std::vector<unsigned> thread_counts;
    for (unsigned t = 1; t <= max_threads; t *= 2)
        thread_counts.push_back(t);
    struct PftCell {
        std::vector<double> single, split, zone, single_cpu, split_cpu, zone_cpu, scaling, cpus, ratio, pcp;
    };
    std::vector<PftCell> cells(thread_counts.size());
    BenchProgress progress(err, repeats * thread_counts.size(), false);
    for (std::uint64_t r = 0; r < repeats; ++r) {
        double split_one = 0;
        for (std::size_t i = 0; i < thread_counts.size(); ++i) {
            const unsigned t = thread_counts[i];
            progress.step("pft round " + std::to_string(r + 1) + '/' + std::to_string(repeats) + ", "
                + std::to_string(t) + (t == 1 ? " thread" : " threads"));
            const PftRun single = pft(t, pages, PageTable::Scheme::Single);
            const PftRun split = pft(t, pages, PageTable::Scheme::Split);
            const PftRun zone = pft(t, pages, PageTable::Scheme::Split, false);
            if (!single.ok || !split.ok || !zone.ok) {
                progress.finish();
                err << kProgram << " bench engine: a pft run did not map every page exactly once\n";
                return 1;
            }
            if (t == 1)
                split_one = split.faults_per_s;
            PftCell& c = cells[i];
            c.single.push_back(single.faults_per_s);
            c.split.push_back(split.faults_per_s);
            c.zone.push_back(zone.faults_per_s);
            c.single_cpu.push_back(single.faults_per_cpu_s);
            c.split_cpu.push_back(split.faults_per_cpu_s);
            c.zone_cpu.push_back(zone.faults_per_cpu_s);
            c.scaling.push_back(split.faults_per_s / split_one);
            c.cpus.push_back(split.cpus_used);
            c.ratio.push_back(split.faults_per_s / single.faults_per_s);
            c.pcp.push_back(split.faults_per_s / zone.faults_per_s);
        }
    }
    progress.finish();
    for (std::size_t i = 0; i < thread_counts.size(); ++i) {
        const unsigned t = thread_counts[i];
        const PftCell& c = cells[i];
        table.add_row();
        table.set("threads", std::uint64_t(t));
        table.set("single faults/s", median(c.single), 0);
        table.set("split faults/s", median(c.split), 0);
        table.set("split/single", median(c.ratio), 2);
        table.set("split scaling", median(c.scaling), 2);
        table.set("CPUs used", median(c.cpus), 2);
        table.set("single /CPU-s", median(c.single_cpu), 0);
        table.set("split /CPU-s", median(c.split_cpu), 0);
        table.set("split, zone.lock only", median(c.zone), 0);
        table.set("pcp/zone", median(c.pcp), 2);
        if (const double posted = posted_pft(t); posted > 0)
            table.set("2005 faults/s", posted, 0);
        else
            table.set_missing("2005 faults/s");
        for (auto [scheme, wall, cpu] :
            { std::tuple { "single", &c.single, &c.single_cpu }, std::tuple { "split", &c.split, &c.split_cpu },
                std::tuple { "split_zone_lock", &c.zone, &c.zone_cpu } })
            for (auto [measure, per_s] : { std::pair { "pft", wall }, std::pair { "pft_per_cpu_s", cpu } }) {
                csv.add_row();
                csv.set("measure", measure);
                csv.set("scheme", scheme);
                csv.set("threads", std::uint64_t(t));
                csv.set("pages", pages * t);
                csv.set("per_s", median(*per_s), 0);
            }
    }
    notes << "pft: each thread write-faults its own " << pages
          << " anonymous pages once (faults per wall-second, and per second of CPU time used);\n"
             "split, zone.lock only: the split run again with every frame taken from and given to zone.lock\n"
             "(no per-CPU free lists); pcp/zone: split over it; split scaling: split faults/s over the 1-thread run of "
             "the\n"
             "same round; CPUs used: the split run's CPU time over its wall time; median of "
          << counted(repeats, "round") << ", alternated\n";
    output.table("pft", table);

    // Separate files against one shared file, global hash lock against a
    // per-mapping tree lock: lock traffic per 1000 read(2) calls.
    const unsigned cpus = std::max(2u, std::min(max_threads, 4u));
    const std::uint64_t ops = std::max<std::uint64_t>(pages / 8, 1000);
    Report shared({ "index", "lock", "files", "cpus", "acquisitions/1k ops", "contentions/1k ops", "bounces/1k ops" });
    struct Case {
        const char* kind;
        const char* scheme;
        const char* lock_class;
    };
    for (const Case& k :
        { Case { "hash", "global", "pagecache_lock" }, Case { "radix", "spinlock", "mapping.tree_lock" } })
        for (const char* files : { "separate", "shared" }) {
            const SharingRun r = sharing(k.kind, k.scheme, k.lock_class, files, cpus, ops);
            if (!r.ok || r.operations == 0) {
                err << kProgram << " bench engine: the " << k.kind << " " << files << " run did not finish\n";
                return 1;
            }
            const double per_k = 1000.0 / double(r.operations);
            shared.add_row();
            shared.set("index", std::string(k.kind) + "/" + k.scheme);
            shared.set("lock", k.lock_class);
            shared.set("files", files);
            shared.set("cpus", std::uint64_t(cpus));
            shared.set("acquisitions/1k ops", double(r.lock.acquisitions) * per_k, 0);
            shared.set("contentions/1k ops", double(r.lock.contentions) * per_k, 1);
            shared.set("bounces/1k ops", double(r.lock.acq_bounces) * per_k, 1);
            csv.add_row();
            csv.set("measure", std::string("bounces_per_1k_") + files);
            csv.set("scheme", std::string(k.kind) + "/" + k.scheme);
            csv.set("threads", std::uint64_t(cpus));
            csv.set("pages", r.operations);
            csv.set("per_s", double(r.lock.acq_bounces) * per_k, 1);
        }
    notes << "\nrandom 1-page read(2)s, " << ops << " per CPU over 4096-page files (the index lock's class):\n";
    output.table("read_locks", shared);
    // Writeback: a dd writer per CPU, data four times memory, so that the
    // flusher writes, writers are throttled and reclaim takes written pages.
    const std::uint64_t wb_pages = std::max<std::uint64_t>(pages / 4, 4096) / 16 * 16;
    Report wb({ "cpus", "pages written", "memory", "pages written/s", "pages dirtied/s", "write requests", "throttled",
        "evictions" });
    for (unsigned t = 1; t <= std::min(max_threads, 2u); ++t) {
        const std::uint64_t frames = wb_pages * t / 4;
        const WritebackRun r = writeback_run(t, wb_pages, frames);
        if (!r.ok) {
            err << kProgram << " bench engine: a writeback run did not finish\n";
            return 1;
        }
        wb.add_row();
        wb.set("cpus", std::uint64_t(t));
        wb.set("pages written", r.written);
        wb.set("memory", frames);
        wb.set("pages written/s", double(r.written) / r.seconds, 0);
        wb.set("pages dirtied/s", double(r.dirtied) / r.seconds, 0);
        wb.set("write requests", r.requests);
        wb.set("throttled", r.throttled);
        wb.set("evictions", r.evictions);
        csv.add_row();
        csv.set("measure", "pages_written");
        csv.set("scheme", "radix/rcu");
        csv.set("threads", std::uint64_t(t));
        csv.set("pages", r.written);
        csv.set("per_s", double(r.written) / r.seconds, 0);
    }
    notes << "\nwriteback: each CPU write(2)s " << wb_pages
          << " pages of its own file in 16-page calls, four times the memory, on an instant disk\n"
             "(per wall-second; pages still dirty at the end are not counted as written):\n";
    output.table("writeback", wb);
    notes << "\nThe 2005 figures are Lameter's, rc6-mm1 on a 16 GB machine with up to 60 CPUs; ours are threads on "
          << std::thread::hardware_concurrency() << " cores now.\n";
    if (!output.write_csv(csv.csv()))
        return 1;
    output.finish();
    return 0;
}

} // namespace pcl::bench
