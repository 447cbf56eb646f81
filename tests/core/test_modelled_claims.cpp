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

/// The split page-table locks lesson, short: every claim names altix-2005
/// (its table left out: the claims are what the cases using it are about).
Lesson short_split_lesson()
{
    Lesson lesson = find_lesson("2005-split-page-table-locks");
    lesson.quick.push_back("workload.operations_per_cpu=2000");
    lesson.tables.clear();
    return lesson;
}

/// The same lesson's table of Lameter's, up to 4 CPUs only, and nothing
/// else to measure: its claims left out.
Lesson short_table_lesson()
{
    Lesson lesson = find_lesson("2005-split-page-table-locks");
    lesson.claims.clear();
    REQUIRE(lesson.tables.size() == 1);
    LessonTable& t = lesson.tables.front();
    t.cpus = { 1, 2, 4 };
    t.set = { "workload.operations_per_cpu=1000" };
    for (LessonTableSeries& s : t.series)
        if (!s.thread.empty())
            s.thread.resize(3);
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

// Its runs are all modelled: one host thread runs every task (the
// [one-thread] cases are left out of ThreadSanitizer's run, tests/CMakeLists.txt).
TEST_CASE("a thread's table is measured beside ours on its machine, a run a point, the same every time",
    "[lesson][modelled][table][one-thread]")
{
    const Lesson lesson = short_table_lesson();
    const ExperimentResult first = measured(lesson, 2);
    REQUIRE(first.tables.size() == 1);
    CHECK(first.claims.empty());
    const TableResult& t = first.tables.front();
    CHECK(t.machine_title == "SGI Altix 3000 (Itanium 2, NUMAlink-3), 2005");
    CHECK(t.machine_cpus == 64);
    CHECK(t.unit == "faults/s");
    REQUIRE(t.labels == std::vector<std::string> { "split locks", "one page_table_lock" });
    REQUIRE(t.ours.size() == 2);
    for (const std::vector<double>& series : t.ours) {
        REQUIRE(series.size() == 3);
        for (double v : series)
            CHECK(v > 0);
    }
    CHECK(t.complete());
    // Split locks fault at least as fast as one lock at every count, and
    // faster at four (the claim the lesson judges).
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(t.ours[0][i] >= t.ours[1][i] * 0.99);
    CHECK(t.ours[0][2] > t.ours[1][2]);
    // Deterministic: the same figures in a second experiment.
    const ExperimentResult second = measured(lesson, 2);
    REQUIRE(second.tables.size() == 1);
    CHECK(second.tables.front().ours == t.ours);

    // The text, the JSON: the thread's column beside ours.
    std::ostringstream text;
    print_verdicts(text, first);
    CHECK_THAT(text.str(), Contains("pft from 1 to 60 threads: faults per second (faults/s)"));
    CHECK_THAT(text.str(), Contains("split locks: thread"));
    CHECK_THAT(text.str(), Contains("ours / thread"));
    CHECK_THAT(text.str(), Contains("split locks: the thread rises all the way to 4 CPUs (263,253 faults/s)"));
    const json::Value doc = to_json(first);
    const json::Array& tables = doc.find("tables")->as_array();
    REQUIRE(tables.size() == 1);
    CHECK(tables[0].find("machine")->as_string() == "altix-2005");
    CHECK(tables[0].find("cpus")->as_array().size() == 3);
    const json::Array& series = tables[0].find("series")->as_array();
    REQUIRE(series.size() == 2);
    CHECK(series[0].find("thread")->as_array().size() == 3);
    CHECK(series[0].find("ours")->as_array()[2].as_double() == t.ours[0][2]);
    CHECK(series[1].find("thread")->as_array().empty());
    CHECK(tables[0].find("shape")->as_array().size() == 2);
}

TEST_CASE("a table's shape in words: where each curve peaks and how far it falls", "[lesson][table][one-thread]")
{
    TableResult r;
    r.table.cpus = { 1, 2, 4 };
    r.table.series = { { "a", "", { 10, 30, 20 } }, { "b", "", {} } };
    r.labels = { "split", "one lock" };
    r.unit = "faults/s";
    r.ours = { { 1, 2, 4 }, { 5, std::nan(""), std::nan("") } };
    CHECK(peak_of(r.table.series[0].thread) == 1);
    CHECK(peak_of(r.ours[1]) == 0);
    CHECK(peak_of({ std::nan("") }) == std::string::npos);
    CHECK_FALSE(r.complete());
    CHECK(table_shape(r)
        == std::vector<std::string> {
            "split: the thread peaks at 2 CPUs (30 faults/s) and falls to 0.667x of it at 4; ours rises all the way "
            "to 4 CPUs (4 faults/s)",
            "one lock: no figures posted; ours rises all the way to 1 CPUs (5 faults/s)" });
    std::ostringstream text;
    print_table(text, r);
    CHECK_THAT(text.str(), Contains("not measured"));
    const json::Value doc = table_json(r);
    CHECK(doc.find("series")->as_array()[1].find("ours")->as_array()[1].is_null());
}

TEST_CASE("a table's CPU counts rise, its figures match them, and its machine has them", "[lesson][table][errors]")
{
    const auto with_table = [](const std::string& table) {
        std::string text = lesson_naming("altix-2005");
        const std::string end = R"(,
        "quick")";
        text.replace(text.find(end), end.size(), ",\n\"tables\": [" + table + "]" + end);
        return text;
    };
    const auto read_problems = [](const std::string& text) {
        LessonProblems problems;
        const Lesson l = read_lesson(text, "lessons/t.json", problems);
        if (problems.empty())
            find_scenario_problems(l, bundled_scenario_text, problems);
        return problems;
    };
    const std::string good = R"({"title": "T", "by": "B", "source": "S", "machine": "altix-2005",
        "metric": "ops_per_second", "cpus": [1, 2, 4], "series": [{"run": "a", "thread": [1, 2, 3]}, {"run": "b"}]})";
    CHECK(read_problems(with_table(good)).empty());
    const Lesson l = parse_lesson(with_table(good), "lessons/t.json");
    REQUIRE(l.tables.size() == 1);
    CHECK(l.tables[0].cpus == std::vector<unsigned> { 1, 2, 4 });
    CHECK(l.tables[0].series[0].thread == std::vector<double> { 1, 2, 3 });

    const auto first_problem = [&](std::string table, const std::string& from, const std::string& to) {
        table.replace(table.find(from), from.size(), to);
        const LessonProblems p = read_problems(with_table(table));
        REQUIRE_FALSE(p.empty());
        return std::pair { p.list().front().field(), std::string(p.list().front().what()) };
    };
    auto [field, what] = first_problem(good, "[1, 2, 4]", "[1, 4, 2]");
    CHECK(field == "tables[0].cpus[2]");
    CHECK_THAT(what, Contains("must be more than the count before it (4)"));
    std::tie(field, what) = first_problem(good, "[1, 2, 3]", "[1, 2]");
    CHECK(field == "tables[0].series[0].thread");
    CHECK_THAT(what, Contains("has 2 figures for the table's 3 CPU counts"));
    std::tie(field, what) = first_problem(good, R"({"run": "b"})", R"({"run": "c"})");
    CHECK(field == "tables[0].series[1].run");
    CHECK_THAT(what, Contains("'c' is not one of the lesson's runs"));
    std::tie(field, what) = first_problem(good, "ops_per_second", "speed");
    CHECK(field == "tables[0].metric");
    std::tie(field, what) = first_problem(good, "altix-2005", "cray-1");
    CHECK(field == "tables[0].machine");
    CHECK_THAT(what, Contains("no machine profile 'cray-1'"));
    // The 8-way Pentium III has no twelfth CPU: the count that asks for it.
    std::string eight = good;
    eight.replace(eight.find("altix-2005"), 10, "pentium3-xeon-8way-2002");
    std::tie(field, what) = first_problem(eight, "[1, 2, 4]", "[1, 2, 12]");
    CHECK(field == "tables[0].cpus[2]");
    CHECK_THAT(what, Contains("has at most 8 CPUs, got 12"));
}
