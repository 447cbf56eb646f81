#include "index/index_factory.h"

#include <stdexcept>

namespace pcl {

std::vector<std::string> index_kinds()
{
    return { "radix", "hash", "skiplist" };
}

std::vector<std::string> index_schemes(std::string_view kind)
{
    if (kind == "radix")
        return radix_schemes();
    if (kind == "hash")
        return hash_schemes();
    if (kind == "skiplist")
        return skiplist_schemes();
    throw std::invalid_argument("index kind '" + std::string(kind) + "' is unknown; allowed: radix, hash, skiplist");
}

std::unique_ptr<PageIndex> make_page_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    if (spec.kind == "radix")
        return make_radix_index(spec, file, registry);
    if (spec.kind == "hash")
        return make_hash_index(spec, file, registry);
    if (spec.kind == "skiplist")
        return make_skiplist_index(spec, file, registry);
    throw std::invalid_argument("index kind '" + spec.kind + "' is unknown; allowed: radix, hash, skiplist");
}

} // namespace pcl
