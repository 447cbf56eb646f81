// How responsive the GUI stays: a timer that should fire every few
// milliseconds on the GUI thread, and how late it actually fires. Lateness
// is time the event loop was busy (a stall a user would feel as a frozen
// window). Also samples the process's resident memory, so a long run shows
// whether memory stays bounded.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QList>
#include <QString>
#include <QTimer>

#include <cstdint>

namespace pcl::ui {

class EventLoopWatch : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 5;

    explicit EventLoopWatch(QObject* parent = nullptr);

    /// Longest time the event loop was busy between two timer events, in ms.
    double maxStallMs() const { return maxStallMs_; }
    /// Timer events counted, and those that came more than 100 ms late.
    std::uint64_t ticks() const { return ticks_; }
    std::uint64_t stallsOver100ms() const { return over100_; }
    /// Resident memory now, and the most seen, in MiB (0 where unknown).
    static double residentMiB();
    double maxResidentMiB() const { return maxRssMiB_; }
    double startResidentMiB() const { return startRssMiB_; }

    /// "event loop: max stall 12.3 ms (0 over 100 ms) in 120000 timer events; memory 80 -> 95 MiB (max 97)",
    /// and a second line with the memory at the end of each minute.
    QString report() const;

private:
    void tick();

    QTimer timer_;
    QElapsedTimer clock_;
    qint64 lastNs_ = 0;
    double maxStallMs_ = 0;
    std::uint64_t ticks_ = 0;
    std::uint64_t over100_ = 0;
    QList<int> rssPerMinuteMiB_; ///< resident memory at the end of each minute
    double startRssMiB_ = 0;
    double maxRssMiB_ = 0;
};

} // namespace pcl::ui
