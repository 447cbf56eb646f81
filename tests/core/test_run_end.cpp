// sim/run_end.h: every way a run ends has one word, which reads back as
// the same value; a word that is none of them is refused; and the result
// file writes the word, as before the words became an enumeration.
#include "sim/run_end.h"
#include "sim/run_result.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using namespace pcl;

TEST_CASE("every run end round-trips through its word", "[run_end]")
{
    std::set<std::string_view> words;
    for (const RunEnd end : kRunEnds) {
        const std::string_view word = run_end_name(end);
        INFO("word '" << std::string(word) << "'");
        CHECK(word != "?");
        CHECK(parse_run_end(word) == end);
        words.insert(word);
    }
    CHECK(words.size() == kRunEnds.size());
}

TEST_CASE("the words are those the files have always held", "[run_end]")
{
    CHECK(run_end_name(RunEnd::None).empty());
    CHECK(run_end_name(RunEnd::Finished) == "finished");
    CHECK(run_end_name(RunEnd::Duration) == "duration");
    CHECK(run_end_name(RunEnd::Cancelled) == "cancelled");
    CHECK(run_end_name(RunEnd::Stopped) == "stopped");
    CHECK(run_end_name(RunEnd::Failed) == "failed");
    CHECK(run_end_name(RunEnd::NotRun) == "not run");
    CHECK(run_end_name(RunEnd::Missing) == "missing");
    CHECK(run_end_name(static_cast<RunEnd>(200)) == "?");
}

TEST_CASE("a word that is no run end is refused", "[run_end]")
{
    CHECK_FALSE(parse_run_end("exploded").has_value());
    CHECK_FALSE(parse_run_end("Finished").has_value());
    CHECK_FALSE(parse_run_end("finished ").has_value());
    CHECK_FALSE(parse_run_end("?").has_value());
}

TEST_CASE("only a run that finished or ran its duration completed", "[run_end]")
{
    for (const RunEnd end : kRunEnds)
        CHECK(run_completed(end) == (end == RunEnd::Finished || end == RunEnd::Duration));
}

TEST_CASE("the result file writes the word", "[run_end]")
{
    for (const RunEnd end : { RunEnd::Finished, RunEnd::Duration, RunEnd::Cancelled, RunEnd::Failed }) {
        RunResult r;
        r.ended_by = end;
        const json::Value doc = to_json(r);
        REQUIRE(doc.find("ended_by"));
        CHECK(doc.find("ended_by")->as_string() == std::string(run_end_name(end)));
    }
}
