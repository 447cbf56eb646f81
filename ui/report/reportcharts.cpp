#include "report/reportcharts.h"

#include "charts/axisscale.h"
#include "charts/chartstyle.h"
#include "charts/faultlatencychart.h"
#include "charts/latencyhistogramchart.h"
#include "charts/lockwaitchart.h"
#include "charts/seriescatalog.h"
#include "charts/timeserieschart.h"
#include "kit/colors.h"
#include "sim/run_figures.h"
#include "sync/histogram.h"

#include <QCoreApplication>
#include <QLegend>

#include <array>
#include <bit>
#include <cmath>

namespace pcl::ui {

namespace {

/// Points per line: a report's chart is a page wide, and a run of minutes
/// sampled every 100 ms has thousands of samples.
constexpr std::size_t kMaxPoints = 2000;

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::RunReport", text);
}

const HistogramSummary* findHistogram(const RunResult& run, const char* name)
{
    for (const HistogramSummary& h : run.histograms)
        if (h.name == name)
            return &h;
    return nullptr;
}

/// The bucket of LatencyHistogram that starts at @lower_ns.
unsigned bucketOf(std::uint64_t lowerNs)
{
    return lowerNs ? unsigned(std::bit_width(lowerNs)) - 1 : 0;
}

/// A histogram's buckets as a chart row counts them (bucket b: [2^b, 2^(b+1)) ns).
std::vector<std::uint64_t> bucketCounts(const HistogramSummary* h)
{
    std::vector<std::uint64_t> counts(LatencyHistogram::kBuckets, 0);
    if (h)
        for (const HistogramSummary::Bucket& b : h->buckets)
            counts[std::min(bucketOf(b.lower_ns), LatencyHistogram::kBuckets - 1)] += b.count;
    return counts;
}

ReportChart timeSeries(const ChartSpec& spec, const RunResult& run)
{
    auto chart = std::make_unique<TimeSeriesChart>(spec, kMaxPoints);
    chart->addSamples(run.series);
    // The whole run on the x axis, ending on a round number past its last sample.
    const double end = run.series.empty() ? 1.0 : std::max(run.series.back().time_s, 1e-3);
    const AxisScale scale = niceScale(end, 0.0, false);
    chart->setTimeRange(scale.max, scale.step);
    bool hasData = false;
    for (const MetricsSample& s : run.series)
        for (int i = 0; i < chart->metricCount() && !hasData; ++i) {
            const double v = chart->metric(i).extract(s);
            hasData = std::isfinite(v) && v > 0;
        }
    ReportChart c;
    c.id = spec.id;
    c.title = spec.title;
    c.hasData = hasData;
    c.chart = std::move(chart);
    return c;
}

ReportChart faultLatency(const RunResult& run)
{
    // The fault handler's histograms are gone with the engine; the result
    // keeps their buckets, which refill histograms of the same shape (the
    // chart reads nothing else of them).
    const char* names[FaultLatencyChart::kKinds] = { "fault.minor", "fault.major", "fault.wait_io", "fault.anon" };
    auto histograms = std::make_unique<std::array<LatencyHistogram, FaultLatencyChart::kKinds>>();
    std::array<const LatencyHistogram*, FaultLatencyChart::kKinds> perKind {};
    bool hasData = false;
    for (std::size_t k = 0; k < perKind.size(); ++k) {
        const std::vector<std::uint64_t> counts = bucketCounts(findHistogram(run, names[k]));
        for (unsigned b = 0; b < counts.size(); ++b)
            for (std::uint64_t n = 0; n < counts[b]; ++n)
                (*histograms)[k].add(LatencyHistogram::lower(b));
        perKind[k] = &(*histograms)[k];
        hasData = hasData || (*histograms)[k].count() > 0;
    }
    auto chart = std::make_unique<FaultLatencyChart>();
    chart->setHistograms(perKind);
    ReportChart c;
    c.id = QStringLiteral("fault_latency");
    c.title = chart->title();
    c.hasData = hasData;
    c.chart = std::move(chart);
    return c;
}

ReportChart lockWait(const RunResult& run)
{
    auto chart = std::make_unique<LockWaitChart>();
    chart->setClasses(run.lock_classes);
    ReportChart c;
    c.id = QStringLiteral("lock_wait_classes");
    c.fileId = QStringLiteral("lock-wait-by-class");
    c.title = chart->title();
    c.hasData = !chart->classNames().isEmpty();
    c.chart = std::move(chart);
    return c;
}

ReportChart ioLatency(const RunResult& run)
{
    auto chart = std::make_unique<LatencyHistogramChart>(tr("Latency of read(2) and of disk requests"),
        tr("latency (power-of-two buckets)"), tr("share of the calls or requests (%)"));
    const HistogramSummary* read = findHistogram(run, "read");
    const HistogramSummary* device = findHistogram(run, "device");
    chart->setRows({ { tr("read(2)"), colors::series(0), bucketCounts(read) },
        { tr("disk request"), colors::series(1), bucketCounts(device) } });
    ReportChart c;
    c.id = QStringLiteral("io_latency");
    c.title = chart->title();
    c.hasData = (read && read->count) || (device && device->count);
    c.chart = std::move(chart);
    return c;
}

} // namespace

QString scenarioTitle(const Scenario& scenario)
{
    return scenario.title.empty() ? tr("Untitled scenario") : QString::fromStdString(scenario.title);
}

QString runCaption(const RunResult& run)
{
    return tr("%1. %2; %3 s of %4.")
        .arg(scenarioTitle(run.scenario), QString::fromStdString(parameter_caption(run.scenario)))
        .arg(run.wall_seconds, 0, 'g', 3)
        .arg(QString::fromStdString(time_caption(run.scenario)));
}

std::vector<ReportChart> buildRunCharts(const RunResult& run)
{
    std::vector<ReportChart> charts;
    for (const ChartSpec& spec : SeriesCatalog::charts())
        charts.push_back(timeSeries(spec, run));
    charts.push_back(faultLatency(run));
    charts.push_back(lockWait(run));
    charts.push_back(ioLatency(run));
    for (ReportChart& c : charts) {
        if (c.fileId.isEmpty()) {
            c.fileId = c.id;
            c.fileId.replace(QLatin1Char('_'), QLatin1Char('-'));
        }
        // A figure on paper names its lines even when there is one: the
        // reader cannot hover over it.
        c.chart->legend()->setVisible(true);
        styleChart(c.chart.get(), reportPalette());
    }
    return charts;
}

} // namespace pcl::ui
