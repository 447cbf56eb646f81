// Lock wait by lock class: the average and the longest contended wait of
// the classes that waited most, as lockstat reports them.
//
// The core keeps totals, minimum and maximum per lock class, not a
// histogram of wait times, so this is a bar chart of those two numbers and
// says so in its title rather than drawing a distribution it does not have.
#pragma once

#include "sync/lock_stats.h"

#include <QChart>

#include <vector>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSet;
class QHorizontalBarSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace pcl::ui {

class LockWaitChart : public QChart {
    Q_OBJECT
public:
    /// Classes shown at most, those with the most total wait time.
    static constexpr int kMaxClasses = 8;

    explicit LockWaitChart(QGraphicsItem* parent = nullptr);

    /// Shows the class rows @classes (LockRegistry::classes()).
    void setClasses(const std::vector<sync::LockStatRow>& classes);
    void clear();

    /// The classes shown, in category order (bottom to top as drawn).
    QStringList classNames() const { return names_; }
    QBarSet* averageSet() const { return avg_; }
    QBarSet* maximumSet() const { return max_; }
    /// Nanoseconds per unit of the value axis (1, 1e3, 1e6 or 1e9).
    double nsPerUnit() const { return nsPerUnit_; }

private:
    QHorizontalBarSeries* series_;
    QBarSet* avg_;
    QBarSet* max_;
    QBarCategoryAxis* classAxis_;
    QValueAxis* valueAxis_;
    QStringList names_;
    double nsPerUnit_ = 1e3;
};

} // namespace pcl::ui
