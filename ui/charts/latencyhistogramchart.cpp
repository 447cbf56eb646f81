#include "charts/latencyhistogramchart.h"

#include "charts/axisscale.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

namespace pcl::ui {

LatencyHistogramChart::LatencyHistogramChart(
    const QString& title, const QString& xTitle, const QString& yTitle, QGraphicsItem* parent)
    : QChart(parent)
    , series_(new QBarSeries(this))
    , xAxis_(new QBarCategoryAxis(this))
    , yAxis_(new QValueAxis(this))
{
    setTitle(title);
    setAnimationOptions(QChart::NoAnimation);
    setMargins(QMargins(6, 6, 6, 6));
    legend()->setAlignment(Qt::AlignBottom);
    series_->setBarWidth(0.85);
    addSeries(series_);
    xAxis_->setTitleText(xTitle);
    addAxis(xAxis_, Qt::AlignBottom);
    yAxis_->setTitleText(yTitle);
    yAxis_->setLabelFormat(QStringLiteral("%g"));
    addAxis(yAxis_, Qt::AlignLeft);
    series_->attachAxis(xAxis_);
    series_->attachAxis(yAxis_);
    clear();
}

QString LatencyHistogramChart::bucketLabel(unsigned b)
{
    const double lo = b ? double(std::uint64_t(1) << b) : 0.0;
    const double hi = double(std::uint64_t(1) << (b + 1));
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

QString LatencyHistogramChart::lowerBoundLabel(unsigned b)
{
    // Two significant digits at most ("16", "33", "4.1"): a narrow column.
    const double ns = b ? double(std::uint64_t(1) << b) : 0.0;
    const auto [scale, unit] = ns >= 1e9 ? std::pair { 1e9, QStringLiteral("s") }
        : ns >= 1e6                      ? std::pair { 1e6, QStringLiteral("ms") }
        : ns >= 1e3                      ? std::pair { 1e3, QStringLiteral("µs") }
                                         : std::pair { 1.0, QStringLiteral("ns") };
    const double v = ns / scale;
    const QString number = v >= 10 ? QString::number(qRound(v)) : QString::number(v, 'g', 2);
    return number + QStringLiteral("<br>") + unit;
}

void LatencyHistogramChart::clear()
{
    for (std::size_t i = 0; i < sets_.size(); ++i) {
        sets_[i]->remove(0, sets_[i]->count());
        sets_[i]->setLabel(names_[i]);
    }
    xAxis_->clear();
    first_ = end_ = 0;
    yAxis_->setRange(0, 100);
    yAxis_->setTickCount(6);
}

void LatencyHistogramChart::setRows(const std::vector<Row>& rows)
{
    // The sets follow the rows: one each, recoloured and renamed in place.
    while (sets_.size() > rows.size()) {
        QBarSet* set = sets_.back();
        series_->remove(set); // deletes it
        sets_.pop_back();
        names_.pop_back();
    }
    while (sets_.size() < rows.size()) {
        auto* set = new QBarSet(QString(), this);
        series_->append(set);
        sets_.push_back(set);
        names_.emplace_back();
    }
    std::vector<std::uint64_t> totals(rows.size(), 0);
    unsigned first = ~0u, end = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        names_[r] = rows[r].name;
        sets_[r]->setColor(rows[r].color);
        sets_[r]->setBorderColor(rows[r].color);
        for (unsigned b = 0; b < rows[r].buckets.size(); ++b) {
            const std::uint64_t n = rows[r].buckets[b];
            totals[r] += n;
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
        // Many buckets leave a label less than its width: then each bucket
        // is named by its lower bound (the next one's is its upper), number
        // over unit (axis labels are rich text), rather than elided.
        const bool compact = end - first > 8;
        QStringList labels;
        for (unsigned b = first; b < end; ++b)
            labels.append(compact ? lowerBoundLabel(b) : bucketLabel(b));
        xAxis_->clear();
        xAxis_->append(labels);
        first_ = first;
        end_ = end;
    }
    double maxShare = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        QBarSet* set = sets_[r];
        const double total = double(totals[r]);
        QList<qreal> values;
        values.reserve(int(end - first));
        for (unsigned b = first; b < end; ++b) {
            const std::uint64_t n = b < rows[r].buckets.size() ? rows[r].buckets[b] : 0;
            const double share = total > 0 ? 100.0 * double(n) / total : 0.0;
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
        set->setLabel(rows[r].name + QStringLiteral(" (") + axisCountLabel(total) + QStringLiteral(")"));
    }
    const AxisScale scale = niceScale(std::min(maxShare, 100.0), 0.1, false);
    yAxis_->setRange(0, std::min(scale.max, 100.0));
    yAxis_->setTickCount(std::min(scale.max, 100.0) == scale.max ? scale.ticks() : 6);
}

} // namespace pcl::ui
