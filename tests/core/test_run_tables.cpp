// sim: a run's time series and lock table as CSV (run_tables.h): the JSON's
// member names as the header, one row per sample and per lock, sorted by
// contentions, strings quoted where CSV needs it.
#include "sim/run_tables.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace pcl;

namespace {

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

sync::LockStatRow row(std::string name, std::uint64_t acquisitions, std::uint64_t contentions)
{
    sync::LockStatRow r;
    r.name = std::move(name);
    r.lock_class = "mapping.tree_lock";
    r.acquisitions = acquisitions;
    r.contentions = contentions;
    return r;
}

} // namespace

TEST_CASE("the time series as CSV: a header of the JSON's names and one row per sample", "[sim][result]")
{
    RunResult r;
    r.series = { { .time_s = 0.1, .interval_s = 0.1, .operations = 7 },
        { .time_s = 0.2, .interval_s = 0.1, .operations = 9 } };
    const std::vector<std::string> lines = lines_of(series_csv(r));
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].rfind("time_s,interval_s,operations,minor_faults,", 0) == 0);
    CHECK(lines[1].rfind("0.1,0.1,7,0,", 0) == 0);
    CHECK(lines[2].rfind("0.2,0.1,9,0,", 0) == 0);
    // As many cells in every row as in the header.
    const auto commas = [](const std::string& s) { return std::count(s.begin(), s.end(), ','); };
    CHECK(commas(lines[1]) == commas(lines[0]));
    CHECK(lines_of(series_csv(RunResult {})).size() == 1); // no samples: the header alone
}

TEST_CASE("the lock table as CSV: named locks then classes, each by contentions", "[sim][result]")
{
    RunResult r;
    r.locks = { row("mapping[0].tree_lock", 100, 1), row("mapping[1].tree_lock", 50, 20) };
    sync::LockStatRow cls = row("mapping.tree_lock", 150, 21);
    cls.instances = 2;
    r.lock_classes = { cls };
    const std::vector<std::string> lines = lines_of(locks_csv(r));
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].rfind("kind,name,class,instances,acquisitions,contentions,contention_ratio,", 0) == 0);
    CHECK(lines[1].rfind("lock,mapping[1].tree_lock,mapping.tree_lock,1,50,20,0.4,", 0) == 0);
    CHECK(lines[2].rfind("lock,mapping[0].tree_lock,mapping.tree_lock,1,100,1,0.01,", 0) == 0);
    CHECK(lines[3].rfind("class,mapping.tree_lock,mapping.tree_lock,2,150,21,", 0) == 0);
    // A name with a comma is quoted.
    r.locks = { row("a,b", 1, 0) };
    r.lock_classes.clear();
    CHECK(lines_of(locks_csv(r))[1].rfind("lock,\"a,b\",", 0) == 0);
}
