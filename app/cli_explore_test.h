// `pagecache-lab-cli explore TEST`: one of core's race tests (those tagged
// [modelled-too] in the test suite) explored as a scenario is: its test
// program run with the variables of tests/core/test_machine.h, one
// schedule after another on a modelled machine, what each schedule did
// read from the program's report pipe, and the failing schedule's seed and
// the test's own message printed with what replays it.
//
// The test programs are those of a build tree (they are not installed):
// the directory --tests names, or by default `tests` beside the directory
// of this program (build/app/pagecache-lab-cli finds build/tests).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace pcl {
class ArgParser;
}

namespace pcl::cli {

/// A race test that can be explored, and the program that holds it.
struct RaceTest {
    std::string name;
    std::string program;
};

/// The directory of core's test programs @p names (--tests), or the
/// default one; empty if there is none.
std::string test_programs_dir(const ArgParser& p);

/// Every race test of the programs in @dir, in the programs' order.
std::vector<RaceTest> race_tests(const std::string& dir);

/// `explore --list-tests`.
int list_race_tests(const ArgParser& p, std::ostream& out, std::ostream& err);

/// The race test named @name, if the test programs hold one.
std::optional<RaceTest> find_race_test(const ArgParser& p, const std::string& name);

/// `explore TEST ...` for @test, its machine @machine.
int explore_race_test(
    const ArgParser& p, const RaceTest& test, const std::string& machine, std::ostream& out, std::ostream& err);

} // namespace pcl::cli
