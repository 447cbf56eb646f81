#include "shell/eventloopwatch.h"

#include <QFile>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <vector>

#include <unistd.h>

namespace pcl::ui {

EventLoopWatch::EventLoopWatch(QObject* parent)
    : QObject(parent)
{
    timer_.setInterval(kIntervalMs);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &EventLoopWatch::tick);
    clock_.start();
    lastNs_ = clock_.nsecsElapsed();
    startRssMiB_ = maxRssMiB_ = residentMiB();
    intervalStartCpuS_ = threadCpuSeconds();
    timer_.start();
}

void EventLoopWatch::setOperationsCounter(std::function<std::uint64_t()> counter)
{
    operations_ = std::move(counter);
    // The interval under way counts from now: the operations before the
    // counter was known are nobody's.
    intervalStartS_ = double(clock_.nsecsElapsed()) / 1e9;
    intervalStartOps_ = operations_ ? operations_() : 0;
    intervalStartCpuS_ = threadCpuSeconds();
}

void EventLoopWatch::setEventsCounter(std::function<std::uint64_t()> counter)
{
    events_ = std::move(counter);
    intervalStartEvents_ = events_ ? events_() : 0;
}

void EventLoopWatch::setIntervalSeconds(double seconds)
{
    intervalS_ = std::max(1.0, seconds);
}

double EventLoopWatch::residentMiB()
{
    // /proc/self/statm: size resident shared ... in pages.
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    if (fields.size() < 2)
        return 0;
    return double(fields[1].toLongLong()) * double(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double EventLoopWatch::threadCpuSeconds()
{
    timespec ts {};
    if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

void EventLoopWatch::tick()
{
    const qint64 now = clock_.nsecsElapsed();
    const double lateMs = double(now - lastNs_) / 1e6 - kIntervalMs;
    lastNs_ = now;
    ++ticks_;
    if (lateMs > maxStallMs_)
        maxStallMs_ = lateMs;
    if (lateMs > 100)
        ++over100_;
    if (ticks_ % 200 == 0) // about once a second
        maxRssMiB_ = std::max(maxRssMiB_, residentMiB());
    const double nowS = double(now) / 1e9;
    if (nowS >= intervalStartS_ + intervalS_)
        closeInterval(nowS);
}

void EventLoopWatch::closeInterval(double nowS)
{
    Interval i;
    i.startSeconds = intervalStartS_;
    i.endSeconds = nowS;
    const std::uint64_t ops = operations_ ? operations_() : 0;
    i.operations = ops >= intervalStartOps_ ? ops - intervalStartOps_ : ops; // a new run counts from 0
    const std::uint64_t events = events_ ? events_() : 0;
    i.events = events >= intervalStartEvents_ ? events - intervalStartEvents_ : events;
    const double length = std::max(1e-9, nowS - intervalStartS_);
    i.operationsPerSecond = double(i.operations) / length;
    i.residentMiB = residentMiB();
    maxRssMiB_ = std::max(maxRssMiB_, i.residentMiB);
    const double cpu = threadCpuSeconds();
    i.guiCpuShare = (cpu - intervalStartCpuS_) / length;
    intervals_.append(i);
    intervalStartS_ = nowS;
    intervalStartOps_ = ops;
    intervalStartEvents_ = events;
    intervalStartCpuS_ = cpu;
}

void EventLoopWatch::finish()
{
    if (finished_)
        return;
    finished_ = true;
    timer_.stop();
    const double nowS = double(clock_.nsecsElapsed()) / 1e9;
    if (nowS - intervalStartS_ >= intervalS_ / 2)
        closeInterval(nowS);
}

double EventLoopWatch::throughputRatio() const
{
    if (intervals_.size() < 2 || intervals_.front().operationsPerSecond <= 0)
        return 0;
    return intervals_.back().operationsPerSecond / intervals_.front().operationsPerSecond;
}

Trend EventLoopWatch::throughputTrend() const
{
    std::vector<double> ops;
    ops.reserve(std::size_t(intervals_.size()));
    for (const Interval& i : intervals_)
        ops.push_back(i.operationsPerSecond);
    return fit_trend(ops);
}

QString EventLoopWatch::report() const
{
    QString out = QStringLiteral("event loop: max stall %1 ms (%2 over 100 ms) in %3 timer events of %4 ms; "
                                 "memory %5 -> %6 MiB (max %7)")
                      .arg(maxStallMs_, 0, 'f', 1)
                      .arg(over100_)
                      .arg(ticks_)
                      .arg(kIntervalMs)
                      .arg(startRssMiB_, 0, 'f', 0)
                      .arg(residentMiB(), 0, 'f', 0)
                      .arg(std::max(maxRssMiB_, residentMiB()), 0, 'f', 0);
    if (intervals_.isEmpty())
        return out;
    out += QStringLiteral("\n%1 %2 %3 %4 %5 %6")
               .arg(QStringLiteral("interval"), 8)
               .arg(QStringLiteral("end s"), 8)
               .arg(QStringLiteral("ops/s"), 12)
               .arg(QStringLiteral("events/s"), 10)
               .arg(QStringLiteral("memory MiB"), 11)
               .arg(QStringLiteral("GUI thread busy"), 16);
    for (int k = 0; k < intervals_.size(); ++k) {
        const Interval& i = intervals_[k];
        out += QStringLiteral("\n%1 %2 %3 %4 %5 %6%")
                   .arg(k + 1, 8)
                   .arg(i.endSeconds, 8, 'f', 1)
                   .arg(i.operationsPerSecond, 12, 'f', 0)
                   .arg(double(i.events) / std::max(1e-9, i.endSeconds - i.startSeconds), 10, 'f', 0)
                   .arg(i.residentMiB, 11, 'f', 0)
                   .arg(i.guiCpuShare * 100, 15, 'f', 1);
    }
    if (intervals_.size() >= 2)
        out += QStringLiteral("\nthroughput, last interval / first: %1 (%2 / %3 ops/s, intervals of %4 s)")
                   .arg(throughputRatio(), 0, 'f', 3)
                   .arg(intervals_.back().operationsPerSecond, 0, 'f', 0)
                   .arg(intervals_.front().operationsPerSecond, 0, 'f', 0)
                   .arg(intervalS_, 0, 'g', 6);
    if (intervals_.size() >= 3) {
        const Trend t = throughputTrend();
        if (!t.has_ratio())
            return out
                + QStringLiteral("\nthroughput trend, line through all %1 intervals: it starts at or below zero, "
                                 "so it has no last / first ratio")
                      .arg(t.points);
        const QString high
            = std::isinf(t.ratio_high) ? QStringLiteral("unbounded") : QString::number(t.ratio_high, 'f', 3);
        out += QStringLiteral("\nthroughput trend, line through all %1 intervals: last / first %2 "
                              "(95% interval %3 to %4); the intervals scatter %5% about the line")
                   .arg(t.points)
                   .arg(t.ratio, 0, 'f', 3)
                   .arg(t.ratio_low, 0, 'f', 3)
                   .arg(high)
                   .arg(t.scatter * 100, 0, 'f', 1);
    }
    return out;
}

QString EventLoopWatch::intervalsCsv() const
{
    QString out = QStringLiteral("interval,start_s,end_s,operations,ops_per_s,events_per_s,rss_mib,gui_cpu_share\n");
    for (int k = 0; k < intervals_.size(); ++k) {
        const Interval& i = intervals_[k];
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                   .arg(k + 1)
                   .arg(i.startSeconds, 0, 'f', 3)
                   .arg(i.endSeconds, 0, 'f', 3)
                   .arg(i.operations)
                   .arg(i.operationsPerSecond, 0, 'f', 1)
                   .arg(double(i.events) / std::max(1e-9, i.endSeconds - i.startSeconds), 0, 'f', 1)
                   .arg(i.residentMiB, 0, 'f', 1)
                   .arg(i.guiCpuShare, 0, 'f', 4);
    }
    return out;
}

} // namespace pcl::ui
