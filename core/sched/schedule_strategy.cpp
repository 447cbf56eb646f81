#include "sched/schedule_strategy.h"

namespace pcl::sched {

std::string_view strategy_name(ScheduleStrategy strategy) noexcept
{
    switch (strategy) {
    case ScheduleStrategy::Random:
        return "random";
    case ScheduleStrategy::Pct:
        return "pct";
    case ScheduleStrategy::VirtualTime:
        break;
    }
    return "virtual_time";
}

std::optional<ScheduleStrategy> parse_strategy(std::string_view name) noexcept
{
    for (ScheduleStrategy s : { ScheduleStrategy::VirtualTime, ScheduleStrategy::Random, ScheduleStrategy::Pct })
        if (strategy_name(s) == name)
            return s;
    return std::nullopt;
}

} // namespace pcl::sched
