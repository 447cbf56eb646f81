// A lock's row in a registry's table, looked up by the lock's name.
#pragma once

#include "sync/lock_stats.h"

#include <string>
#include <vector>

namespace pcl::test {

/// The row of the lock called @name in @rows, or null.
inline const sync::LockStatRow* find_row(const std::vector<sync::LockStatRow>& rows, const std::string& name)
{
    for (const auto& row : rows)
        if (row.name == name)
            return &row;
    return nullptr;
}

} // namespace pcl::test
