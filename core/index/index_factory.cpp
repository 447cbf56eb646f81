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

std::vector<IndexKind> index_kinds()
{
    return { kIndexKinds.begin(), kIndexKinds.end() };
}

IndexKind index_kind_named(std::string_view name)
{
    if (const std::optional<IndexKind> kind = parse_index_kind(name))
        return *kind;
    throw_unknown_kind(name);
}

std::vector<std::string> index_schemes(IndexKind kind)
{
    switch (kind) {
    case IndexKind::Radix:
        return radix_schemes();
    case IndexKind::Hash:
        return hash_schemes();
    case IndexKind::SkipList:
        return skiplist_schemes();
    }
    throw_unknown_kind(index_kind_name(kind));
}

void IndexSpec::validate() const
{
    const std::vector<std::string> schemes = index_schemes(kind);
    if (!scheme.empty() && std::find(schemes.begin(), schemes.end(), scheme) == schemes.end()) {
        std::string allowed;
        for (const std::string& s : schemes)
            allowed += (allowed.empty() ? "" : ", ") + s;
        throw FieldError("scheme",
            "'" + scheme + "' is not a scheme of the " + std::string(index_kind_name(kind))
                + " index; allowed: " + allowed + ", or \"\" for its default");
    }
    RadixTree::Config radix;
    radix.shift = radix_shift;
    radix.validate();
    // Each family reads its own scheme; under another kind its default.
    IndexSpec hash = *this;
    if (kind != IndexKind::Hash)
        hash.scheme = "global";
    HashConfig::from_spec(hash).validate();
    IndexSpec skiplist = *this;
    if (kind != IndexKind::SkipList)
        skiplist.scheme.clear();
    SkipListConfig::from_spec(skiplist).validate();
}

std::unique_ptr<PageIndex> make_page_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    switch (spec.kind) {
    case IndexKind::Radix:
        return make_radix_index(spec, file, registry);
    case IndexKind::Hash:
        return make_hash_index(spec, file, registry);
    case IndexKind::SkipList:
        return make_skiplist_index(spec, file, registry);
    }
    throw_unknown_kind(index_kind_name(spec.kind));
}

} // namespace pcl
