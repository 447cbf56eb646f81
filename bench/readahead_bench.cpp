#include "readahead_bench.h"

#include "bench_output.h"
#include "engine_run.h"

#include "lib/arg_parser.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"
#include "sim/engine.h"
#include "sim/scenario.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <type_traits>

#ifndef PCL_SOURCE_DIR
#define PCL_SOURCE_DIR "."
#endif

namespace pcl::bench {

namespace {

/// The disks of Morton's test as of 2002: a 7200 rpm IDE drive, ~9 ms
/// average seek plus half a revolution (4.17 ms), ~30 MB/s from the media
/// (4096 B / 30 MB/s = 136 us a page), one request at a time, merging.
/// With it process B streams about four times as many pages a second as
/// process A gets through its files when nothing thrashes, the balance the
/// test's cliff depends on (a modern disk streams fifteen times faster than
/// it seeks, and thrashes at any N).
BlockDeviceConfig ide2002()
{
    BlockDeviceConfig d = BlockDeviceConfig::preset("hdd");
    d.model = "custom";
    d.seek_ns = 9'000'000;
    d.rotation_ns = 4'166'667;
    d.request_ns = 0;
    d.page_ns = 136'000;
    return d;
}

/// What one run of Morton's test measured.
struct MortonRun {
    bool ok = false;
    std::string error;
    double a_seconds = 0;         ///< process A's runtime: start to its last read
    std::uint64_t a_reads = 0;    ///< A's read(2) calls
    std::uint64_t requests = 0;   ///< I/O requests on A's disk
    std::uint64_t pages_read = 0; ///< pages read from A's disk
    double busy_seconds = 0;      ///< A's disk's busy time, unscaled (the device model's own seconds)
    std::uint64_t wasted = 0;     ///< readahead pages evicted before they were used
    std::uint64_t evictions = 0;  ///< pages reclaimed (both processes)
    std::uint64_t refaults = 0;   ///< pages read again soon after their eviction
    std::uint64_t b_pages = 0;    ///< pages process B streamed meanwhile
};

struct MortonSetup {
    pgoff_t file_pages, memory_pages, stream_pages, ra_pages;
    std::string device;
    double time_scale;
};

MortonRun morton_run(const MortonSetup& m, unsigned nfiles, const std::string& policy)
{
    EngineConfig c;
    c.workload.pattern = WorkloadPattern::Morton;
    c.workload.cpus = 2;
    c.workload.nfiles = nfiles;
    c.workload.file_pages = m.file_pages;
    c.workload.stream_pages = m.stream_pages;
    c.workload.request_pages = 1; // "reading 4k from each one"
    c.memory_pages = m.memory_pages;
    c.readahead = policy;
    c.device = m.device == "ide2002" ? ide2002() : BlockDeviceConfig::preset(m.device);
    c.device.time_scale = m.time_scale;
    c.device.ra_pages = m.ra_pages;
    c.events = false;
    MortonRun r;
    EngineRun run(c);
    Engine& engine = run.engine;
    const auto cpus = engine.cpu_counters();
    r.ok = run.finished() && cpus[0].finished_ns > 0;
    r.error = engine.error();
    r.a_seconds = double(cpus[0].finished_ns) / 1e9;
    r.a_reads = cpus[0].operations;
    r.requests = engine.device().requests();
    r.pages_read = engine.device().pages_read();
    r.busy_seconds = double(engine.device().busy_ns()) / 1e9;
    const PageCacheStats s = engine.page_cache().stats();
    r.wasted = s.wasted_readahead;
    r.evictions = s.evictions;
    r.refaults = s.refaults;
    r.b_pages = engine.second_device() ? engine.second_device()->pages_read() : 0;
    return r;
}

std::vector<std::string> split_list(const std::string& text)
{
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty())
            out.push_back(item);
    return out;
}

/// Replays the bundled traces @replays times each; trace events per second
/// of replay (engine start to finish, construction excluded).
struct ReplayRun {
    std::string name;
    std::uint64_t events = 0; ///< per replay
    unsigned threads = 0;
    double events_per_s = 0;
    double ops_per_s = 0;
};

ReplayRun replay_speed(const std::string& path, unsigned replays)
{
    ScenarioTrace t;
    t.path = path;
    auto plan = std::make_shared<TracePlan>(load_trace(t));
    ReplayRun r;
    r.name = std::filesystem::path(path).filename().string();
    r.events = plan->trace().events.size();
    r.threads = plan->threads();
    std::uint64_t ns = 0, ops = 0;
    for (unsigned i = 0; i < replays; ++i) {
        EngineConfig c;
        c.trace = plan;
        c.workload.cpus = plan->threads();
        c.readahead = "linux-2.6.32";
        c.device.time_scale = 0; // the replay's own speed, not the disk's
        c.events = false;
        EngineRun run(c);
        ns += run.wall_ns;
        ops += run.engine.operations();
    }
    r.events_per_s = double(r.events) * replays * 1e9 / double(std::max<std::uint64_t>(ns, 1));
    r.ops_per_s = double(ops) * 1e9 / double(std::max<std::uint64_t>(ns, 1));
    return r;
}

} // namespace

int run_readahead_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("bench readahead");
    p.add_string("files", "16,32,40,48,56,64,80", "LIST", "values of N, process A's files (comma-separated)");
    p.add_uint("file-pages", 640, 1, 1 << 20, "P", "pages per file of process A (640 = 2.5 MiB)");
    p.add_uint("memory-pages", 16384, 64, 1 << 24, "M", "page frames (16384 = 64 MiB, as in the test)");
    p.add_uint("stream-pages", 1 << 18, 32, 1ull << 30, "S", "pages of process B's file (262144 = 1 GiB)");
    p.add_uint("ra-pages", 32, 1, 65536, "R", "the devices' maximum readahead window");
    p.add_string("policies", "linux-2.6.32,morton-2002,none", "LIST",
        "readahead policies to compare: linux, linux-2.6.32, morton-2002, none");
    p.add_string("device", "ide2002", "MODEL", "both disks: ide2002 (a 2002 IDE drive), hdd, ssd, nvme, custom");
    p.add_double("time-scale", 0.01, 0, 1e6, "X", "device time scale (0.01: a 12.7 ms seek takes 127 us)");
    p.add_uint("replays", 200, 1, 100000, "K", "replays of each bundled trace for the replay speed");
    p.add_output("csv", "FILE", "also write the results as CSV");
    add_format_option(p, "thrashing (the sweep over N) and replay", "the thrashing table");
    p.describe("[options]",
        "Morton's readahead-thrashing test from the multipage I/O and readahead thread (2002), scaled\n"
        "down: process A reads N files of P pages round-robin, one page from each in turn, while process\n"
        "B streams a big file from a second disk, all in M page frames; swept over N for each readahead\n"
        "policy. Then the speed of trace replay.");
    if (const auto code = p.parse_command(args, out, err, check_format_option))
        return *code;
    BenchOutput output(p, out, err, "thrashing");
    std::ostream& notes = output.notes();
    std::vector<unsigned> files;
    try {
        for (const std::string& f : split_list(p.get_string("files"))) {
            const std::uint64_t n = parse_uint(f, "--files");
            if (n < 1 || n > WorkloadSpec::kMaxMortonFiles)
                throw ArgError("--files: each N must be between 1 and 4096, got " + f);
            files.push_back(unsigned(n));
        }
        if (files.empty())
            throw ArgError("--files: give at least one N");
    } catch (const ArgError& e) {
        return report_arg_error(p, e, err);
    }
    const std::vector<std::string> policies = split_list(p.get_string("policies"));
    MortonSetup setup { p.get_uint("file-pages"), p.get_uint("memory-pages"), p.get_uint("stream-pages"),
        p.get_uint("ra-pages"), p.get_string("device"), p.get_double("time-scale") };
    {
        EngineConfig check;
        check.device = BlockDeviceConfig::preset("custom");
        try {
            for (const std::string& policy : policies) {
                check.readahead = policy;
                check.validate();
            }
            if (setup.device != "ide2002")
                BlockDeviceConfig::preset(setup.device).validate();
        } catch (const std::invalid_argument& e) {
            err << kProgram << " bench readahead: " << e.what() << '\n';
            return 2;
        }
    }

    notes << "Morton's thrashing test: A reads N files of " << counted(setup.file_pages, "page")
          << " round-robin, 1 page at a time; "
          << "B streams " << setup.stream_pages << " pages from a second disk; memory " << setup.memory_pages
          << " frames; ra_pages " << setup.ra_pages << "; " << setup.device << " disks at time scale "
          << fixed(setup.time_scale, 3) << "\n\n";
    Report table({ "N", "policy", "A runtime s", "disk busy s", "requests", "pages read", "read/needed", "wasted",
        "evictions", "refaults", "B pages" });
    Report csv({ "n", "policy", "a_runtime_s", "disk_busy_s", "requests", "pages_read", "pages_needed", "wasted_pages",
        "evictions", "refaults", "b_pages" });
    bool failed = false;
    for (unsigned n : files)
        for (const std::string& policy : policies) {
            err << "  N = " << n << ", " << policy << "...\n";
            const MortonRun r = morton_run(setup, n, policy);
            if (!r.ok) {
                err << kProgram << " bench readahead: N = " << n << ", " << policy << ": " << r.error << '\n';
                failed = true;
                continue;
            }
            const std::uint64_t needed = std::uint64_t(n) * setup.file_pages;
            table.add_row();
            csv.add_row();
            // A figure in both: the table rounds seconds for reading, the
            // CSV keeps four digits.
            auto both = [&](const char* heading, const char* name, auto value, int digits = 0) {
                if constexpr (std::is_floating_point_v<decltype(value)>) {
                    table.set(heading, value, digits);
                    csv.set(name, value, 4);
                } else {
                    table.set(heading, value);
                    csv.set(name, value);
                }
            };
            both("N", "n", std::uint64_t(n));
            both("policy", "policy", policy);
            both("A runtime s", "a_runtime_s", r.a_seconds, 3);
            both("disk busy s", "disk_busy_s", r.busy_seconds, 2);
            both("requests", "requests", r.requests);
            both("pages read", "pages_read", r.pages_read);
            table.set("read/needed", double(r.pages_read) / double(needed), 2);
            csv.set("pages_needed", needed);
            both("wasted", "wasted_pages", r.wasted);
            both("evictions", "evictions", r.evictions);
            both("refaults", "refaults", r.refaults);
            both("B pages", "b_pages", r.b_pages);
        }
    output.table("thrashing", table);

    notes << "\ntrace replay (linux-2.6.32 readahead, instant disk, events off)\n";
    Report replay({ "trace", "threads", "accesses", "replays", "accesses/s", "operations/s" });
    const std::filesystem::path traces = std::filesystem::path(PCL_SOURCE_DIR) / "resources" / "traces";
    for (const char* name : { "cat-sequential.strace", "python-random.strace" }) {
        const std::string path = (traces / name).string();
        if (!std::filesystem::exists(path)) {
            err << kProgram << " bench readahead: " << path << " not found; replay speed skipped\n";
            continue;
        }
        const unsigned replays = unsigned(p.get_uint("replays"));
        const ReplayRun r = replay_speed(path, replays);
        replay.add_row();
        replay.set("trace", r.name);
        replay.set("threads", std::uint64_t(r.threads));
        replay.set("accesses", r.events);
        replay.set("replays", std::uint64_t(replays));
        replay.set("accesses/s", r.events_per_s, 0);
        replay.set("operations/s", r.ops_per_s, 0);
    }
    output.table("replay", replay);

    if (!output.write_csv(csv.csv()))
        return 1;
    output.finish();
    return failed ? 1 : 0;
}

} // namespace pcl::bench
