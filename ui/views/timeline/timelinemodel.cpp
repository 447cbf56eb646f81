#include "views/timeline/timelinemodel.h"

#include <QThreadPool>

#include <cmath>

namespace pcl::ui {

TimelineModel::TimelineModel()
{
    reset(0);
}

void TimelineModel::reset(unsigned cpus, unsigned disks)
{
    // A long run's spans are freed on a pool thread: taking a run back
    // resets the timeline, and the window answers without waiting for it.
    std::shared_ptr<void> old = spans_.reset(LaneLayout(cpus, std::max(disks, 1u)));
    QThreadPool::globalInstance()->start([old = std::move(old)]() mutable { old.reset(); });
    lockNames_.clear();
}

void TimelineModel::addEvents(const std::vector<Event>& events)
{
    for (const Event& e : events)
        addEvent(e);
    spans_.evict();
}

void TimelineModel::addEvent(const Event& e)
{
    if (e.cpu >= laneCount())
        return;
    spans_.add(e);
    nameLocks();
}

void TimelineModel::nameLocks()
{
    // Named as they are met, while the run's registry still has them.
    while (lockNames_.size() < spans_.locks()) {
        const ev::LockAcquired lock { spans_.lock_record(std::uint32_t(lockNames_.size())) };
        QString name = namer_ ? namer_(lock.e) : QString();
        if (name.isEmpty())
            name = lock.lock_id() ? QStringLiteral("lock #%1").arg(lock.lock_id())
                                  : QStringLiteral("lock of class #%1").arg(lock.class_id());
        lockNames_.push_back(name);
    }
}

QString TimelineModel::lockName(std::uint32_t id) const
{
    return id < lockNames_.size() ? lockNames_[id] : QString();
}

std::optional<TimelineSpan> TimelineModel::spanAt(int lane, std::uint64_t t) const
{
    if (lane < 0 || lane >= laneCount())
        return std::nullopt;
    return spans_.span_at(unsigned(lane), t);
}

void TimelineModel::columns(int lane, double t0, double t1, std::vector<Column>& out) const
{
    if (lane < 0 || lane >= laneCount()) {
        std::fill(out.begin(), out.end(), Column {});
        return;
    }
    spans_.columns(unsigned(lane), t0, t1, out);
}

QString formatDuration(double ns)
{
    const double a = std::abs(ns);
    auto fmt = [](double v, const char* unit) {
        const double av = std::abs(v);
        const int decimals = av >= 100 ? 0 : av >= 10 ? 1 : 2;
        return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit);
    };
    if (a < 1e3)
        return QString::number(std::llround(ns)) + QStringLiteral(" ns");
    if (a < 1e6)
        return fmt(ns / 1e3, "µs");
    if (a < 1e9)
        return fmt(ns / 1e6, "ms");
    return fmt(ns / 1e9, "s");
}

} // namespace pcl::ui
