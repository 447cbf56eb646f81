// A run as a Chrome trace-event file: what `pagecache-lab-cli run --out`
// writes as trace.json and the GUI's File > Export > Trace saves, for
// Perfetto (ui.perfetto.dev) and chrome://tracing.
//
// The file uses only the phases Perfetto's JSON importer supports: complete
// slices (`X`, with a duration), instants (`i`), counters (`C`) and
// metadata (`M`). One process is the run; its threads are the run's lanes:
// one per simulated CPU, one per disk, and kswapd's. On a CPU, lock waits and
// holds are slices named by the lock ("wait mapping[0].tree_lock"), faults are
// slices named by their kind, sleeps on a locked page are slices; on a disk,
// each request is a slice from its submission to its completion. Readahead
// windows, evictions, refaults and the radix tree's height changes are
// instants; ops/s, cached pages, dirty pages and I/O in flight are counter
// tracks from the metrics series.
//
// Slices on one Chrome thread must nest. Hand-over-hand locking releases a
// parent after taking its child, and a disk serves several requests at
// once, so a lane whose slices overlap without nesting is drawn on as many
// threads as it needs ("CPU 1", "CPU 1, overlapping 2", "disk 0 (hdd),
// request 2"...), each slice on the first where it nests.
//
// What the rings dropped is reported in the trace's metadata (otherData) and
// in the process's label, never hidden; so is what was left out because the
// trace reached its size limit. An unpaced run records only notable events
// (contended locks, faults that waited: tracepoint.h), and the metadata says
// so.
#pragma once

#include "events/event.h"
#include "sim/run_result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pcl {

class ChromeTrace {
public:
    /// Keeps at most @max_events records; the rest are counted as left out.
    explicit ChromeTrace(std::size_t max_events = kDefaultMaxEvents);

    /// About 60 MB of JSON: what Perfetto's UI opens without a wait.
    static constexpr std::size_t kDefaultMaxEvents = 500'000;

    /// Adds a drained batch (RunOptions::events, the GUI's drain).
    void add(const std::vector<Event>& batch);

    std::size_t events_kept() const noexcept { return events_.size(); }
    /// Records added after the limit was reached.
    std::uint64_t events_left_out() const noexcept { return left_out_; }

    /// The trace-event JSON of the records added, with the lanes, lock
    /// names, counters and parameters of @result (the run they came from).
    std::string json(const RunResult& result) const;

private:
    std::size_t max_events_;
    std::vector<Event> events_;
    std::uint64_t left_out_ = 0;
};

} // namespace pcl
