#include "faultlatencychart.h"

#include "axisscale.h"
#include "colors.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

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
    : QChart(parent)
    , series_(new QBarSeries(this))
    , xAxis_(new QBarCategoryAxis(this))
    , yAxis_(new QValueAxis(this))
{
    setTitle(tr("Fault latency by kind"));
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(6, 6, 6, 6));
    legend()->setAlignment(Qt::AlignBottom);
    // The same colours as the kinds' lines in "Faults per second by kind".
    for (int k = 0; k < kKinds; ++k) {
        auto* set = new QBarSet(kindName(k), this);
        set->setColor(colors::series(k));
        set->setBorderColor(colors::series(k));
        sets_[std::size_t(k)] = set;
        series_->append(set);
    }
    series_->setBarWidth(0.85);
    addSeries(series_);
    xAxis_->setTitleText(tr("fault latency (power-of-two buckets)"));
    addAxis(xAxis_, Qt::AlignBottom);
    yAxis_->setTitleText(tr("share of the kind (%)"));
    yAxis_->setLabelFormat(QStringLiteral("%g"));
    addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(xAxis_);
    series_->attachAxis(yAxis_);
    clear();
}

QString FaultLatencyChart::bucketLabel(unsigned b)
{
    const double lo = double(LatencyHistogram::lower(b));
    const double hi = double(LatencyHistogram::lower(b + 1));
    // "1–2 µs": both ends in the unit of the upper one.
    QString upper = axisDurationLabel(hi);
    const QString unit = upper.section(QLatin1Char(' '), 1);
    const double scale = unit == QStringLiteral("s") ? 1e9
        : unit == QStringLiteral("ms")               ? 1e6
        : unit == QStringLiteral("µs")               ? 1e3
                                                     : 1;
    const QString lower = QString::number(lo / scale, 'g', lo / scale >= 10 ? 3 : 2);
    return lower + QStringLiteral("–") + upper;
}

void FaultLatencyChart::clear()
{
    for (QBarSet* set : sets_)
        set->remove(0, set->count());
    xAxis_->clear();
    first_ = end_ = 0;
    for (int k = 0; k < kKinds; ++k)
        sets_[std::size_t(k)]->setLabel(kindName(k));
    yAxis_->setRange(0, 100);
    yAxis_->setTickCount(6);
}

void FaultLatencyChart::setHistograms(const std::array<const LatencyHistogram*, kKinds>& perKind)
{
    // One read of every bucket: the histograms may be filling while we read.
    std::array<std::array<std::uint64_t, LatencyHistogram::kBuckets>, kKinds> counts {};
    std::array<std::uint64_t, kKinds> totals {};
    unsigned first = LatencyHistogram::kBuckets, end = 0;
    for (int k = 0; k < kKinds; ++k) {
        const LatencyHistogram* h = perKind[std::size_t(k)];
        if (!h)
            continue;
        for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b) {
            const std::uint64_t n = h->bucket(b);
            counts[std::size_t(k)][b] = n;
            totals[std::size_t(k)] += n;
            if (n) {
                first = std::min(first, b);
                end = std::max(end, b + 1);
            }
        }
    }
    if (end == 0) {
        clear();
        return;
    }
    if (first != first_ || end != end_) {
        // Many buckets leave a label less than its width: break it after
        // the dash (axis labels are rich text) rather than let it be elided.
        const bool twoLines = end - first > 8;
        QStringList labels;
        for (unsigned b = first; b < end; ++b) {
            QString label = bucketLabel(b);
            if (twoLines)
                label.replace(QStringLiteral("–"), QStringLiteral("–<br>"));
            labels.append(label);
        }
        xAxis_->clear();
        xAxis_->append(labels);
        first_ = first;
        end_ = end;
    }
    double maxShare = 0;
    for (int k = 0; k < kKinds; ++k) {
        QBarSet* set = sets_[std::size_t(k)];
        const double total = double(totals[std::size_t(k)]);
        QList<qreal> values;
        values.reserve(int(end - first));
        for (unsigned b = first; b < end; ++b) {
            const double share = total > 0 ? 100.0 * double(counts[std::size_t(k)][b]) / total : 0.0;
            values.append(share);
            maxShare = std::max(maxShare, share);
        }
        if (set->count() == values.size()) {
            for (int i = 0; i < values.size(); ++i)
                if (set->at(i) != values[i])
                    set->replace(i, values[i]);
        } else {
            set->remove(0, set->count());
            set->append(values);
        }
        set->setLabel(kindName(k) + QStringLiteral(" (") + axisCountLabel(total) + QStringLiteral(")"));
    }
    const AxisScale scale = niceScale(std::min(maxShare, 100.0), 0.1, false);
    yAxis_->setRange(0, std::min(scale.max, 100.0));
    yAxis_->setTickCount(std::min(scale.max, 100.0) == scale.max ? scale.ticks() : 6);
}

} // namespace pcl::ui
