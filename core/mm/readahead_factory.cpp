#include "mm/readahead_factory.h"

#include "mm/readahead_morton.h"
#include "mm/readahead_ondemand.h"
#include "mm/readahead_readaround.h"

#include <stdexcept>
#include <string>

namespace pcl {

std::unique_ptr<ReadaheadPolicy> make_readahead_policy(std::string_view name, pgoff_t ra_pages)
{
    if (name == "ondemand")
        return std::make_unique<OndemandReadahead>(ra_pages);
    if (name == "readaround")
        return std::make_unique<ReadaroundReadahead>(ra_pages);
    if (name == "morton")
        return std::make_unique<MortonReadahead>(ra_pages);
    if (name == "none")
        return std::make_unique<NoReadahead>();
    throw std::invalid_argument(
        "unknown readahead policy '" + std::string(name) + "' (expected ondemand, readaround, morton or none)");
}

} // namespace pcl
