// Lessons: every bundled lesson reads and its runs' scenarios validate; a bad
// lesson file is refused with the member's path; the verdict rule's every
// branch; and each bundled lesson's quick form run once, with the counts
// that do not depend on timing asserted exactly.
#include "lesson/experiment.h"
#include "lesson/figure_text.h"
#include "lesson/lesson.h"
#include "lesson/lesson_library.h"
#include "lesson/lesson_probe.h"
#include "lib/bundle.h"
#include "sim/engine_fields.h"
#include "sim/runner.h"
#include "verdict_figures_check.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

using namespace pcl;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

/// A small valid lesson: one run, one step, one claim; @claim_extra and
/// @doc_extra are spliced into the claim and the document.
std::string lesson_text(const std::string& claim_extra = "", const std::string& doc_extra = "")
{
    return R"json({"version": 1, "title": "T", "thread": "radix-tree pagecache (2002)", "citation": "C",
        "question": "Q?", "summary": "S.",
        "arguments": [{"who": "A", "said": "B"}],
        "runs": [{"name": "a", "scenario": "2002-global-hash-lock", "label": "run a"},
                 {"name": "b", "scenario": "2002-radix-tree-per-file", "label": "run b"}],
        "steps": [{"title": "s", "text": "t", "run": "a", "view": "locks"}],
        "claims": [{"statement": "x", "by": "y", "measure": {"metric": "ops_per_second", "run": "a", "over": "b"},
                    "rule": {"at_least": 1})json"
        + claim_extra + "}]" + doc_extra + "}";
}

/// The LessonError parsing @text throws: its field and message.
LessonError error_of(const std::string& text)
{
    try {
        parse_lesson(text, "lessons/bad.json");
    } catch (const LessonError& e) {
        return e;
    }
    FAIL("the lesson was accepted");
    return LessonError("", "");
}

ClaimResult claim_of(
    std::vector<double> values, double threshold, bool at_most = false, double max_spread = 0.5, unsigned min_cpus = 1)
{
    ClaimResult r;
    r.claim.metric = LessonMetric::OpsPerSecond;
    r.claim.run = "a";
    r.claim.over = "b";
    r.claim.threshold = threshold;
    r.claim.at_most = at_most;
    r.claim.max_spread = max_spread;
    r.claim.min_cpus = min_cpus;
    r.run_label = "run a";
    r.over_label = "run b";
    r.values = values;
    r.run_values = values;
    r.over_values.assign(values.size(), 1.0);
    return r;
}

} // namespace

TEST_CASE("every bundled lesson reads, and its runs and steps are valid scenarios", "[lesson]")
{
    const std::vector<Lesson> lessons = bundled_lessons();
    REQUIRE_FALSE(lessons.empty());
    for (const Lesson& l : lessons) {
        INFO("lesson " << l.name);
        CHECK_NOTHROW(check_lesson_scenarios(l, bundled_scenario_text));
        CHECK_FALSE(l.claims.empty());
        // Every scenario run has a scaled-down form, for a class or CI (a
        // probe run's own quick parameters are optional: most are exact
        // and take a moment anyway).
        if (std::any_of(l.runs.begin(), l.runs.end(), [](const LessonRun& r) { return !r.is_probe(); }))
            CHECK_FALSE(l.quick.empty());
        // What a reader of the project sees names no file of it.
        for (const LessonStep& s : l.steps)
            CHECK_THAT(s.text, !Contains(".json"));
        CHECK_THAT(l.question + l.summary, !Contains(".json") && !Contains("seed"));
    }
    CHECK(find_lesson("2002-one-global-hash-lock").title == "One global hash lock, or a tree per file");
}

TEST_CASE("a step's pacing has the scenario's bounds", "[lesson][errors]")
{
    // The scenario's pacing fields give the bounds; a step is refused past
    // them, naming its member, and accepted at them.
    const Field<EngineConfig>& speed = *pacing_fields().find("ops_per_second");
    const Field<EngineConfig>& stretch = *pacing_fields().find("hold_stretch_ns");
    const auto with_pacing = [](const std::string& pacing) {
        std::string t = lesson_text();
        const std::string step = "\"run\": \"a\", \"view\": \"locks\"";
        t.replace(t.find(step), step.size(), step + ", \"pacing\": {" + pacing + "}");
        return t;
    };
    const Lesson ok = parse_lesson(with_pacing("\"ops_per_second\": " + std::to_string(std::uint64_t(speed.max_real))
                                       + ", \"hold_stretch_ns\": " + std::to_string(stretch.max_int)),
        "lessons/ok.json");
    CHECK(ok.steps[0].ops_per_second == speed.max_real);
    CHECK(ok.steps[0].hold_stretch_ns == stretch.max_int);

    LessonError e = error_of(with_pacing("\"ops_per_second\": " + std::to_string(std::uint64_t(speed.max_real) * 2)));
    CHECK(e.field() == "steps[0].pacing.ops_per_second");
    CHECK_THAT(e.what(), Contains("must be in [0, "));
    e = error_of(with_pacing("\"hold_stretch_ns\": " + std::to_string(stretch.max_int + 1)));
    CHECK(e.field() == "steps[0].pacing.hold_stretch_ns");
    CHECK_THAT(e.what(), Contains("must be in [0, " + std::to_string(stretch.max_int) + "]"));
}

TEST_CASE("a bad lesson file is refused with the path of the member", "[lesson][errors]")
{
    REQUIRE_NOTHROW(parse_lesson(lesson_text(), "lessons/ok.json"));
    CHECK(parse_lesson(lesson_text(), "lessons/ok.json").name == "ok");

    LessonError e = error_of(lesson_text(", \"colour\": 3"));
    CHECK(e.field() == "claims[0].colour");
    CHECK_THAT(e.what(), StartsWith("lessons/bad.json: claims[0].colour: unknown member; allowed: statement"));

    e = error_of(lesson_text(", \"repeats\": \"three\""));
    CHECK(e.field() == "claims[0].repeats");
    CHECK_THAT(e.what(), Contains("expected an integer"));

    e = error_of(lesson_text(", \"repeats\": 0"));
    CHECK(e.field() == "claims[0].repeats");
    CHECK_THAT(e.what(), Contains("must be in [1, 100], got 0"));

    std::string t = lesson_text();
    t.replace(t.find("ops_per_second"), 14, "speed");
    e = error_of(t);
    CHECK(e.field() == "claims[0].measure.metric");
    CHECK_THAT(e.what(), Contains("'speed' is not a metric; allowed: contentions_per_1000_ops"));

    t = lesson_text();
    t.replace(t.find("\"metric\": \"ops_per_second\""), 26, "\"metric\": \"contentions_per_1000_ops\"");
    e = error_of(t);
    CHECK(e.field() == "claims[0].measure.lock");
    CHECK_THAT(e.what(), Contains("is required"));

    t = lesson_text();
    t.replace(t.find("\"run\": \"a\", \"view\""), 10, "\"run\": \"c\"");
    e = error_of(t);
    CHECK(e.field() == "steps[0].run");
    CHECK_THAT(e.what(), Contains("'c' is not one of the lesson's runs: a, b"));

    t = lesson_text();
    t.replace(t.find("\"locks\""), 7, "\"table\"");
    e = error_of(t);
    CHECK(e.field() == "steps[0].view");
    CHECK_THAT(e.what(), Contains("'table' is not a view; allowed: cpus, radix"));

    e = error_of(lesson_text("", ", \"quick\": [\"workload.cpus\"]"));
    CHECK(e.field() == "quick[0]");
    CHECK_THAT(e.what(), Contains("expected \"path=value\""));

    e = error_of(lesson_text("", ", \"quick\": 4"));
    CHECK(e.field() == "quick");

    t = lesson_text();
    t.replace(t.find("\"version\": 1"), 12, "\"version\": 2");
    e = error_of(t);
    CHECK(e.field() == "version");
    CHECK_THAT(e.what(), Contains("this build reads version 1, got 2"));

    t = lesson_text();
    t.replace(t.find("\"at_least\": 1"), 13, "\"at_least\": 1, \"at_most\": 2");
    e = error_of(t);
    CHECK(e.field() == "claims[0].rule.at_least");
    CHECK_THAT(e.what(), Contains("a rule has one of at_least and at_most, and this one has at_most too"));

    t = lesson_text();
    t.replace(t.find("\"title\": \"T\""), 12, "\"title\": \"\"");
    e = error_of(t);
    CHECK(e.field() == "title");
    CHECK_THAT(e.what(), Contains("must not be empty"));

    e = error_of("{\"version\": 1,\n  \"title\": tru}");
    CHECK(e.field().empty());
    CHECK_THAT(e.what(), StartsWith("lessons/bad.json:2:"));

    // A run's overrides are checked against its scenario, the one refused
    // named by its element.
    t = lesson_text();
    t.replace(t.find("\"label\": \"run a\""), 16,
        "\"set\": [\"workload.files=shared\", \"workload.cpus=0\"], \"label\": \"run a\"");
    const Lesson l = parse_lesson(t, "lessons/bad.json");
    try {
        check_lesson_scenarios(l, bundled_scenario_text);
        FAIL("an override out of range was accepted");
    } catch (const LessonError& err) {
        CHECK(err.field() == "runs[0].set[1]");
        CHECK(std::string(err.what())
            == "runs[0].set[1]: run 'a' on '2002-global-hash-lock': workload.cpus: must be in [1, 1024], got 0");
    }
    t = lesson_text();
    t.replace(t.find("2002-global-hash-lock"), 21, "2002-no-such-scenario");
    try {
        check_lesson_scenarios(parse_lesson(t, "lessons/bad.json"), bundled_scenario_text);
        FAIL("an unknown scenario was accepted");
    } catch (const LessonError& err) {
        CHECK(err.field() == "runs[0].scenario");
        CHECK_THAT(err.what(), Contains("2002-global-hash-lock"));
    }
    CHECK_THROWS_AS(find_lesson("no-such-lesson"), LessonError);
    CHECK_THROWS_WITH(find_lesson("no-such-lesson"), Contains("2002-one-global-hash-lock"));
}

TEST_CASE("the verdict rule: held, did not hold, and each way to be inconclusive", "[lesson][verdict]")
{
    ClaimResult r = claim_of({ 12, 11, 13 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK(r.median == 12);
    CHECK(r.spread == Approx(2.0 / 12));
    CHECK_THAT(r.why, Contains("run a against run b: 12x") && Contains("at least 10x"));

    r = claim_of({ 5, 5, 5 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::DidNotHold);
    CHECK(r.spread == 0);

    r = claim_of({ 5, 5, 5 }, 10, true);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);

    r = claim_of({ 4, 12, 20 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK(r.spread == Approx(16.0 / 12));
    CHECK(r.why
        == "the 3 repeats disagreed too much to judge: the lowest gave 4x (repeat 1), the highest 20x (repeat 3). "
           "The claim is judged when they lie within 6 of each other (half their median, 12x). Measure again when "
           "the machine is quieter, or with more repeats.");

    r = claim_of({ 12, 12, 12 }, 10, false, 0.5, 16);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK_THAT(r.why, Contains("about 16 CPUs or more; this machine has 2"));

    const double inf = std::numeric_limits<double>::infinity();
    r = claim_of({ inf, inf, inf }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK(r.spread == 0);

    r = claim_of({ inf, 12, 12 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK_THAT(r.why, Contains("the highest unbounded (repeat 1), where run b measured none"));

    r = claim_of({ std::numeric_limits<double>::quiet_NaN(), 12 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK_THAT(r.why, Contains("neither run measured any"));

    r = claim_of({}, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);

    r = claim_of({ 12 }, 10);
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK(r.spread == 0);
}

TEST_CASE("a verdict's figure divides as shown: one repeat's ratio with its own two figures", "[lesson][verdict]")
{
    // One repeat: its ratio and the two figures it divides.
    ClaimResult r = claim_of({ 12 }, 10);
    r.run_values = { 24 };
    r.over_values = { 2 };
    judge(r, 2);
    CHECK(r.our_figure == "12x (24 vs 2 ops/s)");
    CHECK(test::figure_problems(r.our_figure).empty());

    // Three repeats whose medians divide differently from the median of
    // their ratios: the ratios are 9, 0.5 and 1.5; the medians of each
    // side, 6 and 2, would make 3x. The figure is the middle ratio, with
    // the figures of the repeat it comes from.
    r = claim_of({ 9, 0.5, 1.5 }, 1, false, 10);
    r.run_values = { 9, 1, 6 };
    r.over_values = { 1, 2, 4 };
    judge(r, 2);
    CHECK(r.median == 1.5);
    CHECK(r.our_figure == "1.5x (6 vs 4 ops/s, repeat 3 of 3, the middle ratio)");
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK(r.why == "run a against run b: 1.5x, and the claim needs at least 1x");
    CHECK(repeats_range(r) == "3 repeats from 0.5x to 9x");
    CHECK(test::figure_problems(r.our_figure).empty());

    // Four: the median is the mean of the middle two, both shown.
    r = claim_of({ 9, 0.5, 1.5, 2 }, 1, false, 10);
    r.run_values = { 9, 1, 6, 2 };
    r.over_values = { 1, 2, 4, 1 };
    judge(r, 2);
    CHECK(r.median == 1.75);
    CHECK(r.our_figure
        == "1.75x, the mean of the middle two of 4 repeats: repeat 3's 1.5x (6 vs 4 ops/s) and repeat 4's 2x (2 vs 1 "
           "ops/s)");
    std::size_t ratios = 0;
    CHECK(test::figure_problems(r.our_figure, &ratios).empty());
    CHECK(ratios == 2);
    // Two whose middle two agree: one of them is the figure.
    r = claim_of({ 2, 2 }, 1);
    r.run_values = { 4, 6 };
    r.over_values = { 2, 3 };
    judge(r, 2);
    CHECK(r.our_figure == "2x (4 vs 2 ops/s, repeat 1 of 2, the middle ratio)");
    CHECK(repeats_range(r) == "the same in both repeats");

    // Large counts are grouped by thousands, and still divide.
    r = claim_of({ 14201502.0 / 6873366 }, 1);
    r.claim.metric = LessonMetric::FaultsPerSecond;
    r.run_values = { 14201502 };
    r.over_values = { 6873366 };
    judge(r, 2);
    CHECK(r.our_figure == "2.07x (14,201,502 vs 6,873,366 faults/s)");
    CHECK(test::figure_problems(r.our_figure).empty());

    // Over a run that measured none: unbounded, and the verdict says why.
    const double inf = std::numeric_limits<double>::infinity();
    r = claim_of({ inf }, 10);
    r.claim.metric = LessonMetric::ContentionsPer1000Ops;
    r.claim.lock = "pagecache_lock";
    r.claim.over_lock = "mapping.tree_lock";
    r.run_values = { 0.138 };
    r.over_values = { 0 };
    judge(r, 2);
    CHECK(r.our_figure == "unbounded (0.138 vs 0 contentions / 1000 ops of pagecache_lock vs mapping.tree_lock)");
    CHECK(test::figure_problems(r.our_figure).empty());
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK_THAT(
        r.why, StartsWith("run a against run b: unbounded (run b measured none), and the claim needs at least 10x. "));
    // What a contention count depends on is said with it.
    CHECK_THAT(
        r.why, Contains("The count depends on how many threads ran at once; on a busy machine the threads take turns"));
    // With the mean wait of a contended acquisition: a few microseconds,
    // two CPUs were at the lock at once, and the wait is said; a scheduler's
    // time slice, the holder had been preempted and the count measured the
    // machine's other programs, not the lock.
    r.claim.min_cpus = 2;
    r.run_wait_ns = { 3100 };
    r.over_wait_ns = { std::numeric_limits<double>::quiet_NaN() };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK_THAT(r.why, Contains("ran at once: here a wait took 3.1 µs on average; "));
    r.run_wait_ns = { 2.4e6 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK(r.why
        == "the threads took turns instead of running together: a contended acquisition waited 2.4 ms on average, a "
           "scheduler's time slice, so the waiters waited for a holder the kernel had preempted (other programs kept "
           "this machine busy), not for one running beside them. Measure again when the machine is quieter.");
    // Either side's lock: the longer wait decides.
    r.run_wait_ns = { 3100 };
    r.over_wait_ns = { 1.5e6 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    // Not a claim about contentions: judged whatever the waits were.
    r.claim.metric = LessonMetric::BouncesPer1000Ops;
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    CHECK(r.why.find("waited") == std::string::npos);

    // Two runs that measured none: no ratio, and the two zeros shown.
    r = claim_of({ std::numeric_limits<double>::quiet_NaN(), 2 }, 1);
    r.run_values = { 0, 4 };
    r.over_values = { 0, 2 };
    judge(r, 2);
    CHECK(r.our_figure == "no ratio: 0 vs 0 ops/s in repeat 1 of 2");
    CHECK(r.why == "neither run measured any ops/s in one of the 2 repeats, so there is no ratio to judge");
}

TEST_CASE("the figure check finds a ratio shown with figures that do not divide to it", "[lesson][verdict]")
{
    // The figures of the medians of each side beside the median of the
    // ratios, as the verdicts once showed them.
    CHECK(test::figure_problems("2.23x (2.62 vs 18.7 contentions / 1000 ops)").size() == 1);
    CHECK(test::figure_problems("1.63x (14201502 vs 6873366 faults/s)").size() == 1);
    CHECK(test::figure_problems("1.06x (38811 vs 32304 ops/s)").size() == 1);
    CHECK(test::figure_problems("12x (1 vs 0 ops/s)").size() == 1);
    CHECK(test::figure_problems("unbounded (0 vs 0 ops/s)").size() == 1);
    CHECK(test::figure_problems("1.9x, the mean of the middle two of 4 repeats: repeat 3's 1.5x (6 vs 4 ops/s) and "
                                "repeat 4's 2x (2 vs 1 ops/s)")
              .size()
        == 1);
    // Within rounding: each side to three significant digits.
    CHECK(test::figure_problems("4,029x (4096 vs 1.02 entries / lookup)").empty());
    CHECK(test::figure_problems("0.00147x (0.0748 vs 51 contentions / 1000 ops)").empty());
    CHECK(test::figure_problems("33x (2048 vs 62 requests)").empty());
}

TEST_CASE("zero in every repeat, an event never seen, and repeats that disagree about it", "[lesson][verdict]")
{
    // A figure of zero in every repeat agrees with itself: no spread.
    ClaimResult r = claim_of({ 0, 0, 0 }, 1);
    r.claim.over.clear();
    r.claim.figure = "torn_per_million";
    r.claim.figure_unit = "reads / million reads";
    r.over_values.clear();
    judge(r, 2);
    CHECK(r.spread == 0);
    CHECK(r.verdict == LessonVerdict::DidNotHold);
    CHECK(r.our_figure == "0 reads / million reads");
    CHECK(r.why == "run a: 0 reads / million reads, but the claim needs at least 1 read / million reads");
    CHECK(repeats_range(r) == "the same in all 3 repeats");

    // The same count of a race the threads may not catch: inconclusive.
    r.claim.race = true;
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK_THAT(r.why,
        StartsWith("none seen: 0 reads / million reads in each of the 3 repeats. What it counts happens "
                   "only when the threads race"));
    r.values = r.run_values = { 0 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK_THAT(r.why, StartsWith("none seen: 0 reads / million reads. "));
    // Seen once is enough for the race to be judged by the rule.
    r.values = r.run_values = { 2 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);
    // A race claim that it never happens holds when none is seen.
    r.claim.at_most = true;
    r.claim.threshold = 0;
    r.values = r.run_values = { 0, 0, 0 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Held);

    // Seen in one repeat of three: the median is 0 and the repeats
    // disagree about whether it happens at all.
    r.claim.at_most = false;
    r.claim.threshold = 1;
    r.claim.max_spread = 100;
    r.values = r.run_values = { 0, 3, 0 };
    judge(r, 2);
    CHECK(r.verdict == LessonVerdict::Inconclusive);
    CHECK(r.why
        == "the 3 repeats disagreed about whether it happens at all: the lowest gave 0 reads / million reads (repeat "
           "1), the highest 3 reads / million reads (repeat 2), around a median of 0. Measure again when the machine "
           "is quieter, or with more repeats.");
    CHECK(r.why.find("inf") == std::string::npos);

    // A ratio of zero in every repeat: 0x, no spread.
    r = claim_of({ 0, 0, 0 }, 1);
    r.run_values = { 0, 0, 0 };
    r.over_values = { 5, 6, 7 };
    judge(r, 2);
    CHECK(r.spread == 0);
    CHECK(r.our_figure == "0x (0 vs 6 ops/s, repeat 2 of 3, the middle ratio)");
    CHECK(r.verdict == LessonVerdict::DidNotHold);

    // "race" is only for a count that must reach at_least.
    CHECK(error_of(lesson_text(", \"race\": true")).field() == "claims[0].race");
}

TEST_CASE("a figure reads with its unit in the singular for one, and its thousands grouped", "[lesson][verdict]")
{
    CHECK(readable_number(0) == "0");
    CHECK(readable_number(0.0412) == "0.0412");
    CHECK(readable_number(38.81) == "38.8");
    CHECK(readable_number(999.6) == "1,000");
    CHECK(readable_number(14201502) == "14,201,502");
    CHECK(readable_number(-1500) == "-1,500");
    CHECK(readable_number(1234567890) == "1,234,567,890");
    CHECK(readable_number(std::numeric_limits<double>::infinity()) == "inf");
    CHECK(figure_text(1, "reads / million reads") == "1 read / million reads");
    CHECK(figure_text(1, "retries") == "1 retry");
    CHECK(figure_text(1, "entries / lookup") == "1 entry / lookup");
    CHECK(figure_text(1, "bounces / migration") == "1 bounce / migration");
    CHECK(figure_text(1, "ops/s") == "1 op/s");
    CHECK(figure_text(1, "ns / lookup") == "1 ns / lookup");
    CHECK(figure_text(1, "s") == "1 s");
    CHECK(figure_text(1, "chi-square / (buckets - 1)") == "1 chi-square / (buckets - 1)");
    CHECK(figure_text(2, "reads") == "2 reads");
    CHECK(figure_text(1.5, "reads") == "1.5 reads");
    CHECK(figure_text(7, "") == "7");
}

TEST_CASE("the reader that changes CPUs: each file's lock moves over once per migration", "[lesson][experiment]")
{
    const Lesson lesson = find_lesson("2002-the-reader-that-changes-cpus");
    const RunResult tree = run_scenario(
        lesson_scenario(*lesson.find_run("tree-lock"), lesson.quick, bundled_scenario_text, "tree-lock"));
    REQUIRE(tree.state == "finished");
    // Two readers of 200,000 pages each, moving every 1000: 200 migrations
    // each. Each move but the last (after the final read) is followed by an
    // acquisition of the reader's own file's lock on its new CPU: one bounce,
    // and none between moves.
    std::uint64_t migrations = 0;
    for (const CpuCounters& c : tree.cpus)
        migrations += c.migrations;
    CHECK(migrations == 400);
    const auto& locks = tree.lock_classes;
    const auto row
        = std::find_if(locks.begin(), locks.end(), [](const auto& r) { return r.name == "mapping.tree_lock"; });
    REQUIRE(row != locks.end());
    CHECK(row->acq_bounces == migrations - 2);
    CHECK(row->contentions == 0);
    CHECK(measure(LessonMetric::BouncesPerMigration, tree, "mapping.tree_lock") == Approx(398.0 / 400));
}

TEST_CASE("one global hash lock: the quick form's exact counts and verdicts", "[lesson][experiment]")
{
    // The quick form, shortened once more: the counts below do not depend
    // on the length, and the sanitizer builds run this too.
    Lesson lesson = find_lesson("2002-one-global-hash-lock");
    lesson.quick.push_back("workload.operations_per_cpu=20000");
    // This computer's counts: the claims on the thread's modelled machine
    // are test_modelled_claims'.
    for (LessonClaim& c : lesson.claims)
        c.machine.clear();
    // The counts the claims rest on, from the runs the lesson names.
    auto run = [&](const char* name) {
        return run_scenario(lesson_scenario(*lesson.find_run(name), lesson.quick, bundled_scenario_text, name));
    };
    const RunResult hash = run("hash-separate");
    const RunResult radix = run("radix-separate");
    REQUIRE(hash.state == "finished");
    REQUIRE(radix.state == "finished");
    CHECK(hash.operations == 4 * 20000u);
    // Every read of every CPU takes the one global lock; each CPU takes only
    // its own file's tree lock, so those never wait and never bounce.
    const auto* global = [&]() -> const sync::LockStatRow* {
        for (const auto& row : hash.lock_classes)
            if (row.name == "pagecache_lock")
                return &row;
        return nullptr;
    }();
    REQUIRE(global);
    CHECK(global->acquisitions >= hash.operations);
    CHECK(measure(LessonMetric::ContentionsPer1000Ops, radix, "mapping.tree_lock") == 0);
    CHECK(measure(LessonMetric::BouncesPer1000Ops, radix, "mapping.tree_lock") == 0);
    CHECK(measure(LessonMetric::ContentionsPer1000Ops, radix, "pagecache_lock") == 0);

    ExperimentOptions options;
    options.quick = true;
    options.repeats = 1;
    const ExperimentResult result = run_experiment(lesson, bundled_scenario_text, options);
    REQUIRE(result.claims.size() == lesson.claims.size());
    for (const ClaimResult& c : result.claims) {
        INFO(c.claim.statement << ": " << c.why);
        CHECK(c.values.size() == 1);
        CHECK_FALSE(c.why.empty());
        CHECK(test::figure_problems(c.our_figure).empty());
    }
    const json::Value doc = to_json(result);
    CHECK(doc.find("experiment")->as_string() == "2002-one-global-hash-lock");
    REQUIRE(doc.find("verdicts")->as_array().size() == lesson.claims.size());
    for (const json::Value& v : doc.find("verdicts")->as_array()) {
        const std::string verdict = v.find("result")->as_string();
        CHECK((verdict == "held" || verdict == "did not hold" || verdict == "inconclusive"));
        for (const char* key : { "claim", "source", "thread_figure", "our_figure", "spread", "why" })
            CHECK(v.find(key));
    }
}

TEST_CASE("a claim may read a run's named figure instead of a metric", "[lesson][figure]")
{
    std::string t = lesson_text();
    t.replace(t.find("\"metric\": \"ops_per_second\""), 26, "\"figure\": \"disk_requests\"");
    const Lesson l = parse_lesson(t, "lessons/ok.json");
    CHECK(l.claims[0].figure == "disk_requests");
    CHECK(l.claims[0].figure_unit.empty());

    t = lesson_text();
    t.replace(t.find("\"metric\": \"ops_per_second\""), 26, "\"figure\": \"speed\"");
    LessonError e = error_of(t);
    CHECK(e.field() == "claims[0].measure.figure");
    CHECK_THAT(e.what(), Contains("'speed' is not a figure of a scenario run (run 'a'); its figures: ops_per_s"));

    t = lesson_text();
    t.replace(
        t.find("\"metric\": \"ops_per_second\""), 26, "\"metric\": \"ops_per_second\", \"figure\": \"disk_requests\"");
    e = error_of(t);
    CHECK(e.field() == "claims[0].measure.figure");
    CHECK_THAT(e.what(), Contains("a claim measures one of metric and figure"));
}

TEST_CASE("a probe run: its probe, parameters, steps and figures are checked by name", "[lesson][probe]")
{
    REQUIRE_FALSE(lesson_probes().empty());
    const LessonProbe& probe = lesson_probes().front();
    REQUIRE_FALSE(probe.figures.empty());
    const std::string figure = probe.figures.front().name;
    // @run_extra goes into the probe run, @step: the step on it, @claim: the
    // claim's measure on it.
    auto text = [&](const std::string& run_extra = "", const std::string& step = "\"view\": \"probe\"",
                    const std::string& measure = "") {
        std::string t = lesson_text();
        t.replace(t.find("{\"name\": \"b\""), 0,
            "{\"name\": \"p\", \"probe\": \"" + probe.name + "\", \"label\": \"probe p\"" + run_extra + "}, ");
        t.replace(t.find("\"view\": \"locks\"}"), 16,
            "\"view\": \"locks\"}, {\"title\": \"u\", \"text\": \"v\", \"run\": \"p\", " + step + "}");
        const std::string m = measure.empty() ? "\"figure\": \"" + figure + "\", \"run\": \"p\"" : measure;
        const std::string old = "\"metric\": \"ops_per_second\", \"run\": \"a\", \"over\": \"b\"";
        t.replace(t.find(old), old.size(), m);
        return t;
    };
    const Lesson l = parse_lesson(text(), "lessons/ok.json");
    REQUIRE(l.runs.size() == 3);
    CHECK(l.runs[1].is_probe());
    CHECK(l.runs[1].probe == probe.name);
    CHECK(l.claims[0].figure == figure);
    CHECK(l.claims[0].figure_unit == probe.figures.front().unit);
    CHECK_NOTHROW(check_lesson_scenarios(l, bundled_scenario_text));

    LessonError e = error_of(text(", \"quick\": [\"colour=3\"]"));
    CHECK(e.field() == "runs[1].quick[0]");
    CHECK_THAT(e.what(), Contains("'colour' is not a parameter of the " + probe.name + " probe; its parameters: "));

    e = error_of(text(", \"set\": [\"colour=3\"]"));
    CHECK(e.field() == "runs[1].set[0]");

    std::string t = text();
    t.replace(t.find("\"probe\": \"" + probe.name + "\""), 11 + probe.name.size(), "\"probe\": \"nope\"");
    e = error_of(t);
    CHECK(e.field() == "runs[1].probe");
    CHECK_THAT(e.what(), Contains("'nope' is not a probe; allowed: " + lesson_probes().front().name));

    t = text();
    t.replace(t.find("\"probe\": \"" + probe.name + "\", "), 13 + probe.name.size(), "");
    e = error_of(t);
    CHECK(e.field() == "runs[1].scenario");
    CHECK_THAT(e.what(), Contains("is required: a run needs one of scenario and probe"));

    e = error_of(text("", "\"view\": \"locks\""));
    CHECK(e.field() == "steps[1].view");
    CHECK_THAT(e.what(), Contains("must be \"probe\": run 'p' is a probe's"));
    // A probe with a view of its own: a step on its run may bring it forward.
    REQUIRE(find_lesson_probe("torn_pte"));
    REQUIRE(find_lesson_probe("torn_pte")->view == "tornpte");
    t = text("", "\"view\": \"tornpte\"");
    t.replace(t.find("\"probe\": \"" + probe.name + "\""), 11 + probe.name.size(), "\"probe\": \"torn_pte\"");
    t.replace(t.find("\"figure\": \"" + figure + "\""), 12 + figure.size(), "\"figure\": \"torn_reads\"");
    CHECK(parse_lesson(t, "lessons/ok.json").steps[1].view == "tornpte");

    e = error_of(text("", "\"view\": \"probe\", \"pacing\": {\"ops_per_second\": 10}"));
    CHECK(e.field() == "steps[1].pacing");
    CHECK_THAT(e.what(), Contains("takes no set, pacing, highlight or pause_when"));

    t = text();
    t.replace(t.find("\"run\": \"a\", \"view\": \"locks\""), 27, "\"run\": \"a\", \"view\": \"probe\"");
    e = error_of(t);
    CHECK(e.field() == "steps[0].view");
    CHECK_THAT(e.what(), Contains("\"probe\" shows a probe run; run 'a' is a scenario's"));
    t = lesson_text();
    t.replace(t.find("\"run\": \"a\", \"view\": \"locks\""), 27, "\"run\": \"a\", \"view\": \"tornpte\"");
    e = error_of(t);
    CHECK(e.field() == "steps[0].view");
    CHECK_THAT(e.what(), Contains("\"tornpte\" shows a probe run; run 'a' is a scenario's"));

    e = error_of(text("", "\"view\": \"probe\"", "\"metric\": \"ops_per_second\", \"run\": \"p\""));
    CHECK(e.field() == "claims[0].measure.run");
    CHECK_THAT(e.what(), Contains("run 'p' is a probe's: its claims read a figure, not a metric"));

    e = error_of(text("", "\"view\": \"probe\"", "\"figure\": \"no_such_figure\", \"run\": \"p\""));
    CHECK(e.field() == "claims[0].measure.figure");
    CHECK_THAT(e.what(), Contains("'no_such_figure' is not a figure of the " + probe.name + " probe (run 'p')"));

    // A probe's figure divided by a scenario run's: the scenario run has no
    // such headline figure.
    e = error_of(text("", "\"view\": \"probe\"", "\"figure\": \"" + figure + "\", \"run\": \"p\", \"over\": \"a\""));
    CHECK(e.field() == "claims[0].measure.figure");

    t = lesson_text();
    t.replace(t.find("\"label\": \"run a\""), 16, "\"quick\": [\"x=1\"], \"label\": \"run a\"");
    e = error_of(t);
    CHECK(e.field() == "runs[0].quick");
    CHECK_THAT(e.what(), Contains("is for a probe run"));
}

TEST_CASE("every probe declares what it takes and reports, and refuses a value by name", "[lesson][probe]")
{
    for (const LessonProbe& p : lesson_probes()) {
        INFO("probe " << p.name);
        CHECK_FALSE(p.meaning.empty());
        CHECK_FALSE(p.figures.empty());
        CHECK(find_lesson_probe(p.name) == &p);
        // Every fallback is a value the probe itself accepts.
        CHECK_NOTHROW(probe_args(p, {}, "run"));
        for (const ProbeParam& a : p.params) {
            INFO("parameter " << a.name);
            CHECK_FALSE(a.meaning.empty());
            const std::string bad = a.choices.empty() ? a.name + "=" + std::to_string(a.max + 1) : a.name + "=?";
            try {
                probe_args(p, { bad }, "runs[3].set");
                FAIL("'" << bad << "' was accepted");
            } catch (const LessonError& e) {
                CHECK(e.field() == "runs[3].set");
                CHECK_THAT(e.what(), StartsWith("runs[3].set: " + a.name + ": "));
            }
        }
    }
    CHECK(find_lesson_probe("no-such-probe") == nullptr);
}

TEST_CASE("unified readahead and big I/Os: one request per page without readahead", "[lesson][experiment]")
{
    const Lesson lesson = find_lesson("2002-unified-readahead-and-big-ios");
    auto run = [&](const char* name) {
        const RunResult r
            = run_scenario(lesson_scenario(*lesson.find_run(name), lesson.quick, bundled_scenario_text, name));
        REQUIRE(r.state == "finished");
        return r;
    };
    // A reader that waits for each page before it asks for the next leaves
    // nothing queued to merge with: 1024 pages are 1024 requests, through
    // read(2) and through faults alike.
    for (const char* name : { "read-none", "mmap-none" }) {
        INFO(name);
        const RunResult r = run(name);
        CHECK(r.device_requests == 1024);
        CHECK(measure(LessonMetric::DeviceRequests, r) == 1024);
    }
    // Readahead gathers each window into one request, and a window queued
    // behind the one the disk is reading merges into it up to the disk's
    // largest request (128 pages): at least 1024 / 128 requests, and far
    // fewer than one a page.
    for (const char* name : { "read-ra", "mmap-ra" }) {
        INFO(name);
        const RunResult r = run(name);
        CHECK(r.device_requests >= 1024 / 128);
        CHECK(r.device_requests <= 1024 / 8);
    }
}

TEST_CASE("faults per CPU second divide a run's faults by the process's CPU time", "[lesson][metric]")
{
    const Lesson lesson = find_lesson("2005-split-page-table-locks");
    std::vector<std::string> quick = lesson.quick;
    quick.push_back("workload.operations_per_cpu=4096");
    const RunResult r = run_scenario(lesson_scenario(*lesson.find_run("split"), quick, bundled_scenario_text, "split"));
    REQUIRE(r.state == "finished");
    REQUIRE(r.cpu_seconds > 0);
    std::uint64_t faults = 0;
    for (std::uint64_t n : r.faults)
        faults += n;
    CHECK(faults == r.operations);
    CHECK(measure(LessonMetric::FaultsPerCpuSecond, r) == Approx(double(faults) / r.cpu_seconds));
    // A result that was not timed (no CPU time) reads 0, not a division by it.
    RunResult untimed = r;
    untimed.cpu_seconds = 0;
    CHECK(measure(LessonMetric::FaultsPerCpuSecond, untimed) == 0);
}
