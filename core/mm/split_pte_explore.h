// The torn PTE read found by an explorer instead of a script: the reader
// and the writer of a SplitPte (mm/split_pte.h) run as two tasks of the
// deterministic scheduler (sched/scheduler.h) under an exploring strategy,
// random or pct (sched/schedule_strategy.h), with a scheduling point before
// each of their memory operations: each 32-bit load or store of a half,
// each 64-bit one, each take and release of the PTE lock, each read and
// bump of the sequence count. Schedule after schedule, seed S, S+1, ...,
// until the reader returns an entry the writer never wrote, or the bound.
//
// The thread's diagrams were drawn by hand (pagefault scalability (2005):
// "If it changed from AB -> CD -> AE, you could read AD and not notice the
// problem"); the scripted interleavings (mm/split_pte_script.h) replay
// them. The explorer asks the other question: without knowing where to
// look, how many schedules does it take to come upon a torn read, and does
// any schedule at all tear a fix? The writer updates the entry as the free
// running race does (mm/split_pte_race.h), AB -> CD -> AE -> AB ..., each
// update a whole set_pte under the PTE lock, so that the re-read's failure,
// which needs the low half A to come back, is there to be found too.
//
// Both run their real code: the reader SplitPte::read, whose observer makes
// the scheduling point before each operation (and a lock or an odd sequence
// it finds held spins through the scheduler, base/machine_calls.h); the
// writer SplitPte::write_step, one operation of set_pte at a time. A seed is
// a schedule: the one found is run again with every step recorded (as a
// scripted interleaving records them, mm/split_pte_steps.h) for the torn
// PTE view to replay operation by operation.
#pragma once

#include "mm/split_pte.h"
#include "mm/split_pte_script.h"
#include "sched/schedule_strategy.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace pcl {

struct PteExploreConfig {
    PteReadMethod method = PteReadMethod::Naive; ///< how the reader reads (and the writer writes)
    sched::ScheduleStrategy strategy = sched::ScheduleStrategy::Random; ///< random or pct
    unsigned depth = 3;                ///< pct: the bug depth d (d - 1 change points), 1..8
    std::uint64_t seed = 1;            ///< the first schedule's seed; the n-th is seed + n - 1
    std::uint64_t schedules = 100'000; ///< schedules at most, 1..10,000,000
    unsigned updates = 3;              ///< the writer's updates in each schedule (CD, AE, AB, CD...), 1..30
};

struct PteExploreResult {
    std::uint64_t schedules = 0;        ///< schedules run, the finding one included
    std::optional<std::uint64_t> found; ///< the seed of the first schedule whose read was torn
    PteScript schedule;                 ///< that schedule, step by step (no steps when none was found)
    std::uint64_t points = 0;           ///< scheduling points, all schedules together
    std::uint64_t retries = 0;          ///< the reader's retries and back-outs, all schedules together
    std::uint64_t pct_steps = 0;        ///< pct: k, the scheduling points of a first run without change points
    bool stopped = false;               ///< @stop was set before the bound or a find
};

/// Every entry memory holds at some moment of a schedule of @updates
/// updates by @method's writer, in the order it first holds each: AB, then
/// for each update the entry with its present bit off, the new pte_high
/// beside it, and the new entry (AB, A-B, A-D, CD, C-D, C-E, AE, ...; for
/// atomic64 only the whole entries). A read is torn when it returns none of
/// them: halves that were never in memory together.
std::vector<pteval_t> pte_explore_memory(PteReadMethod method, unsigned updates);

/// Throws std::invalid_argument naming the field for a config out of range
/// (as explore_pte_schedules and run_pte_schedule check it).
void check_pte_explore_config(const PteExploreConfig& config);

/// Explores @config's schedules, stopping at the first torn read. Throws
/// std::invalid_argument naming the field for a config out of range (and
/// for the virtual_time strategy, which makes one schedule of every seed).
/// When @stop becomes true the exploration ends after the schedule under
/// way, with @stopped set.
PteExploreResult explore_pte_schedules(const PteExploreConfig& config, const std::atomic<bool>* stop = nullptr);

/// Runs the one schedule of @seed under @config (its seed and bound
/// aside), recording every step. @pct_steps is pct's k (0: measured as
/// explore_pte_schedules measures it).
PteScript run_pte_schedule(const PteExploreConfig& config, std::uint64_t seed, std::uint64_t pct_steps = 0);

} // namespace pcl
