#include "probe/operation_cost.h"

#include "lib/report.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <memory>
#include <stdexcept>

namespace pcl {

namespace {

Scenario one_cpu_pft(std::uint64_t faults)
{
    Scenario s;
    EngineConfig& c = s.engine;
    c.workload.pattern = WorkloadPattern::Pft;
    c.workload.cpus = 1;
    c.workload.operations_per_cpu = faults;
    c.workload.file_pages = faults;
    c.page_table_lock = PageTable::Scheme::Split;
    c.memory_pages = faults + 16384;
    c.events = false;
    return s;
}

RunResult finished(const RunResult& r, const char* where)
{
    if (r.state != "finished")
        throw std::runtime_error(std::string("the one-CPU pft ") + where + " did not finish: " + r.error);
    return r;
}

} // namespace

OperationCost measure_operation_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t faults)
{
    OperationCost cost;
    cost.faults = faults;
    cost.host.per_round = faults;
    Scenario s = one_cpu_pft(faults);
    for (unsigned r = 0; r < rounds; ++r) {
        const RunResult host = finished(run_scenario(s), "on this computer");
        cost.host.rounds_ns.push_back(host.wall_seconds * 1e9 / double(host.operations));
    }
    cost.host.ns = median(cost.host.rounds_ns);
    auto model = std::make_shared<sched::MachineProfile>(profile);
    model->work.operation.ns = 0;
    s.engine.machine.given = model;
    const RunResult modelled = finished(run_scenario(s), "on the model");
    cost.modelled_ns = modelled.wall_seconds * 1e9 / double(modelled.operations);
    return cost;
}

} // namespace pcl
