// A lock's row in a registry's table, and its acquisitions, looked up by
// the lock's name or its class's.
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

/// Acquisitions of the lock called @name.
inline std::uint64_t acquisitions(sync::LockRegistry& registry, const std::string& name)
{
    const auto rows = registry.locks();
    const sync::LockStatRow* row = find_row(rows, name);
    return row ? row->acquisitions : 0;
}

/// Acquisitions of every named lock of @registry, summed.
inline std::uint64_t all_acquisitions(sync::LockRegistry& registry)
{
    std::uint64_t all = 0;
    for (const auto& row : registry.locks())
        all += row.acquisitions;
    return all;
}

/// Acquisitions of every lock of the class @name.
inline std::uint64_t class_acquisitions(sync::LockRegistry& registry, const std::string& name)
{
    const auto rows = registry.classes();
    const sync::LockStatRow* row = find_row(rows, name);
    return row ? row->acquisitions : 0;
}

} // namespace pcl::test
