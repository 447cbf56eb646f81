#include "probe/operation_cost.h"

#include "lib/report.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <memory>
#include <stdexcept>

namespace pcl {

namespace {

/// @operations of @pattern on one CPU, the event stream off.
Scenario one_cpu(WorkloadPattern pattern, std::uint64_t operations)
{
    Scenario s;
    s.engine.workload.pattern = pattern;
    s.engine.workload.cpus = 1;
    s.engine.workload.operations_per_cpu = operations;
    s.engine.events = false;
    return s;
}

Scenario one_cpu_pft(std::uint64_t faults)
{
    Scenario s = one_cpu(WorkloadPattern::Pft, faults);
    s.engine.workload.file_pages = faults;
    s.engine.page_table_lock = PageTable::Scheme::Split;
    s.engine.memory_pages = faults + 16384;
    return s;
}

Scenario one_cpu_reads(std::uint64_t reads)
{
    Scenario s = one_cpu(WorkloadPattern::Random, reads);
    s.engine.workload.file_pages = 4096;
    // A device that takes no time: the first read of each page, an I/O,
    // is then a small part of the run (a few ns a read), here and modelled.
    s.engine.device.request_ns = 0;
    s.engine.device.page_ns = 0;
    return s;
}

/// What one operation of @s takes: its time (virtual on a model) over its
/// operations, in ns. Throws std::runtime_error if the run does not finish.
double ns_per_operation(const Scenario& s, const char* what, const char* where)
{
    const RunResult r = run_scenario(s);
    if (r.state != "finished")
        throw std::runtime_error(std::string(what) + where + " did not finish: " + r.error);
    return r.wall_seconds * 1e9 / double(r.operations);
}

/// @s run @rounds times on this computer, and once on @profile with
/// @figure set to 0.
OperationCost measure_difference(Scenario s, const sched::MachineProfile& profile,
    sched::Figure sched::WorkCosts::*figure, unsigned rounds, const char* what)
{
    OperationCost cost;
    cost.operations = s.engine.workload.operations_per_cpu;
    cost.host.per_round = cost.operations;
    for (unsigned r = 0; r < rounds; ++r)
        cost.host.rounds_ns.push_back(ns_per_operation(s, what, "on this computer"));
    cost.host.ns = median(cost.host.rounds_ns);
    auto model = std::make_shared<sched::MachineProfile>(profile);
    (model->work.*figure).ns = 0;
    s.engine.machine.given = model;
    cost.modelled_ns = ns_per_operation(s, what, "on the model");
    return cost;
}

} // namespace

OperationCost measure_operation_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t faults)
{
    return measure_difference(one_cpu_pft(faults), profile, &sched::WorkCosts::operation, rounds, "the one-CPU pft ");
}

OperationCost measure_syscall_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t reads)
{
    return measure_difference(one_cpu_reads(reads), profile, &sched::WorkCosts::syscall, rounds, "the one-CPU reads ");
}

} // namespace pcl
