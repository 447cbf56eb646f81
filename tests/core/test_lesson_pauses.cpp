// core/lesson: when a lesson's step pauses its run by itself. A class must
// see what the step names happen before the run stops: every bundled step
// with a condition is played here as the application plays it (its run at
// its own speed, turned thirty times a second) and the running time of its
// pause is checked against the time its condition first held.
#include "lesson/experiment.h"
#include "lesson/lesson.h"
#include "lesson/lesson_library.h"
#include "lesson/lesson_pause.h"
#include "sanitizer_support.h"
#include "sim/debugfs.h"
#include "sim/modelled_run.h"
#include "sim/run_loop.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace pcl;

namespace {

/// A step of a bundled lesson that pauses by itself, and what its run did.
struct PausedStep {
    std::string name; ///< "2002-one-global-hash-lock, step 1"
    Scenario scenario;
    LessonPause pause;
    std::optional<double> held_at;   ///< running time the condition first held
    std::optional<double> paused_at; ///< running time the step paused
    std::string error;
};

constexpr double kLongestWait = 60; ///< running seconds a step may take to pause

/// Plays @step's run on its modelled machine as the lesson panel does: a
/// thirtieth of a modelled second a tick (real time), looked at standing.
void play_modelled(PausedStep& step)
{
    LookingAtStandingMachine looking;
    ModelledRun run(step.scenario);
    PauseWatch watch(step.pause);
    run.call([](RunLoop& loop) { loop.play(); });
    const auto seconds = [&] { return double(run.running_ns()) / 1e9; };
    while (run.loop().phase() == RunLoop::Phase::Running && seconds() < kLongestWait) {
        run.advance(run.running_ns() + 1'000'000'000 / 30, ~std::uint64_t(0), {});
        if (watch.due(Debugfs(run.loop().engine()), run.loop().registry(), seconds(), false)) {
            step.paused_at = seconds();
            break;
        }
    }
    step.held_at = watch.held_since();
    if (run.loop().phase() == RunLoop::Phase::Ended && run.loop().ended_by() != RunEnd::Duration)
        step.error = "the run ended (" + std::string(run_end_name(run.loop().ended_by())) + ") before it paused";
}

/// Plays @step's run as the lesson panel does and watches for its pause.
void play(PausedStep& step)
{
    if (step.scenario.engine.machine.is_modelled()) {
        play_modelled(step);
        return;
    }
    RunLoop loop(step.scenario);
    PauseWatch watch(step.pause);
    loop.play();
    while (loop.phase() == RunLoop::Phase::Running && loop.running_seconds() < kLongestWait) {
        loop.turn({});
        if (watch.due(Debugfs(loop.engine()), loop.registry(), loop.running_seconds(), false)) {
            step.paused_at = loop.running_seconds();
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(33));
    }
    step.held_at = watch.held_since();
    if (loop.phase() == RunLoop::Phase::Ended && loop.ended_by() != RunEnd::Duration)
        step.error = "the run ended (" + std::string(run_end_name(loop.ended_by())) + ") before it paused";
    loop.end(RunEnd::Stopped, {});
}

Lesson lesson_pausing_when(const std::string& pause_when)
{
    const std::string text
        = R"json({"version": 1, "title": "T", "thread": "radix-tree pagecache (2002)", "citation": "C",
        "question": "Q?", "summary": "S.", "arguments": [{"who": "A", "said": "B"}],
        "runs": [{"name": "a", "scenario": "2002-global-hash-lock", "label": "run a"}],
        "steps": [{"title": "s", "text": "t", "run": "a", "view": "locks", "pause_when": )json"
        + pause_when + R"json(}],
        "claims": [{"statement": "x", "by": "y", "measure": {"metric": "ops_per_second", "run": "a"},
                    "rule": {"at_least": 1}}]})json";
    return parse_lesson(text, "pauses.json");
}

std::string pause_error_of(const std::string& pause_when)
{
    try {
        lesson_pausing_when(pause_when);
    } catch (const LessonError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("a pause condition is shown for its seconds before the run pauses", "[lesson][pause]")
{
    SECTION("the default, and a file's own")
    {
        CHECK(lesson_pausing_when(R"({"tree_height": 2})").steps[0].pause.shown_seconds == LessonPause::kShownSeconds);
        const LessonPause p = lesson_pausing_when(R"({"tree_height": 2, "shown_seconds": 8.5})").steps[0].pause;
        CHECK(p.kind == LessonPause::Kind::TreeHeight);
        CHECK(p.count == 2);
        CHECK(p.shown_seconds == 8.5);
        CHECK(lesson_pausing_when(R"({"run_ends": true})").steps[0].pause.shown_seconds == 0);
    }
    SECTION("bad values are refused by name")
    {
        CHECK_THAT(pause_error_of(R"({"tree_height": 2, "shown_seconds": -1})"),
            Catch::Contains("steps[0].pause_when.shown_seconds: must be in [0, 600]"));
        CHECK_THAT(pause_error_of(R"({"tree_height": 2, "shown_seconds": "long"})"),
            Catch::Contains("steps[0].pause_when.shown_seconds"));
        CHECK_THAT(pause_error_of(R"({"run_ends": true, "shown_seconds": 3})"),
            Catch::Contains("steps[0].pause_when.shown_seconds"));
        CHECK_THAT(pause_error_of(R"({"shown_seconds": 3})"), Catch::Contains("names one condition"));
        CHECK_THAT(
            pause_error_of(R"({"tree_height": 2, "readahead_wasted": 1})"), Catch::Contains("names one condition"));
    }
}

TEST_CASE("every bundled step that pauses by itself shows its condition for seconds first", "[lesson][pause]")
{
    std::vector<PausedStep> steps;
    for (const Lesson& lesson : bundled_lessons())
        for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
            const LessonStep& s = lesson.steps[i];
            const LessonRun& run = *lesson.find_run(s.run);
            if (run.is_probe() || s.pause.kind == LessonPause::Kind::None || s.pause.kind == LessonPause::Kind::RunEnds)
                continue;
            // What the lesson panel plays: the run, the step's overrides, its speed.
            std::vector<std::string> set = s.set;
            set.push_back("pacing.ops_per_second=" + std::to_string(s.ops_per_second));
            set.push_back("pacing.hold_stretch_ns=" + std::to_string(s.hold_stretch_ns));
            PausedStep p;
            p.name = lesson.name + ", step " + std::to_string(i + 1);
            p.scenario = lesson_scenario(run, set, bundled_scenario_text, "steps[" + std::to_string(i) + "]");
            // A modelled machine's step is one host thread's, the same in
            // every build: the release build checks its pause, and under a
            // sanitizer its sixty CPUs would take a minute for nothing new.
            if (test::kSanitized && p.scenario.engine.machine.is_modelled())
                continue;
            p.pause = s.pause;
            steps.push_back(std::move(p));
        }
    REQUIRE(steps.size() >= 8);

    // Paced runs sleep most of the time: all of them at once take the time
    // of the slowest, not the sum.
    std::vector<std::thread> players;
    for (PausedStep& s : steps)
        players.emplace_back([&s] { play(s); });
    for (std::thread& t : players)
        t.join();

    for (const PausedStep& s : steps) {
        INFO(s.name);
        std::printf("%-45s condition held at %6.2f s, paused at %6.2f s\n", s.name.c_str(),
            s.held_at ? *s.held_at : -1.0, s.paused_at ? *s.paused_at : -1.0);
        CHECK(s.error.empty());
        REQUIRE(s.held_at.has_value());
        REQUIRE(s.paused_at.has_value());
        // The class watched what the step names for its seconds, and
        // the run paused once they were over (a turn later at most).
        CHECK(*s.paused_at - *s.held_at >= s.pause.shown_seconds);
        CHECK(*s.paused_at - *s.held_at <= s.pause.shown_seconds + 1.0);
        // At least a few seconds of motion in all, and not so long that the
        // class waits for a pause that does not come.
        CHECK(*s.paused_at >= 4.0);
        CHECK(*s.paused_at <= kLongestWait);
    }
}
