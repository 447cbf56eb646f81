// The result JSON against docs/result.schema.json, the schema the
// documentation (docs/result-format.md) describes: results of runs that
// touch every part of it (a lock-bound hash run, a reader under memory
// pressure with readahead, pft's anonymous faults, dirty pages and
// writeback) validate; a result with a member of the wrong type, a missing
// one or one the schema does not know does not, and the problem names it.
#include "json_schema_check.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "sim/run_result.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace pcl;

namespace {

json::Value schema()
{
    return json::parse(read_file(std::string(PCL_SOURCE_DIR) + "/docs/result.schema.json"));
}

Scenario short_run(const char* pattern, const char* access, unsigned cpus)
{
    Scenario s;
    s.title = "schema test";
    s.sample_interval_ms = 10;
    s.engine.workload.pattern = parse_workload_pattern(pattern).value();
    s.engine.workload.access = parse_workload_access(access).value();
    s.engine.workload.cpus = cpus;
    s.engine.workload.file_pages = 512;
    s.engine.workload.operations_per_cpu = 2000;
    s.engine.memory_pages = 1 << 12;
    s.engine.device = { 2'000, 200, 1.0 };
    return s;
}

std::string joined(const std::vector<std::string>& problems)
{
    std::string s;
    for (const std::string& p : problems)
        s += p + "\n";
    return s;
}

} // namespace

TEST_CASE("every result validates against the documented schema", "[sim][result]")
{
    const json::Value sch = schema();
    // On this computer's threads and on a modelled machine, whose result
    // has its own members (the machine, the host's time beside it).
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    std::vector<Scenario> runs;
    Scenario hash = short_run("random", "read", 2);
    hash.engine.index.kind = IndexKind::Hash;
    runs.push_back(hash);
    Scenario pressure = short_run("sequential", "mmap_read", 1);
    pressure.engine.memory_pages = 256;
    pressure.engine.readahead = "linux";
    runs.push_back(pressure);
    runs.push_back(short_run("pft", "read", 2));
    Scenario writer = short_run("sequential", "write", 1);
    runs.push_back(writer);
    for (Scenario& s : runs) {
        s.engine.machine.profile = machine;
        const RunResult r = run_scenario(s);
        INFO(workload_pattern_name(s.engine.workload.pattern) << " " << workload_access_name(s.engine.workload.access));
        REQUIRE(r.state != "failed");
        const std::vector<std::string> problems = test::schema_problems(to_json(r), sch);
        INFO(joined(problems));
        CHECK(problems.empty());
    }
}

TEST_CASE("the schema refuses a result with a wrong, missing or unknown member, naming it", "[sim][result]")
{
    const json::Value sch = schema();
    const json::Value good = to_json(run_scenario(short_run("random", "read", 1)));
    REQUIRE(test::schema_problems(good, sch).empty());

    json::Value wrong = good;
    wrong.find("totals")->find("faults")->set("minor", "many");
    CHECK(test::schema_problems(wrong, sch)
        == std::vector<std::string> { "totals.faults.minor: integer expected, got string" });

    json::Value missing = good;
    auto& members = missing.as_object();
    members.erase(std::remove_if(members.begin(), members.end(), [](const auto& m) { return m.first == "ended_by"; }),
        members.end());
    CHECK(test::schema_problems(missing, sch) == std::vector<std::string> { "(root): missing member 'ended_by'" });

    json::Value unknown = good;
    unknown.find("totals")->set("speed", 3);
    CHECK(test::schema_problems(unknown, sch)
        == std::vector<std::string> { "totals.speed: not a member the schema allows" });
}
