// lib: paths into a JSON document (json_path.h) and every problem of a
// scenario document from a parser that stops at the first
// (every_problem.h), as `pagecache-lab-cli validate` reports them. (A
// lesson's reader lists every problem itself: test_lesson_problems.cpp.)
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
