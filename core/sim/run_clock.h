// A run's one clock: the time its CPUs were let run, pauses left out.
//
// Everything a run shows in time (the toolbar's running time, the samples
// of the charts, the timeline's axis, the event log, the exported trace)
// reads this clock, so that a run paused for half a minute in a lecture
// says "4.3 s" everywhere and not 4.3 s in one place and 33 s in another.
// Events are stamped with now_ns() by the CPUs that record them; to_run()
// moves a stamp onto the run's clock by taking out every pause before it.
// A stamp that falls inside a pause (a disk completing a request while the
// CPUs hold) is put at the pause's start, where the run stood.
//
// The clock is read and driven from the thread that drives the run.
#pragma once

#include <cstdint>
#include <vector>

namespace pcl {

class RunClock {
public:
    /// The run starts at @wall_ns (a now_ns() reading), running.
    void start(std::uint64_t wall_ns);
    /// The run holds from @wall_ns on; nothing if it already holds or has not started.
    void stop(std::uint64_t wall_ns);
    /// The run goes on from @wall_ns; nothing unless it holds.
    void go(std::uint64_t wall_ns);

    bool started() const noexcept { return started_; }
    bool running() const noexcept { return started_ && !holding_; }

    /// @wall_ns (a now_ns() stamp) on the run's clock: nanoseconds on the
    /// same origin as now_ns(), with every pause before it taken out, so
    /// that differences and spans read as running time. Stamps before the
    /// start are left as they are.
    std::uint64_t to_run(std::uint64_t wall_ns) const noexcept;
    /// Running time from the start to @wall_ns, in nanoseconds.
    std::uint64_t running_ns(std::uint64_t wall_ns) const noexcept;

private:
    struct Pause {
        std::uint64_t from_ns = 0;   ///< wall time it began
        std::uint64_t to_ns = 0;     ///< wall time it ended (UINT64_MAX while it goes on)
        std::uint64_t before_ns = 0; ///< the pauses before it, all together
    };

    bool started_ = false;
    bool holding_ = false;
    std::uint64_t start_ns_ = 0;
    std::vector<Pause> pauses_; ///< in order; the last one is open while holding_
};

} // namespace pcl
