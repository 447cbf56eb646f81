// How responsive the GUI stays: a timer that should fire every few
// milliseconds on the GUI thread, and how late it actually fires. Lateness
// is time the event loop was busy (a stall a user would feel as a frozen
// window). Also samples the process's resident memory, so a long run shows
// whether memory stays bounded.
//
// A long run is cut into intervals (a minute by default). For each, the watch
// keeps the run's throughput (operations per second, from the engine's own
// counter), the resident memory at its end and the share of the interval the
// GUI thread spent on the CPU. On a machine with fewer cores than simulated
// CPUs the GUI's time is taken from the CPUs: work per tick that grows with
// the run's history shows here as a GUI share that rises while the
// throughput falls, interval after interval. On a shared machine single
// intervals move by tens of percent with nothing in the program changing, so
// the report also fits a line through all of them (lib/trend.h).
#pragma once

#include "lib/trend.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

#include <cstdint>
#include <functional>

namespace pcl::ui {

class EventLoopWatch : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 5;
    /// Length of a throughput interval unless setIntervalSeconds says otherwise.
    static constexpr double kDefaultIntervalSeconds = 60;

    /// One interval of the run: from the end of the previous one (or the
    /// watch's start) to endSeconds.
    struct Interval {
        double startSeconds = 0;      ///< since the watch started
        double endSeconds = 0;        ///< since the watch started
        std::uint64_t operations = 0; ///< operations the CPUs did in it
        std::uint64_t events = 0;     ///< records the CPUs pushed into the event rings in it
        double operationsPerSecond = 0;
        double residentMiB = 0; ///< at its end
        double guiCpuShare = 0; ///< CPU time of the GUI thread / the interval's length
    };

    explicit EventLoopWatch(QObject* parent = nullptr);

    /// Where the run's operations are read (the engine's counter, summed
    /// over its CPUs), once an interval. Without one, intervals count none.
    void setOperationsCounter(std::function<std::uint64_t()> counter);
    /// Where the records the CPUs have pushed into the event rings are read
    /// (what the GUI thread has to drain), once an interval.
    void setEventsCounter(std::function<std::uint64_t()> counter);
    /// Length of each interval, at least a second.
    void setIntervalSeconds(double seconds);
    double intervalSeconds() const { return intervalS_; }

    /// Longest time the event loop was busy between two timer events, in ms.
    double maxStallMs() const { return maxStallMs_; }
    /// Timer events counted, and those that came more than 100 ms late.
    std::uint64_t ticks() const { return ticks_; }
    std::uint64_t stallsOver100ms() const { return over100_; }
    /// Resident memory now, and the most seen, in MiB (0 where unknown).
    static double residentMiB();
    double maxResidentMiB() const { return maxRssMiB_; }
    double startResidentMiB() const { return startRssMiB_; }
    /// CPU time the calling thread has used, in seconds.
    static double threadCpuSeconds();

    /// Closes the interval under way if it is at least half an interval
    /// long (a shorter one would weigh a few seconds like a whole interval)
    /// and stops watching. Called once the run is over, before report().
    void finish();
    /// The intervals closed so far, oldest first.
    const QList<Interval>& intervals() const { return intervals_; }
    /// Throughput of the last closed interval over the first's; 0 without
    /// two intervals or when the first did nothing.
    double throughputRatio() const;
    /// The least-squares line through every closed interval's throughput.
    Trend throughputTrend() const;

    /// "event loop: max stall 12.3 ms (0 over 100 ms) in 120000 timer events; memory 80 -> 95 MiB (max 97)",
    /// then a table of the intervals, the ratio of the last one's throughput to the first's and,
    /// from three intervals on, the same ratio of the line through them all with its 95% interval.
    QString report() const;
    /// The intervals as CSV with a header:
    /// interval,start_s,end_s,operations,ops_per_s,events_per_s,rss_mib,gui_cpu_share.
    QString intervalsCsv() const;

private:
    void tick();
    void closeInterval(double nowS);

    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastNs_ = 0;
    double maxStallMs_ = 0;
    std::uint64_t ticks_ = 0;
    std::uint64_t over100_ = 0;
    double startRssMiB_ = 0;
    double maxRssMiB_ = 0;

    std::function<std::uint64_t()> operations_;
    std::function<std::uint64_t()> events_;
    double intervalS_ = kDefaultIntervalSeconds;
    QList<Interval> intervals_;
    double intervalStartS_ = 0;
    std::uint64_t intervalStartOps_ = 0;
    std::uint64_t intervalStartEvents_ = 0;
    double intervalStartCpuS_ = 0;
    bool finished_ = false;
};

} // namespace pcl::ui
