#include "probe/host_profile.h"

#include "lib/report.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace pcl {

namespace {

using sched::DistanceKind;
using sched::Figure;
using sched::FigureBasis;

std::uint64_t whole_ns(double ns)
{
    return ns <= 0 ? 0 : std::uint64_t(std::llround(ns));
}

/// "the median of 9 rounds of 65536 faults (rounds 12.1 to 14.8 ns)".
std::string rounds_text(const MeasuredCost& c, const std::string& what)
{
    const auto [lo, hi] = std::minmax_element(c.rounds_ns.begin(), c.rounds_ns.end());
    std::string s = "the median of " + std::to_string(c.rounds_ns.size()) + " rounds of " + std::to_string(c.per_round)
        + " " + what;
    if (lo != c.rounds_ns.end())
        s += " (rounds " + significant(*lo) + " to " + significant(*hi) + " ns)";
    return s;
}

std::string measured_on(const HostFacts& facts, const MeasuredWork& w)
{
    return "Measured by calibrate on " + facts.date + " on host CPU " + std::to_string(w.cpu) + ": ";
}

Figure measured(double ns, std::string source)
{
    return { whole_ns(ns), FigureBasis::Measured, std::move(source) };
}

const char* distance_words(DistanceKind kind)
{
    switch (kind) {
    case DistanceKind::Smt:
        return "SMT siblings (thread_siblings_list)";
    case DistanceKind::Domain:
        return "two cores of one cache domain";
    case DistanceKind::Socket:
        return "two cache domains of one socket";
    case DistanceKind::Remote:
        return "two sockets";
    default:
        return "one CPU";
    }
}

std::optional<Figure> latency_figure(
    const HostTopology& host, const PingPongs& latencies, DistanceKind kind, const HostFacts& facts)
{
    const std::size_t k = std::size_t(kind);
    if (const std::optional<PingPongResult>& r = latencies[k]) {
        const auto [a, b] = *host.pairs[k];
        std::string s = "Measured by calibrate on " + facts.date + ": a cache line passed between host CPUs "
            + std::to_string(a) + " and " + std::to_string(b) + ", " + distance_words(kind)
            + ", by two threads pinned there (sched_setaffinity), each writing it when it sees the other's "
              "write; a round trip over 2, the median of "
            + std::to_string(r->rounds_ns.size()) + " rounds of " + std::to_string(r->round_trips) + " round trips";
        if (!r->rounds_ns.empty()) {
            const auto [lo, hi] = std::minmax_element(r->rounds_ns.begin(), r->rounds_ns.end());
            s += " (rounds " + significant(*lo) + " to " + significant(*hi) + " ns)";
        }
        s += ".";
        if (facts.hypervisor)
            s += " These are vCPUs of a virtual machine: where the hypervisor runs them, and what else runs "
                 "there, is not this machine's to see, and may change.";
        return measured(r->one_way_ns, s);
    }
    // The nearest distance measured stands in for this one, a shorter one
    // first (the pair that was not allowed is no nearer than it).
    std::vector<std::size_t> order;
    for (std::size_t d = k; d-- > std::size_t(DistanceKind::Smt);)
        order.push_back(d);
    for (std::size_t d = k + 1; d < latencies.size(); ++d)
        order.push_back(d);
    for (const std::size_t d : order)
        if (const std::optional<PingPongResult>& r = latencies[d])
            return Figure { whole_ns(r->one_way_ns), FigureBasis::Estimate,
                "Not measured: this process may not run on two CPUs this far apart (sched_getaffinity); the "
                "figure measured between "
                    + std::string(distance_words(DistanceKind(d))) + " on " + facts.date
                    + ", the nearest distance measured." };
    return std::nullopt;
}

} // namespace

sched::MachineProfile host_profile(
    const HostTopology& host, const PingPongs& latencies, const MeasuredWork& w, const HostFacts& facts)
{
    sched::MachineProfile p;
    p.name = std::string(sched::kHostMachine);
    const std::uint32_t cpus = host.topology.cpus();
    const std::string machine = (facts.cpu_model.empty() ? std::string("unknown CPU") : facts.cpu_model) + ", "
        + std::to_string(cpus) + (facts.hypervisor ? " vCPUs" : " CPUs");
    p.title = "This machine (" + machine + ")";
    p.description = "The machine the programs run on, measured by pagecache-lab-cli calibrate on " + facts.date
        + (facts.hypervisor ? ": a virtual machine, whose figures are its vCPUs' as the hypervisor gave them then."
                            : ".");
    p.max_cpus = cpus;
    p.topology = host.topology;
    p.topology.basis = FigureBasis::Measured;
    p.topology.source = "Measured by calibrate on " + facts.date + " from " + host.topology.source
        + (facts.hypervisor ? " The CPU reports a hypervisor: this is the layout the virtual machine shows, not "
                              "the host's."
                            : "");

    const sched::MachineTopology& t = p.topology;
    const auto need = [&](bool occurs, DistanceKind kind, std::optional<Figure>& figure) {
        if (!occurs)
            return;
        figure = latency_figure(host, latencies, kind, facts);
        if (!figure)
            throw std::runtime_error("cannot measure a cache-line transfer: this process may run on one CPU only "
                                     "(sched_getaffinity), and the topology has "
                + std::to_string(t.cpus()) + " CPUs");
    };
    need(t.cpus_per_core > 1, DistanceKind::Smt, p.latency.smt);
    need(t.cores_per_domain > 1, DistanceKind::Domain, p.latency.domain);
    need(t.domains_per_socket > 1, DistanceKind::Socket, p.latency.socket);
    need(t.sockets > 1, DistanceKind::Remote, p.latency.remote);

    const std::string on = measured_on(facts, w);
    const std::string mib = std::to_string(w.working_set_bytes >> 20) + " MiB";
    const std::string scatter = ", the pages visited in a scattered order (a stride of 2,053 pages) over " + mib
        + (host.llc_bytes
                ? ", at least 4 times the " + significant(double(host.llc_bytes) / 1048576.0) + " MiB last-level cache"
                : " (the last-level cache's size is not shown; the largest of current CPUs' domains is 96 MiB)")
        + ", so that each page comes from memory; ";
    sched::WorkCosts& c = p.work;
    // The engine's read(2) and write(2) copy from one page into one buffer,
    // both in the cache (its pages hold no data): that is what a model of
    // it charges; a kernel's copy of a page from memory is shown beside.
    c.page_copy = measured(w.page_copy_cached.ns,
        on + "memcpy of one 4 KiB page into one buffer, both in the cache, as the engine's read(2) and write(2) copy "
            + "(its pages hold no data), " + rounds_text(w.page_copy_cached, "pages")
            + ". A kernel's copy of a page from memory would cost " + significant(w.page_copy.ns)
            + " ns: memcpy between two buffers" + scatter + rounds_text(w.page_copy, "pages") + ".");
    // The engine's anonymous fault zeroes no frame (a frame's contents are
    // never read), so on this machine's own model a fault's zeroing costs
    // nothing; a kernel's memset is shown for what it would cost.
    c.page_zero = { 0, FigureBasis::Measured,
        on
            + "the engine's anonymous fault zeroes no frame (its contents are never read), so this machine's model "
              "charges no zeroing. A kernel's would cost a memset of one 4 KiB page to 0: "
            + significant(w.page_zero.ns) + " ns" + scatter + rounds_text(w.page_zero, "pages") + "." };
    c.lock_acquire = measured(w.lock_pair.ns,
        on
            + "lock() and unlock() of core's spinlock_t (sync::SpinLock, of the split PTE locks' class, its "
              "statistics included) that no other thread takes, the pair; "
            + rounds_text(w.lock_pair, "pairs") + ".");
    c.spin_step = measured(w.spin_step.ns,
        on
            + "one sync::cpu_relax() (the pause instruction, a step of sync::Backoff) and a load of a line this CPU "
              "holds; "
            + rounds_text(w.spin_step, "steps") + ".");
    const double level = w.index_lookup.ns / std::max(w.index_height, 1u);
    c.index_level = measured(level,
        on
            + "PageIndex::lookup of the engine's default index (a radix tree of 64 slots a node, lockless RCU "
              "lookups) holding "
            + std::to_string(w.index_pages) + " pages, at random offsets: " + significant(w.index_lookup.ns)
            + " ns a lookup (" + rounds_text(w.index_lookup, "lookups") + ") over the tree's "
            + std::to_string(w.index_height) + " levels.");
    const double pte = w.pte_entry.ns;
    c.pte_install = measured(std::max(pte, 0.0),
        on
            + "PageTable::install of one entry into a PTE page that exists (split PTE locks), less a lock() and "
              "unlock() of a lock of the PTE locks' class timed just before it in the same round, for the PTE lock "
              "it takes: "
            + significant(w.pte_install.ns) + " ns an install, " + rounds_text(w.pte_entry, "entries")
            + (pte < 0 ? "; the difference is below 0 (" + significant(pte)
                        + " ns): the store is lost in the lock's noise, and 0 is taken."
                       : "."));
    c.io_submit = measured(w.io_submit.ns,
        on
            + "BlockDevice::submit_read of one locked page to the engine's block device, quiesced so that its "
              "thread does not serve the requests while they are submitted (the device's own time is not in it); "
            + rounds_text(w.io_submit, "submissions") + ".");

    // The calibration: what is left of the engine's anonymous fault once the
    // costs a modelled fault charges besides are taken out: the PTE written
    // and the two locks it takes (the per-CPU free list's and the PTE
    // page's).
    const double install = double(c.pte_install.ns), lock = double(c.lock_acquire.ns);
    const double rest = w.anon_fault.ns - install - 2 * lock;
    std::string s = "Calibration, not a result. " + on + "the engine's FaultHandler::anon_fault took "
        + significant(w.anon_fault.ns) + " ns a fault (" + rounds_text(w.anon_fault, "faults")
        + ", each round over a fresh anonymous region: frame allocation, PTE pages, the PTE lock, the "
          "fault's counting). This is that less pte_install and two lock_acquire ("
        + std::to_string(c.pte_install.ns) + " + 2 x " + std::to_string(c.lock_acquire.ns)
        + " ns), so that an anonymous fault on one modelled CPU costs what the engine's does on this machine.";
    if (rest < 0)
        s += " Here the fault costs less than those (by " + significant(-rest)
            + " ns): 0 is taken, and a modelled fault costs that much more than the engine's.";
    c.minor_fault = { whole_ns(rest), FigureBasis::Calibration, s };
    c.operation = { 0, FigureBasis::Calibration,
        "Not measured: the engine's own work per operation is measured on a one-CPU pft (calibrate does it)." };
    c.syscall = { 0, FigureBasis::Calibration,
        "Not measured: a read(2)'s own work is measured on one-CPU reads of a cached file (calibrate does it)." };

    p.validate();
    return p;
}

namespace {

/// A figure calibrated as @cost's difference: the engine's @what on this
/// computer less the same on the model without the figure.
sched::Figure calibrated_difference(const OperationCost& cost, const HostFacts& facts, const std::string& run,
    const char* what, const char* unit, const std::string& meaning)
{
    const double ns = cost.ns();
    std::string s = "Calibration, not a result. Measured by calibrate on " + facts.date + ": " + run + " took "
        + significant(cost.host.ns) + " ns " + what + " on this computer's thread, " + rounds_text(cost.host, unit)
        + ", and the same run on this model without this cost " + significant(cost.modelled_ns) + " ns of virtual time "
        + what + ". The difference is " + meaning
        + ", which a model of this computer charges so that it predicts this computer's runs.";
    if (ns < 0)
        s += " Here the model's costs more than the engine's (by " + significant(-ns)
            + " ns): 0 is taken, and a modelled one costs that much more.";
    return { whole_ns(ns), FigureBasis::Calibration, s };
}

} // namespace

void set_operation_cost(sched::MachineProfile& profile, const OperationCost& cost, const HostFacts& facts)
{
    profile.work.operation
        = calibrated_difference(cost, facts, "a one-CPU pft of the engine (split PTE locks, the event stream off)",
            "a fault", "faults", "the engine's own work around each operation (making it, counting it, its loop)");
}

void set_syscall_cost(sched::MachineProfile& profile, const OperationCost& cost, const HostFacts& facts)
{
    profile.work.syscall = calibrated_difference(cost, facts,
        std::to_string(cost.operations)
            + " one-CPU random reads of a cached file of 4096 pages (the event stream off, a device that takes no "
              "time)",
        "a read", "reads",
        "a read(2)'s own work besides its page's lookup, copy and lock (its loop, its latency's histogram, the "
        "page's reference)");
}

std::vector<std::string> moved_latencies(const sched::MachineProfile& before, const sched::MachineProfile& now)
{
    std::vector<std::string> moved;
    for (const auto& f : sched::latency_figure_fields()) {
        const std::optional<sched::Figure>& was = before.latency.*f.optional;
        const std::optional<sched::Figure>& is = now.latency.*f.optional;
        // Measured figures only: an estimate stands for a distance no pair
        // of allowed CPUs has, copied from one already compared.
        if (!was || !is || was->ns == 0 || was->basis != sched::FigureBasis::Measured
            || is->basis != sched::FigureBasis::Measured)
            continue;
        const double ratio = double(is->ns) / double(was->ns);
        if (ratio >= 0.75 && ratio <= 1.25)
            continue;
        moved.push_back("latency." + std::string(f.name) + " measured now, " + std::to_string(is->ns) + " ns, is "
            + significant(ratio) + " times the last calibration's, " + std::to_string(was->ns)
            + " ns: on a virtual machine the hypervisor may have placed the CPUs elsewhere since; calibrate "
              "again, and keep the profile whose figures repeat");
    }
    return moved;
}

Calibration calibrate_host(const CalibrateOptions& options, const std::function<void(const std::string&)>& say)
{
    Calibration cal;
    const std::vector<unsigned> allowed = allowed_cpus();
    if (allowed.empty())
        throw std::runtime_error("cannot measure: no CPU this process may run on (sched_getaffinity)");
    cal.host = read_host_topology(options.cpu_dir, allowed);
    const unsigned rounds = options.quick ? 3 : std::max(options.rounds, 1u);
    // Many short rounds: a round shorter than a time slice is often not
    // preempted at all on a busy machine, where a long one always is.
    const unsigned pingpong_rounds = options.quick ? 15 : 99;
    const std::uint64_t round_trips = options.quick ? 500 : 1'000;
    const sched::MachineTopology& t = cal.host.topology;
    const bool occurs[]
        = { false, t.cpus_per_core > 1, t.cores_per_domain > 1, t.domains_per_socket > 1, t.sockets > 1 };
    for (std::size_t k = std::size_t(DistanceKind::Smt); k < cal.latencies.size(); ++k) {
        if (!occurs[k] || !cal.host.pairs[k])
            continue;
        const auto [a, b] = *cal.host.pairs[k];
        say("cache-line ping-pong between CPUs " + std::to_string(a) + " and " + std::to_string(b) + " ("
            + std::string(sched::kDistanceKinds[k]) + ")");
        cal.latencies[k] = line_pingpong(a, b, pingpong_rounds, round_trips);
    }
    say("the engine's operations on CPU " + std::to_string(allowed.front()));
    WorkCostOptions wo;
    wo.cpu = allowed.front();
    wo.rounds = rounds;
    wo.quick = options.quick;
    wo.working_set_bytes = page_working_set(cal.host.llc_bytes);
    cal.work = measure_work_costs(wo);
    const HostFacts facts = read_host_facts();
    cal.profile = host_profile(cal.host, cal.latencies, cal.work, facts);
    say("the engine's own work around an operation (a one-CPU pft, on this computer and on its model)");
    cal.operation
        = measure_operation_cost(cal.profile, rounds, options.quick ? kOperationCostFaults / 8 : kOperationCostFaults);
    set_operation_cost(cal.profile, cal.operation, facts);
    say("a read(2)'s own work (one-CPU reads of a cached file, on this computer and on its model)");
    cal.syscall = measure_syscall_cost(cal.profile, rounds, options.quick ? kSyscallCostReads / 8 : kSyscallCostReads);
    set_syscall_cost(cal.profile, cal.syscall, facts);
    cal.profile.validate();
    return cal;
}

} // namespace pcl
