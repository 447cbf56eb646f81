// The trend of a series of equal intervals: a least-squares line through
// them, and what it says about the last interval against the first.
//
// A throughput measured once a minute on a shared machine moves by tens of
// percent from one minute to the next with nothing in the program changing
// (the host's other tenants take cores, caches and memory bandwidth). The
// last minute over the first then measures two draws of that noise. The
// line through all of them says whether the run as a whole slowed down, and
// the uncertainty of its slope says how sure that is.
#pragma once

#include <cstddef>
#include <vector>

namespace pcl {

struct Trend {
    std::size_t points = 0; ///< values fitted
    double slope = 0;       ///< change per interval
    double first = 0;       ///< the line at the first interval
    double last = 0;        ///< the line at the last interval
    /// last / first of the line; 0 without two points or when first <= 0
    /// (has_ratio() says which).
    double ratio = 0;
    /// The ratio with the slope at the ends of its 95% confidence interval
    /// (Student's t on points - 2 degrees of freedom): the line's first
    /// interval at or below zero makes ratio_high infinite, a last one below
    /// zero makes ratio_low 0. Both equal ratio with fewer than three
    /// points, where nothing is known of the scatter, and where there is
    /// no ratio.
    double ratio_low = 0;
    double ratio_high = 0;
    /// Root mean square of the values' distances from the line (over n),
    /// over the values' mean.
    double scatter = 0;

    /// The line has a last / first ratio: two points or more, and the line
    /// above zero at the first.
    bool has_ratio() const noexcept { return points >= 2 && first > 0; }
};

/// Fits @values, one per interval (1, 2, ...), by least squares. The values
/// are finite (operation counts, rates).
Trend fit_trend(const std::vector<double>& values);

/// Two-sided 95% quantile of Student's t with @dof degrees of freedom
/// (dof >= 1; 1.96 beyond 30).
double student_t95(std::size_t dof) noexcept;

} // namespace pcl
