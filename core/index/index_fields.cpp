#include "index/index_fields.h"

#include "index/page_hash.h"
#include "index/radix_tree.h"
#include "index/skip_list.h"

namespace pcl {

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::string_view kHashFunctions[] = { "linux24", "mixer" };

json::Value get_kind(const IndexSpec& spec)
{
    return std::string(index_kind_name(spec.kind));
}

void set_kind(IndexSpec& spec, const json::Value& v, const std::string& path)
{
    std::string name;
    field_io::read(v, path, name);
    try {
        spec.kind = index_kind_named(name);
    } catch (const FieldError& e) {
        throw_field_error(path, e.reason());
    }
}

FieldTable<IndexSpec> make_index_table()
{
    using I = IndexSpec;
    // clang-format off
    return { "index", {
        custom_field<I>({ .name = "kind", .label = "Kind",
            .meaning = "A radix tree per file, one hash table for the machine (Linux 2.4), or a skip list per file.",
            .type = FieldType::Choice, .choices = kIndexKindNames },
            get_kind, set_kind),
        // The schemes depend on the kind: index_schemes().
        field<&I::scheme>({ .name = "scheme", .label = "Locking scheme",
            .allowed = "radix: `spinlock`, `rwlock`, `rcu`, `pernode`, `optimistic`; hash: `global`, `hashed`, `bucket`; skiplist: `mapping`, `pernode`; or `\"\"`",
            .meaning = "The locking scheme of the index; the kind's default is rcu for the radix tree, global for the hash table and pernode for the skip list.",
            .type = FieldType::Choice }),
        field<&I::radix_shift>({ .name = "radix_shift", .label = "Radix shift", .unit = "bits", .allowed = "2..7",
            .meaning = "Radix tree: log2 of the fanout (4 = rat-4, 7 = rat-7, 6 = modern Linux).",
            .min_int = RadixTree::kMinShift, .max_int = RadixTree::kMaxShift }),
        field<&I::hash_buckets>({ .name = "hash_buckets", .label = "Hash buckets", .unit = "buckets",
            .allowed = "0, or a power of two up to 2^24",
            .meaning = "Hash table: bucket count; 0 sizes the table from the memory below, as 2.4 did.",
            .min_int = 0, .max_int = kPageHashMaxBuckets, .power_of_two = true }),
        field<&I::hash_memory_bytes>({ .name = "hash_memory_bytes", .label = "Hash sized for", .unit = "bytes",
            .allowed = "4096..2^36 (when `hash_buckets` is 0)",
            .meaning = "Hash table: the \"physical memory\" the table is sized for.",
            .min_int = kPageHashPageSize, .max_int = kPageHashMaxMemory }),
        field<&I::hash_order9_cap>({ .name = "hash_order9_cap", .label = "Order-9 cap",
            .meaning = "Hash table: cap the table at an order-9 allocation, as __get_free_pages did." }),
        field<&I::hash_function>({ .name = "hash_function", .label = "Hash function",
            .meaning = "Hash table: 2.4's _page_hashfn, or a strong 64-bit mixer.", .choices = kHashFunctions }),
        field<&I::hash_locks>({ .name = "hash_locks", .label = "Hashed locks", .unit = "locks",
            .allowed = "a power of two up to the bucket count",
            .meaning = "Hash table: locks of the hashed scheme, each guarding a band of buckets.",
            .min_int = 1, .max_int = kPageHashMaxBuckets, .power_of_two = true }),
        field<&I::skiplist_p>({ .name = "skiplist_p", .label = "Skip-list p", .allowed = "(0, 1)",
            .meaning = "Skip list: probability that a node reaches the next level.",
            .min_real = 0, .max_real = 1, .open = true }),
        field<&I::skiplist_max_level>({ .name = "skiplist_max_level", .label = "Skip-list levels", .unit = "levels",
            .allowed = "1..32", .meaning = "Skip list: highest level.",
            .min_int = 1, .max_int = SkipListConfig::kMaxLevelLimit }),
        field<&I::skiplist_seed>({ .name = "skiplist_seed", .label = "Skip-list seed", .allowed = "0..2^64-1",
            .meaning = "Skip list: seed of the tower heights.", .min_int = 0, .max_int = kU64Max }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<IndexSpec>& index_fields()
{
    static const FieldTable<IndexSpec> table = make_index_table();
    return table;
}

} // namespace pcl
