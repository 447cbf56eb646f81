// The profile of the machine the programs run on ("host"), from what
// calibrate measured there: the topology sysfs shows (probe/cpu_topology.h),
// the cache-line ping-pong between CPUs of each distance
// (probe/line_pingpong.h) and the engine's operations timed on one CPU
// (probe/work_costs.h). Each figure's basis is `measured`, except
// minor_fault, a calibration: the engine's own anonymous fault on this
// machine less the zeroing, PTE write and lock a modelled fault charges
// besides, the convention altix-2005.json states for Lameter's pft, so that
// one modelled CPU faults at the rate the engine does here; and operation,
// also a calibration: what the engine's one-CPU pft takes a fault beyond
// what the rest of the model charges (probe/operation_cost.h). Every
// source says how and when its figure was measured.
#pragma once

#include "lib/provenance.h"
#include "probe/cpu_topology.h"
#include "probe/line_pingpong.h"
#include "probe/operation_cost.h"
#include "probe/work_costs.h"
#include "sched/machine_profile.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pcl {

/// The transfer latencies measured, indexed by sched::DistanceKind.
using PingPongs = std::array<std::optional<PingPongResult>, sched::kDistanceKinds.size()>;

/// The profile "host" from the measurements. A distance the topology has
/// but no pair of allowed CPUs could measure takes the nearest measured
/// distance's figure (a shorter one first), as an estimate that says so. Throws
/// std::runtime_error when the topology has distances and none was
/// measured. The profile is valid (validate() passes).
sched::MachineProfile host_profile(
    const HostTopology& host, const PingPongs& latencies, const MeasuredWork& work, const HostFacts& facts);

/// Sets @profile's work.operation from @cost (calibrate's second step, once
/// the rest of the profile is known).
void set_operation_cost(sched::MachineProfile& profile, const OperationCost& cost, const HostFacts& facts);
/// Sets @profile's work.syscall from @cost (calibrate's last step, once
/// work.operation is known).
void set_syscall_cost(sched::MachineProfile& profile, const OperationCost& cost, const HostFacts& facts);

struct CalibrateOptions {
    std::string cpu_dir = "/sys/devices/system/cpu";
    bool quick = false; ///< 3 work rounds of an eighth; 15 ping-pong rounds of 500
    unsigned rounds = 9;
};

/// Everything calibrate measured, and the profile.
struct Calibration {
    HostTopology host;
    PingPongs latencies;
    MeasuredWork work;
    OperationCost operation;
    OperationCost syscall;
    sched::MachineProfile profile;
};

/// One sentence for each measured transfer latency of @now more than a
/// quarter above or below @before's (the last calibration's), none when
/// all agree. On a virtual machine the hypervisor may place the vCPUs
/// elsewhere from one minute to the next, and a model calibrated in one
/// placement predicts another's runs badly (docs/machines.md, "This
/// computer").
std::vector<std::string> moved_latencies(const sched::MachineProfile& before, const sched::MachineProfile& now);

/// Measures this machine: the topology, a ping-pong for each distance
/// (@say is told what is being measured, for a progress line), the work
/// costs on the first allowed CPU. Throws std::runtime_error naming what
/// could not be measured.
Calibration calibrate_host(const CalibrateOptions& options, const std::function<void(const std::string&)>& say);

} // namespace pcl
