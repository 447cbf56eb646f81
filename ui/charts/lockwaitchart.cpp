#include "charts/lockwaitchart.h"

#include "kit/colors.h"

#include <algorithm>

namespace pcl::ui {

LockWaitChart::LockWaitChart(QGraphicsItem* parent)
    : LatencyHistogramChart(
        tr("Lock wait time by class"), tr("wait (power-of-two buckets)"), tr("share of the class's waits (%)"), parent)
{
}

void LockWaitChart::setClasses(const std::vector<sync::LockStatRow>& classes)
{
    std::vector<const sync::LockStatRow*> contended;
    for (const auto& r : classes)
        if (r.contentions > 0)
            contended.push_back(&r);
    std::sort(contended.begin(), contended.end(), [](const auto* a, const auto* b) {
        return a->contentions != b->contentions ? a->contentions > b->contentions : a->name < b->name;
    });
    if (contended.size() > std::size_t(kMaxClasses))
        contended.resize(std::size_t(kMaxClasses));
    std::vector<Row> rows;
    names_.clear();
    for (std::size_t i = 0; i < contended.size(); ++i) {
        const sync::LockStatRow& r = *contended[i];
        names_.append(QString::fromStdString(r.name));
        // Tracy's waiting colours first: the most contended class is red.
        const QColor colour = i == 0 ? colors::lockBlocked() : i == 1 ? colors::lockWanted() : colors::series(int(i));
        rows.push_back(
            { names_.back(), colour, std::vector<std::uint64_t>(r.wait_buckets.begin(), r.wait_buckets.end()) });
    }
    setRows(rows);
}

} // namespace pcl::ui
