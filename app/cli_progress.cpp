#include "cli_progress.h"

#include "lib/scratch_paths.h"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <ostream>

#include <unistd.h>

namespace pcl::cli {

namespace {

std::atomic<bool> g_interrupted { false };
std::atomic<int> g_interrupts { 0 };
bool g_abort_at_once = false;
bool g_stderr_terminal = false;

/// write(2) of a literal to stderr, as a signal handler may.
template <std::size_t N> void say(const char (&text)[N]) noexcept
{
    const ssize_t n = ::write(STDERR_FILENO, text, N - 1);
    (void)n;
}

/// CLOCK_MONOTONIC in ns, as a signal handler may read it.
std::int64_t monotonic_ns() noexcept
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// The first Ctrl+C's time. `timeout -s INT` signals the command and then
/// its whole process group, so one timeout arrives twice, microseconds
/// apart; no person presses Ctrl+C twice within this.
std::atomic<std::int64_t> g_first_ns { 0 };
constexpr std::int64_t kSameInterruptNs = 100'000'000;

extern "C" void on_interrupt(int)
{
    // The first Ctrl+C asks the command to stop and write what finished;
    // it says so at once, since writing can take a while. The second (or
    // the first, for a command with nothing to finish) is the user
    // insisting: what is half written goes, and the program ends.
    if (!g_abort_at_once) {
        if (g_interrupts.fetch_add(1) == 0) {
            g_first_ns.store(monotonic_ns());
            g_interrupted.store(true);
            if (g_stderr_terminal)
                say("\n");
            say("stopping: writing what finished (Ctrl+C again to abort)\n");
            return;
        }
        // The same interrupt again, or one arriving on another thread
        // while the first's handler has not yet noted its time.
        const std::int64_t first = g_first_ns.load();
        if (first == 0 || monotonic_ns() - first < kSameInterruptNs)
            return;
    }
    if (g_stderr_terminal)
        say("\n");
    if (g_abort_at_once)
        say("stopped by Ctrl+C; its scratch files are removed\n");
    else
        say("aborted: nothing more is written, and what was half written is removed\n");
    remove_scratch_paths();
    ::_exit(kInterruptedExit);
}

} // namespace

std::atomic<bool>& interrupted()
{
    return g_interrupted;
}

void install_interrupt_handler(Interrupt mode)
{
    g_abort_at_once = mode == Interrupt::Abort;
    g_stderr_terminal = ::isatty(STDERR_FILENO) == 1;
    struct sigaction sa { };
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &sa, nullptr);
}

double run_fraction(const Scenario& scenario, const MetricsSample& sample, std::uint64_t operations_so_far)
{
    if (scenario.duration_seconds > 0)
        return std::clamp(sample.time_s / scenario.duration_seconds, 0.0, 1.0);
    const double total = double(scenario.engine.workload.cpus) * double(scenario.engine.workload.operations_per_cpu);
    return total > 0 ? std::clamp(double(operations_so_far) / total, 0.0, 1.0) : 0.0;
}

} // namespace pcl::cli
