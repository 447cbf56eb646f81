#include "index/index_scheme.h"

#include "index/hash_index.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"

namespace pcl {

std::string_view index_scheme_name(IndexScheme scheme) noexcept
{
    switch (scheme.kind_) {
    case IndexKind::Radix:
        return RadixTree::scheme_name(RadixScheme(scheme.value_));
    case IndexKind::Hash:
        return hash_scheme_name(HashScheme(scheme.value_));
    case IndexKind::SkipList:
        return skiplist_scheme_name(SkipListScheme(scheme.value_));
    }
    return "?";
}

} // namespace pcl
