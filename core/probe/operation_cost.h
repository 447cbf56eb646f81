// What an operation of the engine costs on this computer besides the kernel
// work a model charges for it: making the operation, counting it, the
// engine's loop around it. A model of this computer must charge that too
// (the profile's work.operation) to predict its own runs; the machines of
// the threads had no such simulator around their faults.
//
// Measured by running the same one-CPU pft twice: on this computer's
// thread, timed, and on the model of this computer without the cost, in
// virtual time. The difference per fault is the cost.
//
// A read(2) of the engine does more of its own besides its page's lookup,
// copy and lock (its loop, its latency's histogram, the reference taken and
// dropped): the profile's work.syscall, measured the same way on one-CPU
// random reads of a cached file.
#pragma once

#include "probe/work_costs.h"
#include "sched/machine_profile.h"

#include <cstdint>

namespace pcl {

struct OperationCost {
    MeasuredCost host;            ///< an operation of the engine on this computer's thread, each round
    double modelled_ns = 0;       ///< the same operation on @profile without the cost (virtual time)
    std::uint64_t operations = 0; ///< in each run
    double ns() const noexcept { return host.ns - modelled_ns; }
};

/// The faults of calibrate's pft (an eighth with --quick).
inline constexpr std::uint64_t kOperationCostFaults = std::uint64_t(1) << 18;

/// Runs pft on one CPU (split PTE locks, the event stream off) @rounds times
/// on this computer and once on @profile with its operation cost set to 0.
/// Throws std::runtime_error if a run does not finish.
OperationCost measure_operation_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t faults);

/// The reads of calibrate's read run (an eighth with --quick).
inline constexpr std::uint64_t kSyscallCostReads = std::uint64_t(1) << 21;

/// Runs @reads random one-page reads of one file of 4096 pages on one CPU
/// (the event stream off, a device that takes no time) @rounds times on
/// this computer and once on @profile with its syscall cost set to 0.
/// Throws std::runtime_error if a run does not finish.
OperationCost measure_syscall_cost(const sched::MachineProfile& profile, unsigned rounds, std::uint64_t reads);

} // namespace pcl
