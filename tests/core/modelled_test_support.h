// What the tests of a modelled run played in slices share: four CPUs reading
// one file on the 8-way Pentium III, and an event as one line of text, to
// compare two runs' streams record for record.
#pragma once

#include "engine_test_support.h"
#include "events/event.h"
#include "sim/scenario.h"

#include <cstdint>
#include <limits>
#include <string>

namespace pcl::test {

/// No limit on a slice's modelled time or events (ModelledRun::advance).
inline constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

/// Four CPUs reading one file on the 8-way Pentium III: misses, I/O, the
/// global lock's contention, samples every 10 modelled ms.
inline Scenario four_readers()
{
    Scenario s;
    s.engine = small_engine("random", 4, 2048, 3000);
    s.engine.machine.profile = "pentium3-xeon-8way-2002";
    s.sample_interval_ms = 10;
    return s;
}

inline std::string line_of(const Event& e)
{
    return std::to_string(e.time_ns) + " " + std::to_string(e.cpu) + " " + std::to_string(int(e.kind)) + " "
        + std::to_string(e.object) + " " + std::to_string(e.index) + " " + std::to_string(e.arg0) + "\n";
}

} // namespace pcl::test
