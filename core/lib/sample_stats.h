// The statistics of repeated runs, as `perf stat -r` and hyperfine give
// them: mean, sample standard deviation, min, max and the 95 % confidence
// interval of the mean (Student's t, since repeats are few).
#pragma once

#include <cstddef>
#include <vector>

namespace pcl {

struct SampleStats {
    std::size_t n = 0;
    double mean = 0;
    double sd = 0; ///< sample standard deviation (n - 1); 0 for one value
    double min = 0;
    double max = 0;
    /// The 95 % interval of the mean: mean -+ t(0.975, n - 1) sd / sqrt(n);
    /// both the mean for one value, which has no spread.
    double low = 0, high = 0;

    /// Whether the interval holds @v.
    bool holds(double v) const noexcept { return low <= v && v <= high; }
};

/// The statistics of @values (none: n = 0 and zeros). Values that are not
/// finite make every figure NaN.
SampleStats sample_stats(const std::vector<double>& values);

/// Student's t quantile t(0.975, @df) for a two-sided 95 % interval:
/// tabulated to 30 degrees of freedom, then interpolated in 1/df to the
/// normal's 1.96.
double t_975(std::size_t df);

} // namespace pcl
