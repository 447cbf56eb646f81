#include "shell/eventloopwatch.h"

#include <QFile>

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
    timer_.start();
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
    if (ticks_ % 200 == 0) { // about once a second
        const double rss = residentMiB();
        maxRssMiB_ = std::max(maxRssMiB_, rss);
        if (now / 60'000'000'000 > qint64(rssPerMinuteMiB_.size()))
            rssPerMinuteMiB_.append(int(rss + 0.5));
    }
}

QString EventLoopWatch::report() const
{
    return QStringLiteral("event loop: max stall %1 ms (%2 over 100 ms) in %3 timer events of %4 ms; "
                          "memory %5 -> %6 MiB (max %7)")
               .arg(maxStallMs_, 0, 'f', 1)
               .arg(over100_)
               .arg(ticks_)
               .arg(kIntervalMs)
               .arg(startRssMiB_, 0, 'f', 0)
               .arg(residentMiB(), 0, 'f', 0)
               .arg(std::max(maxRssMiB_, residentMiB()), 0, 'f', 0)
        + (rssPerMinuteMiB_.isEmpty() ? QString() : QStringLiteral("\nmemory at the end of each minute (MiB): ") + [&] {
              QStringList l;
              for (int m : rssPerMinuteMiB_)
                  l.append(QString::number(m));
              return l.join(QStringLiteral(" "));
          }());
}

} // namespace pcl::ui
