#include "charts/faultlatencychart.h"

#include "kit/colors.h"

namespace pcl::ui {

namespace {

QString kindName(int kind)
{
    switch (kind) {
    case 0:
        return FaultLatencyChart::tr("minor");
    case 1:
        return FaultLatencyChart::tr("major");
    case 2:
        return FaultLatencyChart::tr("waiting for I/O");
    default:
        return FaultLatencyChart::tr("anonymous");
    }
}

} // namespace

FaultLatencyChart::FaultLatencyChart(QGraphicsItem* parent)
    : LatencyHistogramChart(
        tr("Fault latency by kind"), tr("fault latency (power-of-two buckets)"), tr("share of the kind (%)"), parent)
{
    setHistograms({});
}

void FaultLatencyChart::setHistograms(const std::array<const LatencyHistogram*, kKinds>& perKind)
{
    // The same colours as the kinds' lines in "Faults per second by kind".
    std::vector<Row> rows(kKinds);
    for (int k = 0; k < kKinds; ++k) {
        Row& row = rows[std::size_t(k)];
        row.name = kindName(k);
        row.color = colors::series(k);
        row.buckets.assign(LatencyHistogram::kBuckets, 0);
        // One read of every bucket: the histograms may be filling.
        if (const LatencyHistogram* h = perKind[std::size_t(k)])
            for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b)
                row.buckets[b] = h->bucket(b);
    }
    setRows(rows);
}

} // namespace pcl::ui
