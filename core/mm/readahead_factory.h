// Readahead policies by name, for scenarios and the command line. Each is
// a whole kernel's readahead, for read(2) and mmap faults together:
//   linux         a modern kernel's (LinuxReadahead: 6.16 on, large folios included)
//   linux-2.6.32  2.6.32's ondemand readahead for read(2) and read-around
//                 for mmap faults (ReadaroundReadahead)
//   morton-2002   Morton's 2002 unified readahead, shrinking on thrashing
//                 (MortonReadahead)
//   none          the pages asked for only (NoReadahead)
// The names of earlier versions load as aliases: ondemand and readaround
// are linux-2.6.32 (an ondemand that applied read(2) rules to mmap faults
// was no kernel's), morton is morton-2002.
#pragma once

#include "mm/readahead.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace pcl {

/// The policies' names, in the order a form lists them.
std::span<const std::string_view> readahead_policy_names() noexcept;
/// The policy @name (a name or an alias) stands for, or "" if it is none.
std::string_view canonical_readahead_policy(std::string_view name) noexcept;
/// The policy @name (a name or an alias) with a per-device maximum of
/// @ra_pages pages. Throws std::invalid_argument on another name.
std::unique_ptr<ReadaheadPolicy> make_readahead_policy(std::string_view name, pgoff_t ra_pages = 32);

} // namespace pcl
