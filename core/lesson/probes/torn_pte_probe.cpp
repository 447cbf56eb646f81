// The torn_pte probe: a 64-bit PTE of i386 PAE read as two 32-bit halves
// while a writer changes it, as the pagefault scalability (2005) thread
// argued about it. Lameter: "There may be concurrent writes so that one gets
// two pieces that do not fit"; the reply with the reader and writer side by
// side: "If it changed from AB -> CD -> AE, you could read AD and not notice
// the problem"; Piggin: "you need 64-bit atomic reads and writes"; Dickins:
// reads outside the lock "are rechecked within ptlock before making any
// critical decision".
//
// Two modes, on the real SplitPte (mm/split_pte.h):
//   interleaving  one read, scripted: the writer's updates run whole between
//                 two of the reader's loads, as in the thread's diagrams
//                 (mm/split_pte_script.h). Exact, the same on every machine.
//   threads       a writer flipping the entry AB -> CD -> AE on one thread
//                 and readers reading it on others, free-running
//                 (mm/split_pte_race.h). The naive reader's torn reads
//                 depend on how often the threads overlap; the methods that
//                 hold read none, whatever the timing.
#include "lesson/lesson_probe.h"
#include "mm/split_pte.h"
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

ProbeFigures measure_torn_pte(const ProbeArgs& args)
{
    const PteReadMethod method = parse_pte_read_method(args.text("method"));
    ProbeFigures out;
    double reads = 0, torn = 0;
    if (args.text("mode") == "interleaving") {
        const PteScript script = run_pte_interleaving(method, find_pte_interleaving(args.text("interleaving")));
        reads = 1;
        torn = script.torn ? 1 : 0;
        out["torn_present_reads"] = script.torn && pte_present(script.result) ? 1 : 0;
        out["retries"] = script.retries;
        out["writes"] = script.writes;
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
        { "mode", "interleaving: one scripted read; threads: a writer and readers on real threads", "interleaving",
            { "interleaving", "threads" } },
        { "interleaving",
            "interleaving mode: ab_cd (AB becomes CD between the reader's two loads) or ab_cd_ae (then AE before "
            "its third)",
            "ab_cd", interleaving_names() },
        { "reads", "threads mode: the reads each reader makes", "1000000", {}, 1, 1e9 },
        { "readers", "threads mode: reader threads beside the one writer", "1", {}, 1, 64 },
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
    };
    p.run = measure_torn_pte;
    return p;
}

} // namespace pcl
