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

RunResult finished(const RunResult& r, const char* what, const char* where)
{
    if (r.state != "finished")
        throw std::runtime_error(std::string(what) + where + " did not finish: " + r.error);
    return r;
}

/// A read of one_cpu_reads(@reads), in ns.
double read_ns(const Scenario& s, const char* where)
{
    const RunResult r = finished(run_scenario(s), "the one-CPU reads ", where);
    return r.wall_seconds * 1e9 / double(r.operations);
}

} // namespace

OperationCost measure_operation_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t faults)
{
    OperationCost cost;
    cost.operations = faults;
    cost.host.per_round = faults;
    Scenario s = one_cpu_pft(faults);
    for (unsigned r = 0; r < rounds; ++r) {
        const RunResult host = finished(run_scenario(s), "the one-CPU pft ", "on this computer");
        cost.host.rounds_ns.push_back(host.wall_seconds * 1e9 / double(host.operations));
    }
    cost.host.ns = median(cost.host.rounds_ns);
    auto model = std::make_shared<sched::MachineProfile>(profile);
    model->work.operation.ns = 0;
    s.engine.machine.given = model;
    const RunResult modelled = finished(run_scenario(s), "the one-CPU pft ", "on the model");
    cost.modelled_ns = modelled.wall_seconds * 1e9 / double(modelled.operations);
    return cost;
}

OperationCost measure_syscall_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t reads)
{
    OperationCost cost;
    cost.operations = reads;
    cost.host.per_round = reads;
    Scenario s = one_cpu_reads(reads);
    for (unsigned r = 0; r < rounds; ++r)
        cost.host.rounds_ns.push_back(read_ns(s, "on this computer"));
    cost.host.ns = median(cost.host.rounds_ns);
    auto model = std::make_shared<sched::MachineProfile>(profile);
    model->work.syscall.ns = 0;
    s.engine.machine.given = model;
    cost.modelled_ns = read_ns(s, "on the model");
    return cost;
}

} // namespace pcl
