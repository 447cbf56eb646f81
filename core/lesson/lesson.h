// A lesson: one argument of a mailing-list thread turned into something a
// class can watch and a machine can check (docs/lesson-format.md). It says
// what was asked and who argued what, names the runs that show it, walks
// through them in steps at a speed a person can follow, and ends with
// claims: the thread's statements, each measured on this machine as a ratio
// or a count of one run against another and turned into a verdict by a
// rule the file states.
//
// A lesson file is read as strictly as a scenario: an unknown member, a
// value of the wrong type or out of range is a LessonError whose message
// starts with the member's path ("claims[0].measure.metric: ..."). The
// reader goes on past each, so that `validate` lists every one
// (lesson_problems.h).
#pragma once

#include "lesson/lesson_metric.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// A bad lesson file: field() is the JSON path of the offending member (""
/// when the document is not JSON), what() the whole message.
class LessonError : public std::invalid_argument {
public:
    LessonError(std::string field, const std::string& message);
    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

/// Who argued what, in one line.
struct LessonArgument {
    std::string who;
    std::string said;
    bool quoted = false; ///< @said is the thread's own words
};

/// A run the steps and claims name: either a bundled scenario and the
/// fields it changes ("workload.files=shared"), as `pagecache-lab-cli run
/// --set` takes them, played by the engine; or a probe (lesson_probe.h) and
/// its parameters ("radix_shift=4"), a measurement of the structures
/// themselves.
struct LessonRun {
    std::string name;
    std::string scenario;         ///< a bundled scenario's name, e.g. "2002-global-hash-lock" ("" for a probe run)
    std::string probe;            ///< a probe's name, e.g. "index_memory" ("" for a scenario run)
    std::vector<std::string> set; ///< "path=value" overrides, or a probe's "name=value" parameters, in order
    /// A probe run's parameters in the quick form, on top of @set (a
    /// scenario run takes the lesson's own quick overrides instead).
    std::vector<std::string> quick;
    std::string label; ///< how a verdict names the run: "hash + pagecache_lock"

    bool is_probe() const noexcept { return !probe.empty(); }
};

/// What a step draws the eye to in the view it brings forward.
struct LessonHighlight {
    enum class Kind : std::uint8_t { None, Lock, File, Cpu, Bucket, Node };
    Kind kind = Kind::None;
    std::string lock;         ///< Lock: a lock or lock class name ("pagecache_lock")
    std::uint64_t number = 0; ///< File, Cpu, Bucket: its number; Node: the page index whose leaf it is
};

/// When a step's run pauses by itself: @shown_seconds of running time after
/// its condition first holds, so that a class sees what the step names
/// happen, and go on happening, before the run stops to let them look (a
/// condition met by the first page would otherwise pause the run before
/// anyone saw it move).
struct LessonPause {
    static constexpr double kShownSeconds = 5; ///< when the file does not say
    enum class Kind : std::uint8_t { None, TreeHeight, LockContentions, ReadaheadWasted, RunEnds };
    Kind kind = Kind::None;
    std::string lock;        ///< LockContentions: the lock class
    std::uint64_t count = 0; ///< TreeHeight: the height; LockContentions: contentions; ReadaheadWasted: pages
    double shown_seconds = kShownSeconds; ///< running time from the condition holding to the pause (not RunEnds)
};

struct LessonStep {
    std::string title;
    std::string text;             ///< what to look at and why
    std::string run;              ///< a LessonRun's name
    std::vector<std::string> set; ///< more overrides on top of the run's
    /// Operations per second per CPU; 0: unpaced (a measurement step, which
    /// the step's text says).
    double ops_per_second = 0;
    std::uint64_t hold_stretch_ns = 0; ///< the critical-section stretch
    std::string view;                  ///< the view it brings forward (lesson_views()); "probe" for a probe run
    LessonHighlight highlight;
    LessonPause pause;
};

/// How a claim's figures become a verdict.
enum class LessonVerdict : std::uint8_t { Held, DidNotHold, Inconclusive };
/// "held", "did not hold", "inconclusive".
std::string_view lesson_verdict_name(LessonVerdict verdict) noexcept;

struct LessonClaim {
    std::string statement;     ///< the thread's statement
    std::string by;            ///< who made it
    bool quoted = false;       ///< @statement is the thread's own words
    std::string thread_figure; ///< the thread's figure, as posted ("" if it gave none)
    LessonMetric metric = LessonMetric::ContentionsPer1000Ops;
    /// A named figure read instead of @metric: one a probe run's probe
    /// reports, or one of a scenario run's headline figures (run_figures.h).
    std::string figure;
    std::string figure_unit; ///< @figure's unit, as its probe or the headline figures give it
    std::string lock;        ///< the lock class a lock metric reads in @run
    std::string run;         ///< the run measured
    std::string over;        ///< the run it is divided by ("" : the metric of @run itself)
    std::string over_lock;   ///< the lock class read in @over ("": @lock): pagecache_lock against a tree's lock
    unsigned repeats = 3;
    /// The rule: held when the median figure is at least (or, with
    /// @at_most, at most) @threshold.
    double threshold = 1;
    bool at_most = false;
    /// Inconclusive when the repeats spread wider than this share of their
    /// median ((max - min) / median).
    double max_spread = 0.5;
    /// Inconclusive on a machine with fewer CPUs: the claim is about them.
    unsigned min_cpus = 1;
    /// The event counted happens only when threads race (a torn read on
    /// real threads): none seen in any repeat is inconclusive, not a claim
    /// that did not hold, since a busy machine may never run the racing
    /// threads at the same moment.
    bool race = false;
    /// The machine the claim is about, a modelled profile's name (the
    /// thread's: "altix-2005"), or "" for none. The claim is then measured
    /// there as well, once (a modelled run is the same every time) and at
    /// half and twice its transfer latencies (experiment.h); here it is
    /// measured only if this computer has its min_cpus.
    std::string machine;
};

/// A series of a lesson table: one scenario run measured at each of the
/// table's CPU counts, beside the figures the thread posted at them.
struct LessonTableSeries {
    std::string run;            ///< a scenario run's name
    std::string label;          ///< how the chart names it ("" : the run's label)
    std::vector<double> thread; ///< the thread's figure at each of the table's cpus (empty: none posted)
};

/// A table of the thread set beside ours: each series' run at each CPU
/// count, measured on the thread's machine (a modelled profile: one run a
/// point, the same every time), and the thread's own figures at the same
/// counts. Lameter's pft table, 1 to 60 threads, drawn as two curves.
struct LessonTable {
    std::string title;   ///< "Faults per wall-second, 1 to 60 threads"
    std::string by;      ///< who posted the table
    std::string source;  ///< what the thread's figures were measured on: "pft, 16 GB, 2.6.13-rc1-mm1-hugh"
    std::string machine; ///< the modelled profile it is measured on ("altix-2005")
    LessonMetric metric = LessonMetric::FaultsPerSecond;
    std::string lock;           ///< the lock class a lock metric reads
    std::vector<unsigned> cpus; ///< the CPU counts, rising
    /// Overrides of every run of the table, after the run's own and the
    /// quick form's: its size, the same in both forms (a point is one run).
    std::vector<std::string> set;
    std::vector<LessonTableSeries> series;
};

struct Lesson {
    static constexpr int kVersion = 1; ///< the format version this build reads

    std::string name;     ///< the file's name without ".json": how the command line names it
    std::string title;    ///< "One global hash lock, or a tree per file"
    std::string thread;   ///< the thread's short name (docs/history.md): "radix-tree pagecache (2002)"
    std::string citation; ///< subject, list, date, author
    std::string question; ///< two sentences
    std::string summary;  ///< one sentence for a list: what you will see
    std::vector<LessonArgument> arguments;
    std::vector<LessonRun> runs;
    std::vector<LessonStep> steps;
    std::vector<LessonClaim> claims;
    std::vector<LessonTable> tables; ///< the thread's tables beside ours (may be none)
    /// Overrides of every run in the scaled-down form (`--quick`): seconds,
    /// for a class or CI.
    std::vector<std::string> quick;

    const LessonRun* find_run(std::string_view name) const;
};

/// The members of a lesson document, in the format's order.
const std::vector<std::string_view>& lesson_members();

/// The views a step may bring forward ("probe": a probe run's figures,
/// shown beside the step's text).
const std::vector<std::string_view>& lesson_views();

class LessonProblems;

/// Parses @text, the contents of @origin (a file name used in messages and,
/// without its directory and ".json", the lesson's name). Throws LessonError:
/// the first of its problems in the format's order.
Lesson parse_lesson(std::string_view text, const std::string& origin);

/// Reads @text as parse_lesson does, but goes on past each problem: every
/// one is added to @problems (whose origin is @origin) and its member keeps
/// its default, and a check that depends on a member with a problem is not
/// made (a step's view against a run whose scenario or probe is in doubt),
/// since what it found would be the same mistake again. With problems, the
/// lesson is only as far as it reads: not one to run.
Lesson read_lesson(std::string_view text, const std::string& origin, LessonProblems& problems);

} // namespace pcl
