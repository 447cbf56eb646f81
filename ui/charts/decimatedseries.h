// The points of one plotted metric, bounded: at most maxPoints() however
// long the run. When the buffer fills, neighbouring points are merged in
// pairs and from then on every point stands for twice as many samples (the
// stride doubles), so the whole run stays on the chart at an even density
// and each sample costs O(1) amortised: a merge of N points happens once
// every N/2 points appended.
//
// A NaN value (a ratio of nothing) is kept as NaN: the chart draws a gap
// there. A merged point is the mean of the finite values it covers, NaN
// only if none is finite.
#pragma once

#include <QPointF>

#include <cstddef>
#include <vector>

namespace pcl::ui {

class DecimatedSeries {
public:
    /// What add() did to points().
    enum class Change {
        None,     ///< the sample went into a partial point (stride > 1)
        Appended, ///< one point was appended at the end
        Rebuilt,  ///< the points were merged in pairs: redraw them all
    };

    /// @maxPoints (at least 4) bounds points().
    explicit DecimatedSeries(std::size_t maxPoints = 1000);

    Change add(double x, double y);
    void clear();

    /// x: the x of the last sample a point covers; y: the mean of its
    /// samples' finite values, or NaN.
    const std::vector<QPointF>& points() const { return points_; }
    /// Samples per point.
    std::size_t stride() const { return stride_; }
    std::size_t maxPoints() const { return maxPoints_; }
    /// The largest finite y in points() (0 if none).
    double maxY() const { return maxY_; }

private:
    void push(double x, double sum, std::size_t finite);
    void halve();

    std::size_t maxPoints_;
    std::size_t stride_ = 1;
    std::vector<QPointF> points_;
    double maxY_ = 0;
    // The point being filled while stride_ > 1.
    std::size_t pending_ = 0;
    std::size_t pendingFinite_ = 0;
    double pendingSum_ = 0;
};

} // namespace pcl::ui
