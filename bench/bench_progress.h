// Where a benchmark is, on stderr: a bar when stderr is a terminal
// (lib/progress_bar.h); otherwise, for a log, a line per step from the
// benchmarks that print one, and nothing with --quiet.
#pragma once

#include "lib/progress_bar.h"

#include <cstddef>
#include <iosfwd>
#include <string>

namespace pcl::bench {

class BenchProgress {
public:
    /// @steps the benchmark will take; @lines: print each step's label
    /// when there is no bar (the benchmarks that always did).
    BenchProgress(std::ostream& err, std::size_t steps, bool lines, bool quiet = false);

    /// The next step begins; @label says what it measures.
    void step(const std::string& label);
    /// Clears the bar (before the results are printed).
    void finish() { bar_.finish(); }

private:
    ProgressBar bar_;
    std::ostream& err_;
    std::size_t steps_;
    std::size_t done_ = 0;
    bool lines_;
};

} // namespace pcl::bench
