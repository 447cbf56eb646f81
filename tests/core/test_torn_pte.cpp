// core/mm/split_pte*: the torn two-half PTE read of the pagefault
// scalability (2005) thread, scripted step by step, on free-running
// threads and explored schedule by schedule on the deterministic
// scheduler, and the torn_pte probe built on it.
#include "lesson/lesson.h"
#include "lesson/lesson_probe.h"
#include "mm/split_pte.h"
#include "mm/split_pte_explore.h"
#include "mm/split_pte_race.h"
#include "mm/split_pte_script.h"
#include "sanitizer_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

using namespace pcl;

namespace {

using Op = PteOp;
using Who = PteActor;

const PteInterleaving& ab_cd()
{
    return find_pte_interleaving("ab_cd");
}
const PteInterleaving& ab_cd_ae()
{
    return find_pte_interleaving("ab_cd_ae");
}

/// What a test expects of one step.
struct Expect {
    Who who;
    Op op;
    std::string memory; ///< pte_name of the halves after the step
};

void check_steps(const PteScript& s, const std::vector<Expect>& expect)
{
    REQUIRE(s.steps.size() == expect.size());
    for (std::size_t i = 0; i < expect.size(); ++i) {
        INFO("step " << i << ": " << pte_actor_name(s.steps[i].who) << " " << s.steps[i].what);
        CHECK(s.steps[i].who == expect[i].who);
        CHECK(s.steps[i].op == expect[i].op);
        CHECK(pte_name(make_pte(s.steps[i].pte_low, s.steps[i].pte_high)) == expect[i].memory);
    }
}

/// The writer's five steps of PAE's set_pte from @from to @to, with the memory after each.
std::vector<Expect> pae_update(const std::string& from, const std::string& to)
{
    return {
        { Who::Writer, Op::Lock, from },
        { Who::Writer, Op::ClearPresent, from.substr(0, 1) + "-" + from.substr(1) },
        { Who::Writer, Op::WriteHigh, from.substr(0, 1) + "-" + to.substr(1) },
        { Who::Writer, Op::WriteLow, to },
        { Who::Writer, Op::Unlock, to },
    };
}

std::vector<Expect> operator+(std::vector<Expect> a, const std::vector<Expect>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

ProbeFigures run_torn_pte_probe(const std::vector<std::string>& set)
{
    const LessonProbe* p = find_lesson_probe("torn_pte");
    REQUIRE(p);
    return p->run(probe_args(*p, set, "runs[0].set"));
}

} // namespace

TEST_CASE("a PAE entry's halves, names and methods", "[torn_pte]")
{
    CHECK(low_half(kPteAB) == kPteLowA);
    CHECK(high_half(kPteAB) == kPteHighB);
    CHECK(pte_present(kPteAB));
    CHECK_FALSE(pte_present(make_pte(kPteLowA & ~kPagePresent, kPteHighB)));
    CHECK(pte_name(kPteAB) == "AB");
    CHECK(pte_name(kPteCD) == "CD");
    CHECK(pte_name(kPteAE) == "AE");
    CHECK(pte_name(make_pte(kPteLowA & ~kPagePresent, kPteHighD)) == "A-D");
    CHECK(pte_name(make_pte(0x12345678, 0x9))
        == "0x12345678"
           "0x00000009");
    CHECK(pte_same(kPteAB, kPteAB));
    CHECK_FALSE(pte_same(kPteAB, kPteAE)); // the low halves agree: pte_same compares both

    for (const PteReadMethod m : kPteReadMethods)
        CHECK(parse_pte_read_method(pte_read_method_name(m)) == m);
    try {
        parse_pte_read_method("cmpxchg16b");
        FAIL("an unknown method was accepted");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("'cmpxchg16b'") != std::string::npos);
        CHECK(std::string(e.what()).find("seqcount") != std::string::npos);
    }
    CHECK_THROWS_AS(find_pte_interleaving("ab_ac"), std::invalid_argument);
}

TEST_CASE("set_pte writes the halves in the thread's order, under the PTE lock", "[torn_pte]")
{
    SECTION("PAE: present off, pte_high, pte_low with present")
    {
        SplitPte pte(PteReadMethod::Naive, kPteAB);
        const std::vector<Op> ops(pte.write_ops().begin(), pte.write_ops().end());
        CHECK(ops == std::vector<Op> { Op::Lock, Op::ClearPresent, Op::WriteHigh, Op::WriteLow, Op::Unlock });
        pte.write_step(Op::Lock, kPteCD);
        CHECK(pte.lock_held());
        pte.write_step(Op::ClearPresent, kPteCD);
        CHECK(pte.memory() == make_pte(kPteLowA & ~kPagePresent, kPteHighB));
        pte.write_step(Op::WriteHigh, kPteCD);
        CHECK(pte.memory() == make_pte(kPteLowA & ~kPagePresent, kPteHighD));
        pte.write_step(Op::WriteLow, kPteCD);
        CHECK(pte.memory() == kPteCD);
        pte.write_step(Op::Unlock, kPteCD);
        CHECK_FALSE(pte.lock_held());
        CHECK(pte.read().value == kPteCD);
        CHECK_THROWS_AS(pte.write_step(Op::LoadLow, kPteCD), std::invalid_argument);
    }
    SECTION("seqcount: the sequence odd around the stores, even after")
    {
        SplitPte pte(PteReadMethod::Seqcount, kPteAB);
        const std::vector<Op> ops(pte.write_ops().begin(), pte.write_ops().end());
        CHECK(ops
            == std::vector<Op> {
                Op::Lock, Op::SeqBegin, Op::ClearPresent, Op::WriteHigh, Op::WriteLow, Op::SeqEnd, Op::Unlock });
        pte.set_pte(kPteCD);
        pte.set_pte(kPteAE);
        CHECK(pte.sequence() == 4);
        CHECK(pte.memory() == kPteAE);
        CHECK(pte.read().value == kPteAE);
    }
    SECTION("atomic64: one 64-bit store")
    {
        SplitPte pte(PteReadMethod::Atomic64, kPteAB);
        const std::vector<Op> ops(pte.write_ops().begin(), pte.write_ops().end());
        CHECK(ops == std::vector<Op> { Op::Lock, Op::Store64, Op::Unlock });
        pte.set_pte(kPteCD);
        CHECK(pte.memory() == kPteCD);
        CHECK(pte.pte64.load() == kPteCD);
        CHECK(pte.read().value == kPteCD);
    }
    SECTION("every method reads back what was written when nobody writes meanwhile")
    {
        for (const PteReadMethod m : kPteReadMethods) {
            SplitPte pte(m, kPteAB);
            pte.set_pte(kPteAE);
            const PteRead r = pte.read();
            CHECK(r.value == kPteAE);
            CHECK(r.retries == 0);
            CHECK_FALSE(pte.lock_held());
        }
    }
}

TEST_CASE("the naive read on AB -> CD returns AD, step by step", "[torn_pte]")
{
    const PteScript s = run_pte_interleaving(PteReadMethod::Naive, ab_cd());
    check_steps(s,
        std::vector<Expect> { { Who::Reader, Op::LoadLow, "AB" } } + pae_update("AB", "CD")
            + std::vector<Expect> { { Who::Reader, Op::LoadHigh, "CD" } });
    // What the reader held: A after its first load, still A while the writer
    // works, then A and D.
    CHECK(s.steps[0].reader.low == kPteLowA);
    CHECK_FALSE(s.steps[0].reader.high);
    CHECK(s.steps[3].reader.low == kPteLowA);
    CHECK(s.steps[3].lock_holder == Who::Writer);
    CHECK(s.steps[5].lock_holder == std::nullopt);
    CHECK(s.steps[6].reader.low == kPteLowA);
    CHECK(s.steps[6].reader.high == kPteHighD);
    CHECK(s.steps[6].verdict == PteVerdict::Returns);
    CHECK(s.steps[6].holds == "pte_low A, pte_high D");
    CHECK(s.steps[6].what.find("returns AD") != std::string::npos);
    CHECK(s.steps[6].what.find("torn") != std::string::npos);
    CHECK(s.result == make_pte(kPteLowA, kPteHighD));
    CHECK(s.torn);
    CHECK(pte_present(s.result)); // mismatched halves, yet present: the present bit does not tell
    CHECK(s.retries == 0);
    CHECK(s.writes == 1);
    CHECK(s.written == std::vector<pteval_t> { kPteAB, kPteCD });
}

TEST_CASE("re-reading the first half: AB -> CD is caught, AB -> CD -> AE is read as AD", "[torn_pte]")
{
    SECTION("ab_cd: pte_low changed, the reader retries and reads CD")
    {
        const PteScript s = run_pte_interleaving(PteReadMethod::RereadFirst, ab_cd());
        check_steps(s,
            std::vector<Expect> { { Who::Reader, Op::LoadLow, "AB" } } + pae_update("AB", "CD")
                + std::vector<Expect> {
                    { Who::Reader, Op::LoadHigh, "CD" },
                    { Who::Reader, Op::LoadLow, "CD" },
                    { Who::Reader, Op::LoadLow, "CD" },
                    { Who::Reader, Op::LoadHigh, "CD" },
                    { Who::Reader, Op::LoadLow, "CD" },
                });
        CHECK(s.steps[7].reader.low_again == kPteLowC);
        CHECK(s.steps[7].verdict == PteVerdict::Retries);
        CHECK(s.steps[10].verdict == PteVerdict::Returns);
        CHECK(s.result == kPteCD);
        CHECK_FALSE(s.torn);
        CHECK(s.retries == 1);
    }
    SECTION("ab_cd_ae: the first half is A again, and AD passes")
    {
        const PteScript s = run_pte_interleaving(PteReadMethod::RereadFirst, ab_cd_ae());
        check_steps(s,
            std::vector<Expect> { { Who::Reader, Op::LoadLow, "AB" } } + pae_update("AB", "CD")
                + std::vector<Expect> { { Who::Reader, Op::LoadHigh, "CD" } } + pae_update("CD", "AE")
                + std::vector<Expect> { { Who::Reader, Op::LoadLow, "AE" } });
        const PteStep& last = s.steps.back();
        CHECK(last.reader.low == kPteLowA);
        CHECK(last.reader.high == kPteHighD);
        CHECK(last.reader.low_again == kPteLowA);
        CHECK(last.verdict == PteVerdict::Returns);
        CHECK(last.holds == "pte_low A, pte_high D, pte_low again A");
        CHECK(s.result == make_pte(kPteLowA, kPteHighD));
        CHECK(s.torn);
        CHECK(s.retries == 0);
        CHECK(s.writes == 2);
    }
}

TEST_CASE("recheck under the lock: the handler acts on the entry read under the PTE lock", "[torn_pte]")
{
    const PteScript s = run_pte_interleaving(PteReadMethod::RecheckUnderLock, ab_cd_ae());
    check_steps(s,
        std::vector<Expect> { { Who::Reader, Op::LoadLow, "AB" } } + pae_update("AB", "CD")
            + std::vector<Expect> {
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Lock, "CD" },
                { Who::Writer, Op::Lock, "CD" }, // the second update is due: it finds the lock held and spins
                { Who::Reader, Op::LoadLow, "CD" },
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Unlock, "CD" },
            }
            + pae_update("CD", "AE"));
    CHECK(s.steps[6].reader.hint == make_pte(kPteLowA, kPteHighD));
    CHECK(s.steps[8].lock_holder == Who::Reader);
    CHECK(s.steps[8].what.find("spins") != std::string::npos);
    CHECK(s.steps[10].reader.locked == kPteCD);
    CHECK(s.steps[10].verdict == PteVerdict::BacksOut);
    CHECK(s.steps[11].verdict == PteVerdict::Returns);
    CHECK(s.result == kPteCD);
    CHECK_FALSE(s.torn);
    CHECK(s.retries == 1);
    CHECK(s.writes == 2);
}

TEST_CASE("pte_same backs out and the fault starts again", "[torn_pte]")
{
    const PteScript s = run_pte_interleaving(PteReadMethod::PteSame, ab_cd());
    check_steps(s,
        std::vector<Expect> { { Who::Reader, Op::LoadLow, "AB" } } + pae_update("AB", "CD")
            + std::vector<Expect> {
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Lock, "CD" },
                { Who::Reader, Op::LoadLow, "CD" },
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Unlock, "CD" },
                { Who::Reader, Op::LoadLow, "CD" },
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Lock, "CD" },
                { Who::Reader, Op::LoadLow, "CD" },
                { Who::Reader, Op::LoadHigh, "CD" },
                { Who::Reader, Op::Unlock, "CD" },
            });
    CHECK(s.steps[9].verdict == PteVerdict::BacksOut);
    CHECK(s.steps[10].verdict == PteVerdict::Retries);
    CHECK(s.steps[15].verdict == PteVerdict::Continue);
    CHECK(s.steps[16].verdict == PteVerdict::Returns);
    CHECK(s.result == kPteCD);
    CHECK(s.retries == 1);
}

TEST_CASE("seqcount: a read that a write overlapped is read again", "[torn_pte]")
{
    const PteScript s = run_pte_interleaving(PteReadMethod::Seqcount, ab_cd());
    REQUIRE(s.steps.size() == 2 + 7 + 2 + 4);
    CHECK(s.steps[0].op == Op::SeqRead);
    CHECK(s.steps[0].reader.seq == 0u);
    CHECK(s.steps[3].op == Op::SeqBegin);
    CHECK(s.steps[3].seq == 1);
    CHECK(s.steps[7].op == Op::SeqEnd);
    CHECK(s.steps[7].seq == 2);
    CHECK(s.steps[9].op == Op::LoadHigh);
    CHECK(s.steps[9].reader.hint == make_pte(kPteLowA, kPteHighD)); // it held AD for a moment
    CHECK(s.steps[10].op == Op::SeqRecheck);
    CHECK(s.steps[10].verdict == PteVerdict::Retries);
    CHECK(s.steps[11].reader.seq == 2u);
    CHECK(s.steps[14].verdict == PteVerdict::Returns);
    CHECK(s.result == kPteCD);
    CHECK(s.retries == 1);
}

TEST_CASE("every method on every scripted interleaving", "[torn_pte]")
{
    struct Row {
        PteReadMethod method;
        const char* interleaving;
        pteval_t result;
        std::uint32_t retries;
    };
    const pteval_t ad = make_pte(kPteLowA, kPteHighD);
    const Row rows[] = {
        { PteReadMethod::Naive, "ab_cd", ad, 0 },
        { PteReadMethod::Naive, "ab_cd_ae", ad, 0 },
        { PteReadMethod::RereadFirst, "ab_cd", kPteCD, 1 },
        { PteReadMethod::RereadFirst, "ab_cd_ae", ad, 0 },
        { PteReadMethod::RecheckUnderLock, "ab_cd", kPteCD, 1 },
        { PteReadMethod::RecheckUnderLock, "ab_cd_ae", kPteCD, 1 },
        { PteReadMethod::PteSame, "ab_cd", kPteCD, 1 },
        { PteReadMethod::PteSame, "ab_cd_ae", kPteAE, 1 },
        { PteReadMethod::Atomic64, "ab_cd", kPteAB, 0 },
        { PteReadMethod::Atomic64, "ab_cd_ae", kPteAB, 0 },
        { PteReadMethod::Seqcount, "ab_cd", kPteCD, 1 },
        { PteReadMethod::Seqcount, "ab_cd_ae", kPteAE, 2 },
    };
    for (const Row& row : rows) {
        INFO(pte_read_method_name(row.method) << " on " << row.interleaving);
        const PteInterleaving& il = find_pte_interleaving(row.interleaving);
        const PteScript s = run_pte_interleaving(row.method, il);
        CHECK(pte_name(s.result) == pte_name(row.result));
        CHECK(s.retries == row.retries);
        CHECK(s.torn == (row.result == ad));
        // Every update ran, so every method ends on the same memory.
        CHECK(s.writes == il.updates.size());
        const PteStep& last = s.steps.back();
        CHECK(make_pte(last.pte_low, last.pte_high) == il.updates.back().value);
        CHECK(last.lock_holder == std::nullopt);
        for (const PteStep& step : s.steps)
            CHECK_FALSE(step.what.empty());
    }
    // The methods that hold never return a torn entry here.
    for (const PteReadMethod m : kPteReadMethods)
        for (const PteInterleaving& il : pte_interleavings())
            if (pte_read_method_holds(m))
                CHECK_FALSE(run_pte_interleaving(m, il).torn);
}

TEST_CASE("free-running threads: the fixes read no torn entry, and every read is counted", "[torn_pte]")
{
    const std::uint64_t reads = test::kSanitized ? 20'000 : 100'000;
    for (const PteReadMethod m : kPteReadMethods) {
        INFO(pte_read_method_name(m));
        PteRaceConfig config;
        config.method = m;
        config.reads = reads;
        config.readers = 2;
        const PteRaceResult r = run_pte_race(config);
        CHECK(r.reads == 2 * reads);
        CHECK(r.consistent + r.torn == r.reads);
        CHECK(r.torn_present <= r.torn);
        CHECK(r.writes >= 1);
        if (pte_read_method_holds(m)) {
            CHECK(r.torn == 0);
        }
        if (m == PteReadMethod::Naive || m == PteReadMethod::Atomic64) {
            CHECK(r.retries == 0); // they never retry
        }
    }
    CHECK_THROWS_WITH(run_pte_race({ PteReadMethod::Naive, 0, 1 }), Catch::Contains("reads"));
    CHECK_THROWS_WITH(run_pte_race({ PteReadMethod::Naive, 10, 0 }), Catch::Contains("readers"));
    CHECK_THROWS_WITH(run_pte_race({ PteReadMethod::Naive, 10, 65 }), Catch::Contains("readers"));
}

TEST_CASE("the torn_pte probe: parameters, and its figures on the scripted interleavings", "[torn_pte]")
{
    const LessonProbe* p = find_lesson_probe("torn_pte");
    REQUIRE(p);
    for (const char* figure : { "reads", "torn_reads", "torn_per_million", "torn_present_reads", "retries", "writes",
             "schedules", "found_seed" })
        CHECK(p->find_figure(figure));

    SECTION("bad values are refused by name")
    {
        const auto refused = [&](const std::string& item, const std::string& name) {
            INFO(item);
            try {
                probe_args(*p, { item }, "runs[2].set");
                FAIL("accepted " << item);
            } catch (const LessonError& e) {
                CHECK(std::string(e.what()).find(name) != std::string::npos);
                CHECK(e.field() == "runs[2].set");
            }
        };
        refused("method=cmpxchg8b", "method");
        refused("mode=processes", "mode");
        refused("interleaving=ab_ac", "interleaving");
        refused("reads=0", "reads");
        refused("reads=1.5", "reads");
        refused("readers=65", "readers");
        refused("readers=two", "readers");
        refused("writers=2", "writers");
        refused("mode=explored", "mode");
        refused("strategy=virtual_time", "strategy");
        refused("depth=0", "depth");
        refused("depth=9", "depth");
        refused("seed=-1", "seed");
        refused("schedules=0", "schedules");
        refused("schedules=20000000", "schedules");
        refused("updates=31", "updates");
    }
    SECTION("explore: the schedules counted, and the seed of the one that tore the read")
    {
        ProbeFigures f = run_torn_pte_probe({ "method=naive", "mode=explore", "schedules=1000" });
        CHECK(f.at("schedules") == 3);
        CHECK(f.at("found_seed") == 3);
        CHECK(f.at("reads") == 3);
        CHECK(f.at("torn_reads") == 1);
        CHECK(f.at("torn_present_reads") == 1);
        CHECK(f.at("writes") == 9);
        f = run_torn_pte_probe(
            { "method=naive", "mode=explore", "strategy=pct", "depth=3", "seed=5", "schedules=1000" });
        CHECK(f.at("found_seed") == 4 + f.at("schedules"));
        f = run_torn_pte_probe({ "method=atomic64", "mode=explore", "strategy=pct", "schedules=500" });
        CHECK(f.at("schedules") == 500);
        CHECK(f.at("found_seed") == 0);
        CHECK(f.at("torn_reads") == 0);
        CHECK(run_torn_pte_probe({ "method=naive", "interleaving=ab_cd" }).at("schedules") == 0);
    }
    SECTION("scripted: the naive and the re-read reads are torn, every fix is not")
    {
        ProbeFigures f = run_torn_pte_probe({ "method=naive", "interleaving=ab_cd" });
        CHECK(f.at("reads") == 1);
        CHECK(f.at("torn_reads") == 1);
        CHECK(f.at("torn_per_million") == 1e6);
        CHECK(f.at("torn_present_reads") == 1);
        CHECK(f.at("retries") == 0);
        CHECK(f.at("writes") == 1);

        f = run_torn_pte_probe({ "method=reread_first", "interleaving=ab_cd" });
        CHECK(f.at("torn_reads") == 0);
        CHECK(f.at("retries") == 1);
        f = run_torn_pte_probe({ "method=reread_first", "interleaving=ab_cd_ae" });
        CHECK(f.at("torn_reads") == 1);
        CHECK(f.at("writes") == 2);

        for (const char* fix : { "recheck_under_lock", "pte_same", "atomic64", "seqcount" })
            for (const char* il : { "ab_cd", "ab_cd_ae" }) {
                INFO(fix << " on " << il);
                f = run_torn_pte_probe({ std::string("method=") + fix, std::string("interleaving=") + il });
                CHECK(f.at("reads") == 1);
                CHECK(f.at("torn_reads") == 0);
                CHECK(f.at("torn_per_million") == 0);
            }
        f = run_torn_pte_probe({ "method=seqcount", "interleaving=ab_cd_ae" });
        CHECK(f.at("retries") == 2);
    }
    SECTION("threads: reads add up and a fix reads nothing torn")
    {
        const ProbeFigures f = run_torn_pte_probe({ "method=seqcount", "mode=threads", "reads=20000", "readers=1" });
        CHECK(f.at("reads") == 20000);
        CHECK(f.at("torn_reads") == 0);
        CHECK(f.at("torn_per_million") == 0);
        CHECK(f.at("writes") >= 1);
    }
}

namespace {

PteExploreConfig explore(
    PteReadMethod method, sched::ScheduleStrategy strategy, std::uint64_t schedules, unsigned depth = 3)
{
    return { .method = method, .strategy = strategy, .depth = depth, .schedules = schedules };
}

/// A schedule's steps as "reader LoadLow: reads pte_low: A" lines.
std::vector<std::string> step_lines(const PteScript& s)
{
    std::vector<std::string> v;
    for (const PteStep& step : s.steps)
        v.push_back(std::string(pte_actor_name(step.who)) + " " + std::to_string(int(step.op)) + ": " + step.what);
    return v;
}

} // namespace

TEST_CASE(
    "explored: memory passes through a cleared present bit, and torn is what it never held", "[torn_pte][explore]")
{
    const auto names = [](const std::vector<pteval_t>& v) {
        std::vector<std::string> n;
        for (const pteval_t e : v)
            n.push_back(pte_name(e));
        return n;
    };
    CHECK(names(pte_explore_memory(PteReadMethod::Naive, 3))
        == std::vector<std::string> { "AB", "A-B", "A-D", "CD", "C-D", "C-E", "AE", "A-E" });
    CHECK(names(pte_explore_memory(PteReadMethod::Atomic64, 3)) == std::vector<std::string> { "AB", "CD", "AE" });
}

TEST_CASE("explored: the plain read is torn within a counted number of schedules", "[torn_pte][explore]")
{
    using sched::ScheduleStrategy;
    // Seed 1 onwards; each count is exact, the same on every machine.
    struct Find {
        PteReadMethod method;
        ScheduleStrategy strategy;
        unsigned depth;
        std::uint64_t schedules;
        const char* result;
    };
    for (const Find& f : {
             Find { PteReadMethod::Naive, ScheduleStrategy::Random, 3, 3, "AD" },
             Find { PteReadMethod::Naive, ScheduleStrategy::Pct, 3, 12, "AD" },
             Find { PteReadMethod::Naive, ScheduleStrategy::Pct, 4, 7, "CE" },
             // AB -> CD -> AE: the low half A must come back between the
             // reader's loads, three changes of side (pct needs d = 4).
             Find { PteReadMethod::RereadFirst, ScheduleStrategy::Random, 3, 75, "AD" },
             Find { PteReadMethod::RereadFirst, ScheduleStrategy::Pct, 4, 329, "AD" },
         }) {
        INFO(pte_read_method_name(f.method) << " under " << sched::strategy_name(f.strategy) << " d=" << f.depth);
        const PteExploreResult r = explore_pte_schedules(explore(f.method, f.strategy, 10'000, f.depth));
        CHECK(r.schedules == f.schedules);
        REQUIRE(r.found);
        CHECK(*r.found == f.schedules); // from seed 1
        CHECK(r.schedule.torn);
        CHECK(pte_name(r.schedule.result) == f.result);
        CHECK(pte_present(r.schedule.result)); // the present bit does not give it away
        CHECK(r.schedule.interleaving == "explored");
        CHECK_FALSE(r.stopped);
    }
    // The torn read needs three ordering constraints: with one change point
    // pct never makes it.
    const PteExploreResult d2 = explore_pte_schedules(explore(PteReadMethod::Naive, ScheduleStrategy::Pct, 2'000, 2));
    CHECK_FALSE(d2.found);
    CHECK(d2.schedules == 2'000);
}

TEST_CASE("explored: no schedule tears a fix", "[torn_pte][explore]")
{
    // 2,000 schedules each here; the lesson runs 100,000 (docs/lesson-format.md).
    for (const PteReadMethod m : kPteReadMethods) {
        if (!pte_read_method_holds(m))
            continue;
        for (const auto strategy : { sched::ScheduleStrategy::Random, sched::ScheduleStrategy::Pct }) {
            INFO(pte_read_method_name(m) << " under " << sched::strategy_name(strategy));
            const PteExploreResult r = explore_pte_schedules(explore(m, strategy, 2'000));
            CHECK(r.schedules == 2'000);
            CHECK_FALSE(r.found);
            CHECK(r.schedule.steps.empty());
            CHECK(r.points > 2'000 * 4); // points where the other side could have run
        }
    }
    // The retrying fixes did retry in some schedules: the writer got in.
    CHECK(explore_pte_schedules(explore(PteReadMethod::PteSame, sched::ScheduleStrategy::Random, 2'000)).retries > 0);
    CHECK(explore_pte_schedules(explore(PteReadMethod::Seqcount, sched::ScheduleStrategy::Random, 2'000)).retries > 0);
}

TEST_CASE("explored: a seed is a schedule, replayed exactly", "[torn_pte][explore]")
{
    const PteExploreConfig c = explore(PteReadMethod::Naive, sched::ScheduleStrategy::Random, 100);
    const PteExploreResult r = explore_pte_schedules(c);
    REQUIRE(r.found);
    const PteScript again = run_pte_schedule(c, *r.found);
    CHECK(step_lines(again) == step_lines(r.schedule));
    CHECK(again.result == r.schedule.result);
    // The schedule found: the reader's pte_low A before the writer's new
    // pte_high, its pte_high after it.
    const std::vector<std::string> lines = step_lines(r.schedule);
    const auto at = [&](const std::string& what) {
        return std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != l.npos; })
            - lines.begin();
    };
    CHECK(at("reader 8: reads pte_low: A") < at("writer 5: writes pte_high: D"));
    CHECK(at("writer 5: writes pte_high: D") < at("reader 9: reads pte_high: D; returns AD, an entry nobody wrote"));
    // Every one of the writer's operations is there, three updates of five.
    CHECK(std::count_if(r.schedule.steps.begin(), r.schedule.steps.end(), [](const PteStep& s) {
        return s.who == PteActor::Writer;
    }) == 15);
    // Another seed, another schedule (some of ten differ); pct too replays.
    int different = 0;
    for (std::uint64_t seed = 10; seed < 20; ++seed)
        different += step_lines(run_pte_schedule(c, seed)) != lines;
    CHECK(different > 0);
    const PteExploreConfig pct = explore(PteReadMethod::Seqcount, sched::ScheduleStrategy::Pct, 1);
    CHECK(step_lines(run_pte_schedule(pct, 42)) == step_lines(run_pte_schedule(pct, 42)));
}

TEST_CASE("explored: a configuration out of range is refused by its field", "[torn_pte][explore]")
{
    const auto refused = [](PteExploreConfig c, const char* field) {
        INFO(field);
        CHECK_THROWS_WITH(explore_pte_schedules(c), Catch::StartsWith(field));
        CHECK_THROWS_WITH(run_pte_schedule(c, 1), Catch::StartsWith(field));
    };
    PteExploreConfig c = explore(PteReadMethod::Naive, sched::ScheduleStrategy::VirtualTime, 10);
    refused(c, "strategy");
    c = explore(PteReadMethod::Naive, sched::ScheduleStrategy::Pct, 10, 0);
    refused(c, "depth");
    c.depth = 9;
    refused(c, "depth");
    c = explore(PteReadMethod::Naive, sched::ScheduleStrategy::Random, 0);
    refused(c, "schedules");
    c = explore(PteReadMethod::Naive, sched::ScheduleStrategy::Random, 10);
    c.updates = 0;
    refused(c, "updates");
    c.updates = 31;
    refused(c, "updates");
}
