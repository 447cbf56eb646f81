#include "lockwaitchart.h"

#include "axisscale.h"
#include "colors.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

namespace pcl::ui {

LockWaitChart::LockWaitChart(QGraphicsItem* parent)
    : QChart(parent)
    , series_(new QHorizontalBarSeries(this))
    , avg_(new QBarSet(tr("average wait"), this))
    , max_(new QBarSet(tr("longest wait"), this))
    , classAxis_(new QBarCategoryAxis(this))
    , valueAxis_(new QValueAxis(this))
{
    setTitle(tr("Lock wait by class: average and longest (no wait-time histogram is recorded)"));
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(6, 6, 6, 6));
    legend()->setAlignment(Qt::AlignBottom);
    // Waiting is what the Tracy colours call "held and wanted" and "blocked".
    avg_->setColor(colors::lockWanted());
    avg_->setBorderColor(colors::lockWanted());
    max_->setColor(colors::lockBlocked());
    max_->setBorderColor(colors::lockBlocked());
    series_->setBarWidth(0.7);
    // The longest wait can be a thousand times the average: the numbers at
    // the bar ends keep the short bars readable on a linear axis.
    series_->setLabelsVisible(true);
    series_->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series_->setLabelsPrecision(3);
    series_->append(avg_);
    series_->append(max_);
    addSeries(series_);
    addAxis(classAxis_, Qt::AlignLeft);
    addAxis(valueAxis_, Qt::AlignBottom);
    valueAxis_->setLabelFormat(QStringLiteral("%g"));
    series_->attachAxis(classAxis_);
    series_->attachAxis(valueAxis_);
    clear();
}

void LockWaitChart::clear()
{
    avg_->remove(0, avg_->count());
    max_->remove(0, max_->count());
    classAxis_->clear();
    names_.clear();
    nsPerUnit_ = 1e3;
    valueAxis_->setTitleText(tr("wait (µs)"));
    valueAxis_->setRange(0, 1);
    valueAxis_->setTickCount(5);
}

void LockWaitChart::setClasses(const std::vector<sync::LockStatRow>& classes)
{
    std::vector<const sync::LockStatRow*> rows;
    for (const auto& r : classes)
        if (r.contentions > 0)
            rows.push_back(&r);
    std::sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) {
        return a->wait_total_ns != b->wait_total_ns ? a->wait_total_ns > b->wait_total_ns : a->name < b->name;
    });
    if (rows.size() > std::size_t(kMaxClasses))
        rows.resize(std::size_t(kMaxClasses));
    if (rows.empty()) {
        if (!names_.isEmpty())
            clear();
        return;
    }
    double longest = 0;
    for (const auto* r : rows)
        longest = std::max(longest, double(r->wait_max_ns));
    nsPerUnit_ = longest >= 1e9 ? 1e9 : longest >= 1e6 ? 1e6 : longest >= 1e3 ? 1e3 : 1;
    const QString unit = nsPerUnit_ == 1e9 ? tr("s")
        : nsPerUnit_ == 1e6                ? tr("ms")
        : nsPerUnit_ == 1e3                ? tr("µs")
                                           : tr("ns");
    valueAxis_->setTitleText(tr("wait (%1)").arg(unit));

    // A horizontal bar chart draws its first category at the bottom: add
    // them in reverse so the class that waited most is on top.
    QStringList names;
    QList<qreal> avgs, maxs;
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
        names.append(QString::fromStdString((*it)->name));
        avgs.append((*it)->wait_avg_ns() / nsPerUnit_);
        maxs.append(double((*it)->wait_max_ns) / nsPerUnit_);
    }
    if (names != names_) {
        classAxis_->clear();
        classAxis_->append(names);
        names_ = names;
    }
    avg_->remove(0, avg_->count());
    avg_->append(avgs);
    max_->remove(0, max_->count());
    max_->append(maxs);
    const AxisScale scale = niceScale(longest / nsPerUnit_, 0.1, false);
    valueAxis_->setRange(0, scale.max);
    valueAxis_->setTickCount(scale.ticks());
}

} // namespace pcl::ui
