#include "lib/trend.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcl {

double student_t95(std::size_t dof) noexcept
{
    // t(0.975, dof) for dof 1..30.
    static constexpr double kT[]
        = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
              2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
    if (dof == 0)
        return kT[0];
    return dof <= std::size(kT) ? kT[dof - 1] : 1.96;
}

Trend fit_trend(const std::vector<double>& values)
{
    Trend t;
    const std::size_t n = values.size();
    t.points = n;
    if (n == 0)
        return t;
    double mean_y = 0;
    for (double v : values)
        mean_y += v;
    mean_y /= double(n);
    const double mean_x = (double(n) + 1) / 2;
    double sxx = 0, sxy = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const double dx = double(k + 1) - mean_x;
        sxx += dx * dx;
        sxy += dx * (values[k] - mean_y);
    }
    t.slope = sxx > 0 ? sxy / sxx : 0;
    // The line at interval x, for a slope b through the means.
    auto line = [&](double b, double x) { return mean_y + b * (x - mean_x); };
    // Where the line reaches zero at the first interval the ratio has no
    // bound, and a line that falls below zero by the last is read as 0.
    auto ratio = [&](double b) {
        const double first = line(b, 1);
        if (first <= 0)
            return std::numeric_limits<double>::infinity();
        return std::max(0.0, line(b, double(n)) / first);
    };
    t.first = line(t.slope, 1);
    t.last = line(t.slope, double(n));
    // A line that starts at or below zero (a run that did nothing at
    // first) has no ratio, and no interval either.
    const bool has_ratio = t.has_ratio();
    t.ratio = has_ratio ? ratio(t.slope) : 0;
    t.ratio_low = t.ratio_high = t.ratio;
    double sse = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const double r = values[k] - line(t.slope, double(k + 1));
        sse += r * r;
    }
    if (mean_y != 0)
        t.scatter = std::sqrt(sse / double(n)) / std::abs(mean_y);
    if (has_ratio && n >= 3) {
        const double se = std::sqrt(sse / double(n - 2) / sxx);
        const double half = student_t95(n - 2) * se;
        const double a = ratio(t.slope - half), b = ratio(t.slope + half);
        t.ratio_low = std::min(a, b);
        t.ratio_high = std::max(a, b);
    }
    return t;
}

} // namespace pcl
