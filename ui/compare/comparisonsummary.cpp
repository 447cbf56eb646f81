#include "compare/comparisonsummary.h"

#include "charts/axisscale.h"
#include "kit/numberformat.h"
#include "lib/report.h"

#include <cmath>

namespace pcl::ui {

void RunTotals::add(const MetricsSample& sample)
{
    operations += sample.operations;
    seconds = sample.time_s;
    if (std::isfinite(sample.interval_s) && sample.interval_s > 0) {
        sampledSeconds += sample.interval_s;
        if (std::isfinite(sample.lock_wait_fraction))
            lockWaitSeconds += sample.lock_wait_fraction * sample.interval_s;
    }
}

void RunTotals::setContentions(const std::vector<sync::LockStatRow>& classes)
{
    contentions = 0;
    for (const sync::LockStatRow& row : classes)
        contentions += row.contentions;
}

std::optional<double> RunTotals::throughput() const
{
    if (!(seconds > 0))
        return std::nullopt;
    return double(operations) / seconds;
}

std::optional<double> RunTotals::lockWaitFraction() const
{
    if (!(sampledSeconds > 0))
        return std::nullopt;
    return lockWaitSeconds / sampledSeconds;
}

RunTotals RunTotals::of(const std::vector<MetricsSample>& samples, const std::vector<sync::LockStatRow>& classes)
{
    RunTotals t;
    for (const MetricsSample& s : samples)
        t.add(s);
    t.setContentions(classes);
    return t;
}

std::optional<double> ComparisonSummary::throughputRatio() const
{
    const auto ta = a.throughput();
    const auto tb = b.throughput();
    if (!ta || !tb || !(*ta > 0))
        return std::nullopt;
    return *tb / *ta;
}

std::optional<double> ComparisonSummary::contentionsRatio() const
{
    if (a.contentions == 0)
        return std::nullopt;
    return double(b.contentions) / double(a.contentions);
}

QString ComparisonSummary::ratioText(std::optional<double> ratio)
{
    if (!ratio || !std::isfinite(*ratio))
        return QStringLiteral("—");
    // Below 0.01 two decimals would say "0.00x" of 491 contentions against
    // 464,000: three significant digits say 0.00106x, which divides.
    if (*ratio != 0 && *ratio < 0.01)
        return QString::fromStdString(significant(*ratio)) + QStringLiteral("x");
    if (*ratio == 0)
        return QStringLiteral("0x");
    const int decimals = *ratio >= 100 ? 0 : *ratio >= 10 ? 1 : 2;
    return QString::number(*ratio, 'f', decimals) + QStringLiteral("x");
}

QString ComparisonSummary::rateText(std::optional<double> perSecond)
{
    if (!perSecond || !std::isfinite(*perSecond))
        return QStringLiteral("—");
    return axisCountLabel(*perSecond) + QStringLiteral("/s");
}

QString ComparisonSummary::countText(std::uint64_t n)
{
    // Whole, so that the ratio beside it can be checked by division.
    return groupedNumber(n);
}

QString ComparisonSummary::percentText(std::optional<double> fraction)
{
    if (!fraction || !std::isfinite(*fraction))
        return QStringLiteral("—");
    const double percent = *fraction * 100;
    // One decimal where it matters (a few percent of wait), none above ten.
    return QString::number(percent, 'f', percent < 10 ? 1 : 0) + QStringLiteral(" %");
}

QString ComparisonSummary::text() const
{
    return QStringLiteral("B vs A: throughput %1 (ops/s over the run: %2 vs %3) · lock contentions %4 (%5 vs %6) · "
                          "lock wait %7 vs %8 of CPU time")
        .arg(ratioText(throughputRatio()), rateText(b.throughput()), rateText(a.throughput()),
            ratioText(contentionsRatio()), countText(b.contentions), countText(a.contentions),
            percentText(b.lockWaitFraction()), percentText(a.lockWaitFraction()));
}

QString ComparisonSummary::richText() const
{
    return QStringLiteral("<b>B vs A</b>: throughput <b>%1</b> <span style='opacity:0.75'>(ops/s over the run: %2 vs "
                          "%3)</span> &nbsp;·&nbsp; lock contentions <b>%4</b> <span style='opacity:0.75'>(%5 vs "
                          "%6)</span> &nbsp;·&nbsp; lock wait <b>%7</b> vs <b>%8</b> of CPU time")
        .arg(ratioText(throughputRatio()), rateText(b.throughput()), rateText(a.throughput()),
            ratioText(contentionsRatio()), countText(b.contentions), countText(a.contentions),
            percentText(b.lockWaitFraction()), percentText(a.lockWaitFraction()));
}

} // namespace pcl::ui
