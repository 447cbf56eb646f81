#include "sched/machine_model.h"

namespace pcl::sched {

MachineModel::MachineModel(const MachineProfile& profile, double latency_scale, std::uint64_t seed)
    : cpus_(profile.topology.cpus())
    , lines_(profile, latency_scale, seed)
{
    const WorkCosts& w = profile.work;
    costs_[unsigned(Work::MinorFault)] = w.minor_fault.ns;
    costs_[unsigned(Work::IndexLevel)] = w.index_level.ns;
    costs_[unsigned(Work::PageCopy)] = w.page_copy.ns;
    costs_[unsigned(Work::PageZero)] = w.page_zero.ns;
    costs_[unsigned(Work::PteInstall)] = w.pte_install.ns;
    costs_[unsigned(Work::IoSubmit)] = w.io_submit.ns;
    costs_[unsigned(Work::LockAcquire)] = w.lock_acquire.ns;
    costs_[unsigned(Work::Operation)] = w.operation.ns;
    costs_[unsigned(Work::Syscall)] = w.syscall.ns;
}

std::uint64_t MachineModel::access(LineKey key, int cpu, std::uint64_t now_ns, bool write)
{
    const std::uint32_t line = numbers_.number(key);
    std::uint32_t c = cpu < 0 ? 0 : std::uint32_t(cpu);
    if (c >= cpus_) [[unlikely]] // not a division at every access
        c %= cpus_;
    const LineAccess a = write ? lines_.write(line, c, now_ns) : lines_.read(line, c, now_ns);
    return a.cost_ns;
}

} // namespace pcl::sched
