#include "charts/decimatedseries.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcl::ui {

DecimatedSeries::DecimatedSeries(std::size_t maxPoints)
    : maxPoints_(std::max<std::size_t>(4, maxPoints & ~std::size_t(1)))
{
    points_.reserve(maxPoints_);
}

void DecimatedSeries::clear()
{
    points_.clear();
    stride_ = 1;
    maxY_ = 0;
    pending_ = pendingFinite_ = 0;
    pendingSum_ = 0;
}

DecimatedSeries::Change DecimatedSeries::add(double x, double y)
{
    ++pending_;
    if (std::isfinite(y)) {
        pendingSum_ += y;
        ++pendingFinite_;
    }
    if (pending_ < stride_)
        return Change::None;
    push(x, pendingSum_, pendingFinite_);
    pending_ = pendingFinite_ = 0;
    pendingSum_ = 0;
    if (points_.size() < maxPoints_)
        return Change::Appended;
    halve();
    return Change::Rebuilt;
}

void DecimatedSeries::push(double x, double sum, std::size_t finite)
{
    const double y = finite ? sum / double(finite) : std::numeric_limits<double>::quiet_NaN();
    points_.emplace_back(x, y);
    if (finite)
        maxY_ = std::max(maxY_, y);
}

void DecimatedSeries::halve()
{
    std::size_t out = 0;
    maxY_ = 0;
    for (std::size_t i = 0; i + 1 < points_.size(); i += 2) {
        const QPointF a = points_[i];
        const QPointF b = points_[i + 1];
        double y;
        if (std::isfinite(a.y()) && std::isfinite(b.y()))
            y = (a.y() + b.y()) / 2;
        else
            y = std::isfinite(a.y()) ? a.y() : b.y(); // NaN when both are
        points_[out++] = QPointF(b.x(), y);
        if (std::isfinite(y))
            maxY_ = std::max(maxY_, y);
    }
    points_.resize(out);
    stride_ *= 2;
}

} // namespace pcl::ui
