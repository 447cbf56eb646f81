// The Charts view: the metric catalog, the bounded time series with gaps,
// the histograms, a real run on screen, and the PNG, SVG and CSV exports.
#include "charts/axisscale.h"
#include "charts/chartexport.h"
#include "charts/chartstyle.h"
#include "charts/chartsview.h"
#include "charts/decimatedseries.h"
#include "charts/faultlatencychart.h"
#include "charts/lockwaitchart.h"
#include "charts/seriescatalog.h"
#include "charts/timeserieschart.h"
#include "kit/colors.h"
#include "kit/colorscheme.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include "sim/scenario.h"

#include <QBarSet>
#include <QCategoryAxis>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QSet>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace pcl;
using namespace pcl::ui;

using namespace pcl::ui::test;

namespace {

MetricsSample handBuilt()
{
    MetricsSample s;
    s.time_s = 1.5;
    s.interval_s = 0.1;
    s.operations_per_s = 123456;
    s.minor_faults_per_s = 1000;
    s.major_faults_per_s = 250;
    s.wait_io_faults_per_s = 40;
    s.anon_faults_per_s = 7;
    s.hit_ratio = 0.75;
    s.lock_wait_fraction = 0.125;
    s.page_wait_fraction = 0.5;
    s.io_in_flight = 3;
    s.pages_cached = 4096;
    s.frames_used = 5000;
    s.index_nodes = 65;
    s.index_height = 3;
    s.io_queued = 9;
    s.evictions_per_s = 640;
    s.refaults_per_s = 32;
    s.wasted_readahead_per_s = 16;
    s.nr_active = 1000;
    s.nr_inactive = 3000;
    s.frames_free = 700;
    s.wmark_min = 100;
    s.wmark_low = 125;
    s.wmark_high = 150;
    s.kswapd_reclaimed_per_s = 600;
    s.direct_reclaimed_per_s = 40;
    return s;
}

MetricsSample at(double t, double ops, double hitRatio = 0.5)
{
    MetricsSample s;
    s.time_s = t;
    s.interval_s = 0.1;
    s.operations_per_s = ops;
    s.minor_faults_per_s = ops / 2;
    s.major_faults_per_s = ops / 4;
    s.wait_io_faults_per_s = ops / 8;
    s.anon_faults_per_s = ops / 16;
    s.hit_ratio = hitRatio;
    return s;
}

/// A bundled scenario, made short: it ends in a fraction of a second.
Scenario shortBundled()
{
    Scenario s = load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
    s.engine.workload.operations_per_cpu = 60000;
    s.sample_interval_ms = 20;
    return s;
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void catalogExtractorsAreExact()
    {
        const MetricsSample s = handBuilt();
        auto value = [&](const char* id) {
            const Metric* m = SeriesCatalog::metric(QString::fromLatin1(id));
            return m ? m->extract(s) : std::numeric_limits<double>::quiet_NaN();
        };
        QCOMPARE(value("operations_per_s"), 123456.0);
        QCOMPARE(value("minor_faults_per_s"), 1000.0);
        QCOMPARE(value("major_faults_per_s"), 250.0);
        QCOMPARE(value("wait_io_faults_per_s"), 40.0);
        QCOMPARE(value("anon_faults_per_s"), 7.0);
        QCOMPARE(value("hit_ratio_percent"), 75.0);
        QCOMPARE(value("lock_wait_percent"), 12.5);
        QCOMPARE(value("page_wait_percent"), 50.0);
        QCOMPARE(value("io_in_flight"), 3.0);
        QCOMPARE(value("pages_cached"), 4096.0);
        QCOMPARE(value("frames_used"), 5000.0);
        QCOMPARE(value("index_nodes"), 65.0);
        QCOMPARE(value("index_height"), 3.0);
        QCOMPARE(value("io_queued"), 9.0);
        QCOMPARE(value("evictions_per_s"), 640.0);
        QCOMPARE(value("refaults_per_s"), 32.0);
        QCOMPARE(value("wasted_readahead_per_s"), 16.0);
        QCOMPARE(value("nr_active"), 1000.0);
        QCOMPARE(value("nr_inactive"), 3000.0);
        QCOMPARE(value("frames_free"), 700.0);
        QCOMPARE(value("wmark_min"), 100.0);
        QCOMPARE(value("wmark_low"), 125.0);
        QCOMPARE(value("wmark_high"), 150.0);
        QCOMPARE(value("kswapd_reclaimed_per_s"), 600.0);
        QCOMPARE(value("direct_reclaimed_per_s"), 40.0);
        QCOMPARE(int(SeriesCatalog::metrics().size()), 30);
        // Free memory and its watermarks on one chart, free first.
        const auto free = SeriesCatalog::metricsOf(QStringLiteral("free"));
        QCOMPARE(int(free.size()), 5);
        QCOMPARE(free[0]->id, QStringLiteral("frames_free"));

        // Faults by kind: one chart, four series in kind order.
        const auto faults = SeriesCatalog::metricsOf(QStringLiteral("faults"));
        QCOMPARE(int(faults.size()), 4);
        QCOMPARE(faults[0]->id, QStringLiteral("minor_faults_per_s"));
        QCOMPARE(faults[3]->id, QStringLiteral("anon_faults_per_s"));
        // Every metric belongs to a chart that exists.
        for (const Metric& m : SeriesCatalog::metrics())
            QVERIFY2(SeriesCatalog::chart(m.chart), qPrintable(m.id));

        MetricsSample none = s;
        none.hit_ratio = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(std::isnan(SeriesCatalog::metric(QStringLiteral("hit_ratio_percent"))->extract(none)));
    }

    void axisLabelsAndRanges()
    {
        QCOMPARE(axisValueLabel(1.2e6, MetricUnit::PerSecond), QStringLiteral("1.2 M/s"));
        QCOMPARE(axisValueLabel(250000, MetricUnit::PerSecond), QStringLiteral("250 k/s"));
        QCOMPARE(axisValueLabel(40, MetricUnit::Percent), QStringLiteral("40 %"));
        QCOMPARE(axisValueLabel(0, MetricUnit::Pages), QStringLiteral("0"));
        QCOMPARE(axisDurationLabel(1500), QStringLiteral("1.5 µs"));
        QCOMPARE(FaultLatencyChart::bucketLabel(10), QStringLiteral("1–2 µs"));
        QCOMPARE(FaultLatencyChart::bucketLabel(20), QStringLiteral("1–2.1 ms"));

        const AxisScale a = niceScale(87, 0.15, false); // 100.05: steps of 20 up to 120
        QCOMPARE(a.step, 20.0);
        QCOMPARE(a.max, 120.0);
        QCOMPARE(a.ticks(), 7);
        const AxisScale b = niceScale(3, 0.15, true);
        QCOMPARE(b.step, 1.0);
        QCOMPARE(b.max, 4.0);
    }

    void nSamplesGiveNPointsPerSeries()
    {
        TimeSeriesChart chart(*SeriesCatalog::chart(QStringLiteral("faults")), 1000);
        QCOMPARE(chart.metricCount(), 4);
        for (int i = 1; i <= 50; ++i)
            chart.addSample(at(i * 0.1, 1000 * i));
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(int(chart.data(k).points().size()), 50);
            QCOMPARE(chart.drawnPoints(k), 50);
            QCOMPARE(chart.segmentCount(k), 1);
        }
        // minor = ops / 2 at the last sample.
        QCOMPARE(chart.data(0).points().back(), QPointF(5.0, 25000.0));
        // The axis covers the largest value, with a round end.
        QVERIFY(chart.valueMax() >= 25000.0);
        QVERIFY(chart.valueAxis()->categoriesLabels().contains(QStringLiteral("0/s")));

        chart.clear();
        QCOMPARE(chart.drawnPoints(0), 0);
        QCOMPARE(int(chart.data(0).points().size()), 0);
    }

    void nanHitRatioMakesAGap()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        auto* owned = new TimeSeriesChart(*SeriesCatalog::chart(QStringLiteral("hit_ratio")), 1000);
        QChartView view(owned); // owns the chart; shown, so its legend is laid out
        TimeSeriesChart& chart = *owned;
        const double ratios[] = { 0.5, 0.6, nan, nan, 0.7, 0.8, nan, 0.9 };
        for (int i = 0; i < 8; ++i)
            chart.addSample(at(0.1 * (i + 1), 100, ratios[i]));
        QCOMPARE(int(chart.data(0).points().size()), 8);
        QCOMPARE(chart.drawnPoints(0), 5); // the NaNs are not drawn, not even as 0
        QCOMPARE(chart.segmentCount(0), 3);
        const auto series = chart.series();
        for (QAbstractSeries* a : series)
            for (const QPointF& p : static_cast<QLineSeries*>(a)->points())
                QVERIFY(p.y() > 0);
        QCOMPARE(chart.valueMax(), 100.0); // a ratio in % has a fixed axis
        // Only the first segment has a legend marker.
        QCOMPARE(static_cast<QLineSeries*>(series[0])->points().first(), QPointF(0.1, 50.0));
        chart.legend()->setVisible(true); // a one-metric chart hides its legend
        view.resize(600, 400);
        view.show();
        QCoreApplication::processEvents();
        int visibleMarkers = 0;
        const auto markers = chart.legend()->markers();
        for (QLegendMarker* m : markers)
            visibleMarkers += m->isVisible() ? 1 : 0;
        QCOMPARE(visibleMarkers, 1);
    }

    void decimationKeepsTheBound()
    {
        DecimatedSeries d(4);
        QCOMPARE(d.add(1, 1), DecimatedSeries::Change::Appended);
        d.add(2, 2);
        d.add(3, 3);
        QCOMPARE(d.add(4, 4), DecimatedSeries::Change::Rebuilt);
        QCOMPARE(d.stride(), std::size_t(2));
        QCOMPARE(int(d.points().size()), 2);
        QCOMPARE(d.points()[0], QPointF(2, 1.5));
        QCOMPARE(d.points()[1], QPointF(4, 3.5));
        QCOMPARE(d.add(5, 5), DecimatedSeries::Change::None); // half a point
        QCOMPARE(d.add(6, std::nan("")), DecimatedSeries::Change::Appended);
        QCOMPARE(d.points().back(), QPointF(6, 5)); // the mean of its finite values

        DecimatedSeries big(100);
        for (int i = 0; i < 100000; ++i) {
            big.add(i, i % 7);
            QVERIFY(big.points().size() <= 100);
        }
        QVERIFY(big.points().size() >= 50);
        QCOMPARE(big.points().back().x(), 99999.0 - double((100000 % big.stride())));

        TimeSeriesChart chart(*SeriesCatalog::chart(QStringLiteral("operations")), 64);
        for (int i = 1; i <= 5000; ++i)
            chart.addSample(at(i * 0.1, i));
        QVERIFY(chart.drawnPoints(0) <= 64);
        QVERIFY(chart.drawnPoints(0) >= 32);
        QCOMPARE(chart.segmentCount(0), 1);
    }

    void faultLatencyHistogram()
    {
        LatencyHistogram minor, major;
        minor.add(1500);
        minor.add(1500);
        minor.add(1500);
        minor.add(3000);
        major.add(1 << 20);
        FaultLatencyChart chart;
        chart.setHistograms({ &minor, &major, nullptr, nullptr });
        QCOMPARE(chart.firstBucket(), 10u);
        QCOMPARE(chart.endBucket(), 21u);
        QCOMPARE(chart.set(0)->count(), 11);
        QCOMPARE(chart.set(0)->at(0), 75.0);
        QCOMPARE(chart.set(0)->at(1), 25.0);
        QCOMPARE(chart.set(1)->at(10), 100.0);
        QCOMPARE(chart.set(2)->at(0), 0.0);
        QCOMPARE(chart.set(0)->label(), QStringLiteral("minor (4)"));
        chart.clear();
        QCOMPARE(chart.set(0)->count(), 0);
    }

    void lockWaitByClass()
    {
        std::vector<sync::LockStatRow> rows(3);
        rows[0].name = "mapping.tree_lock";
        rows[0].contentions = 4;
        rows[0].wait_buckets[10] = 3; // 1-2 us
        rows[0].wait_buckets[12] = 1; // 4-8 us
        rows[1].name = "page_table_lock";
        rows[1].contentions = 0; // never waited: not shown
        rows[2].name = "radix_node";
        rows[2].contentions = 10;
        rows[2].wait_buckets[11] = 10; // 2-4 us
        LockWaitChart chart;
        chart.setClasses(rows);
        // The most contended class first.
        QCOMPARE(chart.classNames(), QStringList({ "radix_node", "mapping.tree_lock" }));
        QCOMPARE(chart.rowCount(), 2);
        QCOMPARE(chart.firstBucket(), 10u);
        QCOMPARE(chart.endBucket(), 13u);
        QCOMPARE(chart.set(0)->label(), QStringLiteral("radix_node (10)"));
        QCOMPARE(chart.set(0)->at(1), 100.0);
        QCOMPARE(chart.set(1)->at(0), 75.0);
        QCOMPARE(chart.set(1)->at(2), 25.0);
        QCOMPARE(LatencyHistogramChart::bucketLabel(10), QStringLiteral("1–2 µs"));
        chart.setClasses({});
        QCOMPARE(chart.rowCount(), 0);
    }

    void defaultsAndPicker()
    {
        Simulation sim;
        ChartsView view(sim);
        QCOMPARE(view.shownCharts(), QStringList({ "operations", "faults", "lock_wait", "hit_ratio" }));
        view.setChartShown(ChartsView::kFaultLatencyId, true);
        QVERIFY(view.isChartShown(ChartsView::kFaultLatencyId));
        view.setChartShown(QStringLiteral("operations"), false);
        QVERIFY(!view.shownCharts().contains(QStringLiteral("operations")));
        QVERIFY(view.chart(QStringLiteral("memory")) != nullptr);
        QVERIFY(view.chart(QStringLiteral("nonsense")) == nullptr);
    }

    void aRealRunFillsTheSeries()
    {
        Simulation sim;
        ChartsView view(sim);
        sim.setScenario(shortBundled());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        TimeSeriesChart* ops = view.timeSeries(QStringLiteral("operations"));
        QVERIFY(!sim.samples().empty());
        QCOMPARE(int(ops->data(0).points().size()), int(sim.samples().size()));
        QCOMPARE(ops->drawnPoints(0), int(sim.samples().size()));
        QVERIFY(view.timeRange() >= sim.samples().back().time_s);

        // A view opened after the run shows the same.
        ChartsView late(sim);
        QCOMPARE(late.timeSeries(QStringLiteral("operations"))->drawnPoints(0), int(sim.samples().size()));

        sim.reset(); // a new run: the charts are emptied
        QCOMPARE(ops->drawnPoints(0), 0);
    }

    void exportsPngSvgAndCsv()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Simulation sim;
        ChartsView view(sim);
        view.resize(1280, 720);
        view.show();
        sim.setScenario(shortBundled());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QChart* chart = view.chart(QStringLiteral("operations"));
        const QRectF before = chart->geometry();

        QString error;
        const QString png = dir.filePath(QStringLiteral("ops.png"));
        QVERIFY2(exportChart(chart, png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), kExportSize * kPngScale);
        QVERIFY(distinctColours(image) > 20);
        QCOMPARE(image.pixelColor(4, 4), QColor(Qt::white)); // light for the report
        QCOMPARE(chart->geometry(), before);                 // the view's chart is put back

        const QString svg = dir.filePath(QStringLiteral("ops.svg"));
        QVERIFY2(exportChart(chart, svg, &error), qPrintable(error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("<?xml"));
        QVERIFY(text.contains("<svg"));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QImage rendered(kExportSize, QImage::Format_ARGB32);
        rendered.fill(Qt::transparent);
        QPainter painter(&rendered);
        renderer.render(&painter);
        painter.end();
        QVERIFY(distinctColours(rendered) > 20);
        rendered.save(screenshotDir() + QStringLiteral("/charts-export-svg.png"));

        // Headless: a chart in no scene at all.
        TimeSeriesChart lone(*SeriesCatalog::chart(QStringLiteral("faults")), 100);
        for (const MetricsSample& s : sim.samples())
            lone.addSample(s);
        QVERIFY2(exportChart(&lone, dir.filePath(QStringLiteral("lone.svg")), &error), qPrintable(error));
        QVERIFY(lone.scene() == nullptr);
        QVERIFY(!exportChart(&lone, dir.filePath(QStringLiteral("lone.bmp")), &error));
        QVERIFY(error.contains(QStringLiteral("bmp")));
        QVERIFY(!exportChart(&lone, dir.filePath(QStringLiteral("no/such/dir/x.png")), &error));

        const QString csv = dir.filePath(QStringLiteral("data.csv"));
        QVERIFY2(exportSamplesCsv(sim.samples(), csv, &error), qPrintable(error));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly | QIODevice::Text));
        const QList<QByteArray> lines = c.readAll().split('\n');
        QCOMPARE(lines.size(), int(sim.samples().size()) + 2); // header, rows, final newline
        QVERIFY(lines[0].startsWith("time_s,interval_s,operations_per_s,minor_faults_per_s"));
        QCOMPARE(lines[1].count(','), lines[0].count(','));
    }

    void seriesAndExportsTakeTheColourSchemeChosen()
    {
        struct Restore {
            ~Restore() { setColorScheme(ColorScheme::Standard); }
        } restore;
        setColorScheme(ColorScheme::Standard);
        QTemporaryDir dir;
        Simulation sim;
        ChartsView view(sim);
        view.resize(1280, 720);
        view.show();
        view.setChartShown(ChartsView::kLockWaitId, true);
        sim.setScenario(shortBundled());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 20000);
        QChart* chart = view.chart(QStringLiteral("operations"));
        auto firstLine = [&] { return qobject_cast<QLineSeries*>(chart->series().first()); };
        QCOMPARE(firstLine()->pen().color(), QColor(0x2f, 0x6f, 0xb5));
        auto exportedPixels = [&](const QColor& colour) {
            QString error;
            const QString png = dir.filePath(QStringLiteral("ops.png"));
            if (!exportChart(chart, png, &error))
                return -1;
            const QImage image(png);
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    n += QColor(image.pixel(x, y)) == colour;
            return n;
        };
        const QColor okabeBlue = colors::okabeIto::blue();
        QCOMPARE(exportedPixels(okabeBlue), 0);

        // Switched after the run: the lines on screen, the bars of the
        // histogram and a chart saved now are in Okabe and Ito's colours.
        setColorScheme(ColorScheme::ColorBlindSafe);
        QCOMPARE(firstLine()->pen().color(), okabeBlue);
        QVERIFY(exportedPixels(okabeBlue) > 100);
        if (view.lockWait()->rowCount() > 0)
            QCOMPARE(view.lockWait()->set(0)->color(), colors::lockBlocked());
        QCOMPARE(colors::lockBlocked(), colors::okabeIto::vermillion());
        view.grab().toImage().save(screenshotDir() + QStringLiteral("/charts-colour-blind-safe.png"));

        setColorScheme(ColorScheme::Standard);
        QCOMPARE(firstLine()->pen().color(), QColor(0x2f, 0x6f, 0xb5));
    }

    void screenshotsLightAndDark()
    {
        // A run with faults, I/O and lock contention for the screenshots:
        // four CPUs reading and faulting one file over a slow disk, behind
        // 2.4's one global hash lock, held a little longer for the demo.
        Scenario s = load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
        s.engine.workload.pattern = WorkloadPattern::Mixed;
        s.engine.workload.files = FileSharing::Shared;
        s.engine.workload.file_pages = 16384;
        s.engine.hold_stretch_ns = 300;
        s.engine.workload.operations_per_cpu = 100000000;
        s.engine.device.request_ns = 20000;
        s.engine.device.page_ns = 2000;
        s.duration_seconds = 1.6;
        s.sample_interval_ms = 50;
        Simulation sim;
        ChartsView view(sim);
        view.resize(1280, 720);
        sim.setScenario(s);
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(sim.state() == Simulation::State::Finished || sim.state() == Simulation::State::Stopped
                || sim.state() == Simulation::State::Failed,
            20000);
        QVERIFY2(sim.state() != Simulation::State::Failed, qPrintable(sim.error()));
        view.show();
        QTest::qWait(50);
        // The default charts on a 1280 x 720 projector.
        const QImage projector = view.grab().toImage();
        QVERIFY(distinctColours(projector) > 40);
        projector.save(screenshotDir() + QStringLiteral("/charts-720p.png"));

        view.setChartShown(ChartsView::kFaultLatencyId, true);
        view.setChartShown(ChartsView::kLockWaitId, true);
        view.resize(1280, 1320);
        QTest::qWait(50);
        const QImage light = view.grab().toImage();
        QVERIFY(distinctColours(light) > 40);
        light.save(screenshotDir() + QStringLiteral("/charts-light.png"));

        view.setPalette(darkPalette());
        QTest::qWait(50);
        const QImage dark = view.grab().toImage();
        QVERIFY(distinctColours(dark) > 40);
        // The dark theme's chart background is dark.
        QVERIFY(dark.pixelColor(dark.width() / 4, dark.height() / 2).lightness() < 128);
        dark.save(screenshotDir() + QStringLiteral("/charts-dark.png"));

        // Export from the dark view is still light.
        QString error;
        QVERIFY(exportChart(view.chart(QStringLiteral("faults")),
            screenshotDir() + QStringLiteral("/charts-export-faults.png"), &error));
        QVERIFY(exportChart(view.chart(ChartsView::kFaultLatencyId),
            screenshotDir() + QStringLiteral("/charts-export-latency.svg"), &error));
        QVERIFY(exportChart(view.chart(ChartsView::kLockWaitId),
            screenshotDir() + QStringLiteral("/charts-export-lockwait.png"), &error));
        QPalette restored;
        QVERIFY(stylePalette(view.chart(QStringLiteral("faults")), &restored));
        QCOMPARE(restored.color(QPalette::Base), darkPalette().color(QPalette::Base));
    }
};

PCL_UI_TEST(TestCharts)
#include "test_charts.moc"
