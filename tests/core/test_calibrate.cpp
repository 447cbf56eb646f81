// calibrate's measurement of the host: sysfs CPU lists parsed; the
// topology built from fake sysfs trees (a two-socket server numbered as
// Linux numbers one, a virtual machine that shows no caches, an irregular
// machine); the pairs of CPUs chosen for each distance; the host profile
// assembled from measurements (its arithmetic, its bases, a distance that
// could not be measured), valid and read back as written; and the work
// costs and the ping-pong measured with the engine's code, checked for
// their shape.
#include <catch2/catch.hpp>

#include "lib/json.h"
#include "lib/report.h"
#include "probe/cpu_topology.h"
#include "probe/host_profile.h"
#include "probe/work_costs.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"
#include "sim/runner.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace pcl;
using sched::DistanceKind;
using sched::FigureBasis;

namespace {

/// A /sys/devices/system/cpu of the test's own, removed at the end.
class FakeSysfs {
public:
    FakeSysfs()
        : root_(std::filesystem::temp_directory_path() / ("pcl-sysfs-" + std::to_string(::getpid())))
    {
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(root_);
    }
    ~FakeSysfs() { std::filesystem::remove_all(root_); }
    std::string dir() const { return root_.string(); }

    void file(const std::string& path, const std::string& text) const
    {
        const std::filesystem::path p = root_ / path;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p) << text << '\n';
    }
    /// CPU @id: its siblings, core and package, and an L1d and an L3
    /// shared by @l3 (none when empty).
    void cpu(unsigned id, const std::string& siblings, int core, int package, const std::string& l3 = {}) const
    {
        const std::string c = "cpu" + std::to_string(id) + "/";
        file(c + "topology/thread_siblings_list", siblings);
        file(c + "topology/core_id", std::to_string(core));
        file(c + "topology/physical_package_id", std::to_string(package));
        if (l3.empty())
            return;
        file(c + "cache/index0/level", "1");
        file(c + "cache/index0/type", "Data");
        file(c + "cache/index0/shared_cpu_list", siblings);
        file(c + "cache/index0/size", "32K");
        file(c + "cache/index1/level", "1");
        file(c + "cache/index1/type", "Instruction");
        file(c + "cache/index1/shared_cpu_list", siblings);
        file(c + "cache/index3/level", "3");
        file(c + "cache/index3/type", "Unified");
        file(c + "cache/index3/shared_cpu_list", l3);
        file(c + "cache/index3/size", "32768K");
    }

private:
    std::filesystem::path root_;
};

std::vector<unsigned> cpu_numbers(unsigned from, unsigned to)
{
    std::vector<unsigned> v;
    for (unsigned c = from; c <= to; ++c)
        v.push_back(c);
    return v;
}

/// Two sockets of two L3 domains of two cores of two threads, numbered as
/// Linux numbers them: the first thread of every core (0-7), then the
/// second (8-15), so CPU n's sibling is n + 8.
void two_socket_server(const FakeSysfs& sys)
{
    sys.file("online", "0-15");
    const char* l3[] = { "0-1,8-9", "2-3,10-11", "4-5,12-13", "6-7,14-15" };
    for (unsigned c = 0; c < 16; ++c) {
        const unsigned core = c % 8;
        sys.cpu(c, std::to_string(core) + "," + std::to_string(core + 8), int(core % 4), int(core / 4), l3[core / 2]);
    }
}

/// What calibrate would have measured, made up.
MeasuredCost cost(double ns, std::uint64_t per_round)
{
    return { ns, { ns, ns + 1, ns - 1 }, per_round };
}

MeasuredWork made_up_work()
{
    MeasuredWork w;
    w.page_copy = cost(400, 32768);
    w.page_copy_cached = cost(60, 32768);
    w.page_zero = cost(300, 32768);
    w.lock_pair = cost(20, 1000);
    w.spin_step = cost(15, 1000);
    w.index_lookup = cost(24, 1000);
    w.index_height = 3;
    w.index_pages = 262144;
    w.pte_install = cost(50, 1000);
    w.pte_entry = cost(30, 1000);
    w.io_submit = cost(110, 512);
    w.anon_fault = cost(1000, 8192);
    w.working_set_bytes = std::uint64_t(128) << 20;
    w.rounds = 3;
    return w;
}

PingPongResult pingpong(double ns)
{
    return { ns, { ns, ns + 2, ns - 2 }, 2000 };
}

const HostFacts kFacts { "2026-12-05", "Test CPU", false, "Linux 6.1.0", 2, 1ull << 30 };

} // namespace

TEST_CASE("a sysfs CPU list is read as the kernel writes it", "[calibrate]")
{
    CHECK(parse_cpu_list("0-3,8-11") == std::vector<unsigned> { 0, 1, 2, 3, 8, 9, 10, 11 });
    CHECK(parse_cpu_list("5") == std::vector<unsigned> { 5 });
    CHECK(parse_cpu_list("2,0") == std::vector<unsigned> { 0, 2 });
    CHECK(parse_cpu_list("0-1,1-2") == std::vector<unsigned> { 0, 1, 2 });
    CHECK(parse_cpu_list("").empty());
    for (const char* bad : { "3-1", "a", "1-", "1,,2", "-1", "1 ,2", "0-4294967295" })
        CHECK_THROWS_WITH(parse_cpu_list(bad), Catch::StartsWith("'" + std::string(bad) + "' is not a CPU list"));
}

TEST_CASE("a two-socket server's sysfs gives its topology and a pair of CPUs at each distance", "[calibrate]")
{
    const FakeSysfs sys;
    two_socket_server(sys);
    const HostTopology h = read_host_topology(sys.dir(), cpu_numbers(0, 15));
    REQUIRE(h.cpus.size() == 16);
    const sched::MachineTopology& t = h.topology;
    CHECK(t.cpus_per_core == 2);
    CHECK(t.cores_per_domain == 2);
    CHECK(t.domains_per_socket == 2);
    CHECK(t.sockets == 2);
    CHECK(t.cpus() == 16);
    CHECK(t.basis == FigureBasis::Measured);
    CHECK(h.llc_bytes == std::uint64_t(32) << 20);
    CHECK(h.cpus[9].llc == std::vector<unsigned> { 0, 1, 8, 9 });
    CHECK(h.cpus[9].llc_level == 3);
    CHECK(t.source.find("the L3 cache's shared_cpu_list (2 cores, 32 MiB)") != std::string::npos);
    CHECK(t.source.find("Note") == std::string::npos);

    CHECK(h.distance(3, 3) == DistanceKind::Same);
    CHECK(h.distance(3, 11) == DistanceKind::Smt);
    CHECK(h.distance(2, 11) == DistanceKind::Domain);
    CHECK(h.distance(0, 3) == DistanceKind::Socket);
    CHECK(h.distance(8, 15) == DistanceKind::Remote);
    CHECK_THROWS_AS(h.distance(0, 16), std::out_of_range);

    using Pair = std::pair<unsigned, unsigned>;
    CHECK_FALSE(h.pairs[std::size_t(DistanceKind::Same)]);
    CHECK(h.pairs[std::size_t(DistanceKind::Smt)] == Pair { 0, 8 });
    CHECK(h.pairs[std::size_t(DistanceKind::Domain)] == Pair { 0, 1 });
    CHECK(h.pairs[std::size_t(DistanceKind::Socket)] == Pair { 0, 2 });
    CHECK(h.pairs[std::size_t(DistanceKind::Remote)] == Pair { 0, 4 });

    SECTION("only the CPUs this process may run on are paired")
    {
        const HostTopology some = read_host_topology(sys.dir(), { 4, 5, 7 });
        CHECK(some.topology == t);
        CHECK_FALSE(some.pairs[std::size_t(DistanceKind::Smt)]);
        CHECK(some.pairs[std::size_t(DistanceKind::Domain)] == Pair { 4, 5 });
        CHECK(some.pairs[std::size_t(DistanceKind::Socket)] == Pair { 4, 7 });
        CHECK_FALSE(some.pairs[std::size_t(DistanceKind::Remote)]);
    }
}

TEST_CASE("a virtual machine that shows no caches is one domain a socket, and says so", "[calibrate]")
{
    const FakeSysfs sys;
    sys.file("online", "0-1");
    sys.cpu(0, "0", 0, 0);
    sys.cpu(1, "1", 1, 0);
    const HostTopology h = read_host_topology(sys.dir(), { 0, 1 });
    CHECK(h.topology.cpus_per_core == 1);
    CHECK(h.topology.cores_per_domain == 2);
    CHECK(h.topology.domains_per_socket == 1);
    CHECK(h.topology.sockets == 1);
    CHECK(h.llc_bytes == 0);
    CHECK(h.topology.source.find("no cache shown under cpuN/cache, so each socket is taken as one cache domain")
        != std::string::npos);
    CHECK(h.distance(0, 1) == DistanceKind::Domain);
    CHECK(h.pairs[std::size_t(DistanceKind::Domain)] == std::pair { 0u, 1u });
    CHECK_FALSE(h.pairs[std::size_t(DistanceKind::Smt)]);
}

TEST_CASE("an irregular or half-shown topology is rounded down and the source says why", "[calibrate]")
{
    const FakeSysfs sys;
    // No online list; CPU 2 has no thread_siblings_list nor package.
    sys.cpu(0, "0-1", 0, 0);
    sys.cpu(1, "0-1", 0, 0);
    sys.file("cpu2/topology/core_id", "1");
    const HostTopology h = read_host_topology(sys.dir(), { 0, 1, 2 });
    REQUIRE(h.cpus.size() == 3);
    CHECK(h.cpus[2].threads == std::vector<unsigned> { 2 });
    CHECK(h.cpus[2].package_id == -1);
    CHECK(h.topology.cpus_per_core == 1);
    CHECK(h.topology.cores_per_domain == 2);
    const std::string& s = h.topology.source;
    CHECK(s.find("no online list: every cpuN directory taken as online") != std::string::npos);
    CHECK(s.find("a CPU without thread_siblings_list was taken as a core of its own") != std::string::npos);
    CHECK(s.find("a CPU without physical_package_id was taken as on socket 0") != std::string::npos);
    CHECK(s.find("the layout is irregular") != std::string::npos);
    CHECK(s.find("the profile's layout holds 2 of the 3 CPUs") != std::string::npos);

    SECTION("a list that does not parse names its file")
    {
        sys.file("online", "0-x");
        CHECK_THROWS_WITH(read_host_topology(sys.dir(), { 0 }), Catch::Contains("online: '0-x' is not a CPU list"));
    }
    SECTION("no CPU at all is an error naming the directory")
    {
        CHECK_THROWS_WITH(read_host_topology(sys.dir() + "/none", { 0 }), Catch::Contains("no CPU found"));
    }
}

TEST_CASE("the host profile holds what was measured, valid, and reads back as written", "[calibrate]")
{
    const FakeSysfs sys;
    two_socket_server(sys);
    const HostTopology h = read_host_topology(sys.dir(), cpu_numbers(0, 15));
    PingPongs latencies;
    latencies[std::size_t(DistanceKind::Smt)] = pingpong(8.4);
    latencies[std::size_t(DistanceKind::Domain)] = pingpong(23.5);
    latencies[std::size_t(DistanceKind::Socket)] = pingpong(107);
    latencies[std::size_t(DistanceKind::Remote)] = pingpong(197);
    const MeasuredWork w = made_up_work();
    const sched::MachineProfile p = host_profile(h, latencies, w, kFacts);

    CHECK(p.name == "host");
    CHECK(p.max_cpus == 16);
    CHECK(p.title == "This machine (Test CPU, 16 CPUs)");
    REQUIRE(p.latency.smt);
    CHECK(p.latency.smt->ns == 8);
    CHECK(p.latency.domain->ns == 24);
    CHECK(p.latency.socket->ns == 107);
    CHECK(p.latency.remote->ns == 197);
    CHECK_FALSE(p.latency.hop);
    CHECK(p.latency.remote->basis == FigureBasis::Measured);
    CHECK(p.latency.remote->source.find("host CPUs 0 and 4, two sockets") != std::string::npos);
    CHECK(p.latency.remote->source.find("the median of 3 rounds of 2000 round trips") != std::string::npos);

    // The engine's copy, from one page into one buffer in the cache; the
    // kernel's, from memory, is said beside.
    CHECK(p.work.page_copy.ns == 60);
    CHECK(p.work.page_copy.source.find("as the engine's read(2) and write(2) copy") != std::string::npos);
    CHECK(p.work.page_copy.source.find("from memory would cost 400 ns") != std::string::npos);
    // The engine's anonymous fault zeroes nothing: its model charges no
    // zeroing, and says what a kernel's memset would have cost.
    CHECK(p.work.page_zero.ns == 0);
    CHECK(p.work.page_zero.source.find("zeroes no frame") != std::string::npos);
    CHECK(p.work.page_zero.source.find("300 ns") != std::string::npos);
    CHECK(p.work.lock_acquire.ns == 20);
    CHECK(p.work.spin_step.ns == 15);
    CHECK(p.work.index_level.ns == 8);  // 24 ns over 3 levels
    CHECK(p.work.pte_install.ns == 30); // the install less its lock
    CHECK(p.work.io_submit.ns == 110);
    CHECK(p.work.minor_fault.ns == 930); // 1000 less 30 + 2 x 20
    CHECK(p.work.minor_fault.basis == FigureBasis::Calibration);
    CHECK(p.work.minor_fault.source.find("Calibration, not a result.") == 0);
    // The engine's own work per operation is measured after the rest
    // (set_operation_cost); until then the profile says so.
    CHECK(p.work.operation.ns == 0);
    CHECK(p.work.operation.basis == FigureBasis::Calibration);
    CHECK(p.work.operation.source.find("Not measured") == 0);
    CHECK(p.work.syscall.ns == 0);
    CHECK(p.work.syscall.basis == FigureBasis::Calibration);
    CHECK(p.work.syscall.source.find("Not measured") == 0);
    for (const auto& f : sched::work_figure_fields())
        if (f.name != "minor_fault" && f.name != "operation" && f.name != "syscall") {
            CHECK((p.work.*f.figure).basis == FigureBasis::Measured);
            CHECK((p.work.*f.figure).source.find("Measured by calibrate on 2026-12-05") == 0);
        }

    const json::Value doc = sched::machine_profile_to_json(p);
    CHECK(json::write(doc).find("\"basis\": \"measured\"") != std::string::npos);
    CHECK(sched::parse_machine_profile(json::write(doc), "host.json") == p);

    SECTION("the engine's own work is what its pft fault takes beyond the model's")
    {
        OperationCost op;
        op.host = cost(500, 262144);
        op.modelled_ns = 380;
        op.operations = 262144;
        sched::MachineProfile q = p;
        set_operation_cost(q, op, kFacts);
        CHECK(q.work.operation.ns == 120);
        CHECK(q.work.operation.basis == FigureBasis::Calibration);
        CHECK(q.work.operation.source.find("Calibration, not a result. Measured by calibrate on 2026-12-05") == 0);
        CHECK(q.work.operation.source.find("500 ns a fault on this computer's thread") != std::string::npos);
        CHECK(q.work.operation.source.find("380 ns of virtual time") != std::string::npos);
        op.modelled_ns = 530;
        set_operation_cost(q, op, kFacts);
        CHECK(q.work.operation.ns == 0);
        CHECK(q.work.operation.source.find("costs more than the engine's (by 30 ns): 0 is taken") != std::string::npos);
        set_syscall_cost(q, op, kFacts);
        CHECK(q.work.syscall.ns == 0);
        op.host = cost(200, 524288);
        op.modelled_ns = 80;
        set_syscall_cost(q, op, kFacts);
        CHECK(q.work.syscall.ns == 120);
        CHECK(q.work.syscall.source.find("200 ns a read on this computer's thread") != std::string::npos);
        CHECK(q.work.syscall.source.find("80 ns of virtual time a read") != std::string::npos);
    }
    SECTION("a fault cheaper than the costs taken out of it is 0, and the source says so")
    {
        MeasuredWork cheap = w;
        cheap.anon_fault = cost(50, 8192);
        const sched::MachineProfile q = host_profile(h, latencies, cheap, kFacts);
        CHECK(q.work.minor_fault.ns == 0);
        CHECK(q.work.minor_fault.source.find("costs less than those (by 20 ns): 0 is taken") != std::string::npos);
    }
    SECTION("a distance no allowed pair could measure takes the nearer one's figure as an estimate")
    {
        PingPongs some;
        some[std::size_t(DistanceKind::Smt)] = pingpong(9);
        const sched::MachineProfile q = host_profile(h, some, w, kFacts);
        REQUIRE(q.latency.remote);
        CHECK(q.latency.remote->ns == 9);
        CHECK(q.latency.remote->basis == FigureBasis::Estimate);
        CHECK(q.latency.remote->source.find("Not measured") == 0);
        PingPongs far;
        far[std::size_t(DistanceKind::Socket)] = pingpong(107);
        const sched::MachineProfile r = host_profile(h, far, w, kFacts);
        CHECK(r.latency.smt->ns == 107); // none shorter: the nearer longer one
        CHECK(r.latency.domain->basis == FigureBasis::Estimate);
        CHECK(r.latency.socket->basis == FigureBasis::Measured);
        CHECK(r.latency.remote->ns == 107);
        CHECK_THROWS_WITH(host_profile(h, PingPongs {}, w, kFacts), Catch::Contains("may run on one CPU only"));
    }
    SECTION("a virtual machine's profile says its figures are its vCPUs'")
    {
        const sched::MachineProfile q
            = host_profile(h, latencies, w, { "2026-12-05", "", true, "Linux 6.1.0", 2, 1ull << 30 });
        CHECK(q.title == "This machine (unknown CPU, 16 vCPUs)");
        CHECK(q.topology.source.find("the layout the virtual machine shows") != std::string::npos);
        CHECK(q.latency.smt->source.find("These are vCPUs of a virtual machine") != std::string::npos);
    }
}

TEST_CASE("the operation cost is the host's pft fault less the model's, which then charges it on each", "[calibrate]")
{
    sched::MachineProfile p = sched::load_machine_profile("epyc-2026");
    p.work.operation.ns = 777; // not used: the model's run is without it
    const OperationCost c = measure_operation_cost(p, 2, 4096);
    CHECK(c.operations == 4096);
    CHECK(c.host.per_round == 4096);
    REQUIRE(c.host.rounds_ns.size() == 2);
    CHECK(c.host.ns > 0);
    // On one modelled CPU a fault costs at least the trap and the entry.
    CHECK(c.modelled_ns >= double(p.work.minor_fault.ns + p.work.pte_install.ns));
    // Charged once an operation: the same run with the cost set takes
    // exactly that much more a fault (one CPU: nothing waits).
    p.work.operation.ns = 100;
    Scenario s;
    s.engine.workload.pattern = WorkloadPattern::Pft;
    s.engine.workload.cpus = 1;
    s.engine.workload.operations_per_cpu = 4096;
    s.engine.workload.file_pages = 4096;
    s.engine.page_table_lock = PageTable::Scheme::Split;
    s.engine.memory_pages = 4096 + 16384;
    s.engine.events = false;
    s.engine.machine.given = std::make_shared<sched::MachineProfile>(p);
    const RunResult r = run_scenario(s);
    REQUIRE(r.state == "finished");
    CHECK(r.wall_seconds * 1e9 / 4096 == Approx(c.modelled_ns + 100).epsilon(1e-9));
}

TEST_CASE("the page working set is larger than the last-level cache", "[calibrate]")
{
    constexpr std::uint64_t MiB = std::uint64_t(1) << 20;
    CHECK(page_working_set(0) == 128 * MiB);
    CHECK(page_working_set(1 * MiB) == 64 * MiB);
    CHECK(page_working_set(32 * MiB) == 128 * MiB);
    CHECK(page_working_set(96 * MiB) == 512 * MiB);
    CHECK(page_working_set(1024 * MiB) == 1024 * MiB);
}

TEST_CASE("the work costs are measured with the engine's code, round by round", "[calibrate]")
{
    WorkCostOptions o;
    o.cpu = allowed_cpus().front();
    o.rounds = 2;
    o.quick = true;
    o.working_set_bytes = std::uint64_t(1) << 20;
    const MeasuredWork w = measure_work_costs(o);
    CHECK(w.cpu == o.cpu);
    CHECK(w.rounds == 2);
    CHECK(w.working_set_bytes == std::uint64_t(1) << 20);
    CHECK(w.index_height == 3); // 2^18 pages, 64 slots a node
    CHECK(w.index_pages == std::uint64_t(1) << 18);
    const std::pair<const MeasuredCost*, std::uint64_t> costs[] = {
        { &w.page_copy, 256 }, // 1 MiB of 4 KiB pages
        { &w.page_copy_cached, 256 },
        { &w.page_zero, 256 },
        { &w.lock_pair, 125000 },
        { &w.spin_step, 25000 },
        { &w.index_lookup, 125000 },
        { &w.pte_install, 8192 },
        { &w.pte_entry, 8192 },
        { &w.io_submit, 512 },
        { &w.anon_fault, 8192 },
    };
    for (const auto& [c, per_round] : costs) {
        CHECK(c->per_round == per_round);
        REQUIRE(c->rounds_ns.size() == 2);
        if (c != &w.pte_entry) // a difference of two timings: it may be below 0
            CHECK(c->ns > 0);
        CHECK(c->ns == (c->rounds_ns[0] + c->rounds_ns[1]) / 2);
    }
}

TEST_CASE("the ping-pong passes a line between two pinned threads, and a CPU it cannot pin is an error", "[calibrate]")
{
    const std::vector<unsigned> cpus = allowed_cpus();
    REQUIRE_FALSE(cpus.empty());
    const unsigned a = cpus.front(), b = cpus.back();
    if (a != b) {
        const PingPongResult r = line_pingpong(a, b, 3, 200);
        CHECK(r.round_trips == 200);
        REQUIRE(r.rounds_ns.size() == 3);
        CHECK(r.one_way_ns > 0);
        CHECK(r.one_way_ns == median(r.rounds_ns));
    }
    // Either thread refused: the other is let go, and the error names the CPU.
    CHECK_THROWS_WITH(line_pingpong(a, 100000, 3, 200), Catch::Contains("cannot pin a thread to CPU 100000"));
    CHECK_THROWS_WITH(line_pingpong(100000, a, 3, 200), Catch::Contains("cannot pin a thread to CPU 100000"));
    // The caller's own CPUs are as they were.
    CHECK(allowed_cpus() == cpus);
}

TEST_CASE("a read(2)'s own cost is the host's read less the model's, which then charges it on each", "[calibrate]")
{
    sched::MachineProfile p = sched::load_machine_profile("epyc-2026");
    p.work.syscall.ns = 555; // not used: the model's runs are without it
    const OperationCost c = measure_syscall_cost(p, 2, 65536);
    CHECK(c.operations == 65536);
    REQUIRE(c.host.rounds_ns.size() == 2);
    // On one modelled CPU a cached read costs its page's copy and its
    // index's walk at least; the first read of each page, an I/O, is a
    // sixteenth of the reads.
    CHECK(c.modelled_ns >= double(p.work.page_copy.ns + p.work.index_level.ns));
    CHECK(c.modelled_ns < double(p.work.page_copy.ns + p.work.io_submit.ns));
    // Charged once a read: the same reads with the cost set take exactly
    // that much more each.
    Scenario s;
    s.engine.workload.pattern = WorkloadPattern::Random;
    s.engine.workload.cpus = 1;
    s.engine.workload.file_pages = 4096;
    s.engine.workload.operations_per_cpu = 65536;
    s.engine.device.request_ns = 0;
    s.engine.device.page_ns = 0;
    s.engine.events = false;
    double ns[2];
    for (int with = 0; with < 2; ++with) {
        p.work.syscall.ns = with ? 100 : 0;
        s.engine.machine.given = std::make_shared<sched::MachineProfile>(p);
        const RunResult r = run_scenario(s);
        REQUIRE(r.state == "finished");
        ns[with] = r.wall_seconds * 1e9 / 65536;
    }
    CHECK(ns[0] == Approx(c.modelled_ns).epsilon(1e-9));
    CHECK(ns[1] - ns[0] == Approx(100).epsilon(1e-6));
}

TEST_CASE("a measured transfer latency more than a quarter from the last calibration's is reported", "[calibrate]")
{
    // epyc-2026's latencies as if calibrate had measured them: smt 8,
    // domain 23, socket 107, remote 197 ns.
    sched::MachineProfile before = sched::load_machine_profile("epyc-2026");
    for (const auto& f : sched::latency_figure_fields())
        if (std::optional<sched::Figure>& figure = before.latency.*f.optional)
            figure->basis = FigureBasis::Measured;
    sched::MachineProfile now = before;
    CHECK(moved_latencies(before, now).empty());
    // Within a quarter either way: 0.78 and 1.24 are in.
    now.latency.domain->ns = 18;
    now.latency.socket->ns = 133;
    CHECK(moved_latencies(before, now).empty());
    // 0.74 and 1.26 are out.
    now.latency.domain->ns = 17;
    now.latency.socket->ns = 135;
    const std::vector<std::string> out = moved_latencies(before, now);
    REQUIRE(out.size() == 2);
    CHECK(out[0].find("latency.domain measured now, 17 ns, is 0.739 times the last calibration's, 23 ns") == 0);
    CHECK(out[1].find("latency.socket measured now, 135 ns, is 1.26 times the last calibration's, 107 ns") == 0);
    // The project machine's vCPUs, 240 ns in one calibration, 52 in another.
    now = before;
    before.latency.domain->ns = 240;
    now.latency.domain->ns = 52;
    now.latency.remote->ns = 500;
    const std::vector<std::string> moved = moved_latencies(before, now);
    REQUIRE(moved.size() == 2);
    CHECK(moved[0].find("latency.domain measured now, 52 ns, is 0.217 times the last calibration's, 240 ns") == 0);
    CHECK(moved[1].find("latency.remote measured now, 500 ns, is 2.54 times the last calibration's, 197 ns") == 0);
    // A distance one of the two lacks, or only estimates (no pair of
    // allowed CPUs that far apart), is not compared.
    now.latency.remote.reset();
    CHECK(moved_latencies(before, now).size() == 1);
    now.latency.domain->basis = FigureBasis::Estimate;
    CHECK(moved_latencies(before, now).empty());
}
