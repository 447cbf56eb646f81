// The torn_pte probe: a 64-bit PTE of i386 PAE read as two 32-bit halves
// while a writer changes it, as the pagefault scalability (2005) thread
// argued about it. Lameter: "There may be concurrent writes so that one gets
// two pieces that do not fit"; the reply with the reader and writer side by
// side: "If it changed from AB -> CD -> AE, you could read AD and not notice
// the problem"; Piggin: "you need 64-bit atomic reads and writes"; Dickins:
// reads outside the lock "are rechecked within ptlock before making any
// critical decision".
//
// Three modes, on the real SplitPte (mm/split_pte.h):
//   interleaving  one read, scripted: the writer's updates run whole between
//                 two of the reader's loads, as in the thread's diagrams
//                 (mm/split_pte_script.h). Exact, the same on every machine.
//   threads       a writer flipping the entry AB -> CD -> AE on one thread
//                 and readers reading it on others, free-running
//                 (mm/split_pte_race.h). The naive reader's torn reads
//                 depend on how often the threads overlap; the methods that
//                 hold read none, whatever the timing.
//   explore       the reader and the writer as two tasks of the
//                 deterministic scheduler, a scheduling point before each
//                 memory operation, schedule after schedule (random or pct,
//                 from a seed) until a read is torn or the bound
//                 (mm/split_pte_explore.h): how many schedules the plain
//                 read takes to tear, and none among the bound for a fix.
//                 Exact: the same seed, the same count, on every machine.
#include "lesson/lesson_probe.h"
#include "mm/split_pte.h"
#include "mm/split_pte_explore.h"
#include "mm/split_pte_race.h"
#include "mm/split_pte_script.h"

#include <string>
#include <vector>

namespace pcl {

namespace {

std::vector<std::string> method_names()
{
    std::vector<std::string> v;
    for (const PteReadMethod m : kPteReadMethods)
        v.emplace_back(pte_read_method_name(m));
    return v;
}

std::vector<std::string> interleaving_names()
{
    std::vector<std::string> v;
    for (const PteInterleaving& i : pte_interleavings())
        v.push_back(i.name);
    return v;
}

PteExploreConfig explore_config(const ProbeArgs& args, PteReadMethod method)
{
    PteExploreConfig c;
    c.method = method;
    c.strategy = *sched::parse_strategy(args.text("strategy")); // one of the parameter's choices
    c.depth = unsigned(args.count("depth"));
    c.seed = args.count("seed");
    c.schedules = args.count("schedules");
    c.updates = unsigned(args.count("updates"));
    return c;
}

ProbeFigures measure_torn_pte(const ProbeArgs& args)
{
    const PteReadMethod method = parse_pte_read_method(args.text("method"));
    ProbeFigures out;
    double reads = 0, torn = 0;
    const std::string& mode = args.text("mode");
    out["schedules"] = 0;
    out["found_seed"] = 0;
    if (mode == "interleaving") {
        const PteScript script = run_pte_interleaving(method, find_pte_interleaving(args.text("interleaving")));
        reads = 1;
        torn = script.torn ? 1 : 0;
        out["torn_present_reads"] = script.torn && pte_present(script.result) ? 1 : 0;
        out["retries"] = script.retries;
        out["writes"] = script.writes;
    } else if (mode == "explore") {
        const PteExploreResult r = explore_pte_schedules(explore_config(args, method));
        reads = double(r.schedules); // one read in each schedule
        torn = r.found ? 1 : 0;
        out["torn_present_reads"] = r.found && pte_present(r.schedule.result) ? 1 : 0;
        out["retries"] = double(r.retries);
        out["writes"] = double(r.schedules) * double(args.count("updates"));
        out["schedules"] = double(r.schedules);
        out["found_seed"] = r.found ? double(*r.found) : 0;
    } else {
        PteRaceConfig config;
        config.method = method;
        config.reads = args.count("reads");
        config.readers = unsigned(args.count("readers"));
        const PteRaceResult race = run_pte_race(config);
        reads = double(race.reads);
        torn = double(race.torn);
        out["torn_present_reads"] = double(race.torn_present);
        out["retries"] = double(race.retries);
        out["writes"] = double(race.writes);
    }
    out["reads"] = reads;
    out["torn_reads"] = torn;
    out["torn_per_million"] = reads > 0 ? torn * 1e6 / reads : 0;
    return out;
}

} // namespace

LessonProbe torn_pte_probe()
{
    LessonProbe p;
    p.name = "torn_pte";
    p.meaning = "Reads a PAE page-table entry, two 32-bit halves, while a writer changes it (present off, the high "
                "half, the low half with present), by one of six methods: one scripted interleaving step by step, "
                "or free-running threads, counting the reads that return an entry nobody wrote";
    p.params = {
        { "method",
            "naive: low half, then high half; reread_first: and the low half again, retrying if it changed; "
            "recheck_under_lock: re-read under the PTE lock and act on that; pte_same: confirm the unlocked read "
            "under the lock, else retry; atomic64: one 64-bit store and one 64-bit load; seqcount: a sequence "
            "count around the writer",
            "naive", method_names() },
        { "mode",
            "interleaving: one scripted read; threads: a writer and readers on real threads; explore: the reader and "
            "the writer as tasks of the deterministic scheduler, schedule after schedule until a read is torn",
            "interleaving", { "interleaving", "threads", "explore" } },
        { "interleaving",
            "interleaving mode: ab_cd (AB becomes CD between the reader's two loads) or ab_cd_ae (then AE before "
            "its third)",
            "ab_cd", interleaving_names() },
        { "reads", "threads mode: the reads each reader makes", "1000000", {}, 1, 1e9 },
        { "readers", "threads mode: reader threads beside the one writer", "1", {}, 1, 64 },
        { "strategy",
            "explore mode: random (any runnable side next, at every memory operation) or pct (random priorities, "
            "depth - 1 random change points)",
            "random", { "random", "pct" } },
        { "depth", "explore mode, pct: the bug depth d, d - 1 priority change points", "3", {}, 1, 8 },
        { "seed", "explore mode: the first schedule's seed; the n-th schedule's is seed + n - 1", "1", {}, 0, 1e12 },
        { "schedules", "explore mode: schedules at most, stopping at the first torn read", "100000", {}, 1, 1e7 },
        { "updates", "explore mode: the writer's updates in each schedule, AB -> CD -> AE -> AB ...", "3", {}, 1, 30 },
    };
    // The torn PTE view walks a run's interleaving operation by operation.
    p.view = "tornpte";
    p.figures = {
        { "reads", "reads", "reads made (interleaving mode: the one scripted read)" },
        { "torn_reads", "reads",
            "reads that returned an entry the writer never wrote (interleaving mode: 1 if the scripted read was "
            "torn, else 0)" },
        { "torn_per_million", "reads / million reads", "torn reads per million reads" },
        { "torn_present_reads", "reads",
            "torn reads with the present bit set, which a check of the present bit lets through" },
        { "retries", "retries", "times the readers retried or backed out" },
        { "writes", "updates", "updates the writer made while the readers read" },
        { "schedules", "schedules",
            "explore mode: schedules run, the one that found a torn read included (0 in the other modes)" },
        { "found_seed", "seed",
            "explore mode: the seed of the first schedule whose read was torn, 0 when none was (or in the other "
            "modes)" },
    };
    p.run = measure_torn_pte;
    return p;
}

} // namespace pcl
