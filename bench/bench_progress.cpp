#include "bench_progress.h"

#include <ostream>

namespace pcl::bench {

BenchProgress::BenchProgress(std::ostream& err, std::size_t steps, bool lines, bool quiet)
    : bar_(err, !quiet && ProgressBar::stderr_is_terminal())
    , err_(err)
    , steps_(steps ? steps : 1)
    , lines_(lines && !quiet)
{
}

void BenchProgress::step(const std::string& label)
{
    if (bar_.enabled())
        bar_.update(double(done_) / double(steps_), label);
    else if (lines_)
        err_ << label << '\n';
    ++done_;
}

} // namespace pcl::bench
