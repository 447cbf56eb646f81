// Readahead policies by name, for scenarios and the command line.
#pragma once

#include "mm/readahead.h"

#include <memory>
#include <string_view>

namespace pcl {

/// "ondemand" (OndemandReadahead), "readaround" (ReadaroundReadahead),
/// "morton" (MortonReadahead) or "none" (NoReadahead), with a per-device
/// maximum of @ra_pages pages. Throws std::invalid_argument on another name.
std::unique_ptr<ReadaheadPolicy> make_readahead_policy(std::string_view name, pgoff_t ra_pages = 32);

} // namespace pcl
