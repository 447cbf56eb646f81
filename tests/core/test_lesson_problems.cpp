// core/lesson: every problem of a lesson file, as `pagecache-lab-cli
// validate` lists them: each mistake once, at its own member's path, in
// the format's order, and nothing that only follows from another. The
// lessons are bundled ones with mistakes made in them.
#include "lesson/experiment.h"
#include "lesson/lesson.h"
#include "lesson/lesson_library.h"
#include "lesson/lesson_metric.h"
#include "lesson/lesson_problems.h"
#include "lib/bundle.h"
#include "lib/json.h"
#include "lib/json_path.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace pcl;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const char* const kOrigin = "lesson.json";

json::Value bundled_lesson(const std::string& name)
{
    return json::parse(std::string(*bundled_file("lessons/" + name + ".json")));
}

/// The bundled lesson of the lockless readers: four scenario runs (lock-1,
/// lock-2, rcu-1, rcu-2), three steps, three claims.
json::Value lockless_readers()
{
    return bundled_lesson("2007-lockless-readers");
}

void set(json::Value& doc, const std::string& path, json::Value value)
{
    REQUIRE(json::set_path(doc, path, std::move(value)));
}

void remove(json::Value& doc, const std::string& path)
{
    REQUIRE(json::remove_path(doc, path));
}

/// Adds @value at the end of the array at @path.
void append_at(json::Value& doc, const std::string& path, json::Value value)
{
    const json::Value* array = json::find_path(doc, path);
    REQUIRE(array);
    json::Array items = array->as_array();
    items.push_back(std::move(value));
    set(doc, path, std::move(items));
}

json::Value text(const std::string& s)
{
    return json::Value(s);
}

/// Every problem of @doc as validate prints it, without the file's name:
/// each message starts with the problem's own path.
std::vector<std::string> problems_of(const json::Value& doc)
{
    std::vector<std::string> messages;
    for (const LessonError& e : lesson_file_problems(json::write(doc), kOrigin)) {
        const std::string what = e.what();
        CHECK_THAT(what, StartsWith(std::string(kOrigin) + ": " + e.field() + ": "));
        messages.push_back(what.substr(std::string(kOrigin).size() + 2));
    }
    return messages;
}

std::string listed(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

std::string metric_names()
{
    std::vector<std::string> names;
    for (const LessonMetricInfo& m : lesson_metrics())
        names.emplace_back(m.name);
    return listed(names);
}

std::string unknown_scenario(const std::string& path, const std::string& name)
{
    return path + ": no bundled scenario is called '" + name + "'; there are: " + listed(bundled_names("scenarios"));
}

} // namespace

TEST_CASE("every bundled lesson has no problem", "[lesson][errors]")
{
    const std::vector<std::string> names = bundled_names("lessons");
    REQUIRE_FALSE(names.empty());
    for (const std::string& name : names) {
        INFO("lesson " << name);
        CHECK(problems_of(bundled_lesson(name)).empty());
    }
}

TEST_CASE("five mistakes in a lesson are five problems, each at its own member", "[lesson][errors]")
{
    json::Value doc = lockless_readers();
    remove(doc, "question");
    set(doc, "claims[0].measure.metric", text("speed"));
    set(doc, "steps[1].run", text("rcu-3"));
    set(doc, "runs[0].scenario", text("no-such-scenario"));
    set(doc, "claims[2].rule.at_least", json::Value(1.0)); // beside its at_most
    const std::vector<std::string> expected = {
        "question: is required",
        unknown_scenario("runs[0].scenario", "no-such-scenario"),
        "steps[1].run: 'rcu-3' is not one of the lesson's runs: lock-1, lock-2, rcu-1, rcu-2, lock-8, rcu-8",
        "claims[0].measure.metric: 'speed' is not a metric; allowed: " + metric_names(),
        "claims[2].rule.at_least: a rule has one of at_least and at_most, and this one has at_most too",
    };
    CHECK(problems_of(doc) == expected);

    // Reading alone stops at the first of them, in the format's order.
    CHECK_THROWS_WITH(parse_lesson(json::write(doc), kOrigin), std::string(kOrigin) + ": question: is required");
}

TEST_CASE("an unknown scenario is a problem of the run's scenario, not of its kind", "[lesson][errors]")
{
    json::Value doc = lockless_readers();
    set(doc, "runs[0].scenario", text("no-such-scenario"));
    CHECK(problems_of(doc) == std::vector<std::string> { unknown_scenario("runs[0].scenario", "no-such-scenario") });

    // A run with neither a scenario nor a probe is one problem: the steps
    // and claims on it are not checked against a kind it does not have.
    doc = lockless_readers();
    remove(doc, "runs[1].scenario");
    CHECK(problems_of(doc)
        == std::vector<std::string> { "runs[1].scenario: is required: a run needs one of scenario and probe" });
    doc = lockless_readers();
    set(doc, "runs[1].probe", text("index_memory"));
    CHECK(problems_of(doc)
        == std::vector<std::string> { "runs[1].probe: a run needs one of scenario and probe, not both" });
}

TEST_CASE("an override a run's scenario refuses names that run and its own element", "[lesson][errors]")
{
    // Run 1 (lock-2) keeps its name: the runs listed are the lesson's own.
    json::Value doc = lockless_readers();
    append_at(doc, "runs[1].set", text("workload.cpus=0"));
    const std::string refused
        = "runs[1].set[2]: run 'lock-2' on '2002-radix-tree-per-file': workload.cpus: must be in [1, 1024], got 0";
    CHECK(problems_of(doc) == std::vector<std::string> { refused });
    // As the experiment refuses it.
    try {
        check_lesson_scenarios(parse_lesson(json::write(doc), kOrigin), bundled_scenario_text);
        FAIL("the override was accepted");
    } catch (const LessonError& e) {
        CHECK(e.field() == "runs[1].set[2]");
        CHECK(std::string(e.what()) == refused);
    }

    doc = lockless_readers();
    set(doc, "runs[1].set[0]", text("workload.files=sharde"));
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "runs[1].set[0]: run 'lock-2' on '2002-radix-tree-per-file': workload.files: 'sharde' is not one of: "
            "separate, shared" });

    doc = lockless_readers();
    set(doc, "runs[1].set[1]", text("workload.colour=3"));
    CHECK_THAT(problems_of(doc).at(0),
        StartsWith("runs[1].set[1]: run 'lock-2' on '2002-radix-tree-per-file': workload.colour: unknown field; "
                   "allowed: pattern, "));

    // A step's own override, on a run that builds.
    doc = lockless_readers();
    set(doc, "steps[0].set", json::Array { text("workload.cpus=0") });
    CHECK(problems_of(doc)
        == std::vector<std::string> { "steps[0].set[0]: run 'lock-2' on '2002-radix-tree-per-file': workload.cpus: "
                                      "must be in [1, 1024], got 0" });

    // The lesson's quick override every run refuses is one mistake.
    doc = lockless_readers();
    set(doc, "quick[0]", text("workload.cpus=0"));
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "quick[0]: run 'lock-1' on '2002-radix-tree-per-file': workload.cpus: must be in [1, 1024], got 0" });

    // A run refused alone is not built again with the quick form or its steps.
    doc = lockless_readers();
    append_at(doc, "runs[1].set", text("workload.cpus=0"));
    set(doc, "quick[0]", text("workload.operations_per_cpu=0"));
    const std::vector<std::string> both = problems_of(doc);
    REQUIRE(both.size() == 2);
    CHECK(both[0] == refused);
    CHECK_THAT(
        both[1], StartsWith("quick[0]: run 'lock-1' on '2002-radix-tree-per-file': workload.operations_per_cpu"));
}

TEST_CASE("a problem that follows from another is not reported", "[lesson][errors]")
{
    // A run whose name is refused: the steps and claims naming it may name
    // what it was meant to be.
    json::Value doc = lockless_readers();
    set(doc, "runs[1].name", json::Value(std::int64_t(2)));
    CHECK(problems_of(doc) == std::vector<std::string> { "runs[1].name: expected a string, got integer" });

    // A run that is not an object: one problem, nothing about its members
    // or about the steps on it.
    doc = lockless_readers();
    set(doc, "runs[3]", text("rcu-2"));
    CHECK(problems_of(doc) == std::vector<std::string> { "runs[3]: expected an object, got string" });

    // A claim's measure with both a metric and a figure: the metric's lock
    // and the figure's runs are not checked.
    doc = lockless_readers();
    set(doc, "claims[2].measure.figure", text("ops_per_second"));
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "claims[2].measure.figure: a claim measures one of metric and figure, not both" });
    // Neither: the one problem is the missing metric.
    doc = lockless_readers();
    remove(doc, "claims[2].measure.metric");
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "claims[2].measure.metric: is required: a claim measures one of metric and figure" });
    // An unknown metric: whether it reads a lock is unknown, so its lock is
    // neither required nor refused.
    doc = lockless_readers();
    set(doc, "claims[2].measure.metric", text("contentions"));
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "claims[2].measure.metric: 'contentions' is not a metric; allowed: " + metric_names() });

    // A claim without its measure or rule: each missing member once.
    doc = lockless_readers();
    remove(doc, "claims[1].measure");
    remove(doc, "claims[1].rule");
    CHECK(problems_of(doc)
        == std::vector<std::string> { "claims[1].measure: is required", "claims[1].rule: is required" });

    // An unknown member where a highlight names its one thing: the member is
    // the mistake.
    doc = lockless_readers();
    set(doc, "steps[0].highlight", json::Object { { "lokc", text("mapping.tree_lock") } });
    CHECK(problems_of(doc)
        == std::vector<std::string> {
            "steps[0].highlight.lokc: unknown member; allowed: lock, file, cpu, bucket, node" });

    // A step's refused view is not checked against its run as well.
    doc = lockless_readers();
    set(doc, "steps[2].view", text("table"));
    CHECK(problems_of(doc)
        == std::vector<std::string> { "steps[2].view: 'table' is not a view; allowed: cpus, radix, "
                                      "hash, skiplist, readahead, pagetable, locks, charts, "
                                      "probe, tornpte" });

    // A document of another version: nothing else is read by this build's rules.
    doc = lockless_readers();
    set(doc, "version", json::Value(std::int64_t(2)));
    set(doc, "colour", text("red"));
    CHECK(problems_of(doc) == std::vector<std::string> { "version: this build reads version 1, got 2" });
}

TEST_CASE("every problem of a lesson, members of its steps and claims included", "[lesson][errors]")
{
    json::Value doc = lockless_readers();
    set(doc, "steps[0].view", text("table"));
    set(doc, "claims[0].repeats", json::Value(std::int64_t(0)));
    set(doc, "claims[0].colour", json::Value(std::int64_t(3)));
    const std::vector<std::string> problems = problems_of(doc);
    REQUIRE(problems.size() == 3);
    CHECK_THAT(problems[0], StartsWith("steps[0].view: 'table' is not a view; allowed: cpus, radix"));
    CHECK_THAT(problems[1], StartsWith("claims[0].colour: unknown member; allowed: statement, by"));
    CHECK(problems[2] == "claims[0].repeats: must be in [1, 100], got 0");

    // Elements that are not objects: each its own problem, and the others
    // keep the indices their paths give.
    doc = lockless_readers();
    set(doc, "steps[0]", json::Value(std::int64_t(1)));
    set(doc, "steps[1]", json::Value(std::int64_t(2)));
    set(doc, "steps[2].view", text("table"));
    const std::vector<std::string> steps = problems_of(doc);
    REQUIRE(steps.size() == 3);
    CHECK(steps[0] == "steps[0]: expected an object, got integer");
    CHECK(steps[1] == "steps[1]: expected an object, got integer");
    CHECK_THAT(steps[2], StartsWith("steps[2].view: 'table' is not a view"));

    // A document that is not JSON: one problem, at no member.
    const std::vector<LessonError> broken = lesson_file_problems("{\"version\": 1,\n  \"title\": tru}", kOrigin);
    REQUIRE(broken.size() == 1);
    CHECK(broken[0].field().empty());
    CHECK_THAT(broken[0].what(), StartsWith("lesson.json:2:"));
}

TEST_CASE("a probe run's parameters are refused each by its own element", "[lesson][errors][probe]")
{
    json::Value doc = bundled_lesson("2002-what-the-index-costs-in-memory");
    const json::Value* runs = json::find_path(doc, "runs");
    REQUIRE(runs);
    std::size_t probe_run = runs->as_array().size();
    for (std::size_t i = 0; i < runs->as_array().size() && probe_run == runs->as_array().size(); ++i)
        if (runs->as_array()[i].find("probe"))
            probe_run = i;
    REQUIRE(probe_run < runs->as_array().size());
    const std::string at = "runs[" + std::to_string(probe_run) + "]";
    set(doc, at + ".set", json::Array { text("colour=3"), text("colour=4") });
    const std::vector<std::string> problems = problems_of(doc);
    REQUIRE(problems.size() == 2);
    CHECK_THAT(problems[0], StartsWith(at + ".set[0]: 'colour' is not a parameter of the "));
    CHECK_THAT(problems[1], StartsWith(at + ".set[1]: 'colour' is not a parameter of the "));
}

TEST_CASE("problems are kept once, in the format's order", "[lesson][errors]")
{
    LessonProblems problems("f.json");
    problems.add("claims[1].rule", "claims[1].rule: b");
    problems.add("runs[2].set[0]", "runs[2].set[0]: a");
    problems.add("claims[0].by", "claims[0].by: c");
    problems.add("runs[2].set[0]", "runs[2].set[0]: again");
    problems.add("title", "title: d");
    std::vector<std::string> messages;
    for (const LessonError& e : problems.list())
        messages.push_back(e.what());
    CHECK(messages
        == std::vector<std::string> {
            "f.json: title: d", "f.json: runs[2].set[0]: a", "f.json: claims[0].by: c", "f.json: claims[1].rule: b" });
    CHECK(problems.involves("runs[2]"));
    CHECK(problems.involves("runs[2].set[0].x"));
    CHECK_FALSE(problems.involves("runs[20]"));
    CHECK_FALSE(problems.involves("runs[2].scenario"));
    CHECK(problems.at("title"));
    CHECK_FALSE(problems.at("runs[2]"));
}
