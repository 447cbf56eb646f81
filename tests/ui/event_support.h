// An event made by hand for the views' tests, in the order they list them.
#pragma once

#include "events/event.h"

#include <cstdint>

namespace pcl::ui::test {

/// An event at time @t (pcl::make_event_at's fields, most of them 0).
inline Event eventAt(EventKind kind, std::uint16_t cpu, std::uint64_t t, std::uint64_t object = 0, FileId file = 0,
    pgoff_t index = 0, std::int64_t arg0 = 0, std::int32_t arg1 = 0)
{
    return make_event_at(t, kind, cpu, object, file, index, arg0, arg1);
}

} // namespace pcl::ui::test
