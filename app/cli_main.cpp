// pagecache-lab-cli: Page Cache Lab without a display.
//
// Runs a scenario file (`run`), dispatches `bench <name> [options]` to the
// benchmark commands of bench/ and `probe <name> [options]` to the probes of
// the host kernel (each parses its own options, see bench/bench_args.h) and
// prints usage and version. Exit codes: 0 success, 1 failure while running
// (or a probe that cannot measure), 2 bad command line or bad scenario.
#include "engine_bench.h"
#include "index_bench.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/report.h"
#include "lock_bench.h"
#include "mm/readahead.h"
#include "probe/readahead_probe.h"
#include "readahead_bench.h"
#include "seed003_bench.h"
#include "sim/run_summary.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <algorithm>
#include <exception>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

namespace {

using pcl::kProgram;

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
        << "                            with mm->page_table_lock against split PTE locks\n"
        << "  bench readahead [options] Morton's readahead-thrashing test (seed 001) swept over N files with\n"
        << "                            ondemand, morton and no readahead; trace replay speed\n";
}

void print_probe_commands(std::ostream& out)
{
    out << "probes of the running kernel:\n"
        << "  probe readahead [--file F] [--pattern seq|random|backward|stride:N] [--reads N] [--csv FILE]\n"
        << "                            the host's real readahead windows (posix_fadvise DONTNEED, one-page\n"
        << "                            reads, mincore), in the simulator's readahead format\n";
}

void print_run_usage(std::ostream& out)
{
    out << "usage: " << kProgram
        << " run SCENARIO.json [--set PATH=VALUE]... [--json FILE] [--readahead-log FILE] [--progress]\n\n"
        << "Runs the scenario headless, then prints a summary (operations, faults by kind, page-cache hit\n"
        << "ratio, insert races, PTE back-outs, page-lock waits, I/O, events) and lockstat-style tables of\n"
        << "the named locks and the lock classes, sorted by contentions (times in microseconds).\n\n"
        << "options:\n"
        << "  --set PATH=VALUE  override a field of the scenario before it is checked, e.g.\n"
        << "                    --set workload.cpus=4 --set index.kind=hash --set duration_seconds=2;\n"
        << "                    VALUE is read as JSON when it is JSON, as a string otherwise (repeatable)\n"
        << "  --json FILE       also write the whole result (totals, lock tables, latency histograms,\n"
        << "                    metrics time series) as JSON to FILE, atomically\n"
        << "  --readahead-log FILE  write every readahead window as CSV to FILE, atomically:\n"
        << "                    time_us,cpu,file,start,size,async_size,kind,rule (kind sync or async;\n"
        << "                    time from the run's first event)\n"
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
    out << '\n';
    print_probe_commands(out);
    out << "\noptions of bench indexes:\n"
        << pcl::bench::index_bench_usage() << "\noptions of bench locks:\n"
        << pcl::bench::lock_bench_usage() << "\noptions of probe readahead:\n"
        << pcl::probe_readahead_usage() << "\nglobal options:\n"
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
        return usage_error("bench: which benchmark? (indexes, locks, seed003, engine, readahead)");
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
    if (name == "readahead")
        return pcl::bench::run_readahead_bench(rest, std::cout, std::cerr);
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

int run_probe(const std::vector<std::string>& args)
{
    if (args.empty())
        return usage_error("probe: which probe? (readahead)");
    const std::string& name = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (name == "readahead")
        return pcl::run_probe_readahead(rest, std::cout, std::cerr);
    if (name == "--help" || name == "-h") {
        if (!rest.empty())
            return usage_error("probe --help: unexpected argument '" + rest[0] + "'");
        std::cout << "usage: " << kProgram << " probe <probe> [options]\n\n";
        print_probe_commands(std::cout);
        std::cout << "\n'" << kProgram << " probe <probe> --help' lists a probe's options.\n";
        return 0;
    }
    if (name.rfind("-", 0) == 0)
        return usage_error("probe: unknown option '" + name + "'");
    return usage_error("probe: unknown probe '" + name + "' (readahead)");
}

// ---------------------------------------------------------------------------
// run

int run_usage_error(const std::string& message)
{
    std::cerr << kProgram << " run: " << message << '\n' << "Try '" << kProgram << " run --help' for the options.\n";
    return 2;
}

int run_command(const std::vector<std::string>& args)
{
    std::string path, json_path, ra_log_path;
    std::vector<std::string> overrides;
    bool progress = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        // --name VALUE or --name=VALUE
        auto value_of = [&](const std::string& name, std::string& value) {
            if (a == name) {
                if (i + 1 >= args.size())
                    throw pcl::ArgError(name + ": missing value");
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
                    throw pcl::ArgError("--set: expected PATH=VALUE, got '" + value + "'");
                overrides.push_back(value);
            } else if (value_of("--json", value)) {
                if (value.empty())
                    throw pcl::ArgError("--json: missing file name");
                json_path = value;
            } else if (value_of("--readahead-log", value)) {
                if (value.empty())
                    throw pcl::ArgError("--readahead-log: missing file name");
                ra_log_path = value;
            } else if (a.rfind("-", 0) == 0 && a != "-") {
                throw pcl::ArgError("unknown option '" + a + "'");
            } else if (path.empty()) {
                path = a;
            } else {
                throw pcl::ArgError("unexpected argument '" + a + "' (one scenario file per run)");
            }
        } catch (const pcl::ArgError& e) {
            return run_usage_error(e.what());
        }
    }
    if (path.empty())
        return run_usage_error("which scenario? (run SCENARIO.json)");
    try {
        if (!json_path.empty())
            pcl::check_writable_path(json_path, "--json");
        if (!ra_log_path.empty())
            pcl::check_writable_path(ra_log_path, "--readahead-log");
    } catch (const pcl::ArgError& e) {
        return run_usage_error(e.what());
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
        // A trace the scenario names is relative to the scenario file.
        const std::size_t slash = path.find_last_of('/');
        scenario = pcl::scenario_from_json(doc, slash == std::string::npos ? std::string(".") : path.substr(0, slash));
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
    // Every readahead window, as the events bring them.
    std::string ra_log = "time_us,cpu,file,start,size,async_size,kind,rule\n";
    std::uint64_t ra_windows = 0, ra_origin_ns = 0;
    if (!ra_log_path.empty())
        options.events = [&](const std::vector<pcl::Event>& batch) {
            for (const pcl::Event& e : batch) {
                if (!ra_origin_ns)
                    ra_origin_ns = e.time_ns;
                if (e.kind != pcl::EventKind::ReadaheadWindow)
                    continue;
                ++ra_windows;
                ra_log += std::to_string(e.time_ns > ra_origin_ns ? (e.time_ns - ra_origin_ns) / 1000 : 0) + ","
                    + std::to_string(e.cpu) + "," + std::to_string(e.file) + "," + std::to_string(e.index) + ","
                    + std::to_string(e.arg0) + "," + std::to_string(e.arg1) + "," + (e.object ? "async" : "sync") + ","
                    + pcl::ra_rule_name(static_cast<pcl::RaRule>(e.detail)) + "\n";
            }
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
    pcl::print_run_summary(std::cout, result, path);

    int rc = result.state == "failed" ? 1 : 0;
    if (rc)
        std::cerr << kProgram << " run: the run failed: " << result.error << '\n';
    if (!ra_log_path.empty()) {
        try {
            pcl::write_file_atomically(ra_log_path, ra_log);
            std::cout << "\n" << ra_windows << " readahead windows written to " << ra_log_path << '\n';
            if (result.events_dropped)
                std::cerr << kProgram << " run: the event rings dropped " << result.events_dropped
                          << " records (an unpaced run outran the reader); windows among them are missing from "
                          << ra_log_path << ": set pacing.ops_per_second or events.ring_capacity to keep them all\n";
        } catch (const std::exception& e) {
            std::cerr << kProgram << " run: " << e.what() << '\n';
            rc = 1;
        }
    }
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
    if (command == "probe")
        return run_probe(std::vector<std::string>(args.begin() + 1, args.end()));
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
