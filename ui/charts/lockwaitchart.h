// Lock wait times by lock class: for the classes that were contended most,
// the share of their contended acquisitions in each power-of-two bucket of
// wait time (the histogram the lock statistics keep per class).
#pragma once

#include "charts/latencyhistogramchart.h"
#include "sync/lock_stats.h"

#include <vector>

namespace pcl::ui {

class LockWaitChart : public LatencyHistogramChart {
    Q_OBJECT
public:
    /// Classes shown at most, those with the most contentions.
    static constexpr int kMaxClasses = 4;

    explicit LockWaitChart(QGraphicsItem* parent = nullptr);

    /// Shows the class rows @classes (LockRegistry::classes()).
    void setClasses(const std::vector<sync::LockStatRow>& classes);
    /// The classes shown, most contended first.
    QStringList classNames() const { return names_; }

private:
    QStringList names_;
};

} // namespace pcl::ui
