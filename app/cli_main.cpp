// pagecache-lab-cli: Page Cache Lab without a display.
//
// Runs a scenario file (`run`), dispatches `bench <name> [options]` to the
// benchmark commands of bench/ (each parses its own options, see
// bench/bench_args.h) and prints usage and version. Exit codes: 0 success,
// 1 failure while running, 2 bad command line or bad scenario.
#include "bench_args.h"
#include "engine_bench.h"
#include "index_bench.h"
#include "lock_bench.h"
#include "report.h"
#include "seed003_bench.h"
#include "sim/file_io.h"
#include "sim/json.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <algorithm>
#include <exception>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

namespace {

using pcl::bench::kProgram;

void print_bench_commands(std::ostream& out)
{
    out << "benchmarks:\n"
        << "  bench indexes [options]   every page index x locking scheme and the peer libraries: insert,\n"
        << "                            lookup (hit, miss), gang lookup, erase; concurrent lookups at 1..T threads\n"
        << "  bench locks [options]     cost of lockstat-style instrumentation: bare lock vs instrumented,\n"
        << "                            uncontended and with T threads on one lock\n"
        << "  bench seed003 [--scale F] [--shift S] [--csv FILE]\n"
        << "                            seed 003's concurrent radix tree benchmark (2 threads, one tree);\n"
        << "                            'bench seed003 --help' describes its options\n"
        << "  bench engine [--pages N] [--max-threads T] [--csv FILE]\n"
        << "                            minor faults per second on one CPU, and seed 002's pft sweep\n"
        << "                            with mm->page_table_lock against split PTE locks\n";
}

void print_run_usage(std::ostream& out)
{
    out << "usage: " << kProgram << " run SCENARIO.json [--set PATH=VALUE]... [--json FILE] [--progress]\n\n"
        << "Runs the scenario headless, then prints a summary (operations, faults by kind, page-cache hit\n"
        << "ratio, insert races, PTE back-outs, page-lock waits, I/O, events) and lockstat-style tables of\n"
        << "the named locks and the lock classes, sorted by contentions (times in microseconds).\n\n"
        << "options:\n"
        << "  --set PATH=VALUE  override a field of the scenario before it is checked, e.g.\n"
        << "                    --set workload.cpus=4 --set index.kind=hash --set duration_seconds=2;\n"
        << "                    VALUE is read as JSON when it is JSON, as a string otherwise (repeatable)\n"
        << "  --json FILE       also write the whole result (totals, lock tables, latency histograms,\n"
        << "                    metrics time series) as JSON to FILE, atomically\n"
        << "  --progress        print one line per metrics sample on stderr while running\n"
        << "  -h, --help        show this help\n\n"
        << "exit codes: 0 the run finished or reached its duration, 1 the run failed (the engine's\n"
        << "error is printed), 2 bad command line or bad scenario (the message names the field)\n";
}

void print_usage(std::ostream& out)
{
    out << "usage: " << kProgram << " <command> [options]\n"
        << "       " << kProgram << " --help | --version\n\n"
        << "Page Cache Lab, headless: runs scenarios and benchmarks, prints tables and writes JSON and CSV.\n\n"
        << "commands:\n"
        << "  run SCENARIO.json [--set PATH=VALUE]... [--json FILE]\n"
        << "                            run a scenario file and print its summary and lock tables;\n"
        << "                            'run --help' describes its options\n\n";
    print_bench_commands(out);
    out << "\noptions of bench indexes:\n"
        << pcl::bench::index_bench_usage() << "\noptions of bench locks:\n"
        << pcl::bench::lock_bench_usage() << "\nglobal options:\n"
        << "  -h, --help   show this help\n"
        << "  --version    print the version\n";
}

int usage_error(const std::string& message)
{
    std::cerr << kProgram << ": " << message << '\n' << "Try '" << kProgram << " --help' for the commands.\n";
    return 2;
}

int run_bench(const std::vector<std::string>& args)
{
    if (args.empty())
        return usage_error("bench: which benchmark? (indexes, locks, seed003, engine)");
    const std::string& name = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (name == "indexes")
        return pcl::bench::run_index_bench(rest, std::cout, std::cerr);
    if (name == "locks")
        return pcl::bench::run_lock_bench(rest, std::cout, std::cerr);
    if (name == "seed003")
        return pcl::bench::run_seed003(rest, std::cout, std::cerr);
    if (name == "engine")
        return pcl::bench::run_engine_bench(rest, std::cout, std::cerr);
    if (name == "--help" || name == "-h") {
        if (!rest.empty())
            return usage_error("bench --help: unexpected argument '" + rest[0] + "'");
        std::cout << "usage: " << kProgram << " bench <benchmark> [options]\n\n";
        print_bench_commands(std::cout);
        std::cout << "\n'" << kProgram << " bench <benchmark> --help' lists a benchmark's options.\n";
        return 0;
    }
    if (name.rfind("-", 0) == 0)
        return usage_error("bench: unknown option '" + name + "'");
    return usage_error("bench: unknown benchmark '" + name + "' (indexes, locks, seed003, engine)");
}

// ---------------------------------------------------------------------------
// run

int run_usage_error(const std::string& message)
{
    std::cerr << kProgram << " run: " << message << '\n' << "Try '" << kProgram << " run --help' for the options.\n";
    return 2;
}

std::string with_commas(std::uint64_t v)
{
    std::string digits = std::to_string(v);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string micros(std::uint64_t ns)
{
    return pcl::bench::fixed(double(ns) / 1e3, 2);
}

/// A lockstat-style table (the columns of /proc/lock_stat, times in µs),
/// rows sorted by contentions, then acquisitions; rows never acquired are left out.
void print_lock_table(std::ostream& out, std::vector<pcl::sync::LockStatRow> rows, bool classes)
{
    std::erase_if(rows, [](const auto& r) { return r.acquisitions == 0; });
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.contentions != b.contentions ? a.contentions > b.contentions : a.acquisitions > b.acquisitions;
    });
    std::vector<std::string> columns;
    if (classes)
        columns = { "class", "locks" };
    else
        columns = { "name", "class" };
    for (const char* c :
        { "con-bounces", "contentions", "waittime-min", "waittime-max", "waittime-total", "waittime-avg", "acq-bounces",
            "acquisitions", "holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg" })
        columns.emplace_back(c);
    pcl::bench::Report table(columns);
    for (const auto& r : rows) {
        table.add_row();
        if (classes) {
            table.set("class", r.name);
            table.set("locks", r.instances);
        } else {
            table.set("name", r.name);
            table.set("class", r.lock_class);
        }
        table.set("con-bounces", r.con_bounces);
        table.set("contentions", r.contentions);
        table.set("waittime-min", micros(r.wait_min_ns));
        table.set("waittime-max", micros(r.wait_max_ns));
        table.set("waittime-total", micros(r.wait_total_ns));
        table.set("waittime-avg", pcl::bench::fixed(r.wait_avg_ns() / 1e3, 2));
        table.set("acq-bounces", r.acq_bounces);
        table.set("acquisitions", r.acquisitions);
        table.set("holdtime-min", micros(r.hold_min_ns));
        table.set("holdtime-max", micros(r.hold_max_ns));
        table.set("holdtime-total", micros(r.hold_total_ns));
        table.set("holdtime-avg", pcl::bench::fixed(r.hold_avg_ns() / 1e3, 2));
    }
    if (rows.empty())
        out << "  (none taken)\n";
    else
        table.print(out);
}

void print_summary(std::ostream& out, const pcl::RunResult& r, const std::string& path)
{
    using pcl::FaultKind;
    auto line = [&out](const char* key, const std::string& value) {
        out << "  " << std::left << std::setw(14) << key << value << '\n';
    };
    const pcl::Scenario& sc = r.scenario;
    out << "scenario " << (sc.title.empty() ? path : sc.title);
    if (sc.year || !sc.source.empty()) {
        out << " (";
        if (sc.year)
            out << sc.year << (sc.source.empty() ? "" : ", ");
        out << sc.source << ")";
    }
    out << '\n';
    const auto& w = sc.engine.workload;
    // pft and mixed choose their own kinds of operation; access is for the others.
    const bool own_access = w.pattern == "pft" || w.pattern == "mixed";
    line("workload",
        w.pattern + (own_access ? "" : " " + w.access) + ", " + std::to_string(w.cpus) + " CPU(s), "
            + with_commas(w.file_pages) + " pages per " + (w.pattern == "pft" ? "region" : "file") + ", index "
            + sc.engine.index.kind + "/" + (sc.engine.index.scheme.empty() ? "default" : sc.engine.index.scheme));
    std::string state = r.state;
    if (r.ended_by == "duration")
        state += " at its duration";
    else if (r.ended_by == "cancelled")
        state += " (cancelled)";
    line("state", state);
    if (!r.error.empty())
        line("error", r.error);
    line("wall time", pcl::bench::fixed(r.wall_seconds, 3) + " s");
    line("operations", with_commas(r.operations) + " (" + with_commas(std::uint64_t(r.operations_per_s())) + " ops/s)");
    line("faults",
        "minor " + with_commas(r.faults_of(FaultKind::Minor)) + ", major " + with_commas(r.faults_of(FaultKind::Major))
            + ", wait_io " + with_commas(r.faults_of(FaultKind::WaitIo)) + ", anon "
            + with_commas(r.faults_of(FaultKind::Anon)) + ", already mapped "
            + with_commas(r.faults_of(FaultKind::Mapped)) + ", fault-around mapped "
            + with_commas(r.fault_around_mapped));
    const auto& pc = r.page_cache;
    line("page cache",
        "lookups " + with_commas(pc.lookups) + ", hits " + with_commas(pc.hits) + " (hit ratio "
            + (pc.lookups ? pcl::bench::fixed(double(pc.hits) / double(pc.lookups), 3) : std::string("-")) + "), adds "
            + with_commas(pc.adds) + ", insert races " + with_commas(pc.insert_races) + ", cached "
            + with_commas(r.pages_cached));
    line("page table", "PTE back-outs " + with_commas(r.pte_backouts) + ", PTEs mapped " + with_commas(r.ptes_mapped));
    line("page lock",
        "waits " + with_commas(r.page_locks.waits) + ", wait time "
            + pcl::bench::fixed(double(r.page_locks.wait_ns) / 1e6, 3) + " ms");
    line("I/O", "requests " + with_commas(r.device_requests) + ", pages read " + with_commas(r.device_pages));
    line("frames", with_commas(r.frames_used) + " of " + with_commas(r.frames_total) + " in use");
    line("events",
        "pushed " + with_commas(r.events_pushed) + ", dropped " + with_commas(r.events_dropped) + ", drained "
            + with_commas(r.events_drained));
    out << "\nlocks (named), by contentions; times in us\n";
    print_lock_table(out, r.locks, false);
    out << "\nlock classes, by contentions; times in us\n";
    print_lock_table(out, r.lock_classes, true);
}

int run_command(const std::vector<std::string>& args)
{
    std::string path, json_path;
    std::vector<std::string> overrides;
    bool progress = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        // --name VALUE or --name=VALUE
        auto value_of = [&](const std::string& name, std::string& value) {
            if (a == name) {
                if (i + 1 >= args.size())
                    throw pcl::bench::ArgError(name + ": missing value");
                value = args[++i];
                return true;
            }
            if (a.rfind(name + "=", 0) == 0) {
                value = a.substr(name.size() + 1);
                return true;
            }
            return false;
        };
        std::string value;
        try {
            if (a == "--help" || a == "-h") {
                print_run_usage(std::cout);
                return 0;
            } else if (a == "--progress") {
                progress = true;
            } else if (value_of("--set", value)) {
                if (value.find('=') == std::string::npos)
                    throw pcl::bench::ArgError("--set: expected PATH=VALUE, got '" + value + "'");
                overrides.push_back(value);
            } else if (value_of("--json", value)) {
                if (value.empty())
                    throw pcl::bench::ArgError("--json: missing file name");
                json_path = value;
            } else if (a.rfind("-", 0) == 0 && a != "-") {
                throw pcl::bench::ArgError("unknown option '" + a + "'");
            } else if (path.empty()) {
                path = a;
            } else {
                throw pcl::bench::ArgError("unexpected argument '" + a + "' (one scenario file per run)");
            }
        } catch (const pcl::bench::ArgError& e) {
            return run_usage_error(e.what());
        }
    }
    if (path.empty())
        return run_usage_error("which scenario? (run SCENARIO.json)");
    if (!json_path.empty()) {
        try {
            pcl::bench::check_writable_path(json_path, "--json");
        } catch (const pcl::bench::ArgError& e) {
            return run_usage_error(e.what());
        }
    }

    pcl::Scenario scenario;
    try {
        std::string text;
        try {
            text = pcl::read_file(path);
        } catch (const std::runtime_error& e) {
            return run_usage_error(e.what());
        }
        pcl::json::Value doc;
        try {
            doc = pcl::json::parse(text);
        } catch (const pcl::json::ParseError& e) {
            return run_usage_error(
                path + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
        }
        for (const auto& o : overrides)
            pcl::apply_override(doc, o);
        scenario = pcl::scenario_from_json(doc);
    } catch (const pcl::ScenarioError& e) {
        return run_usage_error(path + ": " + e.what());
    }

    pcl::RunOptions options;
    if (progress)
        options.progress = [](const pcl::MetricsSample& s) {
            std::cerr << std::fixed << std::setprecision(2) << "t=" << s.time_s << "s  ops/s " << std::setprecision(0)
                      << s.operations_per_s << "  faults/s minor " << s.minor_faults_per_s << " major "
                      << s.major_faults_per_s << " wait_io " << s.wait_io_faults_per_s << " anon "
                      << s.anon_faults_per_s << "  lock wait " << std::setprecision(3) << s.lock_wait_fraction
                      << "  page wait " << s.page_wait_fraction << "  in flight " << s.io_in_flight << "  cached "
                      << s.pages_cached << '\n'
                      << std::defaultfloat;
        };
    pcl::RunResult result;
    try {
        result = pcl::run_scenario(scenario, options);
    } catch (const pcl::ScenarioError& e) {
        return run_usage_error(path + ": " + e.what());
    } catch (const std::invalid_argument& e) {
        // The engine refusing a combination the scenario's own checks let through.
        return run_usage_error(path + ": " + e.what());
    }
    print_summary(std::cout, result, path);

    int rc = result.state == "failed" ? 1 : 0;
    if (rc)
        std::cerr << kProgram << " run: the run failed: " << result.error << '\n';
    if (!json_path.empty()) {
        try {
            pcl::write_file_atomically(json_path, pcl::json::write(pcl::to_json(result)) + "\n");
            std::cout << "\nresult written to " << json_path << '\n';
        } catch (const std::exception& e) {
            std::cerr << kProgram << " run: " << e.what() << '\n';
            rc = 1;
        }
    }
    return rc;
}

int run(const std::vector<std::string>& args)
{
    if (args.empty()) {
        print_usage(std::cerr);
        return 2;
    }
    const std::string& command = args[0];
    if (command == "--help" || command == "-h" || command == "--version") {
        if (args.size() > 1)
            return usage_error("unexpected argument '" + args[1] + "' after " + command);
        if (command == "--version")
            std::cout << kProgram << ' ' << PCL_VERSION << '\n';
        else
            print_usage(std::cout);
        return 0;
    }
    if (command == "run")
        return run_command(std::vector<std::string>(args.begin() + 1, args.end()));
    if (command == "bench")
        return run_bench(std::vector<std::string>(args.begin() + 1, args.end()));
    if (command.rfind("-", 0) == 0)
        return usage_error("unknown option '" + command + "'");
    return usage_error("unknown command '" + command + "'");
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const int rc = run(std::vector<std::string>(argv + 1, argv + argc));
        std::cout.flush();
        if (!std::cout)
            return rc ? rc : 1;
        return rc;
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": " << e.what() << '\n';
        return 1;
    } catch (...) {
        std::cerr << kProgram << ": unexpected error\n";
        return 1;
    }
}
