// HashIndex: Linux 2.4's global page hash, one table for the pages of all
// files, with the three locking schemes argued over in the
// radix-tree pagecache thread (linux-kernel, 2002).
//
// Glossary (as in 2.4's mm/filemap.c):
//   @table     the page_hash_table: one chain head per bucket, shared by all files
//   @bucket    a chain of HashEntry, found by hashing (file, index) (page_hash())
//   @entry     one cached page's place in a chain: the next_hash link 2.4 kept
//              in struct page, plus the key and tag bits
//   @mapping   one file's view of the table (a PageIndex), like an
//              address_space: its page count and tag counts
//   @scheme    which locks protect the buckets:
//                "global"  one spinlock for the table, 2.4's pagecache_lock
//                "hashed"  hash_locks spinlocks, each over a contiguous band
//                          of buckets (Molnar's "scalable page cache")
//                "bucket"  one spinlock per bucket
//
// Every operation, lookups included, takes the lock of the bucket it hashes
// to: 2.4 had no lockless lookup (find_get_page took pagecache_lock). The
// counters that must be O(1) to read (count, tagged, chain lengths) are
// atomics written under the bucket lock and read without it.
//
// Gang lookups: a hash keeps no order, which is why 2.4 had no gang lookup
// (its callers walked the mapping's page lists instead). Here they probe
// successive indexes from @first up to the highest index the file ever held
// (a per-file high-water mark), so their cost grows with the file's extent,
// not with the number of results: the honest price of an unordered index.
// When the probes would outnumber buckets + entries, the rest is found by
// walking every chain once instead, which bounds a lookup on a sparse file
// to about two table walks. Either way each bucket is read under its lock,
// and the results are in ascending index order.
#pragma once

#include "index/hash_chains.h"
#include "index/index_factory.h"
#include "index/page_hash.h"
#include "index/page_index.h"
#include "sync/lock_stats.h"
#include "sync/spinlock.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pcl {

enum class HashFunction : std::uint8_t {
    Linux24, ///< "linux24": 2.4's _page_hashfn over a synthesised i386 mapping pointer
    Mixer,   ///< "mixer": a strong 64-bit mixer over (file, index)
};

/// "global", "hashed" or "bucket".
std::string_view hash_scheme_name(HashScheme scheme) noexcept;
/// "linux24" or "mixer".
std::string_view hash_function_name(HashFunction function) noexcept;

/// The parameters of one hash table. Field names in error messages are those
/// of IndexSpec, where users set them.
struct HashConfig {
    HashScheme scheme = HashScheme::Global;        ///< IndexSpec::scheme
    HashFunction function = HashFunction::Linux24; ///< IndexSpec::hash_function
    std::uint64_t buckets = 0; ///< IndexSpec::hash_buckets: a power of two, or 0 to size from memory_bytes
    std::uint64_t memory_bytes = std::uint64_t(256) << 20; ///< IndexSpec::hash_memory_bytes
    bool order9_cap = false;                               ///< IndexSpec::hash_order9_cap
    unsigned locks = 64;                                   ///< IndexSpec::hash_locks: locks of the "hashed" scheme

    /// Reads the hash fields of @spec; an empty scheme means "global".
    /// Throws std::invalid_argument as validate() does.
    static HashConfig from_spec(const IndexSpec& spec);
    /// Throws std::invalid_argument naming the bad field and its allowed range.
    void validate() const;
    /// The bucket count: `buckets`, or page_hash_buckets(memory_bytes, order9_cap).
    std::uint64_t resolved_buckets() const noexcept;
};

/// One page in a chain: what 2.4 kept in struct page for the hash (next_hash;
/// pprev_hash is not needed because an erase finds the entry by walking its
/// chain and keeps the predecessor link as it goes), plus the key and tags.
/// Written only under the lock that covers its bucket.
struct HashEntry {
    HashEntry* next_hash = nullptr; ///< next entry in the same bucket
    Page* page = nullptr;           ///< the cached page
    pgoff_t index = 0;              ///< page offset in the file
    FileId file = 0;                ///< the file (the mapping half of the key)
    std::uint8_t tags = 0;          ///< bit t set: the entry carries tag t
};

class HashMapping;

/// The global page hash table. Owned by std::shared_ptr (create()); each
/// file's HashMapping shares ownership, so the table lives while any view does.
/// The LockRegistry passed to create() must outlive the table.
class HashIndex : public std::enable_shared_from_this<HashIndex> {
    struct Passkey {
        explicit Passkey() = default;
    };

public:
    /// Bytes of one chain head in this process (page_hash_table is an array of these).
    static constexpr std::uint64_t kBucketBytes = sizeof(HashEntry*);
    /// Bytes of one chain entry.
    static constexpr std::uint64_t kEntryBytes = sizeof(HashEntry);
    /// Bytes of one lock.
    static constexpr std::uint64_t kLockBytes = sizeof(sync::SpinLock);
    /// A gang lookup probes at most this many indexes (or, walking the table,
    /// reads this many buckets) per lock acquisition, so a long run under
    /// pagecache_lock still lets other CPUs in.
    static constexpr unsigned kGangProbesPerLock = 64;

    /// Builds a table. Throws std::invalid_argument for a bad @config.
    static std::shared_ptr<HashIndex> create(
        const HashConfig& config, sync::LockRegistry& registry = sync::LockRegistry::global());
    HashIndex(Passkey, const HashConfig& config, sync::LockRegistry& registry);
    ~HashIndex();
    HashIndex(const HashIndex&) = delete;
    HashIndex& operator=(const HashIndex&) = delete;

    /// File @file's view of the table. Several views of one file share its
    /// counts (but each has its own event hook and failure injection).
    /// Thread-safe.
    std::unique_ptr<HashMapping> mapping(FileId file);

    const HashConfig& config() const noexcept { return config_; }
    std::string_view scheme_name() const noexcept { return hash_scheme_name(config_.scheme); }
    /// PAGE_HASH_SIZE.
    std::uint64_t buckets() const noexcept { return std::uint64_t(1) << bits_; }
    /// PAGE_HASH_BITS.
    unsigned hash_bits() const noexcept { return bits_; }
    /// Buckets covered by one lock: all of them (global), buckets / hash_locks
    /// (hashed), 1 (bucket).
    std::uint64_t buckets_per_lock() const noexcept { return std::uint64_t(1) << lock_shift_; }
    /// Locks protecting the table.
    std::uint64_t lock_count() const noexcept { return nr_locks_; }
    /// The bucket (file, index) hashes to.
    std::uint64_t bucket_of(FileId file, pgoff_t index) const noexcept;
    /// The lock covering @bucket (for tests, and for demo mode to show a held
    /// lock); taking it blocks every operation on that bucket.
    sync::SpinLock& bucket_lock(std::uint64_t bucket) noexcept { return locks_[bucket >> lock_shift_]; }

    /// Entries of all files (2.4's page_cache_size).
    std::uint64_t count() const noexcept { return nr_entries_.load(std::memory_order_relaxed); }
    /// Bytes of the whole shared table, whichever file asks: chain heads
    /// (kBucketBytes each, the real size in this process), entries allocated
    /// (kEntryBytes each) and locks (kLockBytes each). The per-bucket length
    /// and per-file counters are the simulator's statistics, not counted.
    std::uint64_t memory_bytes() const noexcept;

    /// Entries in @bucket's chain, read without its lock.
    std::uint32_t chain_length(std::uint64_t bucket) const noexcept
    {
        return lengths_[bucket].load(std::memory_order_relaxed);
    }
    /// Every bucket's chain length (each read atomically, not all at one instant).
    std::vector<std::uint32_t> chain_lengths() const;
    /// The entries on @bucket's chain in chain order (head first: the most
    /// recently inserted, as add_page_to_hash_queue linked them), at most
    /// @max, copied under the bucket's lock like any lookup of that bucket.
    /// For a view expanding one chain to its pages. Throws
    /// std::invalid_argument if @bucket is not below buckets().
    std::vector<HashChainEntry> chain_entries(std::uint64_t bucket, std::size_t max = 4096);
    /// [k] = buckets whose chain holds k entries.
    std::vector<std::uint64_t> chain_histogram() const;
    /// Chi-square of the bucket loads against a uniform spread (page_hash.h).
    double chi_square() const;

private:
    friend class HashMapping;

    /// What a file's view needs of the table and what 2.4 kept in the
    /// address_space: nrpages, and here also tag counts and the highest index.
    /// The counters are atomics changed under bucket locks (a file's pages
    /// spread over all buckets, so no one lock covers them) and read without.
    struct alignas(64) MappingState {
        FileId file = 0;
        std::uint64_t key = 0; ///< the hash's per-file key (linux24_mapping_key or mixer_mapping_key)
        std::atomic<std::uint64_t> nrpages { 0 };                       ///< entries of this file
        std::array<std::atomic<std::uint64_t>, kTagCount> nr_tagged {}; ///< entries carrying each tag
        std::atomic<pgoff_t> high_water { 0 }; ///< highest index ever inserted: where gang probes stop
    };

    /// Spinlocks built in place (a SpinLock can be neither copied nor moved).
    class LockArray {
    public:
        LockArray() = default;
        ~LockArray();
        LockArray(const LockArray&) = delete;
        LockArray& operator=(const LockArray&) = delete;
        /// Reserves room for @n locks; then call emplace() n times.
        void reserve(std::uint64_t n);
        template <class... Args> void emplace(Args&&... args)
        {
            new (&locks_[size_]) sync::SpinLock(std::forward<Args>(args)...);
            ++size_;
        }
        sync::SpinLock& operator[](std::uint64_t i) noexcept { return locks_[i]; }
        const sync::SpinLock& operator[](std::uint64_t i) const noexcept { return locks_[i]; }
        std::uint64_t size() const noexcept { return size_; }

    private:
        sync::SpinLock* locks_ = nullptr;
        std::uint64_t size_ = 0;
    };

    /// The bucket of @index for a file whose hash key is @key.
    std::uint64_t hash(std::uint64_t key, pgoff_t index) const noexcept;
    /// The entry for (file, index) in @bucket. Caller holds the bucket's lock.
    HashEntry* find_locked(std::uint64_t bucket, FileId file, pgoff_t index) const noexcept;
    /// Fills the table half of a snapshot (chain lengths, statistics, locks).
    void snapshot_table(IndexSnapshot& s, const SnapshotOptions& options) const;
    std::uint64_t mapping_key(FileId file) const noexcept;

    const HashConfig config_;
    const unsigned bits_;       ///< PAGE_HASH_BITS
    const unsigned lock_shift_; ///< bucket >> lock_shift_ = the bucket's lock
    const std::uint64_t nr_locks_;

    /// The page_hash_table. heads_[b] and every entry on chain b are
    /// protected by locks_[b >> lock_shift_]; nothing reads them without it.
    std::unique_ptr<HashEntry*[]> heads_;
    /// Chain lengths, written under the bucket's lock and read without it.
    std::unique_ptr<std::atomic<std::uint32_t>[]> lengths_;
    /// The scheme's locks. Each protects the chains of buckets_per_lock()
    /// contiguous buckets; a thread holds at most one at a time, so there is
    /// no lock order. Taken by every operation on those buckets.
    LockArray locks_;
    /// Entries of all files (2.4's atomic page_cache_size).
    std::atomic<std::uint64_t> nr_entries_ { 0 };

    /// Protects mappings_ (the map, not the states' counters). Taken only
    /// when a view is created.
    std::mutex mappings_mu_;
    std::unordered_map<FileId, std::unique_ptr<MappingState>> mappings_;
};

/// One file's view of a HashIndex: a PageIndex over the shared table.
///
/// Locking: lookup, insert, erase, set_tag, clear_tag and test_tag take the
/// lock of the bucket (file, index) hashes to, once, and hold nothing else;
/// gang lookups take bucket locks a run at a time; count, tagged,
/// memory_bytes and snapshot take no lock (they read atomics).
class HashMapping final : public PageIndex {
public:
    HashMapping(std::shared_ptr<HashIndex> table, HashIndex::MappingState& state);

    IndexKind kind() const override { return IndexKind::Hash; }
    std::string_view scheme() const override { return table_->scheme_name(); }

    Page* lookup(pgoff_t index) override;
    bool lockless_lookups() const noexcept override { return false; }
    Page* lookup_get_locked(pgoff_t index) override;
    InsertResult insert(pgoff_t index, Page* page) override;
    Page* erase(pgoff_t index) override;

    bool set_tag(pgoff_t index, unsigned tag) override;
    bool clear_tag(pgoff_t index, unsigned tag) override;
    bool test_tag(pgoff_t index, unsigned tag) override;
    /// O(1): the file's count of entries carrying @tag; takes no lock.
    bool tagged(unsigned tag) override;

    /// Probes @first, @first + 1, ... up to the file's highest index ever
    /// inserted, or walks the table when that is cheaper (see the file
    /// comment). Takes bucket locks one run at a time, never two at once.
    std::size_t gang_lookup(pgoff_t first, std::size_t max, Page** out) override;
    std::size_t gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out) override;

    /// Entries of this file; takes no lock (like reading mapping->nrpages).
    std::uint64_t count() const override;
    /// Bytes of the whole shared table (HashIndex::memory_bytes()).
    std::uint64_t memory_bytes() const override;
    /// This file's count and tags, the whole table's chains, statistics and locks.
    IndexSnapshot snapshot(const SnapshotOptions& options = {}) const override;
    /// No nodes, no height (IndexShape): chains hang off a fixed table.
    IndexShape shape() const override { return {}; }

    FileId file() const noexcept { return state_->file; }
    /// The shared table, to open views of other files on it.
    const std::shared_ptr<HashIndex>& table() const noexcept { return table_; }

private:
    /// set_tag / clear_tag: the entry's bit and the file's tag count, under the bucket lock.
    bool change_tag(pgoff_t index, unsigned tag, bool set);
    /// Gang lookup of entries carrying @tag (-1: any) by probing indexes.
    std::size_t gang_probe(pgoff_t first, std::size_t max, int tag, Page** out);
    /// The @max smallest indexes >= @from whose tags include @want, by
    /// walking every chain; for probe runs longer than the table.
    std::size_t gang_walk(pgoff_t from, std::size_t max, std::uint8_t want, Page** out);
    void report_chain(std::uint64_t bucket, pgoff_t index, std::uint32_t length) const;

    std::shared_ptr<HashIndex> table_;
    HashIndex::MappingState* state_;
};

} // namespace pcl
