// lib: paths into a JSON document (json_path.h) and every problem of a
// scenario or lesson document from parsers that stop at the first
// (every_problem.h), as `pagecache-lab-cli validate` reports them.
#include "lesson/lesson.h"
#include "lib/bundle.h"
#include "lib/every_problem.h"
#include "lib/json.h"
#include "lib/json_path.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace pcl;

namespace {

std::vector<std::string> fields_of(const std::vector<ScenarioError>& problems)
{
    std::vector<std::string> fields;
    for (const ScenarioError& e : problems)
        fields.push_back(e.field());
    return fields;
}

std::vector<ScenarioError> scenario_problems(const std::string& text)
{
    const json::Value valid = scenario_to_json(Scenario {});
    return every_problem<ScenarioError>(
        json::parse(text), [](const json::Value& d) { scenario_from_json(d); }, &valid);
}

} // namespace

TEST_CASE("a path's indices made 0", "[lib][json]")
{
    CHECK(first_elements("steps[3].pause[12].lock") == "steps[0].pause[0].lock");
    CHECK(first_elements("title") == "title");
}

TEST_CASE("json paths name members and elements, and find, set and remove them", "[lib][json]")
{
    json::Value doc = json::parse(R"({"a": {"b": 1, "c": [10, {"d": 2}, 30]}, "e": true})");
    REQUIRE(json::find_path(doc, "a.b"));
    CHECK(json::find_path(doc, "a.b")->as_int() == 1);
    CHECK(json::find_path(doc, "a.c[1].d")->as_int() == 2);
    CHECK(json::find_path(doc, "a.c[3]") == nullptr);
    CHECK(json::find_path(doc, "a.x") == nullptr);
    CHECK(json::find_path(doc, "a..b") == nullptr);
    CHECK(json::find_path(doc, "a.c[x]") == nullptr);
    CHECK(json::find_path(doc, "") == nullptr);
    for (const char* bad : { "a.", ".a", "a[]", "a[0]b", "a[-1]", "a[99999999999999999999]", "a[0" })
        CHECK(json::find_path(doc, bad) == nullptr);

    CHECK(json::set_path(doc, "a.c[1].d", json::Value(std::int64_t(5))));
    CHECK(json::find_path(doc, "a.c[1].d")->as_int() == 5);
    CHECK(json::set_path(doc, "a.new", json::Value(std::string("x")))); // a member added to its object
    CHECK(json::find_path(doc, "a.new")->as_string() == "x");
    CHECK_FALSE(json::set_path(doc, "a.missing.z", json::Value(true))); // no such object

    CHECK(json::remove_path(doc, "a.c[0]"));
    CHECK(json::find_path(doc, "a.c")->as_array().size() == 2);
    CHECK(json::find_path(doc, "a.c[0].d")->as_int() == 5);
    CHECK(json::remove_path(doc, "e"));
    CHECK(json::find_path(doc, "e") == nullptr);
    CHECK_FALSE(json::remove_path(doc, "e"));
    CHECK_FALSE(json::remove_path(doc, "a.b.c"));
}

TEST_CASE("every problem of a scenario, each with its field, in one pass", "[lib][scenario][errors]")
{
    const std::vector<ScenarioError> three = scenario_problems(R"({
        "version": 1, "title": "three mistakes",
        "workload": { "pattern": "sequentail", "cpus": 0, "file_pages": 64, "operations_per_cpu": 10 },
        "colour": "red" })");
    CHECK(fields_of(three) == std::vector<std::string> { "colour", "workload.pattern", "workload.cpus" });
    // Each is what parsing alone reports for that mistake.
    CHECK(std::string(three[1].what()).find("'sequentail' is not one of") != std::string::npos);

    CHECK(scenario_problems(R"({"version": 1, "title": "fine"})").empty());

    // A required member, missing: reported once, its stand-in from a valid
    // document lets the search go on to the next problem.
    const std::vector<ScenarioError> missing = scenario_problems(R"({"title": "no version", "memory_pages": "lots"})");
    const std::vector<std::string> fields = fields_of(missing);
    CHECK(std::count(fields.begin(), fields.end(), "version") == 1);
    CHECK(std::count(fields.begin(), fields.end(), "memory_pages") == 1);
    CHECK(fields.size() == 2);

    // Not an object: one problem, and the search stops.
    CHECK(scenario_problems("[1, 2]").size() == 1);
}

TEST_CASE("every problem of a lesson, members of its steps and claims included", "[lib][lesson][errors]")
{
    const json::Value doc = json::parse(R"json({"version": 1, "title": "T", "thread": "radix-tree pagecache (2002)",
        "citation": "C", "question": "Q?", "summary": "S.", "arguments": [{"who": "A", "said": "B"}],
        "runs": [{"name": "a", "scenario": "2002-global-hash-lock", "label": "run a"},
                 {"name": "b", "scenario": "2002-radix-tree-per-file", "label": "run b"}],
        "steps": [{"title": "s", "text": "t", "run": "a", "view": "table"}],
        "claims": [{"statement": "x", "by": "y", "measure": {"metric": "ops_per_second", "run": "a", "over": "b"},
                    "rule": {"at_least": 1}, "repeats": 0, "colour": 3}]})json");
    // A required member refused (the view) takes a bundled lesson's value,
    // so that the claims are checked too.
    const json::Value valid = json::parse(std::string(*bundled_file("lessons/2002-one-global-hash-lock.json")));
    const std::vector<LessonError> problems = every_problem<LessonError>(
        doc, [](const json::Value& d) { parse_lesson(json::write(d), "bad"); }, &valid);
    std::vector<std::string> fields;
    for (const LessonError& e : problems)
        fields.push_back(e.field());
    std::sort(fields.begin(), fields.end());
    CHECK(fields == std::vector<std::string> { "claims[0].colour", "claims[0].repeats", "steps[0].view" });

    // Bad elements are replaced, not taken out: the next one keeps its index.
    json::Value two = doc;
    json::Value* steps = two.find("steps");
    steps->as_array() = { json::Value(std::int64_t(1)), json::Value(std::int64_t(2)) };
    two.find("claims")->as_array()[0].as_object().pop_back(); // the colour
    std::vector<std::string> element_fields;
    for (const LessonError& e : every_problem<LessonError>(
             two, [](const json::Value& d) { parse_lesson(json::write(d), "bad"); }, &valid))
        element_fields.push_back(e.field());
    CHECK(std::count(element_fields.begin(), element_fields.end(), "steps[0]") == 1);
    CHECK(std::count(element_fields.begin(), element_fields.end(), "steps[1]") == 1);
}
