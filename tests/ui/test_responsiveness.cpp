// The responsiveness report's intervals: each counts the operations and
// records from the counters it was given, from the moment it was given
// them, the line through them all gives the trend, and a run too short to
// fill half an interval has nothing to compare.
#include "shell/eventloopwatch.h"
#include "ui_test_registry.h"

#include <QTest>

using pcl::ui::EventLoopWatch;

class TestResponsiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void anIntervalCountsFromWhenTheCountersWereGiven()
    {
        EventLoopWatch watch;
        watch.setIntervalSeconds(0.2);
        QCOMPARE(watch.intervalSeconds(), 1.0); // a second at least
        std::uint64_t ops = 5, events = 7;
        watch.setOperationsCounter([&] { return ops; });
        watch.setEventsCounter([&] { return events; });
        ops = 905;
        events = 1007;
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(1), 10000);
        const EventLoopWatch::Interval& first = watch.intervals().front();
        QCOMPARE(first.operations, std::uint64_t(900));
        QCOMPARE(first.events, std::uint64_t(1000));
        QVERIFY(first.endSeconds - first.startSeconds >= 1.0);
        QCOMPARE(first.operationsPerSecond, 900 / (first.endSeconds - first.startSeconds));

        // Nothing more done: the next interval counts none, and the ratio says so.
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(2), 10000);
        QCOMPARE(watch.intervals().back().operations, std::uint64_t(0));
        QCOMPARE(watch.throughputRatio(), 0.0);
        // No event is handled between the wait and these lines, so no third
        // interval can close; finish() could close one after a late tick.
        QVERIFY(watch.report().contains(QStringLiteral("throughput, last interval / first: 0.000")));
        QVERIFY(!watch.report().contains(QStringLiteral("throughput trend"))); // two intervals: no line
        watch.finish();
        const QStringList csv = watch.intervalsCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(csv.size(), watch.intervals().size() + 1);
        QCOMPARE(csv.front(),
            QStringLiteral("interval,start_s,end_s,operations,ops_per_s,events_per_s,rss_mib,gui_cpu_share"));
        QVERIFY(csv.at(1).startsWith(QStringLiteral("1,")));
        QCOMPARE(csv.at(1).split(QLatin1Char(',')).at(3), QStringLiteral("900"));
    }

    void theTrendIsTheLineThroughEveryInterval()
    {
        EventLoopWatch watch;
        watch.setIntervalSeconds(1);
        std::uint64_t ops = 0;
        watch.setOperationsCounter([&] { return ops; });
        ops = 6000;
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(1), 10000);
        ops += 1000;
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(2), 10000);
        ops += 2000;
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(3), 10000);
        // Read before any further event: a late tick cannot add an interval.
        QCOMPARE(watch.intervals().size(), qsizetype(3));
        QCOMPARE(watch.intervals().at(0).operations, std::uint64_t(6000));
        QCOMPARE(watch.intervals().at(1).operations, std::uint64_t(1000));
        QCOMPARE(watch.intervals().at(2).operations, std::uint64_t(2000));

        // Through three points the line's slope is (y3 - y1) / 2 and it
        // passes through their mean at the middle one.
        const double y1 = watch.intervals().at(0).operationsPerSecond;
        const double y2 = watch.intervals().at(1).operationsPerSecond;
        const double y3 = watch.intervals().at(2).operationsPerSecond;
        const double mean = (y1 + y2 + y3) / 3, slope = (y3 - y1) / 2;
        const pcl::Trend t = watch.throughputTrend();
        QCOMPARE(t.points, std::size_t(3));
        QVERIFY(qAbs(t.ratio - (mean + slope) / (mean - slope)) < 1e-12);
        // The last interval alone is a third of the first; the line, pulled
        // down at the middle by the slowest interval, about a fifth. Three
        // points leave one degree of freedom (t = 12.706): the interval
        // spans everything from a line that ends below zero to one that
        // starts there.
        QVERIFY(qAbs(watch.throughputRatio() - y3 / y1) < 1e-12);
        QVERIFY(t.ratio < watch.throughputRatio());
        const QString report = watch.report();
        QVERIFY2(report.contains(QStringLiteral("throughput trend, line through all 3 intervals: last / first %1 "
                                                "(95% interval 0.000 to unbounded)")
                                     .arg(t.ratio, 0, 'f', 3)),
            qPrintable(report));
        watch.finish();
    }

    void aRunThatDidNothingHasNoTrendRatio()
    {
        EventLoopWatch watch;
        watch.setIntervalSeconds(1);
        std::uint64_t ops = 0;
        watch.setOperationsCounter([&] { return ops; });
        QTRY_COMPARE_WITH_TIMEOUT(watch.intervals().size(), qsizetype(3), 15000);
        const QString report = watch.report();
        QVERIFY2(report.contains(QStringLiteral(
                     "throughput trend, line through all 3 intervals: it starts at or below zero, so it has no "
                     "last / first ratio")),
            qPrintable(report));
        watch.finish();
    }

    void aRunShorterThanHalfAnIntervalHasNothingToCompare()
    {
        EventLoopWatch watch;
        watch.setIntervalSeconds(1000);
        std::uint64_t ops = 0;
        watch.setOperationsCounter([&] { return ops; });
        ops = 1'000'000;
        watch.finish();
        QVERIFY(watch.intervals().isEmpty());
        QCOMPARE(watch.throughputRatio(), 0.0);
        QVERIFY(!watch.report().contains(QLatin1Char('\n')));
        QCOMPARE(watch.intervalsCsv(),
            QStringLiteral("interval,start_s,end_s,operations,ops_per_s,events_per_s,rss_mib,gui_cpu_share\n"));
    }
};

PCL_UI_TEST(TestResponsiveness)
#include "test_responsiveness.moc"
