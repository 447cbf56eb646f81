// The fault latency histogram of a run: for each fault kind (minor, major,
// waiting for I/O, anonymous), the share of its faults in each power-of-two
// latency bucket of the fault handler's LatencyHistogram.
#pragma once

#include "charts/latencyhistogramchart.h"
#include "sync/histogram.h"

#include <array>

namespace pcl::ui {

class FaultLatencyChart : public LatencyHistogramChart {
    Q_OBJECT
public:
    static constexpr int kKinds = 4; ///< minor, major, waiting for I/O, anonymous

    explicit FaultLatencyChart(QGraphicsItem* parent = nullptr);

    /// Shows @perKind (minor, major, wait_io, anon; a null entry counts as
    /// empty). Reads each histogram once; they may be filling meanwhile.
    void setHistograms(const std::array<const LatencyHistogram*, kKinds>& perKind);
};

} // namespace pcl::ui
