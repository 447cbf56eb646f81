#include "cli_explore_test.h"

#include "child_process.h"
#include "cli_progress.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/report.h"
#include "lib/shell_quote.h"
#include "lib/text.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace pcl::cli {

namespace {

namespace fs = std::filesystem;

/// The tests a schedule can be explored on: tests/CMakeLists.txt's
/// explorations take the same.
constexpr const char* kRaceTestSpec = "[modelled-too]~[not-explored]";

/// @name as a Catch test spec that matches it alone: its commas and
/// brackets escaped (a comma separates specs, a bracket starts a tag).
std::string catch_spec(const std::string& name)
{
    std::string spec;
    for (const char c : name) {
        if (c == ',' || c == '[' || c == ']' || c == '\\' || c == '*')
            spec += '\\';
        spec += c;
    }
    return spec;
}

/// The schedule a report line names, and what it did.
struct Held {
    std::uint64_t seed = 0;
    std::string strategy;
    std::uint64_t points = 0;
    std::uint64_t cpu_order = 0;
    std::uint64_t lock_order = 0;
};

std::optional<Held> parse_held(const std::string& line)
{
    std::istringstream in(line);
    std::string word;
    Held h;
    if (!(in >> word) || word != "held" || !(in >> h.seed >> h.strategy >> h.points >> h.cpu_order >> h.lock_order))
        return std::nullopt;
    return h;
}

/// What exploring the test did: the schedules it reported, the one under
/// way when it stopped, and how its program ended.
struct TestRun {
    std::vector<Held> held;
    std::optional<std::uint64_t> started; ///< the last schedule started
    /// The test's machines: a test may run its body on a machine several
    /// times (a part for each scheme, say), each time over every seed.
    unsigned parts = 1;
    ChildEnd end;
    bool broke() const { return !end.cancelled && (end.exit_code != 0 || end.signal != 0); }
};

/// The variables of tests/core/test_machine.h for @schedules schedules from
/// @seed on @machine.
std::vector<std::pair<std::string, std::string>> test_environment(const std::string& machine,
    const std::string& strategy, std::uint64_t depth, std::uint64_t k, std::uint64_t seed, std::uint64_t schedules)
{
    std::vector<std::pair<std::string, std::string>> env { { "PCL_TEST_MACHINE", machine },
        { "PCL_TEST_SCHEDULE", strategy }, { "PCL_TEST_SEED", std::to_string(seed) },
        { "PCL_TEST_SCHEDULES", std::to_string(schedules) } };
    if (strategy == "pct") {
        env.emplace_back("PCL_TEST_PCT_DEPTH", std::to_string(depth));
        env.emplace_back("PCL_TEST_PCT_STEPS", std::to_string(k));
    }
    return env;
}

TestRun run_test(const RaceTest& test, std::vector<std::pair<std::string, std::string>> env,
    const std::function<void(const Held&, unsigned part)>& on_held = {})
{
    // -a: the first failed check ends the program, so that the schedule
    // under way is the one that broke the test.
    ChildProcess child { test.program, { "-a", catch_spec(test.name) }, std::move(env), "PCL_TEST_REPORT_FD" };
    TestRun run;
    run.end = run_child(
        child,
        [&](const std::string& line) {
            if (line.starts_with("start ")) {
                const std::uint64_t seed = std::strtoull(line.c_str() + 6, nullptr, 10);
                if (run.started && seed <= *run.started)
                    ++run.parts; // the seeds begin again: the test's next machine
                run.started = seed;
            } else if (const auto h = parse_held(line)) {
                run.held.push_back(*h);
                if (on_held)
                    on_held(*h, run.parts);
            }
        },
        &interrupted());
    return run;
}

/// How the test's program ended, when it broke: its own message, or the
/// signal that killed it.
std::string failure_text(const TestRun& run)
{
    std::string text;
    if (run.end.signal)
        text = "the test program was killed by signal " + std::to_string(run.end.signal) + " ("
            + strsignal(run.end.signal) + ")\n";
    // Catch's report, without its banner and the blank lines that begin it.
    std::istringstream lines(run.end.output);
    for (std::string line; std::getline(lines, line);)
        if (!(text.empty() && line.empty()) && !line.starts_with("~~~")
            && line.find("is a Catch v") == std::string::npos && !line.starts_with("Run with -?")
            && !line.starts_with("Filters: "))
            text += line + '\n';
    return text;
}

/// The command line that runs schedule @seed of the test by hand (under a
/// debugger, say).
std::string direct_command(const RaceTest& test, const std::vector<std::pair<std::string, std::string>>& env)
{
    std::string command;
    for (const auto& [name, value] : env)
        command += name + "=" + shell_quote(value) + " ";
    return command + shell_quote(test.program) + " -a " + shell_quote(catch_spec(test.name));
}

/// A table of one row for --format json or csv: @columns, the first four
/// (test, machine, strategy, depth: pct's only) set.
Report exploration_table(std::vector<std::string> columns, const RaceTest& test, const std::string& machine,
    const std::string& strategy, std::uint64_t depth)
{
    Report table(std::move(columns));
    table.add_row();
    table.set("test", test.name);
    table.set("machine", machine);
    table.set("strategy", strategy);
    if (strategy == "pct")
        table.set("depth", depth);
    else
        table.set_missing("depth");
    return table;
}

void indent(std::ostream& out, const std::string& text)
{
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        out << "  " << line << '\n';
}

} // namespace

std::string test_programs_dir(const ArgParser& p)
{
    if (p.given("tests"))
        return p.get_string("tests");
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return {};
    const fs::path dir = self.parent_path().parent_path() / "tests";
    return fs::is_directory(dir, ec) ? dir.string() : std::string();
}

namespace {

/// The test programs in @dir, by name.
std::vector<std::string> test_programs(const std::string& dir)
{
    std::vector<std::string> programs;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().starts_with("test_") && is_executable(e.path().string()))
            programs.push_back(e.path().string());
    if (ec)
        throw std::runtime_error("cannot read the test programs' directory " + dir + ": " + ec.message());
    std::sort(programs.begin(), programs.end());
    return programs;
}

/// The race tests of @program that Catch test spec @spec selects.
std::vector<std::string> listed(const std::string& program, const std::string& spec)
{
    std::vector<std::string> names;
    std::istringstream lines(run_child({ program, { "--list-test-names-only", spec }, {}, {} }).output);
    for (std::string name; std::getline(lines, name);)
        if (!name.empty())
            names.push_back(name);
    return names;
}

} // namespace

std::vector<RaceTest> race_tests(const std::string& dir)
{
    std::vector<RaceTest> tests;
    for (const std::string& program : test_programs(dir))
        for (std::string& name : listed(program, kRaceTestSpec))
            tests.push_back({ std::move(name), program });
    return tests;
}

int list_race_tests(const ArgParser& p, std::ostream& out, std::ostream& err)
{
    const std::string dir = test_programs_dir(p);
    if (dir.empty()) {
        err << kProgram << " explore: core's test programs are not installed with the program: run it from a build "
            << "tree, or give --tests DIR\n";
        return 2;
    }
    std::vector<RaceTest> tests;
    try {
        tests = race_tests(dir);
    } catch (const std::exception& e) {
        err << kProgram << " explore: " << e.what() << '\n';
        return 2;
    }
    Report table({ "test", "program" });
    for (const RaceTest& t : tests) {
        table.add_row();
        table.set("test", t.name);
        table.set("program", fs::path(t.program).filename().string());
    }
    if (p.get_string("format") == "table") {
        out << tests.size() << " race tests of core can be explored (" << dir << "):\n";
        for (const RaceTest& t : tests)
            out << "  " << t.name << "    (" << fs::path(t.program).filename().string() << ")\n";
    } else {
        print_table(out, table, p.get_string("format"));
    }
    return 0;
}

std::optional<RaceTest> find_race_test(const ArgParser& p, const std::string& name)
{
    const std::string dir = test_programs_dir(p);
    if (dir.empty())
        return std::nullopt;
    // Each program asked for the one test (its name and the race tests'
    // tags, both), until one has it.
    for (const std::string& program : test_programs(dir))
        for (const std::string& found : listed(program, catch_spec(name) + kRaceTestSpec))
            if (found == name)
                return RaceTest { name, program };
    return std::nullopt;
}

int explore_race_test(
    const ArgParser& p, const RaceTest& test, const std::string& machine, std::ostream& out, std::ostream& err)
{
    const std::string& format = p.get_string("format");
    std::ostream& notes = notes_stream(format, out, err);
    const std::string strategy = p.get_string("strategy");
    const std::uint64_t depth = p.get_uint("depth");
    const std::uint64_t first_seed = p.get_uint("seed");
    install_interrupt_handler();

    // pct's k: the points of the first seed's schedule without change
    // points, as for a scenario.
    std::uint64_t k = 1;
    if (strategy == "pct") {
        const TestRun calibration = run_test(test, test_environment(machine, "pct", 1, 1, first_seed, 1));
        if (calibration.end.cancelled) {
            err << "stopped by Ctrl+C after 0 of " << p.get_uint("schedules") << " schedules\n";
            return kInterruptedExit;
        }
        if (calibration.held.empty()) {
            err << kProgram << " explore: its first run, on one pct schedule without change points (seed " << first_seed
                << "), broke:\n";
            indent(err, failure_text(calibration));
            return 1;
        }
        k = std::max<std::uint64_t>(1, calibration.held.front().points);
    }

    if (p.given("replay")) {
        const std::uint64_t seed = p.get_uint("replay");
        const auto env = test_environment(machine, strategy, depth, k, seed, 1);
        const TestRun run = run_test(test, env);
        if (run.end.cancelled) {
            err << "stopped by Ctrl+C before schedule " << seed << " ended\n";
            return kInterruptedExit;
        }
        std::ostream& text = format == "table" ? out : err;
        if (format == "table")
            out << "schedule " << seed << " of " << strategy << ": " << (run.broke() ? "broken" : "the test passed")
                << '\n';
        else {
            Report table = exploration_table({ "test", "machine", "strategy", "depth", "seed", "points", "problems" },
                test, machine, strategy, depth);
            table.set("seed", seed);
            if (run.held.empty())
                table.set_missing("points");
            else
                table.set("points", run.held.front().points);
            table.set("problems", std::uint64_t(run.broke() ? 1 : 0)); // as a scenario's replay: 0 held
            print_table(out, table, format);
        }
        if (run.broke())
            indent(text, failure_text(run));
        text << "run by hand (under a debugger, say):\n  " << direct_command(test, env) << '\n';
        return run.broke() ? 1 : 0;
    }

    const std::uint64_t n = p.get_uint("schedules");
    std::unordered_set<std::uint64_t> lock_orders;
    std::unordered_set<std::uint64_t> cpu_orders;
    using Clock = std::chrono::steady_clock; // the person waits in host time
    const Clock::time_point start = Clock::now();
    Clock::time_point last_note = start;
    const auto rate = [&](std::size_t done) {
        return double(done) / std::max(1e-9, std::chrono::duration<double>(Clock::now() - start).count());
    };
    std::size_t runs = 0;
    unsigned last_part = 1;
    std::size_t in_last_part = 0; // schedules the test's last machine ran, so far
    const TestRun run = run_test(
        test, test_environment(machine, strategy, depth, k, first_seed, n), [&](const Held& h, unsigned part) {
            ++runs;
            if (part != last_part)
                in_last_part = 0;
            last_part = part;
            ++in_last_part;
            lock_orders.insert(h.lock_order);
            cpu_orders.insert(h.cpu_order);
            if (Clock::now() - last_note > std::chrono::seconds(2)) {
                last_note = Clock::now();
                notes << "explored " << h.seed - first_seed + 1 << " of " << n << " schedules"
                      << (part > 1 ? " of the test's machine " + std::to_string(part) : std::string()) << " ("
                      << fixed(rate(runs), 1) << " runs a second), " << lock_orders.size()
                      << " distinct orders of the lock acquisitions; the test passed in every one\n";
            }
        });
    // Schedules: those every machine of the test ran (each seed is run on
    // each of them in turn).
    const std::size_t done = in_last_part;
    // A run's points: pct's k, or random's first schedule's.
    const std::uint64_t points = strategy == "pct" || run.held.empty() ? k : run.held.front().points;
    const double per_second = rate(runs);
    const bool broke = run.broke();
    const std::optional<std::uint64_t> broken_seed
        = broke ? std::optional<std::uint64_t>(run.started.value_or(first_seed)) : std::nullopt;

    if (format == "table") {
        out << "Explored the test \"" << test.name << "\" on the modelled " << machine << " under " << strategy
            << (strategy == "pct" ? " (depth " + std::to_string(depth) + ")" : std::string()) << ", "
            << with_commas(points) << " scheduling points a run: " << done << " schedule" << (done == 1 ? "" : "s")
            << (run.parts > 1 ? " of each of the test's " + std::to_string(run.parts) + " machines, "
                           + with_commas(runs) + " runs"
                              : std::string())
            << ", " << lock_orders.size() << " distinct order" << (lock_orders.size() == 1 ? "" : "s")
            << " of the lock acquisitions (" << cpu_orders.size() << " of the CPUs), " << fixed(per_second, 1)
            << " runs a second.\n";
    } else {
        Report table = exploration_table({ "test", "machine", "strategy", "depth", "points_per_run", "schedules",
                                             "runs", "lock_orders", "cpu_orders", "runs_per_second", "broken_seed" },
            test, machine, strategy, depth);
        table.set("points_per_run", points);
        table.set("schedules", std::uint64_t(done));
        table.set("runs", std::uint64_t(runs));
        table.set("lock_orders", std::uint64_t(lock_orders.size()));
        table.set("cpu_orders", std::uint64_t(cpu_orders.size()));
        table.set("runs_per_second", per_second, 1);
        if (broken_seed)
            table.set("broken_seed", *broken_seed);
        else
            table.set_missing("broken_seed");
        print_table(out, table, format);
    }
    std::ostream& text = format == "table" ? out : err;
    if (run.end.cancelled) {
        err << "stopped by Ctrl+C after " << done << " of " << n << " schedules\n";
        return kInterruptedExit;
    }
    if (!broken_seed) {
        if (format == "table")
            out << "The test passed under every schedule.\n";
        return 0;
    }
    text << "Schedule " << *broken_seed << " breaks the test:\n";
    indent(text, failure_text(run));
    std::string again = std::string(kProgram) + " explore " + shell_quote(test.name) + " --machine "
        + shell_quote(machine) + " --strategy " + strategy + " --depth " + std::to_string(depth) + " --seed "
        + std::to_string(first_seed) + " --replay " + std::to_string(*broken_seed);
    if (p.given("tests"))
        again += " --tests " + shell_quote(p.get_string("tests"));
    text << "Replay it with\n  " << again << "\n  "
         << direct_command(test, test_environment(machine, strategy, depth, k, *broken_seed, 1))
         << "    (the test program itself)\n";
    return 1;
}

} // namespace pcl::cli
