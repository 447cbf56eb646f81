// The torn PTE read on free-running threads: one writer flipping a
// SplitPte (mm/split_pte.h) between entries whose halves all differ, and
// readers reading it by one method, counting the reads that returned an
// entry the writer never wrote (pagefault scalability (2005): "We actually
// did see that load in handle_pte_fault being cut in half by a store").
//
// The writer cycles AB -> CD -> AE -> AB for as long as the readers read
// (mm/split_pte_script.h names the halves); each update is a whole
// set_pte under the PTE lock. A read is torn when it returns anything but
// AB, CD or AE: two halves of different entries, or an entry caught with its
// present bit cleared. The torn reads that are present (AD, CB, CE) are the
// thread's point against guarding the halves with the present bit: nothing
// in them says they were never written. How many torn reads the naive reader sees depends on
// timing (on one core, none may ever be seen); the methods that hold see
// none, by construction, whatever the timing.
//
// Host threads always, also where core otherwise runs on a modelled machine
// (base/machine.h): what it measures is the host's own hardware race.
#pragma once

#include "mm/split_pte.h"

#include <cstdint>

namespace pcl {

struct PteRaceConfig {
    PteReadMethod method = PteReadMethod::Naive; ///< how the readers read (and so how the writer writes)
    std::uint64_t reads = 1'000'000;             ///< reads each reader makes, >= 1
    unsigned readers = 1;                        ///< reader threads beside the one writer, 1..64
};

struct PteRaceResult {
    std::uint64_t reads = 0;        ///< reads made by all the readers: readers x reads
    std::uint64_t consistent = 0;   ///< reads that returned an entry the writer wrote
    std::uint64_t torn = 0;         ///< reads that returned one it never wrote
    std::uint64_t torn_present = 0; ///< torn reads with the present bit set: what a present-bit check lets through
    std::uint64_t retries = 0;      ///< retries and back-outs, all reads together
    std::uint64_t writes = 0;       ///< updates the writer made meanwhile
};

/// Runs the race until every reader has made its reads. Throws
/// std::invalid_argument naming the field for a config out of range.
PteRaceResult run_pte_race(const PteRaceConfig& config);

} // namespace pcl
