#include "cli_explore.h"

#include "cli_explore_test.h"
#include "cli_progress.h"
#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/json.h"
#include "lib/shell_quote.h"
#include "sched/machine_profiles.h"
#include "sched/schedule_strategy.h"
#include "sim/run_audit.h"
#include "sim/runner.h"

#include <chrono>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <unordered_set>

namespace pcl::cli {

namespace {

/// The modelled machine an exploration runs on when its scenario runs on
/// this computer's threads, which cannot be explored: a current server,
/// bundled, so that the same seed is the same schedule on any computer.
constexpr const char* kDefaultMachine = "epyc-2026";

ArgParser make_explore_parser()
{
    ArgParser p("explore");
    p.add_uint("schedules", 1000, 1, 100'000'000, "N", "how many schedules to run, one seed each");
    p.add_string("strategy", "pct", "S",
        "random (the next CPU drawn uniformly at every point) or pct (random priorities changed at\n"
        "depth - 1 random points: finds a race of depth d with a known probability)");
    p.add_uint("depth", 3, 1, 64, "D", "pct's depth: the orderings a race it should find needs");
    p.add_uint(
        "seed", 1, 1, ~std::uint64_t(0) - 100'000'000, "S", "the first schedule's seed; the next are S+1, S+2, ...");
    p.add_uint("replay", 1, 1, ~std::uint64_t(0), "SEED",
        "run the one schedule SEED, print its run as 'run' does and check it again");
    p.add_uint("ops", 200, 1, 1'000'000, "N",
        "operations per CPU at most: each schedule is a short run, so that many fit in a minute");
    p.add_list("set", "PATH=VALUE", "override a field of the scenario (as 'run --set'), before the exploration's own");
    p.add_string("machine", "", "NAME",
        "the modelled machine to explore on (a profile 'machines' lists): a test's, epyc-2026 unless\n"
        "given; a scenario's in place of its own (as --set machine.profile=NAME)");
    p.add_flag("list-tests", "list the race tests of core that can be explored, and stop");
    p.add_string("tests", "", "DIR",
        "the directory of core's test programs (a build tree's tests/; by default the one beside\n"
        "this program's directory)");
    p.add_string("format", "table", "F", "what is printed at the end: table, json or csv");
    p.allow_operands();
    p.describe("SCENARIO|PRESET|TEST [options]",
        "Runs the scenario again and again on a modelled machine, each time under another schedule:\n"
        "at every point where a simulated CPU works, spins, yields or waits, another may run instead,\n"
        "chosen from the schedule's seed. After each run it checks the page cache (the LRU lists\n"
        "against their counts and flags; every cached page in its file's index, on a list, its\n"
        "flags agreeing with the index's tags, unlocked once the disks are done, its references\n"
        "exactly its holders'; each index's count and walks against a lookup at each offset; every\n"
        "page dirtied written, truncated or dirty still; no frame left isolated, leaked, or free\n"
        "and mapped; every PTE mapping its own file's page) and stops at the first schedule that\n"
        "breaks one, or whose run fails or never ends, printing its seed and the commands that\n"
        "replay it. A scenario on this computer's threads is explored on the modelled epyc-2026.\n"
        "Coverage is counted in distinct orders of the lock acquisitions (which CPU took which\n"
        "lock, in turn).\n"
        "TEST is one of core's race tests (--list-tests), run from its test program with each\n"
        "schedule: the test's own checks decide, and its message is printed for a schedule that\n"
        "breaks it. Each seed is one schedule on any computer.",
        "exit codes: 0 every schedule held, 1 a schedule broke an invariant or its run failed (its\n"
        "seed is printed), 2 bad command line or bad scenario, 130 stopped by Ctrl+C");
    return p;
}

/// What one schedule did.
struct Outcome {
    std::vector<std::string> problems; ///< broken invariants, or the run's failure
    std::uint64_t points = 0;
    std::uint64_t fingerprint = 0; ///< the order the CPUs ran in
    std::uint64_t lock_order = 0;  ///< the order they took their locks in
};

/// A first run's bound: far more points than a short run makes.
constexpr std::uint64_t kFirstRunPoints = 20'000'000;

/// A schedule's bound: a hundred times a run's points without change
/// points (random interleaves more, and its spinners take more steps).
std::uint64_t points_bound(std::uint64_t k)
{
    return std::max<std::uint64_t>(2'000'000, 100 * k);
}

Outcome run_schedule(const Scenario& s, std::uint64_t max_points, RunResult* shown = nullptr)
{
    Outcome o;
    RunOptions options;
    options.max_scheduling_points = max_points;
    options.cancel = &interrupted(); // Ctrl+C ends the schedule under way
    options.at_end = [&](Engine& engine) { o.problems = audit_page_cache(engine); };
    try {
        RunResult r = run_scenario(s, options);
        if (r.state == "failed")
            o.problems.insert(o.problems.begin(), "the run failed: " + r.error);
        o.points = r.scheduling_points;
        o.fingerprint = r.schedule_fingerprint;
        o.lock_order = r.lock_order;
        if (shown)
            *shown = std::move(r);
    } catch (const std::exception& e) {
        // A deadlock, or an exception a CPU threw (an assertion of core).
        o.problems.insert(o.problems.begin(), std::string("the run stopped: ") + e.what());
    }
    return o;
}

/// The exploration's own fields, after the user's.
std::vector<std::string> exploration_overrides(const ArgParser& p, const Scenario& given, std::uint64_t k)
{
    std::vector<std::string> o;
    if (!given.engine.machine.is_modelled())
        o.push_back(std::string("machine.profile=") + kDefaultMachine);
    o.push_back("machine.schedule=" + p.get_string("strategy"));
    if (p.get_string("strategy") == "pct") {
        o.push_back("machine.pct_depth=" + std::to_string(p.get_uint("depth")));
        o.push_back("machine.pct_steps=" + std::to_string(k));
    }
    if (given.engine.workload.operations_per_cpu > p.get_uint("ops"))
        o.push_back("workload.operations_per_cpu=" + std::to_string(p.get_uint("ops")));
    return o;
}

/// The user's overrides of the scenario: --set's, and --machine's.
std::vector<std::string> user_sets(const ArgParser& p)
{
    std::vector<std::string> sets = p.get_list("set");
    if (p.given("machine"))
        sets.push_back("machine.profile=" + p.get_string("machine"));
    return sets;
}

/// The `run` command line of schedule @seed, whose --out writes its events,
/// trace and report.
std::string run_command(const ArgParser& p, const std::vector<std::string>& overrides, std::uint64_t seed)
{
    std::string run = std::string(kProgram) + " run " + shell_quote(p.operands()[0]);
    for (const std::string& o : overrides)
        run += " --set " + shell_quote(o);
    return run + " --set machine.schedule_seed=" + std::to_string(seed) + " --out DIR";
}

/// `explore --replay` and `run` command lines for schedule @seed.
std::string replay_commands(const ArgParser& p, const std::vector<std::string>& overrides, std::uint64_t seed)
{
    const std::string run = run_command(p, overrides, seed);
    std::string again = std::string(kProgram) + " explore " + shell_quote(p.operands()[0]);
    for (const std::string& o : user_sets(p))
        again += " --set " + shell_quote(o);
    again += " --strategy " + p.get_string("strategy") + " --depth " + std::to_string(p.get_uint("depth")) + " --ops "
        + std::to_string(p.get_uint("ops")) + " --replay " + std::to_string(seed);
    return "  " + again + "\n  " + run + "    (its events, trace and report)\n";
}

} // namespace

int run_explore_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p = make_explore_parser();
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& a) {
            check_format(a.get_string("format"));
            if (!sched::parse_strategy(a.get_string("strategy")) || a.get_string("strategy") == "virtual_time")
                throw ArgError("--strategy: expected random or pct, got '" + a.get_string("strategy") + "'");
            check_overrides(a);
            if (a.given("list-tests") && !a.operands().empty())
                throw ArgError("--list-tests takes no scenario or test");
            if (!a.given("list-tests") && a.operands().size() != 1)
                throw ArgError(a.operands().empty() ? "explore what? (a scenario file, a preset or a race test)"
                                                    : "unexpected argument '" + a.operands()[1] + "'");
        }))
        return *code;
    if (p.given("list-tests"))
        return list_race_tests(p, out, err);
    // A file or a preset is a scenario; any other name, a race test of
    // core's test suite if its programs hold one.
    if (const std::string& operand = p.operands()[0]; !std::filesystem::exists(operand)) {
        std::string not_scenario;
        try {
            load_scenario_source(operand);
        } catch (const std::exception& e) {
            not_scenario = e.what();
        }
        if (!not_scenario.empty()) {
            std::optional<RaceTest> test;
            try {
                test = find_race_test(p, operand);
            } catch (const std::exception& e) {
                err << kProgram << " explore: " << e.what() << '\n';
                return 2;
            }
            if (!test) {
                err << kProgram << " explore: " << not_scenario << "; nor is it a race test of core ("
                    << (test_programs_dir(p).empty() ? "none here: core's test programs are in a build tree, --tests"
                                                     : "'explore --list-tests' lists them")
                    << ")\n";
                return 2;
            }
            if (!p.get_list("set").empty()) {
                err << kProgram << " explore: a test has no scenario to --set; --machine names its machine\n";
                return 2;
            }
            const std::string machine = p.given("machine") ? p.get_string("machine") : kDefaultMachine;
            try {
                sched::load_machine_profile(machine);
            } catch (const std::exception& e) {
                err << kProgram << " explore: --machine: " << e.what() << '\n';
                return 2;
            }
            return explore_race_test(p, *test, machine, out, err);
        }
    }
    const std::string& format = p.get_string("format");
    std::ostream& notes = notes_stream(format, out, err);

    // The scenario as given, then as explored: on a modelled machine and
    // short; each schedule as `run` replays it (the event stream as the
    // scenario has it), and for pct k measured on a first run without
    // change points, the event stream off.
    std::vector<std::string> overrides;
    Scenario base;
    Scenario first_run;
    bool on_threads = false;
    try {
        const ScenarioSource source = load_scenario_source(p.operands()[0]);
        const Scenario given = build_scenario(source, user_sets(p));
        on_threads = !given.engine.machine.is_modelled();
        std::vector<std::string> first = user_sets(p);
        for (const std::string& o : exploration_overrides(p, given, 1))
            first.push_back(o);
        first.push_back("events.enabled=false");
        first.push_back("machine.pct_depth=1");
        first.push_back("machine.schedule=pct");
        first_run = build_scenario(source, first);
        overrides = user_sets(p);
        for (const std::string& o : exploration_overrides(p, given, 1))
            overrides.push_back(o);
        base = build_scenario(source, overrides);
    } catch (const std::exception& e) {
        err << kProgram << " explore: " << e.what() << '\n';
        return 2;
    }
    if (on_threads)
        notes << "this computer's threads cannot be explored: exploring on the modelled " << kDefaultMachine << '\n';
    // pct's k: the points of a run without change points, bounded so that
    // one which never ends says so.
    // A first run that fails (out of memory in every schedule, say) still
    // measured k: the schedules say what is wrong. One that never ended did not.
    const Outcome calibration = run_schedule(first_run, kFirstRunPoints);
    if (calibration.points == 0 && !calibration.problems.empty()) {
        err << kProgram << " explore: its first run, on one pct schedule without change points (seed "
            << first_run.engine.workload.seed << "), broke: " << calibration.problems.front() << '\n';
        return 1;
    }
    const std::uint64_t k = std::max<std::uint64_t>(1, calibration.points);
    if (base.engine.machine.schedule == sched::ScheduleStrategy::Pct) {
        base.engine.machine.pct_steps = std::min(k, MachineSpec::kMaxPctSteps);
        for (std::string& o : overrides)
            if (o.starts_with("machine.pct_steps="))
                o = "machine.pct_steps=" + std::to_string(base.engine.machine.pct_steps);
    }

    if (p.given("replay")) {
        Scenario s = base;
        s.engine.machine.schedule_seed = p.get_uint("replay");
        RunResult r;
        const Outcome o = run_schedule(s, points_bound(k), &r);
        if (format == "table") {
            out << "schedule " << p.get_uint("replay") << " of " << p.get_string("strategy") << ": "
                << (o.problems.empty() ? "every invariant holds" : "broken") << '\n';
            for (const std::string& problem : o.problems)
                out << "  " << problem << '\n';
            out << "its run, with its events, trace and report:\n  " << run_command(p, overrides, p.get_uint("replay"))
                << '\n';
        } else {
            // The data alone on stdout, as every command's json and csv.
            Report table({ "scenario", "machine", "strategy", "depth", "seed", "points", "problems" });
            table.add_row();
            table.set("scenario", p.operands()[0]);
            table.set("machine", base.engine.machine.profile);
            table.set("strategy", p.get_string("strategy"));
            if (p.get_string("strategy") == "pct")
                table.set("depth", p.get_uint("depth"));
            else
                table.set_missing("depth");
            table.set("seed", p.get_uint("replay"));
            table.set("points", r.scheduling_points);
            table.set("problems", std::uint64_t(o.problems.size()));
            print_table(out, table, format);
            for (const std::string& problem : o.problems)
                err << "schedule " << p.get_uint("replay") << ": " << problem << '\n';
        }
        return o.problems.empty() ? 0 : 1;
    }

    install_interrupt_handler();
    const std::uint64_t n = p.get_uint("schedules");
    const std::uint64_t first_seed = p.get_uint("seed");
    // Coverage: the distinct orders in which the CPUs took their locks
    // (two schedules that switched at other points but took every lock in
    // the same order explored the same interleaving of what the locks
    // order), and of the CPUs themselves.
    std::unordered_set<std::uint64_t> lock_orders;
    std::unordered_set<std::uint64_t> task_orders;
    std::uint64_t done = 0;
    std::optional<std::uint64_t> broken_seed;
    Outcome broken;
    using Clock = std::chrono::steady_clock; // the person waits in host time
    const Clock::time_point start = Clock::now();
    Clock::time_point last_note = start;
    const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    for (std::uint64_t i = 0; i < n && !interrupted().load(); ++i) {
        Scenario s = base;
        s.engine.machine.schedule_seed = first_seed + i;
        Outcome o = run_schedule(s, points_bound(k));
        if (interrupted().load())
            break; // cut short: neither held nor broken
        ++done;
        lock_orders.insert(o.lock_order);
        task_orders.insert(o.fingerprint);
        if (!o.problems.empty()) {
            broken_seed = first_seed + i;
            broken = std::move(o);
            break;
        }
        if (Clock::now() - last_note > std::chrono::seconds(2)) {
            last_note = Clock::now();
            err << "explored " << done << " of " << n << " schedules (" << fixed(double(done) / seconds(), 1)
                << " a second), " << lock_orders.size() << " distinct orders of the lock acquisitions; every "
                << "invariant held\n";
        }
    }
    const double took = seconds();

    const std::string strategy = p.get_string("strategy");
    Report table({ "scenario", "machine", "strategy", "depth", "points_per_run", "schedules", "lock_orders",
        "cpu_orders", "schedules_per_second", "broken_seed" });
    table.add_row();
    table.set("scenario", p.operands()[0]);
    table.set("machine", base.engine.machine.profile);
    table.set("strategy", strategy);
    if (strategy == "pct")
        table.set("depth", p.get_uint("depth"));
    else
        table.set_missing("depth");
    table.set("points_per_run", k);
    table.set("schedules", done);
    table.set("lock_orders", std::uint64_t(lock_orders.size()));
    table.set("cpu_orders", std::uint64_t(task_orders.size()));
    table.set("schedules_per_second", double(done) / std::max(took, 1e-9), 1);
    if (broken_seed)
        table.set("broken_seed", *broken_seed);
    else
        table.set_missing("broken_seed");
    if (format == "table") {
        out << "Explored " << p.operands()[0] << " on the modelled " << base.engine.machine.profile << " under "
            << strategy << (strategy == "pct" ? " (depth " + std::to_string(p.get_uint("depth")) + ")" : std::string())
            << ", " << with_commas(k) << " scheduling points a run: " << done << " schedule" << (done == 1 ? "" : "s")
            << ", " << lock_orders.size() << " distinct order" << (lock_orders.size() == 1 ? "" : "s")
            << " of the lock acquisitions (" << task_orders.size() << " of the CPUs), "
            << fixed(double(done) / std::max(took, 1e-9), 1) << " a second.\n";
        if (broken_seed) {
            out << "Schedule " << *broken_seed << " breaks the page cache:\n";
            for (const std::string& problem : broken.problems)
                out << "  " << problem << '\n';
            out << "Replay it with\n" << replay_commands(p, overrides, *broken_seed);
        } else {
            out << "Every invariant held after every schedule.\n";
        }
    } else {
        print_table(out, table, format);
        if (broken_seed) {
            for (const std::string& problem : broken.problems)
                err << "schedule " << *broken_seed << ": " << problem << '\n';
            err << "replay it with\n" << replay_commands(p, overrides, *broken_seed);
        }
    }
    if (broken_seed)
        return 1;
    if (interrupted().load()) {
        err << "stopped by Ctrl+C after " << done << " of " << n << " schedules\n";
        return kInterruptedExit;
    }
    return 0;
}

} // namespace pcl::cli
