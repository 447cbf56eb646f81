// A run as a Chrome trace-event file: what `pagecache-lab-cli run --out`
// writes as trace.json and the GUI's File > Export > Trace saves, for
// Perfetto (ui.perfetto.dev) and chrome://tracing.
//
// The file uses only the phases Perfetto's JSON importer supports: complete
// slices (`X`, with a duration), instants (`i`), counters (`C`) and
// metadata (`M`). One process is the run; its threads are the run's lanes:
// one per simulated CPU, one per disk, and kswapd's. On a CPU, lock waits and
// holds are slices named by the lock ("wait mapping[0].tree_lock"), faults are
// slices named by their kind ("minor fault"), sleeps on a locked page are
// slices; on a disk, each request is a slice ("read", "write") from its
// submission to its completion. Readahead windows, evictions, refaults and
// the radix tree's height changes are instants; ops/s, cached pages, dirty
// pages and I/O in flight are counter tracks from the metrics series.
//
// Slices on one Chrome thread must nest. Hand-over-hand locking releases a
// parent after taking its child, and a disk serves several requests at
// once, so a lane whose slices overlap without nesting is drawn on as many
// threads as it needs ("CPU 1", "CPU 1, overlapping 2", "disk 0 (hdd),
// request 2"...), each slice on the first where it nests.
//
// A slice is named by the kind of work alone and carries no arguments, so
// that viewers aggregate it: Perfetto and chrome://tracing sum a selection
// by name, and speedscope's importer (src/import/trace-event.ts) makes one
// frame of each name and JSON-encoded args together, so that a duration or
// a page number in the args made a frame of every slice. A slice's length
// is its dur; what else its record says (the file, page and virtual page
// of a fault, the page slept on, a request's pages) is on an instant named
// for it ("faulted page", "page slept on", "request") at the slice's start
// on the slice's thread: viewers show it with the slice, and speedscope,
// which imports slices only, leaves it out. An anonymous page has no file:
// it is given by its virtual page, with no "file" member.
//
// What the rings dropped is reported in the trace's metadata (otherData) and
// in the process's label, never hidden; so is what was left out because the
// trace reached its size limit (and the run time it reaches) and, when the
// trace keeps a window of the run, the window. An unpaced run records only
// notable events (contended locks, faults that waited: tracepoint.h), and
// the metadata says so.
#pragma once

#include "events/event.h"
#include "sim/run_result.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace pcl {

class ChromeTrace {
public:
    /// A span of the run in seconds of run time, counted from its start as
    /// the samples' time_s are: the records stamped in [from_s, to_s).
    struct Window {
        double from_s = 0;
        double to_s = 0;
    };

    /// About 60 MB of JSON: what Perfetto's UI opens without a wait.
    static constexpr std::size_t kDefaultMaxEvents = 500'000;
    /// No size limit: every record (of the window) is kept.
    static constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

    /// Keeps at most @max_events records, of @window when one is given; the
    /// rest are counted as left out.
    explicit ChromeTrace(std::size_t max_events = kDefaultMaxEvents, std::optional<Window> window = std::nullopt);

    /// Adds a drained batch (RunOptions::events, the GUI's drain).
    void add(const std::vector<Event>& batch);
    /// Gives a sample of the run (RunOptions::progress): where the run
    /// started on the records' clock, which a window is measured from. With
    /// a window, the records added before the first sample wait for it.
    void add_sample(const MetricsSample& s);

    std::size_t events_kept() const noexcept { return events_.size(); }
    /// Records (of the window) added after the limit was reached.
    std::uint64_t events_left_out() const noexcept { return left_out_; }
    /// Records stamped before or after the window.
    std::uint64_t events_outside_window() const noexcept { return outside_window_; }
    std::size_t max_events() const noexcept { return max_events_; }
    const std::optional<Window>& window() const noexcept { return window_; }

    /// Where a trace ends, in seconds of run time: the newest record kept
    /// (@result: the run, for its start).
    double kept_until_s(const RunResult& result) const;
    /// What a trace the limit cut holds, in words ("the first 500,000 of
    /// 4,677,989 events, up to 1.057 s of the run's 4.082 s"); empty when
    /// nothing was left out.
    std::string cut_note(const RunResult& result) const;

    /// Where the trace stands: a run taken back to an earlier moment cuts
    /// its trace back to where it stood then, and adds again from there.
    struct Mark {
        std::size_t kept = 0;
        std::size_t pending = 0;
        std::uint64_t left_out = 0;
        std::uint64_t outside_window = 0;
        std::uint64_t newest_kept_ns = 0;
        std::optional<std::uint64_t> start_ns;
    };
    Mark mark() const noexcept;
    /// Back to @m, a mark of this trace: what was added after it is gone
    /// (a mark past what the trace holds keeps all of it).
    void cut_to(const Mark& m);

    /// The trace-event JSON of the records added, with the lanes, lock
    /// names, counters and parameters of @result (the run they came from).
    std::string json(const RunResult& result) const;

private:
    /// Sets where the run started, and so where the window lies.
    void set_start(std::uint64_t start_ns);
    /// Keeps @e, or counts it as outside the window or left out.
    void keep(const Event& e);
    /// Where the run started on the records' clock: as a sample gave it,
    /// else as @result's series says, else the oldest record kept.
    std::uint64_t start_ns(const RunResult& result) const;

    std::size_t max_events_;
    std::optional<Window> window_;
    std::optional<std::uint64_t> start_ns_; ///< from the first sample that has a clock
    std::uint64_t from_ns_ = 0, to_ns_ = 0; ///< the window on the records' clock, once the start is known
    std::vector<Event> events_;
    std::vector<Event> pending_; ///< with a window, what was added before the run's start was known
    std::uint64_t left_out_ = 0;
    std::uint64_t outside_window_ = 0;
    std::uint64_t newest_kept_ns_ = 0;
};

} // namespace pcl
