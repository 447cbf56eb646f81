// The fault latency histogram of a run: for each fault kind (minor, major,
// waiting for I/O, anonymous), the share of its faults in each power-of-two
// latency bucket of the fault handler's LatencyHistogram.
//
// Shares, not counts: minor faults outnumber major ones a hundred to one,
// and in counts the major faults' milliseconds would be invisible. The
// legend gives each kind's count so nothing is hidden.
#pragma once

#include "sim/histogram.h"

#include <QChart>

#include <array>
#include <cstdint>

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QValueAxis;
QT_END_NAMESPACE

namespace pcl::ui {

class FaultLatencyChart : public QChart {
    Q_OBJECT
public:
    static constexpr int kKinds = 4; ///< minor, major, waiting for I/O, anonymous

    explicit FaultLatencyChart(QGraphicsItem* parent = nullptr);

    /// Shows @perKind (minor, major, wait_io, anon; a null entry counts as
    /// empty). Reads each histogram once; they may be filling meanwhile.
    void setHistograms(const std::array<const LatencyHistogram*, kKinds>& perKind);
    void clear();

    /// The bucket label of power-of-two bucket @b: "1–2 µs".
    static QString bucketLabel(unsigned b);
    /// Buckets shown: the first and one past the last non-empty one.
    unsigned firstBucket() const { return first_; }
    unsigned endBucket() const { return end_; }
    QBarSet* set(int kind) const { return sets_[std::size_t(kind)]; }

private:
    QBarSeries* series_;
    std::array<QBarSet*, kKinds> sets_ {};
    QBarCategoryAxis* xAxis_;
    QValueAxis* yAxis_;
    unsigned first_ = 0;
    unsigned end_ = 0;
};

} // namespace pcl::ui
