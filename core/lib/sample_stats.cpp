// The statistics of repeated runs (see sample_stats.h).
#include "lib/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcl {

double t_975(std::size_t df)
{
    // Two-sided 95 % quantiles of Student's t, df 1 to 30 (any statistics
    // table, e.g. NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2).
    static constexpr double kTable[]
        = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
              2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    if (df == 0)
        return std::numeric_limits<double>::infinity();
    if (df <= 30)
        return kTable[df - 1];
    // Beyond the table t is nearly linear in 1/df: 2.042 at 30, 1.960 at infinity.
    return 1.960 + (2.042 - 1.960) * 30.0 / double(df);
}

SampleStats sample_stats(const std::vector<double>& values)
{
    SampleStats s;
    s.n = values.size();
    if (values.empty())
        return s;
    if (!std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); })) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        s.mean = s.sd = s.min = s.max = s.low = s.high = nan;
        return s;
    }
    double sum = 0;
    for (double v : values)
        sum += v;
    s.mean = sum / double(s.n);
    double squares = 0;
    for (double v : values)
        squares += (v - s.mean) * (v - s.mean);
    s.sd = s.n > 1 ? std::sqrt(squares / double(s.n - 1)) : 0;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = *lo;
    s.max = *hi;
    const double half = s.n > 1 ? t_975(s.n - 1) * s.sd / std::sqrt(double(s.n)) : 0;
    s.low = s.mean - half;
    s.high = s.mean + half;
    return s;
}

} // namespace pcl
