#include "cli_progress.h"

#include <algorithm>
#include <csignal>
#include <ostream>

namespace pcl::cli {

namespace {

std::atomic<bool> g_interrupted { false };

extern "C" void on_interrupt(int)
{
    // The second Ctrl+C is the user insisting: the default action ends us.
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

std::atomic<bool>& interrupted()
{
    return g_interrupted;
}

void install_interrupt_handler()
{
    std::signal(SIGINT, on_interrupt);
}

double run_fraction(const Scenario& scenario, const MetricsSample& sample, std::uint64_t operations_so_far)
{
    if (scenario.duration_seconds > 0)
        return std::clamp(sample.time_s / scenario.duration_seconds, 0.0, 1.0);
    const double total = double(scenario.engine.workload.cpus) * double(scenario.engine.workload.operations_per_cpu);
    return total > 0 ? std::clamp(double(operations_so_far) / total, 0.0, 1.0) : 0.0;
}

} // namespace pcl::cli
