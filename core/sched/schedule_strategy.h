// How a modelled machine chooses the next task to run.
//
// virtual_time is the machine's own order: the runnable task with the
// smallest virtual time, ties broken by the seeded keys (scheduler.h). It
// models a machine; it also makes one interleaving of each seed, the one
// whose costs say what happens first, and a race whose window that order
// never opens is never seen.
//
// The two exploring strategies make every point where a task charges time,
// spins, yields or waits a point where another task may run instead,
// chosen from the seed, so that many seeds explore many interleavings and
// any one of them is replayed exactly by its seed:
//
// - random: the next task is drawn uniformly from the runnable ones at
//   every such point.
// - pct: probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi,
//   Nagarakatte, "A randomized scheduler with probabilistic guarantees of
//   finding bugs", ASPLOS 2010), as CHESS and Shuttle use it: each task
//   gets a random priority, the highest-priority runnable task runs, and at
//   d - 1 points drawn at random from the first k the running task's
//   priority drops below every initial one. A bug that needs d ordering
//   constraints between n tasks is found by each run with probability at
//   least 1 / (n k^(d-1)). A task that spins or yields waits for another
//   (a flag, a lock held elsewhere): its priority drops below every other,
//   or the highest-priority spinner would never let its holder run.
//
// Virtual time still moves as the costs say, so every timestamp of a run is
// as it would be, but an exploring run is not a model of a machine's
// timing: a task may run long after another whose clock is far ahead. A
// sleep, or a wait with a deadline, ends once every task that can run has
// passed the deadline, or when nothing else can run.
#pragma once

#include "base/enum_words.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pcl::sched {

enum class ScheduleStrategy : std::uint8_t { VirtualTime, Random, Pct };

/// The strategies' words, as a scenario's machine.schedule and the command
/// line spell them.
inline constexpr std::array<std::string_view, 3> kScheduleStrategies { "virtual_time", "random", "pct" };

inline std::string_view strategy_name(ScheduleStrategy strategy) noexcept
{
    return enum_word(kScheduleStrategies, strategy);
}
inline std::optional<ScheduleStrategy> parse_strategy(std::string_view name) noexcept
{
    return parse_enum_word<ScheduleStrategy>(kScheduleStrategies, name);
}

} // namespace pcl::sched
