// A lesson's claims on their threads' machines (lesson/modelled_claims.h):
// a claim that names its machine is measured there once and at half and
// twice its transfer latencies, the same in every experiment; a claim about
// more CPUs than this computer has is measured there only; the verdicts
// come out in the text, the JSON and the CSV; and a lesson naming a
// machine that does not exist, or a probe run, is refused at the member.
#include "lesson/experiment.h"
#include "lesson/lesson.h"
#include "lesson/lesson_library.h"
#include "lesson/lesson_probe.h"
#include "lesson/lesson_problems.h"
#include "lesson/modelled_claims.h"
#include "lib/bundle.h"
#include "verdict_figures_check.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

using namespace pcl;
using Catch::Matchers::Contains;

namespace {

/// The split page-table locks lesson, short: every claim names altix-2005.
Lesson short_split_lesson()
{
    Lesson lesson = find_lesson("2005-split-page-table-locks");
    lesson.quick.push_back("workload.operations_per_cpu=2000");
    return lesson;
}

ExperimentResult measured(const Lesson& lesson, unsigned machine_cpus)
{
    ExperimentOptions options;
    options.quick = true;
    options.repeats = 1;
    options.machine_cpus = machine_cpus;
    return run_experiment(lesson, bundled_scenario_text, options);
}

/// A lesson whose one claim names @machine, over runs @a and @b.
std::string lesson_naming(
    const std::string& machine, const std::string& a_run = R"("scenario": "2002-global-hash-lock")")
{
    return R"json({"version": 1, "title": "T", "thread": "radix-tree pagecache (2002)", "citation": "C",
        "question": "Q?", "summary": "S.",
        "arguments": [{"who": "A", "said": "B"}],
        "runs": [{"name": "a", )json"
        + a_run + R"json(, "label": "run a"},
                 {"name": "b", "scenario": "2002-radix-tree-per-file", "label": "run b"}],
        "steps": [{"title": "s", "text": "t", "run": "b", "view": "locks"}],
        "claims": [{"statement": "x", "by": "y", "measure": {"metric": "ops_per_second", "run": "a", "over": "b"},
                    "rule": {"at_least": 1}, "machine": ")json"
        + machine + R"json("}],
        "quick": ["workload.operations_per_cpu=1000"]})json";
}

} // namespace

TEST_CASE("a claim about its thread's machine is measured there, once and at half and twice its latencies",
    "[lesson][modelled]")
{
    const Lesson lesson = short_split_lesson();
    const ExperimentResult first = measured(lesson, 2);
    REQUIRE(first.claims.size() == lesson.claims.size());
    for (const ClaimResult& c : first.claims) {
        INFO(c.claim.statement);
        REQUIRE(c.claim.machine == "altix-2005");
        REQUIRE(c.modelled.size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            const ClaimResult& m = c.modelled[i];
            CHECK(m.machine == "altix-2005");
            CHECK(m.machine_cpus == 64);
            CHECK(m.latency_scale == kModelledLatencyScales[i]);
            // One run of each side: a modelled run is the same every time.
            CHECK(m.values.size() == 1);
            CHECK(m.run_values.size() == 1);
            CHECK(m.over_values.size() == 1);
            CHECK(m.spread == 0);
            // Judged on the machine, never inconclusive for want of CPUs.
            CHECK(m.verdict != LessonVerdict::Inconclusive);
            CHECK_THAT(m.why, !Contains("this machine has"));
            CHECK(test::figure_problems(m.our_figure).empty());
        }
        CHECK_THAT(sensitivity_text(c), Contains("at half and at twice the transfer latencies: "));
        CHECK(modelled_machine_text(c.modelled[0]) == "on a modelled " + c.modelled[0].machine_title + ", 64 CPUs");
    }
    // The claim about four CPUs is not measured on this computer's two: it
    // says so, and is judged on the model only.
    const ClaimResult& four = first.claims[1];
    REQUIRE(four.claim.min_cpus == 4);
    CHECK(four.values.empty());
    CHECK(four.verdict == LessonVerdict::Inconclusive);
    CHECK(four.our_figure == "not measured here");
    CHECK_THAT(four.why, Contains("this machine has 2, so it is measured on its modelled machine instead"));
    // The claims about two CPUs are measured here as well.
    CHECK(first.claims[0].values.size() == 1);
    CHECK(first.claims[2].values.size() == 1);

    // Deterministic: a second experiment gives the same modelled figures.
    const ExperimentResult second = measured(lesson, 2);
    for (std::size_t i = 0; i < first.claims.size(); ++i)
        for (std::size_t s = 0; s < 3; ++s) {
            CHECK(second.claims[i].modelled[s].run_values == first.claims[i].modelled[s].run_values);
            CHECK(second.claims[i].modelled[s].over_values == first.claims[i].modelled[s].over_values);
            CHECK(second.claims[i].modelled[s].verdict == first.claims[i].modelled[s].verdict);
        }

    // On a computer with the claim's four CPUs it is measured here too.
    const ExperimentResult wide = measured(lesson, 4);
    CHECK(wide.claims[1].values.size() == 1);
    CHECK(wide.claims[1].modelled.size() == 3);
    CHECK(wide.claims[1].modelled[0].run_values == first.claims[1].modelled[0].run_values);

    // The text, the JSON and the CSV give both verdicts and their machines.
    std::ostringstream text;
    print_verdicts(text, first);
    CHECK_THAT(text.str(), Contains("   on a modelled SGI Altix"));
    CHECK_THAT(text.str(), Contains("(one run of each side: the same every time):"));
    CHECK_THAT(text.str(), Contains("at half and at twice the transfer latencies: "));
    const json::Value doc = to_json(first);
    for (const json::Value& v : doc.find("verdicts")->as_array()) {
        CHECK(v.find("machine")->as_string() == "host");
        const json::Array& modelled = v.find("modelled")->as_array();
        REQUIRE(modelled.size() == 3);
        CHECK(modelled[0].find("machine")->as_string() == "altix-2005");
        CHECK(modelled[1].find("latency_scale")->as_double() == 0.5);
        CHECK(modelled[2].find("latency_scale")->as_double() == 2.0);
    }
    const std::string csv = verdicts_csv(first);
    CHECK_THAT(csv, Contains(",altix-2005,0.5,"));
    CHECK_THAT(csv, Contains(",altix-2005,2,"));
}

TEST_CASE("a claim's machine must exist, have its runs' CPUs, and measure scenario runs", "[lesson][modelled][errors]")
{
    const auto problems_of = [](const std::string& text) {
        LessonProblems problems;
        find_scenario_problems(parse_lesson(text, "lessons/m.json"), bundled_scenario_text, problems);
        return problems;
    };
    CHECK(problems_of(lesson_naming("pentium3-xeon-8way-2002")).empty());

    LessonProblems p = problems_of(lesson_naming("cray-1"));
    REQUIRE_FALSE(p.empty());
    CHECK(p.list().front().field() == "claims[0].machine");
    CHECK_THAT(p.list().front().what(), Contains("no machine profile 'cray-1'"));

    p = problems_of(lesson_naming(
        "pentium3-xeon-8way-2002", R"("scenario": "2002-global-hash-lock", "set": ["workload.cpus=12"])"));
    REQUIRE_FALSE(p.empty());
    CHECK(p.list().front().field() == "claims[0].machine");
    CHECK_THAT(p.list().front().what(), Contains("has at most 8 CPUs, got 12"));

    // A probe measures this computer: a claim on its run cannot name a
    // machine.
    const LessonProbe& probe = lesson_probes().front();
    std::string text = lesson_naming("altix-2005", R"("probe": ")" + probe.name + "\"");
    const std::string measure = R"("metric": "ops_per_second", "run": "a", "over": "b")";
    text.replace(
        text.find(measure), measure.size(), R"("figure": ")" + probe.figures.front().name + R"(", "run": "a")");
    p = problems_of(text);
    REQUIRE_FALSE(p.empty());
    CHECK(p.list().front().field() == "claims[0].machine");
    CHECK_THAT(p.list().front().what(), Contains("run 'a' is a probe's, which measures this computer"));
}
