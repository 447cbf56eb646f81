// Runs one of the kernel's radix-tree tests (tools/testing/radix-tree of
// linux-source-6.12, the file's own test function, as main.c there calls it)
// against RadixTree under each locking scheme, each in a child process of
// its own: the tests keep their trees in static variables, so every scheme
// starts from fresh ones, and a failing assertion names its scheme.
//
//   kernel_radix_tree TEST [--scheme NAME]... [--seconds N] [-v]...
//
// TEST: tag_check, regression1, regression2, regression4, iteration_check,
// iteration_check_2. --seconds: how long the timed tests (iteration_check,
// iteration_check_2) run each scheme (main.c: 10, or 100 with -l).
#include "radix_tree_adapter.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern "C" {
// The kernel tests' entry points (tools/testing/radix-tree/test.h, regression.h).
void tag_check(void);
void regression1_test(void);
void regression2_test(void);
void regression4_test(void);
void iteration_test(unsigned order, unsigned duration);
void iteration_test2(unsigned duration);
void pcl_rcu_register_thread(void);
void pcl_rcu_barrier(void);
extern int test_verbose;
}

int test_verbose;

namespace {

using pcl::RadixTree;

void run(std::string_view test, unsigned seconds)
{
    if (test == "tag_check")
        tag_check();
    else if (test == "regression1")
        regression1_test();
    else if (test == "regression2")
        regression2_test();
    else if (test == "regression4")
        regression4_test();
    else if (test == "iteration_check")
        iteration_test(0, seconds); // order 0: RadixTree has no multi-order entries
    else if (test == "iteration_check_2")
        iteration_test2(seconds);
}

bool known(std::string_view test)
{
    for (std::string_view name :
        { "tag_check", "regression1", "regression2", "regression4", "iteration_check", "iteration_check_2" })
        if (test == name)
            return true;
    return false;
}

int usage()
{
    std::fprintf(stderr,
        "usage: kernel_radix_tree TEST [--scheme NAME]... [--seconds N] [-v]...\n"
        "TEST: tag_check, regression1, regression2, regression4, iteration_check, iteration_check_2\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2 || !known(argv[1]))
        return usage();
    const std::string test = argv[1];
    std::vector<RadixTree::Scheme> schemes;
    unsigned seconds = 1;
    for (int i = 2; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--scheme" && i + 1 < argc) {
            try {
                schemes.push_back(RadixTree::parse_scheme(argv[++i]));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "%s\n", e.what());
                return 2;
            }
        } else if (arg == "--seconds" && i + 1 < argc) {
            seconds = unsigned(std::strtoul(argv[++i], nullptr, 10));
        } else if (arg == "-v") {
            ++test_verbose;
        } else {
            return usage();
        }
    }
    if (schemes.empty())
        schemes = { RadixTree::Scheme::Spinlock, RadixTree::Scheme::RwLock, RadixTree::Scheme::Rcu,
            RadixTree::Scheme::PerNode, RadixTree::Scheme::Optimistic };

    int failed = 0;
    for (RadixTree::Scheme scheme : schemes) {
        const std::string name(RadixTree::scheme_name(scheme));
        std::fflush(stdout);
        const auto start = std::chrono::steady_clock::now();
        const pid_t child = fork();
        if (child < 0) {
            std::perror("fork");
            return 1;
        }
        if (child == 0) {
            pcl::kernel_test::use_scheme(scheme);
            // As main.c does before any test.
            pcl_rcu_register_thread();
            run(test, seconds);
            pcl_rcu_barrier();
            std::fflush(stdout);
            std::exit(0);
        }
        int status = 0;
        if (waitpid(child, &status, 0) < 0) {
            std::perror("waitpid");
            return 1;
        }
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            std::printf("%s under %s: passed (%.2f s)\n", test.c_str(), name.c_str(), took);
        } else {
            ++failed;
            if (WIFSIGNALED(status))
                std::printf("%s under %s: FAILED, signal %d (%s) after %.2f s\n", test.c_str(), name.c_str(),
                    WTERMSIG(status), strsignal(WTERMSIG(status)), took);
            else
                std::printf("%s under %s: FAILED, exit %d after %.2f s\n", test.c_str(), name.c_str(),
                    WEXITSTATUS(status), took);
        }
    }
    return failed ? 1 : 0;
}
