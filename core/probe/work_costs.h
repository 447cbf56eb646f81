// What the engine's operations cost on one of the host's CPUs, measured
// with the engine's own code: the figures a modelled machine charges per
// operation (sched::WorkCosts), for the profile of the machine the programs
// run on.
//
// Each cost is timed over a batch of operations on the host's clock, the
// calling thread pinned to one CPU, in several rounds; a cost is the median
// of its rounds' per-operation times, so a round another process preempted
// does not move it. What each measures:
//   page_copy, page_zero  memcpy / memset of one 4 KiB page, the pages
//                         visited in a scattered order over a working set
//                         larger than the last-level cache, as a fault
//                         finds its page (not in the cache)
//   page_copy_cached      memcpy of one 4 KiB page from one page into one
//                         buffer, both in the cache, as the engine's read(2)
//                         and write(2) copy (its pages hold no data)
//   lock_pair             lock() and unlock() of sync::SpinLock, of the
//                         split PTE locks' class, which nobody else takes
//   spin_step             one sync::cpu_relax() (a step of sync::Backoff)
//                         and a load of a line this CPU holds
//   index_lookup          PageIndex::lookup of the engine's default index
//                         (a radix tree, RCU lookups) at random offsets,
//                         with the tree's height to divide it by
//   pte_install           PageTable::install of one entry into a table page
//                         that exists, its PTE lock included; pte_entry the
//                         same less a lock pair timed in the same round
//   io_submit             BlockDevice::submit_read of one locked page to a
//                         quiesced device, so that the device's own thread
//                         does not run while submissions are timed
//   anon_fault            FaultHandler::anon_fault over a fresh anonymous
//                         region, as pft faults it on one CPU
#pragma once

#include <cstdint>
#include <vector>

namespace pcl {

struct WorkCostOptions {
    unsigned cpu = 0;                    ///< the host CPU to measure on
    unsigned rounds = 9;                 ///< rounds of each cost (at least 1)
    std::uint64_t working_set_bytes = 0; ///< for the page copies and zeroes; 0: page_working_set(0)
    bool quick = false;                  ///< an eighth of each round's operations
};

/// One measured cost: the median of its rounds.
struct MeasuredCost {
    double ns = 0;                 ///< per operation, the rounds' median
    std::vector<double> rounds_ns; ///< per operation, each round
    std::uint64_t per_round = 0;   ///< operations in each round
};

struct MeasuredWork {
    MeasuredCost page_copy;
    MeasuredCost page_copy_cached;
    MeasuredCost page_zero;
    MeasuredCost lock_pair;
    MeasuredCost spin_step;
    MeasuredCost index_lookup;
    unsigned index_height = 0;     ///< of the tree the lookups walked
    std::uint64_t index_pages = 0; ///< entries of that tree
    MeasuredCost pte_install;      ///< the lock's pair included
    MeasuredCost pte_entry;        ///< each round's install less its round's lock pair (may be below 0)
    MeasuredCost io_submit;
    MeasuredCost anon_fault;
    std::uint64_t working_set_bytes = 0; ///< of the page copies and zeroes
    unsigned cpu = 0;
    unsigned rounds = 0;
};

/// The working set of the page copies and zeroes for a last-level cache of
/// @llc_bytes (0: unknown): four times the cache and at least 64 MiB, as a
/// power of two at most 1 GiB; 128 MiB when the cache is unknown.
std::uint64_t page_working_set(std::uint64_t llc_bytes);

/// Measures every cost on host CPU @options.cpu (the calling thread is
/// pinned there meanwhile). Throws std::runtime_error when the thread
/// cannot be pinned or memory cannot be had.
MeasuredWork measure_work_costs(const WorkCostOptions& options);

} // namespace pcl
