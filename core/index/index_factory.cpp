#include "index/index_factory.h"

#include "index/hash_index.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"
#include "lib/field_error.h"

#include <algorithm>
#include <stdexcept>

namespace pcl {

namespace {

[[noreturn]] void throw_unknown_kind(std::string_view kind)
{
    const std::string reason = "'" + std::string(kind) + "' is unknown; allowed: radix, hash, skiplist";
    throw FieldError("kind", reason, "index kind " + reason);
}

} // namespace

std::vector<std::string> index_kinds()
{
    return { kIndexKinds.begin(), kIndexKinds.end() };
}

std::vector<std::string> index_schemes(std::string_view kind)
{
    if (kind == "radix")
        return radix_schemes();
    if (kind == "hash")
        return hash_schemes();
    if (kind == "skiplist")
        return skiplist_schemes();
    throw_unknown_kind(kind);
}

void IndexSpec::validate() const
{
    const std::vector<std::string> schemes = index_schemes(kind);
    if (!scheme.empty() && std::find(schemes.begin(), schemes.end(), scheme) == schemes.end()) {
        std::string allowed;
        for (const std::string& s : schemes)
            allowed += (allowed.empty() ? "" : ", ") + s;
        throw FieldError("scheme",
            "'" + scheme + "' is not a scheme of the " + kind + " index; allowed: " + allowed
                + ", or \"\" for its default");
    }
    RadixTree::Config radix;
    radix.shift = radix_shift;
    radix.validate();
    // Each family reads its own scheme; under another kind its default.
    IndexSpec hash = *this;
    if (kind != "hash")
        hash.scheme = "global";
    HashConfig::from_spec(hash).validate();
    IndexSpec skiplist = *this;
    if (kind != "skiplist")
        skiplist.scheme.clear();
    SkipListConfig::from_spec(skiplist).validate();
}

std::unique_ptr<PageIndex> make_page_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    if (spec.kind == "radix")
        return make_radix_index(spec, file, registry);
    if (spec.kind == "hash")
        return make_hash_index(spec, file, registry);
    if (spec.kind == "skiplist")
        return make_skiplist_index(spec, file, registry);
    throw_unknown_kind(spec.kind);
}

} // namespace pcl
