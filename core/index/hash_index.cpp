#include "index/hash_index.h"

#include "base/cache_line.h"
#include "events/tracepoint.h"
#include "lib/field_error.h"
#include "sync/cpu_relax.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace pcl {

namespace {

constexpr bool is_power_of_two(std::uint64_t v) noexcept
{
    return v != 0 && (v & (v - 1)) == 0;
}

void check_tag(unsigned tag)
{
    if (tag >= kTagCount)
        throw std::out_of_range(
            "tag " + std::to_string(tag) + " is out of range; allowed: 0.." + std::to_string(kTagCount - 1));
}

/// Checks @config before any member is built from it.
const HashConfig& validated(const HashConfig& config)
{
    config.validate();
    return config;
}

/// bucket >> shift selects the lock covering the bucket.
unsigned lock_shift_for(const HashConfig& config, unsigned bits) noexcept
{
    switch (config.scheme) {
    case HashScheme::Global:
        return bits;
    case HashScheme::Hashed:
        return bits - page_hash_log2(config.locks);
    case HashScheme::Bucket:
        break;
    }
    return 0;
}

/// Raises @high_water to @index if it is lower (fetch-max).
void raise_high_water(std::atomic<pgoff_t>& high_water, pgoff_t index) noexcept
{
    pgoff_t cur = high_water.load(std::memory_order_relaxed);
    while (index > cur && !high_water.compare_exchange_weak(cur, index, std::memory_order_relaxed)) { }
}

} // namespace

std::string_view hash_scheme_name(HashScheme scheme) noexcept
{
    switch (scheme) {
    case HashScheme::Global:
        return "global";
    case HashScheme::Hashed:
        return "hashed";
    case HashScheme::Bucket:
        return "bucket";
    }
    return "unknown";
}

std::string_view hash_function_name(HashFunction function) noexcept
{
    switch (function) {
    case HashFunction::Linux24:
        return "linux24";
    case HashFunction::Mixer:
        return "mixer";
    }
    return "unknown";
}

// ---- HashConfig ------------------------------------------------------------------

HashConfig HashConfig::from_spec(const IndexSpec& spec)
{
    HashConfig c;
    if (spec.scheme.empty() || spec.scheme == "global")
        c.scheme = HashScheme::Global;
    else if (spec.scheme == "hashed")
        c.scheme = HashScheme::Hashed;
    else if (spec.scheme == "bucket")
        c.scheme = HashScheme::Bucket;
    else
        throw FieldError(
            "scheme", "'" + spec.scheme + "' is unknown for the hash index; allowed: global, hashed, bucket");
    if (spec.hash_function == "linux24")
        c.function = HashFunction::Linux24;
    else if (spec.hash_function == "mixer")
        c.function = HashFunction::Mixer;
    else
        throw FieldError("hash_function", "'" + spec.hash_function + "' is unknown; allowed: linux24, mixer");
    c.buckets = spec.hash_buckets;
    c.memory_bytes = spec.hash_memory_bytes;
    c.order9_cap = spec.hash_order9_cap;
    c.locks = spec.hash_locks;
    c.validate();
    return c;
}

void HashConfig::validate() const
{
    if (scheme != HashScheme::Global && scheme != HashScheme::Hashed && scheme != HashScheme::Bucket)
        throw FieldError("scheme", "is unknown for the hash index; allowed: global, hashed, bucket");
    if (function != HashFunction::Linux24 && function != HashFunction::Mixer)
        throw FieldError("hash_function", "is unknown; allowed: linux24, mixer");
    if (buckets != 0 && (!is_power_of_two(buckets) || buckets > kPageHashMaxBuckets))
        throw FieldError("hash_buckets",
            "must be 0 (size the table from hash_memory_bytes) or a power of two from 1 to "
                + std::to_string(kPageHashMaxBuckets) + "; got " + std::to_string(buckets));
    if (buckets == 0 && (memory_bytes < kPageHashPageSize || memory_bytes > kPageHashMaxMemory))
        throw FieldError("hash_memory_bytes",
            "must be from " + std::to_string(kPageHashPageSize) + " (one page) to " + std::to_string(kPageHashMaxMemory)
                + " (64 GiB, i386 PAE) when hash_buckets is 0, so that the table has buckets; got "
                + std::to_string(memory_bytes));
    if (scheme == HashScheme::Hashed) {
        const std::uint64_t n = resolved_buckets();
        if (!is_power_of_two(locks) || locks > n)
            throw FieldError("hash_locks",
                "must be a power of two from 1 to the bucket count (" + std::to_string(n)
                    + ") for the hashed scheme; got " + std::to_string(locks));
    }
}

std::uint64_t HashConfig::resolved_buckets() const noexcept
{
    return buckets ? buckets : page_hash_buckets(memory_bytes, order9_cap);
}

// ---- HashIndex ---------------------------------------------------------------------

HashIndex::LockArray::~LockArray()
{
    while (size_ > 0)
        std::destroy_at(&locks_[--size_]);
    ::operator delete (locks_, std::align_val_t { kCacheLine });
}

void HashIndex::LockArray::reserve(std::uint64_t n)
{
    // The locks start a cache line, and the last one's line holds nothing
    // else: 2.4's one pagecache_lock was a spinlock_cacheline_t (akpm,
    // 2.4.10), a line of its own, so that the lock's handoffs move no other
    // data and no other data's writes move the lock. Allocated as it came,
    // a lock of 56 bytes straddled two lines three times in four, its word
    // on one and its holder's fields on the other, or shared its line with
    // whatever was allocated next.
    const std::uint64_t bytes = (n * sizeof(sync::SpinLock) + kCacheLine - 1) / kCacheLine * kCacheLine;
    locks_ = static_cast<sync::SpinLock*>(::operator new (bytes, std::align_val_t { kCacheLine }));
}

std::shared_ptr<HashIndex> HashIndex::create(const HashConfig& config, sync::LockRegistry& registry)
{
    return std::make_shared<HashIndex>(Passkey {}, config, registry);
}

HashIndex::HashIndex(Passkey, const HashConfig& config, sync::LockRegistry& registry)
    : config_(validated(config))
    , bits_(page_hash_log2(config_.resolved_buckets()))
    , lock_shift_(lock_shift_for(config_, bits_))
    , nr_locks_((std::uint64_t(1) << bits_) >> lock_shift_)
    , heads_(std::make_unique<HashEntry*[]>(std::uint64_t(1) << bits_))
    , lengths_(std::make_unique<std::atomic<std::uint32_t>[]>(std::uint64_t(1) << bits_))
{
    locks_.reserve(nr_locks_);
    switch (config_.scheme) {
    case HashScheme::Global:
        locks_.emplace(registry, "pagecache_lock", "pagecache_lock");
        break;
    case HashScheme::Hashed:
        for (std::uint64_t k = 0; k < nr_locks_; ++k)
            locks_.emplace(registry, "hash_lock[" + std::to_string(k) + "]", "hash_lock");
        break;
    case HashScheme::Bucket: {
        // Anonymous: a million rows in the lock table would drown it; the
        // class row sums them.
        sync::LockClass& cls = registry.lock_class("hash_bucket_lock");
        for (std::uint64_t k = 0; k < nr_locks_; ++k)
            locks_.emplace(cls);
        break;
    }
    }
}

HashIndex::~HashIndex()
{
    // Every view holds a reference, so no operation can be running.
    for (std::uint64_t b = 0; b < buckets(); ++b) {
        HashEntry* e = heads_[b];
        while (e) {
            HashEntry* next = e->next_hash;
            delete e;
            e = next;
        }
    }
}

std::unique_ptr<HashMapping> HashIndex::mapping(FileId file)
{
    MappingState* state;
    {
        std::lock_guard guard(mappings_mu_);
        std::unique_ptr<MappingState>& slot = mappings_[file];
        if (!slot) {
            slot = std::make_unique<MappingState>();
            slot->file = file;
            slot->key = mapping_key(file);
        }
        state = slot.get();
    }
    return std::make_unique<HashMapping>(shared_from_this(), *state);
}

std::uint64_t HashIndex::mapping_key(FileId file) const noexcept
{
    return config_.function == HashFunction::Linux24 ? linux24_mapping_key(file) : mixer_mapping_key(file);
}

std::uint64_t HashIndex::hash(std::uint64_t key, pgoff_t index) const noexcept
{
    if (config_.function == HashFunction::Linux24)
        return page_hashfn_linux24(std::uint32_t(key), index, bits_);
    return page_hashfn_mixer(key, index, bits_);
}

std::uint64_t HashIndex::bucket_of(FileId file, pgoff_t index) const noexcept
{
    return hash(mapping_key(file), index);
}

HashEntry* HashIndex::find_locked(std::uint64_t bucket, FileId file, pgoff_t index) const noexcept
{
    for (HashEntry* e = heads_[bucket]; e; e = e->next_hash)
        if (e->index == index && e->file == file)
            return e;
    return nullptr;
}

std::uint64_t HashIndex::memory_bytes() const noexcept
{
    return buckets() * kBucketBytes + count() * kEntryBytes + nr_locks_ * kLockBytes;
}

std::vector<std::uint32_t> HashIndex::chain_lengths() const
{
    std::vector<std::uint32_t> lengths(buckets());
    for (std::uint64_t b = 0; b < lengths.size(); ++b)
        lengths[b] = chain_length(b);
    return lengths;
}

std::vector<HashChainEntry> HashIndex::chain_entries(std::uint64_t bucket, std::size_t max)
{
    if (bucket >= buckets())
        throw std::invalid_argument(
            "bucket must be below the bucket count (" + std::to_string(buckets()) + "); got " + std::to_string(bucket));
    // Reserved before the lock so that, unless the chain grew meanwhile,
    // nothing allocates under a spinlock.
    std::vector<HashChainEntry> out;
    out.reserve(std::min<std::size_t>(max, std::size_t(chain_length(bucket)) + 4));
    std::lock_guard guard(bucket_lock(bucket));
    for (const HashEntry* e = heads_[bucket]; e && out.size() < max; e = e->next_hash)
        out.push_back({ e->file, e->index, e->tags });
    return out;
}

std::vector<std::uint64_t> HashIndex::chain_histogram() const
{
    return pcl::chain_histogram(chain_lengths());
}

double HashIndex::chi_square() const
{
    return pcl::chi_square(chain_lengths());
}

void HashIndex::snapshot_table(IndexSnapshot& s, const SnapshotOptions& options) const
{
    // chain_lengths is one word per bucket: at 2.4 sizes (a million buckets
    // for 4 GB) that is 4 MB, cheap enough to copy at a view's frame rate.
    // Beyond max_nodes buckets only the first max_nodes are copied and the
    // snapshot is marked truncated; the histogram and chi-square always cover
    // every bucket, computed in the same pass without a second copy.
    const std::uint64_t m = buckets();
    const std::uint64_t shown = std::min<std::uint64_t>(m, options.max_nodes);
    s.truncated = shown < m;
    s.chain_lengths.resize(shown);
    s.chain_histogram.clear();
    std::uint64_t n = 0;
    for (std::uint64_t b = 0; b < m; ++b) {
        const std::uint32_t len = chain_length(b);
        if (b < shown)
            s.chain_lengths[b] = len;
        if (len >= s.chain_histogram.size())
            s.chain_histogram.resize(std::size_t(len) + 1, 0);
        ++s.chain_histogram[len];
        n += len;
    }
    // Pearson's statistic from the histogram: sum over lengths k of
    // hist[k] * (k - n/m)^2 / (n/m); equal to chi_square(all lengths).
    s.chi_square = 0.0;
    if (n > 0) {
        const double expected = double(n) / double(m);
        double sum = 0.0;
        for (std::size_t k = 0; k < s.chain_histogram.size(); ++k) {
            const double d = double(k) - expected;
            sum += double(s.chain_histogram[k]) * d * d;
        }
        s.chi_square = sum / expected;
    }
    s.buckets_per_lock
        = std::uint32_t(std::min<std::uint64_t>(buckets_per_lock(), std::numeric_limits<std::uint32_t>::max()));

    s.locks.clear();
    if (config_.scheme != HashScheme::Bucket) {
        s.locks.reserve(nr_locks_);
        for (std::uint64_t k = 0; k < nr_locks_; ++k)
            s.locks.push_back({ locks_[k].stats()->name, locks_[k].state() });
        return;
    }
    // Per-bucket locks are anonymous: list only those held or waited for,
    // among the buckets the snapshot shows. One relaxed read per lock, the
    // same pass length as chain_lengths; skipped without slot detail.
    if (!options.slot_detail)
        return;
    for (std::uint64_t b = 0; b < shown; ++b) {
        const sync::LockState state = locks_[b].state();
        if (state.held || state.waiters > 0)
            s.locks.push_back({ "hash_bucket_lock[" + std::to_string(b) + "]", state });
    }
}

// ---- HashMapping -------------------------------------------------------------------

HashMapping::HashMapping(std::shared_ptr<HashIndex> table, HashIndex::MappingState& state)
    : table_(std::move(table))
    , state_(&state)
{
}

void HashMapping::report_chain(std::uint64_t bucket, pgoff_t index, std::uint32_t length) const
{
    trace::index_chain_length({ .bucket = bucket, .file = state_->file, .page = index, .length = length });
}

Page* HashMapping::lookup(pgoff_t index)
{
    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    std::lock_guard guard(t.bucket_lock(b));
    const HashEntry* e = t.find_locked(b, state_->file, index);
    return e ? e->page : nullptr;
}

Page* HashMapping::lookup_get_locked(pgoff_t index)
{
    // 2.4's __find_get_page: page_cache_get under pagecache_lock.
    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    sync::RetryBackoff backoff; // the eraser needs the lock we keep taking: let it have it
    for (;;) {
        {
            std::lock_guard guard(t.bucket_lock(b));
            charge_walk();
            const HashEntry* e = t.find_locked(b, state_->file, index);
            if (!e)
                return nullptr;
            if (e->page->get_unless_zero())
                return e->page;
        }
        backoff.pause();
    }
}

InsertResult HashMapping::insert(pgoff_t index, Page* page)
{
    if (!page)
        throw std::invalid_argument("insert: page must not be null");
    // The entry is allocated before the lock is taken, as 2.4's callers
    // allocated the page before add_to_page_cache(): nothing allocates under
    // a spinlock. An injected failure therefore wins over -EEXIST, as
    // radix_tree_preload() failing did.
    if (alloc_failure_.should_fail())
        return InsertResult::NoMemory;
    auto entry = std::make_unique<HashEntry>();
    entry->page = page;
    entry->index = index;
    entry->file = state_->file;

    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    // Declared after `entry`: on -EEXIST the lock is dropped before the entry is freed.
    std::lock_guard guard(t.bucket_lock(b));
    if (t.find_locked(b, state_->file, index))
        return InsertResult::Exists;
    // Linked at the head, as add_page_to_hash_queue() did.
    entry->next_hash = t.heads_[b];
    t.heads_[b] = entry.release();
    const std::uint32_t length = t.lengths_[b].load(std::memory_order_relaxed) + 1;
    t.lengths_[b].store(length, std::memory_order_relaxed);
    state_->nrpages.fetch_add(1, std::memory_order_relaxed);
    t.nr_entries_.fetch_add(1, std::memory_order_relaxed);
    raise_high_water(state_->high_water, index);
    if (trace::enabled())
        report_chain(b, index, length);
    return InsertResult::Inserted;
}

Page* HashMapping::erase(pgoff_t index)
{
    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    HashEntry* victim = nullptr;
    {
        std::lock_guard guard(t.bucket_lock(b));
        for (HashEntry** pprev = &t.heads_[b]; *pprev; pprev = &(*pprev)->next_hash) {
            HashEntry* e = *pprev;
            if (e->index == index && e->file == state_->file) {
                *pprev = e->next_hash;
                victim = e;
                break;
            }
        }
        if (!victim)
            return nullptr;
        const std::uint32_t length = t.lengths_[b].load(std::memory_order_relaxed) - 1;
        t.lengths_[b].store(length, std::memory_order_relaxed);
        state_->nrpages.fetch_sub(1, std::memory_order_relaxed);
        t.nr_entries_.fetch_sub(1, std::memory_order_relaxed);
        for (unsigned tag = 0; tag < kTagCount; ++tag)
            if (victim->tags & (1u << tag))
                state_->nr_tagged[tag].fetch_sub(1, std::memory_order_relaxed);
        if (trace::enabled())
            report_chain(b, index, length);
    }
    // Unlinked under the lock and no lookup runs without it: nobody else can
    // reach the entry, so it is freed at once (no RCU grace period, as in 2.4).
    Page* page = victim->page;
    delete victim;
    return page;
}

bool HashMapping::change_tag(pgoff_t index, unsigned tag, bool set)
{
    check_tag(tag);
    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    std::lock_guard guard(t.bucket_lock(b));
    HashEntry* e = t.find_locked(b, state_->file, index);
    if (!e)
        return false;
    const auto bit = std::uint8_t(1u << tag);
    if (bool(e->tags & bit) != set) {
        e->tags = set ? std::uint8_t(e->tags | bit) : std::uint8_t(e->tags & ~bit);
        if (set)
            state_->nr_tagged[tag].fetch_add(1, std::memory_order_relaxed);
        else
            state_->nr_tagged[tag].fetch_sub(1, std::memory_order_relaxed);
    }
    return true;
}

bool HashMapping::set_tag(pgoff_t index, unsigned tag)
{
    return change_tag(index, tag, true);
}

bool HashMapping::clear_tag(pgoff_t index, unsigned tag)
{
    return change_tag(index, tag, false);
}

bool HashMapping::test_tag(pgoff_t index, unsigned tag)
{
    check_tag(tag);
    HashIndex& t = *table_;
    const std::uint64_t b = t.hash(state_->key, index);
    std::lock_guard guard(t.bucket_lock(b));
    const HashEntry* e = t.find_locked(b, state_->file, index);
    return e && (e->tags & (1u << tag));
}

bool HashMapping::tagged(unsigned tag)
{
    check_tag(tag);
    // Each entry's tag bit flips only under its bucket lock, so the counter's
    // increments and decrements for one entry are ordered: it never reads
    // below the true count of an entry that stays tagged.
    return state_->nr_tagged[tag].load(std::memory_order_relaxed) > 0;
}

std::size_t HashMapping::gang_probe(pgoff_t first, std::size_t max, int tag, Page** out)
{
    if (max == 0 || state_->nrpages.load(std::memory_order_relaxed) == 0)
        return 0;
    if (tag >= 0 && state_->nr_tagged[unsigned(tag)].load(std::memory_order_relaxed) == 0)
        return 0;
    const pgoff_t last = state_->high_water.load(std::memory_order_relaxed);
    if (first > last)
        return 0;
    const std::uint8_t want = tag >= 0 ? std::uint8_t(1u << unsigned(tag)) : 0;
    HashIndex& t = *table_;
    // Probing costs one chain walk per index; walking the whole table costs
    // every bucket and every entry once. Past that many probes the rest is
    // found by the walk, so a sparse file with a huge high-water mark costs
    // at most about two table walks, not one probe per index.
    const std::uint64_t budget = t.buckets() + t.count();
    std::uint64_t probed = 0;
    std::size_t n = 0;
    pgoff_t index = first;
    bool done = false;
    // Consecutive probes that hash under the same lock share one acquisition,
    // up to kGangProbesPerLock: with linux24 consecutive indexes fill
    // consecutive buckets, so under hashed locks a run stays in one band;
    // with the mixer nearly every probe takes a different lock.
    while (!done && n < max) {
        if (probed >= budget)
            return n + gang_walk(index, max - n, want, out + n);
        std::uint64_t b = t.hash(state_->key, index);
        const std::uint64_t lock = b >> t.lock_shift_;
        std::lock_guard guard(t.locks_[lock]);
        for (unsigned probes = 1;; ++probes) {
            ++probed;
            const HashEntry* e = t.find_locked(b, state_->file, index);
            if (e && (e->tags & want) == want)
                out[n++] = e->page;
            if (index == last) {
                done = true;
                break;
            }
            ++index;
            if (n == max || probes == HashIndex::kGangProbesPerLock || probed >= budget)
                break;
            b = t.hash(state_->key, index);
            if ((b >> t.lock_shift_) != lock)
                break;
        }
    }
    return n;
}

std::size_t HashMapping::gang_walk(pgoff_t from, std::size_t max, std::uint8_t want, Page** out)
{
    // Keeps the @max smallest indexes >= @from in a max-heap. Entries are
    // copied out under the lock: once it is dropped they may be freed.
    using Found = std::pair<pgoff_t, Page*>;
    const auto by_index = [](const Found& a, const Found& b) { return a.first < b.first; };
    std::vector<Found> heap;
    HashIndex& t = *table_;
    const std::uint64_t m = t.buckets();
    for (std::uint64_t b = 0; b < m;) {
        const std::uint64_t lock = b >> t.lock_shift_;
        std::lock_guard guard(t.locks_[lock]);
        for (unsigned k = 0; k < HashIndex::kGangProbesPerLock && b < m && (b >> t.lock_shift_) == lock; ++k, ++b)
            for (const HashEntry* e = t.heads_[b]; e; e = e->next_hash) {
                if (e->file != state_->file || e->index < from || (e->tags & want) != want)
                    continue;
                if (heap.size() < max) {
                    heap.emplace_back(e->index, e->page);
                    std::push_heap(heap.begin(), heap.end(), by_index);
                } else if (e->index < heap.front().first) {
                    std::pop_heap(heap.begin(), heap.end(), by_index);
                    heap.back() = { e->index, e->page };
                    std::push_heap(heap.begin(), heap.end(), by_index);
                }
            }
    }
    std::sort_heap(heap.begin(), heap.end(), by_index);
    for (std::size_t k = 0; k < heap.size(); ++k)
        out[k] = heap[k].second;
    return heap.size();
}

std::size_t HashMapping::gang_lookup(pgoff_t first, std::size_t max, Page** out)
{
    return gang_probe(first, max, -1, out);
}

std::size_t HashMapping::gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out)
{
    check_tag(tag);
    return gang_probe(first, max, int(tag), out);
}

std::uint64_t HashMapping::count() const
{
    return state_->nrpages.load(std::memory_order_relaxed);
}

std::uint64_t HashMapping::memory_bytes() const
{
    return table_->memory_bytes();
}

IndexSnapshot HashMapping::snapshot(const SnapshotOptions& options) const
{
    IndexSnapshot s;
    s.kind = IndexKind::Hash;
    s.scheme = table_->config().scheme;
    s.file = state_->file;
    s.count = count();
    s.memory_bytes = table_->memory_bytes();
    for (unsigned tag = 0; tag < kTagCount; ++tag)
        s.root_tagged[tag] = state_->nr_tagged[tag].load(std::memory_order_relaxed) > 0;
    // Nodes stay empty: a bucket is described by its chain length, and the
    // view draws a million buckets from chain_lengths, not from a million Nodes.
    table_->snapshot_table(s, options);
    return s;
}

// ---- factory -------------------------------------------------------------------------

std::vector<std::string> hash_schemes()
{
    return { "global", "hashed", "bucket" };
}

std::unique_ptr<PageIndex> make_hash_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    return HashIndex::create(HashConfig::from_spec(spec), registry)->mapping(file);
}

} // namespace pcl
