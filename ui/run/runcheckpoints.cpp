#include "run/runcheckpoints.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <string>

namespace pcl::ui {

void RunCheckpoints::clear()
{
    entries_.clear();
    spentNs_ = 0;
    enabled_ = true;
}

void RunCheckpoints::disable()
{
    entries_.clear();
    enabled_ = false;
}

bool RunCheckpoints::due(std::uint64_t runningNs) const
{
    if (!enabled_)
        return false;
    if (entries_.empty())
        return true;
    // Nothing to gain at a moment one already holds.
    const Entry* before = latestAtOrBefore(runningNs);
    constexpr double kLeastAvailable = 0.15;
    return spentNs_ >= everyNs_ && (!before || before->runningNs() < runningNs) && memoryAvailable() >= kLeastAvailable;
}

double RunCheckpoints::memoryAvailable()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kb = 0;
    double total = 0;
    double available = -1;
    while (meminfo >> key >> kb) {
        if (key == "MemTotal:")
            total = kb;
        else if (key == "MemAvailable:")
            available = kb;
        meminfo.ignore(64, '\n');
    }
    return total > 0 && available >= 0 ? available / total : 1.0;
}

void RunCheckpoints::add(Entry e)
{
    spentNs_ = 0;
    const std::uint64_t at = e.runningNs();
    auto it = std::lower_bound(
        entries_.begin(), entries_.end(), at, [](const Entry& x, std::uint64_t t) { return x.runningNs() < t; });
    if (it != entries_.end() && it->runningNs() == at)
        *it = std::move(e);
    else
        entries_.insert(it, std::move(e));
    while (entries_.size() > kMax) {
        // The first (the run's start) and the last stay; of the others, the
        // one whose neighbours are closest goes.
        std::size_t drop = 1;
        std::uint64_t narrowest = std::numeric_limits<std::uint64_t>::max();
        for (std::size_t i = 1; i + 1 < entries_.size(); ++i) {
            const std::uint64_t gap = entries_[i + 1].runningNs() - entries_[i - 1].runningNs();
            if (gap < narrowest) {
                narrowest = gap;
                drop = i;
            }
        }
        entries_.erase(entries_.begin() + std::ptrdiff_t(drop));
    }
}

const RunCheckpoints::Entry* RunCheckpoints::latestAtOrBefore(std::uint64_t runningNs) const noexcept
{
    auto it = std::upper_bound(
        entries_.begin(), entries_.end(), runningNs, [](std::uint64_t t, const Entry& x) { return t < x.runningNs(); });
    return it == entries_.begin() ? nullptr : &*std::prev(it);
}

void RunCheckpoints::dropAfter(std::uint64_t runningNs)
{
    std::erase_if(entries_, [runningNs](const Entry& e) { return e.runningNs() > runningNs; });
}

std::size_t RunCheckpoints::bytes() const noexcept
{
    std::size_t sum = 0;
    for (const Entry& e : entries_)
        sum += e.run->bytes();
    return sum;
}

} // namespace pcl::ui
