#include "mm/workingset.h"

#include <stdexcept>

namespace pcl {

ShadowTable::ShadowTable(std::uint64_t capacity)
    : capacity_(capacity)
{
    if (capacity == 0)
        throw std::invalid_argument("shadow table capacity must be at least 1, got 0");
}

bool ShadowTable::remember(FileId file, pgoff_t index, std::uint64_t age)
{
    const Key key { file, index };
    live_[key] = age;
    order_.push_back({ key, age });
    // The order queue holds at most capacity entries, live or stale, so
    // neither it nor the table outgrows the bound; an entry still live when
    // it reaches the front is the oldest shadow and goes.
    bool dropped = false;
    while (order_.size() > capacity_) {
        const Entry e = order_.front();
        order_.pop_front();
        auto it = live_.find(e.key);
        if (it != live_.end() && it->second == e.age) {
            live_.erase(it);
            dropped = true;
        }
    }
    return dropped;
}

bool ShadowTable::take(FileId file, pgoff_t index, std::uint64_t& age)
{
    auto it = live_.find(Key { file, index });
    if (it == live_.end())
        return false;
    age = it->second;
    live_.erase(it);
    return true;
}

} // namespace pcl
