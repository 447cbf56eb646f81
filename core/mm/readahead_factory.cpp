#include "mm/readahead_factory.h"

#include "mm/readahead_linux.h"
#include "mm/readahead_morton.h"
#include "mm/readahead_ondemand.h"
#include "mm/readahead_readaround.h"

#include <stdexcept>
#include <string>

namespace pcl {

namespace {

constexpr std::string_view kNames[] = { "none", "linux", "linux-2.6.32", "morton-2002" };

} // namespace

std::span<const std::string_view> readahead_policy_names() noexcept
{
    return kNames;
}

std::string_view canonical_readahead_policy(std::string_view name) noexcept
{
    for (std::string_view n : kNames)
        if (name == n)
            return n;
    if (name == "ondemand" || name == "readaround")
        return "linux-2.6.32";
    if (name == "morton")
        return "morton-2002";
    return {};
}

std::unique_ptr<ReadaheadPolicy> make_readahead_policy(std::string_view name, pgoff_t ra_pages)
{
    const std::string_view policy = canonical_readahead_policy(name);
    if (policy == "linux")
        return std::make_unique<LinuxReadahead>(ra_pages);
    if (policy == "linux-2.6.32")
        return std::make_unique<ReadaroundReadahead>(ra_pages);
    if (policy == "morton-2002")
        return std::make_unique<MortonReadahead>(ra_pages);
    if (policy == "none")
        return std::make_unique<NoReadahead>();
    throw std::invalid_argument(
        "unknown readahead policy '" + std::string(name) + "' (expected linux, linux-2.6.32, morton-2002 or none)");
}

} // namespace pcl
