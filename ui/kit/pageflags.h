// A page's flags in words ("uptodate lru referenced"), in the order
// include/linux/page-flags.h lists them, for the tooltips of the views that
// show single pages.
#pragma once

#include "base/page.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <utility>

namespace pcl::ui {

/// The names of the flags set in @flags joined by @separator; "none" if none.
inline QString pageFlagNames(std::uint32_t flags, const QString& separator)
{
    static const std::pair<std::uint32_t, const char*> kFlags[]
        = { { PG_locked, "locked" }, { PG_uptodate, "uptodate" }, { PG_dirty, "dirty" }, { PG_writeback, "writeback" },
              { PG_readahead, "readahead" }, { PG_referenced, "referenced" }, { PG_active, "active" },
              { PG_lru, "lru" }, { PG_ra_unused, "ra_unused" }, { PG_young, "young" } };
    QStringList names;
    for (const auto& [bit, name] : kFlags)
        if (flags & bit)
            names << QString::fromLatin1(name);
    return names.isEmpty() ? QStringLiteral("none") : names.join(separator);
}

} // namespace pcl::ui
