#include "cli_progress.h"

#include <algorithm>
#include <csignal>
#include <ostream>
#include <unistd.h>

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

ProgressBar::ProgressBar(std::ostream& err, bool enabled)
    : err_(err)
    , enabled_(enabled)
    , start_(std::chrono::steady_clock::now())
    , last_(start_)
{
}

ProgressBar::~ProgressBar()
{
    finish();
}

bool ProgressBar::stderr_is_terminal()
{
    return ::isatty(STDERR_FILENO) == 1;
}

void ProgressBar::update(double fraction, const std::string& label)
{
    if (!enabled_)
        return;
    std::lock_guard g(mu_);
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1) || (drawn_ && now - last_ < std::chrono::milliseconds(100)))
        return;
    last_ = now;
    constexpr int kWidth = 30;
    const int filled = int(std::clamp(fraction, 0.0, 1.0) * kWidth + 0.5);
    err_ << "\r\033[K[" << std::string(std::size_t(filled), '#') << std::string(std::size_t(kWidth - filled), ' ')
         << "] " << int(std::clamp(fraction, 0.0, 1.0) * 100 + 0.5) << "%  " << label << std::flush;
    drawn_ = true;
}

void ProgressBar::finish()
{
    if (!enabled_)
        return;
    std::lock_guard g(mu_);
    if (drawn_)
        err_ << "\r\033[K" << std::flush;
    drawn_ = false;
}

} // namespace pcl::cli
