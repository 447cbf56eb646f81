// What a modelled machine charges: the profile's cost of each operation of
// the engine (sched/machine_profile.h, WorkCosts) and the transfers of the
// cache lines its CPUs contend for (sched/cache_lines.h).
//
// The scheduler asks it for a cost and charges the running task; the model
// keeps no time of its own beyond the lines' (when each line's last transfer
// arrives). A line is named by a stable key (base/machine_calls.h) and
// numbered densely on first use, in the order the tasks touch them, which
// the scheduler's order fixes: nothing depends on where a lock lives in
// memory.
#pragma once

#include "base/machine_calls.h"
#include "sched/cache_lines.h"
#include "sched/line_numbers.h"
#include "sched/machine_profile.h"

#include <array>
#include <cstdint>

namespace pcl::sched {

class MachineModel {
public:
    /// The model of @profile (valid), its transfer latencies multiplied by
    /// @latency_scale (the sensitivity runs' 0.5x and 2x; FieldError
    /// "latency_scale" outside [0, 1000]), its lines' draws seeded by @seed
    /// (the run's: sched/cache_lines.h).
    MachineModel(const MachineProfile& profile, double latency_scale, std::uint64_t seed);

    /// What @count of @work cost on one CPU.
    std::uint64_t cost(Work work, std::uint64_t count = 1) const noexcept
    {
        return costs_[static_cast<unsigned>(work)] * count;
    }
    /// @cpu reads or writes @line at @now_ns: the time until the line is
    /// here (0 when it already was). A CPU
    /// the machine does not have (a background task's -1, or more simulated
    /// CPUs than the profile's) is taken modulo the machine's CPUs.
    std::uint64_t access(LineKey line, int cpu, std::uint64_t now_ns, bool write);

private:
    std::uint32_t cpus_; ///< the machine's
    std::array<std::uint64_t, kWorkKinds> costs_ {};
    CacheLines lines_;
    LineNumbers numbers_; ///< each line's dense number in lines_
};

} // namespace pcl::sched
