// pagecache-lab-cli: Page Cache Lab without a display.
//
// Dispatches `bench <name> [options]` to the benchmark commands of bench/
// (each parses its own options, see bench/bench_args.h) and prints usage and
// version. Exit codes: 0 success, 1 failure while running, 2 bad command line.
#include "bench_args.h"
#include "engine_bench.h"
#include "index_bench.h"
#include "lock_bench.h"
#include "seed003_bench.h"

#include <exception>
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

void print_usage(std::ostream& out)
{
    out << "usage: " << kProgram << " <command> [options]\n"
        << "       " << kProgram << " --help | --version\n\n"
        << "Page Cache Lab, headless: runs the benchmarks, prints tables and writes CSV.\n\n";
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
