#include "lib/progress_bar.h"

#include <algorithm>
#include <ostream>
#include <unistd.h>

namespace pcl {

ProgressBar::ProgressBar(std::ostream& err, bool enabled)
    : err_(err)
    , enabled_(enabled)
    , start_(HostWallClock::now())
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
    const auto now = HostWallClock::now();
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

} // namespace pcl
