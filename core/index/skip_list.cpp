// SkipList: both locking schemes. They share the node layout, the searches,
// the lookups, the tag operations and the snapshot, and differ only in their
// write sides (insert_locked/erase_locked under the mapping lock,
// insert_lazy/erase_lazy for the lazy skip list), so they live in one file.
#include "index/skip_list.h"

#include "base/cache_line.h"
#include "base/splitmix64.h"

#include "events/tracepoint.h"
#include "lib/field_error.h"

#include "sync/cpu_relax.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <type_traits>

namespace pcl {

namespace {

constexpr std::size_t round_up(std::size_t n, std::size_t to)
{
    return (n + to - 1) / to * to;
}

constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

std::string format_double(double v)
{
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

void check_tag(unsigned tag)
{
    if (tag >= kTagCount)
        throw std::out_of_range(
            "skiplist: tag " + std::to_string(tag) + " is out of range (0.." + std::to_string(kTagCount - 1) + ")");
}

} // namespace

// ---------------------------------------------------------------------------
// Configuration

std::string_view skiplist_scheme_name(SkipListScheme scheme) noexcept
{
    return scheme == SkipListScheme::Mapping ? "mapping" : "pernode";
}

SkipListScheme parse_skiplist_scheme(std::string_view name)
{
    if (name == "mapping")
        return SkipListScheme::Mapping;
    if (name.empty() || name == "pernode")
        return SkipListScheme::PerNode;
    const std::string reason = "'" + std::string(name) + "' is unknown; allowed: mapping, pernode";
    throw FieldError("scheme", reason, "skiplist scheme " + reason);
}

SkipListConfig SkipListConfig::from_spec(const IndexSpec& spec)
{
    SkipListConfig c;
    c.scheme = parse_skiplist_scheme(spec.scheme);
    c.p = spec.skiplist_p;
    c.max_level = spec.skiplist_max_level;
    c.seed = spec.skiplist_seed;
    c.validate();
    return c;
}

void SkipListConfig::validate() const
{
    // Written so that NaN fails too.
    if (!(p > 0.0 && p < 1.0))
        throw FieldError("skiplist_p", "must be in (0, 1), got " + format_double(p));
    if (max_level < 1 || max_level > kMaxLevelLimit)
        throw FieldError("skiplist_max_level",
            "must be in 1.." + std::to_string(kMaxLevelLimit) + ", got " + std::to_string(max_level));
    if (scheme != SkipListScheme::Mapping && scheme != SkipListScheme::PerNode) {
        const std::string reason = std::to_string(unsigned(scheme)) + " is unknown; allowed: mapping, pernode";
        throw FieldError("scheme", reason, "skiplist scheme " + reason);
    }
}

std::vector<std::string> skiplist_schemes()
{
    return { "mapping", "pernode" };
}

std::unique_ptr<PageIndex> make_skiplist_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    return std::make_unique<SkipList>(SkipListConfig::from_spec(spec), file, registry);
}

// ---------------------------------------------------------------------------
// Nodes
//
// One allocation per node, 64-byte aligned, its size a multiple of 64:
//
//   pernode:  [ rcu::Head | SpinLock | pad ]  [ Node | tower[height] | pad ]
//             ^ allocation                    ^ Node* (on a line boundary)
//   mapping:                                  [ Node | tower[height] | pad ]
//
// MacDonald's point in the radix-tree pagecache thread is that a node fits a cache line, so a search
// touches one line per node it passes. The part a search reads (index,
// flags, the tower) therefore starts on a line boundary and fits one line
// for towers up to 5 links (all but ~0.1% of nodes at p = 1/4). The lock and
// the RCU head sit in lines of their own before it: a lock acquisition writes
// the lock word and its lockstat counters, and if those shared the searched
// line every acquisition would invalidate that line in every lockless
// reader (the false sharing MacDonald's layout is meant to avoid). They cost
// 128 bytes a node here (the instrumented lock is 56 bytes, liburcu's head
// 48, where a kernel spinlock_t is 4 and an rcu_head 16); the mapping scheme
// needs neither and its nodes are one line.

struct SkipList::Node {
    static constexpr std::uint8_t kFullyLinked = 1;
    static constexpr std::uint8_t kMarked = 2;

    // Offsets inside the pernode prefix, from the start of the allocation.
    static constexpr std::size_t kRcuOffset = 0;
    static constexpr std::size_t kLockOffset = round_up(sizeof(rcu::Head), alignof(sync::SpinLock));
    static constexpr std::size_t kLockingPrefix = round_up(kLockOffset + sizeof(sync::SpinLock), kCacheLine);

    Node(pgoff_t i, Page* p, unsigned h, std::uint32_t n) noexcept
        : index(i)
        , page(p)
        , height(static_cast<std::uint8_t>(h))
        , number(n)
    {
    }

    /// The key. Immutable: written before the node is published (the release
    /// store that links it at level 0) and never after, so a lockless reader
    /// that reached the node through an acquire load reads it without a lock.
    const pgoff_t index;
    /// The entry. Immutable, like index.
    Page* const page;
    /// kFullyLinked: set once (release) when the insert has linked every
    /// level; kMarked (pernode): set once under this node's lock when an
    /// erase begins. Read with acquire by lockless searches; a node is an
    /// entry while fully linked and not marked. Under the mapping scheme an
    /// erase unlinks the node inside the lock, so nobody sees it marked.
    std::atomic<std::uint8_t> flags { 0 };
    /// Tag bits (1 << tag). Written only under this node's lock (pernode) or
    /// the mapping lock, and only while the node is an entry; read lockless.
    std::atomic<std::uint8_t> tags { 0 };
    /// Links in the tower (immutable).
    const std::uint8_t height;
    /// The node's number in its list, its identity in the event stream and
    /// in snapshots: 1 + the tower-height draw that made it (random_height),
    /// modulo 2^32; the head's is 0. Unlike the node's address it is the
    /// same in every run that inserts in the same order. In the header's
    /// padding: the first line still holds five links.
    const std::uint32_t number;
    // The tower follows: `height` atomic links, level 0 first. A link is
    // written (release) only under the lock of the node it belongs to, or the
    // mapping lock; a new node's links are written before it is published.

    static bool is_entry(std::uint8_t flags) noexcept { return (flags & (kFullyLinked | kMarked)) == kFullyLinked; }

    std::atomic<Node*>& next(unsigned level) noexcept
    {
        return std::launder(
            reinterpret_cast<std::atomic<Node*>*>(reinterpret_cast<std::byte*>(this) + sizeof(Node)))[level];
    }
    /// Pernode only: the node's lock. Protects this node's links and tags
    /// and the setting of kMarked. Taken before the locks of nodes with lower
    /// indexes (see the lock order in skip_list.h), never inside the mapping lock.
    sync::SpinLock& lock() noexcept
    {
        return *std::launder(
            reinterpret_cast<sync::SpinLock*>(reinterpret_cast<std::byte*>(this) - kLockingPrefix + kLockOffset));
    }
    /// Pernode only: the header handed to rcu::call once the node is unlinked.
    rcu::Head& rcu_head() noexcept
    {
        return *std::launder(
            reinterpret_cast<rcu::Head*>(reinterpret_cast<std::byte*>(this) - kLockingPrefix + kRcuOffset));
    }
    static Node* from_rcu_head(rcu::Head* head) noexcept
    {
        return std::launder(reinterpret_cast<Node*>(reinterpret_cast<std::byte*>(head) - kRcuOffset + kLockingPrefix));
    }

    static std::size_t bytes(unsigned height, bool with_lock) noexcept
    {
        return (with_lock ? kLockingPrefix : 0)
            + round_up(sizeof(Node) + height * sizeof(std::atomic<Node*>), kCacheLine);
    }

    /// Ends the node's lifetime and frees its allocation.
    static void destroy(Node* node, bool with_lock) noexcept
    {
        // The tower's atomics are trivially destructible.
        std::byte* mem = reinterpret_cast<std::byte*>(node) - (with_lock ? kLockingPrefix : 0);
        if (with_lock) {
            std::destroy_at(&node->lock());
            std::destroy_at(&node->rcu_head());
        }
        std::destroy_at(node);
        ::operator delete(mem, std::align_val_t(kCacheLine));
    }
};

/// The read side of an operation: the mapping lock (mapping scheme) or an
/// RCU read-side section (pernode), for as long as the object lives.
class SkipList::Section {
public:
    explicit Section(const SkipList& list) noexcept
        : list_(list)
    {
        if (list_.mapping_lock_)
            list_.mapping_lock_->lock();
        else
            rcu::read_lock();
    }
    ~Section()
    {
        if (list_.mapping_lock_)
            list_.mapping_lock_->unlock();
        else
            rcu::read_unlock();
    }
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;

private:
    const SkipList& list_;
};

/// Holds a node's lock (pernode); nothing under the mapping scheme, whose
/// lock the caller already holds.
class SkipList::NodeGuard {
public:
    NodeGuard(const SkipList& list, Node* node) noexcept
        : lock_(list.pernode() ? &node->lock() : nullptr)
    {
        if (lock_)
            lock_->lock();
    }
    ~NodeGuard()
    {
        if (lock_)
            lock_->unlock();
    }
    NodeGuard(const NodeGuard&) = delete;
    NodeGuard& operator=(const NodeGuard&) = delete;

private:
    sync::SpinLock* lock_;
};

std::size_t SkipList::node_bytes(unsigned height) const noexcept
{
    static_assert(alignof(rcu::Head) <= kCacheLine && alignof(sync::SpinLock) <= kCacheLine);
    static_assert(Node::kLockingPrefix % kCacheLine == 0);
    static_assert(sizeof(Node) % alignof(std::atomic<Node*>) == 0, "the tower follows the header");
    static_assert(std::atomic<Node*>::is_always_lock_free);
    static_assert(std::is_trivially_destructible_v<std::atomic<Node*>>);
    static_assert(kTagCount <= 8, "tags are bits of a byte");
    static_assert(sizeof(Node) <= kCacheLine - 5 * sizeof(std::atomic<Node*>), "a node's first line holds five links");
    return Node::bytes(height, pernode());
}

SkipList::Node* SkipList::alloc_node(pgoff_t index, Page* page, unsigned height, std::uint32_t number) const noexcept
{
    const std::size_t bytes = node_bytes(height);
    auto* mem = static_cast<std::byte*>(::operator new(bytes, std::align_val_t(kCacheLine), std::nothrow));
    if (!mem)
        return nullptr;
    std::byte* base = mem;
    if (pernode()) {
        new (mem + Node::kRcuOffset) rcu::Head();
        new (mem + Node::kLockOffset) sync::SpinLock(*node_class_);
        base = mem + Node::kLockingPrefix;
    }
    Node* node = new (base) Node(index, page, height, number);
    for (unsigned l = 0; l < height; ++l)
        new (base + sizeof(Node) + l * sizeof(std::atomic<Node*>)) std::atomic<Node*>(nullptr);
    return node;
}

void SkipList::destroy_node(Node* node) const noexcept
{
    Node::destroy(node, pernode());
}

void SkipList::free_node_rcu(rcu::Head* head) noexcept
{
    Node::destroy(Node::from_rcu_head(head), true);
}

unsigned SkipList::random_height(std::uint64_t& n) noexcept
{
    // Draw n's bits depend only on (seed, n): reproducible for one thread,
    // and concurrent inserters share nothing but the counter.
    n = draws_.fetch_add(1, std::memory_order_relaxed);
    std::uint64_t x = SplitMix64::mix(config_.seed ^ SplitMix64::mix(n + kGolden));
    unsigned height = 1;
    while (height < config_.max_level) {
        const double u = static_cast<double>(x >> 11) * 0x1.0p-53; // uniform in [0, 1)
        if (u >= config_.p)
            break;
        ++height;
        x = SplitMix64::mix(x + kGolden);
    }
    return height;
}

void SkipList::raise_level_hint(unsigned height) noexcept
{
    unsigned current = level_hint_.load(std::memory_order_relaxed);
    while (current < height && !level_hint_.compare_exchange_weak(current, height, std::memory_order_relaxed)) { }
}

void SkipList::lower_level_hint() noexcept
{
    // Mapping lock held: the hint is exactly the highest level in use.
    unsigned height = level_hint_.load(std::memory_order_relaxed);
    while (height > 1 && !head_->next(height - 1).load(std::memory_order_relaxed))
        --height;
    level_hint_.store(height, std::memory_order_relaxed);
}

namespace {
/// A node's allocation or free as an event's fields: the node's number is
/// its identity, its level its tower's height.
template <class View> typename View::Fields node_fields(FileId file, const auto* node) noexcept
{
    return { .node = node->number, .file = file, .page = node->index, .level = int(node->height) };
}
} // namespace

// ---------------------------------------------------------------------------
// Construction

namespace {
const SkipListConfig& validated(const SkipListConfig& config)
{
    config.validate();
    return config;
}
} // namespace

SkipList::SkipList(const SkipListConfig& config, FileId file, sync::LockRegistry& registry)
    : config_(validated(config))
    , file_(file)
    , node_class_(config.scheme == SkipListScheme::PerNode ? &registry.lock_class("skiplist_node") : nullptr)
    , head_(alloc_node(0, nullptr, config.max_level, 0))
{
    if (!head_)
        throw std::bad_alloc();
    head_->flags.store(Node::kFullyLinked, std::memory_order_relaxed);
    try {
        if (!pernode())
            mapping_lock_.emplace(
                registry, "mapping[" + std::to_string(file) + "].skiplist_lock", "mapping.skiplist_lock");
    } catch (...) {
        destroy_node(head_);
        throw;
    }
}

SkipList::~SkipList()
{
    Node* node = head_->next(0).load(std::memory_order_acquire);
    while (node) {
        Node* next = node->next(0).load(std::memory_order_relaxed);
        destroy_node(node);
        node = next;
    }
    destroy_node(head_);
    // Nodes erased under pernode may still wait out their grace period.
    if (pernode())
        rcu::barrier();
}

std::uint64_t SkipList::memory_bytes() const
{
    return node_bytes_.load(std::memory_order_relaxed) + node_bytes(config_.max_level) + sizeof(SkipList);
}

IndexShape SkipList::shape() const
{
    const std::uint64_t nodes = count_.load(std::memory_order_relaxed);
    return { nodes, nodes ? int(level_hint_.load(std::memory_order_relaxed)) : 0 };
}

// ---------------------------------------------------------------------------
// Searches. Callers hold the mapping lock or are inside an RCU read-side
// section, so no node they reach is freed under them. Every link is read with
// acquire: a node reached through a link is seen as it was published.

/// Fills preds[l] / succs[l] for the levels below @levels (the paper's
/// findNode) and returns the highest level at which a node with @index was
/// found, or -1. Links only point to higher indexes, also from a node that
/// has been unlinked, so every succs[l] is the first node >= @index that the
/// walk at level l met.
int SkipList::find(pgoff_t index, unsigned levels, Node** preds, Node** succs) const noexcept
{
    int found = -1;
    Node* pred = head_;
    for (int level = static_cast<int>(levels) - 1; level >= 0; --level) {
        Node* curr = pred->next(level).load(std::memory_order_acquire);
        while (curr && curr->index < index) {
            pred = curr;
            curr = pred->next(level).load(std::memory_order_acquire);
        }
        if (found < 0 && curr && curr->index == index)
            found = level;
        preds[level] = pred;
        succs[level] = curr;
    }
    return found;
}

/// The node with @index met first on the way down, or nullptr (the node may
/// be mid-insert or marked: callers check its flags).
SkipList::Node* SkipList::locate(pgoff_t index) const noexcept
{
    Node* pred = head_;
    for (int level = static_cast<int>(level_hint_.load(std::memory_order_relaxed)) - 1; level >= 0; --level) {
        Node* curr = pred->next(level).load(std::memory_order_acquire);
        while (curr && curr->index < index) {
            pred = curr;
            curr = pred->next(level).load(std::memory_order_acquire);
        }
        if (curr && curr->index == index)
            return curr;
    }
    return nullptr;
}

/// The first node at level 0 with an index >= @first, or nullptr.
SkipList::Node* SkipList::seek(pgoff_t first) const noexcept
{
    Node* pred = head_;
    Node* curr = nullptr;
    for (int level = static_cast<int>(level_hint_.load(std::memory_order_relaxed)) - 1; level >= 0; --level) {
        curr = pred->next(level).load(std::memory_order_acquire);
        while (curr && curr->index < first) {
            pred = curr;
            curr = pred->next(level).load(std::memory_order_acquire);
        }
    }
    return curr;
}

// ---------------------------------------------------------------------------
// Lookups

Page* SkipList::lookup(pgoff_t index)
{
    Section section(*this);
    Node* node = locate(index);
    // Pernode: the paper's wait-free contains. A node found mid-insert or
    // marked is not an entry; the key was absent at some moment of the call.
    return node && Node::is_entry(node->flags.load(std::memory_order_acquire)) ? node->page : nullptr;
}

Page* SkipList::lookup_get_locked(pgoff_t index)
{
    if (lockless_lookups())
        throw std::logic_error("lookup_get_locked: the pernode skip list's lookups take no lock");
    sync::RetryBackoff backoff; // the eraser needs the lock we keep taking: let it have it
    for (;;) {
        {
            Section section(*this);
            charge_walk();
            Node* node = locate(index);
            if (!node || !Node::is_entry(node->flags.load(std::memory_order_acquire)))
                return nullptr;
            if (node->page->get_unless_zero())
                return node->page;
        }
        backoff.pause();
    }
}

bool SkipList::test_tag(pgoff_t index, unsigned tag)
{
    check_tag(tag);
    Section section(*this);
    Node* node = locate(index);
    if (!node || !Node::is_entry(node->flags.load(std::memory_order_acquire)))
        return false;
    // Tags change only while the node is an entry, so even if it has been
    // marked since, these are its tags at a moment it was one.
    return node->tags.load(std::memory_order_acquire) & (1u << tag);
}

bool SkipList::tagged(unsigned tag)
{
    check_tag(tag);
    return tagged_[tag].load(std::memory_order_relaxed) != 0;
}

std::size_t SkipList::gang_lookup(pgoff_t first, std::size_t max, Page** out)
{
    return gang(first, max, -1, out);
}

std::size_t SkipList::gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out)
{
    check_tag(tag);
    return gang(first, max, static_cast<int>(tag), out);
}

std::size_t SkipList::gang(pgoff_t first, std::size_t max, int tag, Page** out)
{
    if (max == 0)
        return 0;
    Section section(*this);
    std::size_t n = 0;
    // Links only lead to higher indexes, so the walk is ascending even when
    // it passes through nodes unlinked meanwhile; each page returned was an
    // entry when its flags were read.
    for (Node* node = seek(first); node && n < max; node = node->next(0).load(std::memory_order_acquire)) {
        if (!Node::is_entry(node->flags.load(std::memory_order_acquire)))
            continue;
        if (tag >= 0 && !(node->tags.load(std::memory_order_acquire) & (1u << tag)))
            continue;
        out[n++] = node->page;
    }
    return n;
}

// ---------------------------------------------------------------------------
// Insert

InsertResult SkipList::insert(pgoff_t index, Page* page)
{
    // Preload: the node exists before any lock is taken (see skip_list.h).
    std::uint64_t draw = 0;
    const unsigned height = random_height(draw);
    if (alloc_failure_.should_fail())
        return InsertResult::NoMemory;
    Node* node = alloc_node(index, page, height, std::uint32_t(draw + 1));
    if (!node)
        return InsertResult::NoMemory;
    const InsertResult result = pernode() ? insert_lazy(node) : insert_locked(node);
    if (result != InsertResult::Inserted)
        destroy_node(node); // never published
    return result;
}

InsertResult SkipList::insert_locked(Node* node)
{
    Node* preds[SkipListConfig::kMaxLevelLimit];
    Node* succs[SkipListConfig::kMaxLevelLimit];
    std::optional<ev::IndexNodeAlloc::Fields> alloc;
    {
        std::lock_guard guard(*mapping_lock_);
        // The hint is exact under the lock: no node is taller, so the levels
        // above it hold only the head, which find need not visit.
        const unsigned levels = std::max<unsigned>(level_hint_.load(std::memory_order_relaxed), node->height);
        if (find(node->index, levels, preds, succs) >= 0)
            return InsertResult::Exists;
        for (unsigned l = 0; l < node->height; ++l)
            node->next(l).store(succs[l], std::memory_order_relaxed);
        for (unsigned l = 0; l < node->height; ++l)
            preds[l]->next(l).store(node, std::memory_order_release);
        node->flags.store(Node::kFullyLinked, std::memory_order_release);
        raise_level_hint(node->height);
        count_.fetch_add(1, std::memory_order_relaxed);
        node_bytes_.fetch_add(node_bytes(node->height), std::memory_order_relaxed);
        // Take the event's fields under the lock: once it is dropped, an erase may free the node.
        if (trace::enabled())
            alloc = node_fields<ev::IndexNodeAlloc>(file_, node);
    }
    if (alloc)
        trace::index_node_alloc(*alloc);
    return InsertResult::Inserted;
}

/// The lazy skip list's add(). Runs inside an RCU read-side section, so the
/// preds it found stay allocated while it locks and validates them.
InsertResult SkipList::insert_lazy(Node* node)
{
    const unsigned height = node->height;
    Node* preds[SkipListConfig::kMaxLevelLimit];
    Node* succs[SkipListConfig::kMaxLevelLimit];
    Node* locked[SkipListConfig::kMaxLevelLimit];
    rcu::ReadGuard rcu;
    sync::RetryBackoff backoff;
    for (;;) {
        const int found = find(node->index, config_.max_level, preds, succs);
        if (found >= 0) {
            Node* existing = succs[found];
            if (!(existing->flags.load(std::memory_order_acquire) & Node::kMarked)) {
                // An entry, or about to be one: wait until its insert is
                // complete, so that Exists is ordered after that insert.
                while (!(existing->flags.load(std::memory_order_acquire) & Node::kFullyLinked))
                    backoff.pause();
                return InsertResult::Exists;
            }
            // Being erased: retry once its eraser has unlinked it.
            backoff.pause();
            continue;
        }
        // Lock the preds bottom-up (decreasing index), each once, and check
        // that nothing changed since the search: pred and succ still
        // adjacent and neither being erased.
        unsigned nlocked = 0;
        bool valid = true;
        for (unsigned l = 0; valid && l < height; ++l) {
            Node* pred = preds[l];
            Node* succ = succs[l];
            if (nlocked == 0 || locked[nlocked - 1] != pred) {
                pred->lock().lock();
                locked[nlocked++] = pred;
            }
            valid = !(pred->flags.load(std::memory_order_acquire) & Node::kMarked)
                && (!succ || !(succ->flags.load(std::memory_order_acquire) & Node::kMarked))
                && pred->next(l).load(std::memory_order_acquire) == succ;
        }
        if (!valid) {
            while (nlocked > 0)
                locked[--nlocked]->lock().unlock();
            backoff.pause();
            continue;
        }
        // Link bottom-up: a search that sees the node at level l finds it at
        // every level below. The release stores publish its fields and tower.
        for (unsigned l = 0; l < height; ++l)
            node->next(l).store(succs[l], std::memory_order_relaxed);
        for (unsigned l = 0; l < height; ++l)
            preds[l]->next(l).store(node, std::memory_order_release);
        // The linearisation point: from here the entry exists.
        node->flags.store(Node::kFullyLinked, std::memory_order_release);
        count_.fetch_add(1, std::memory_order_relaxed);
        node_bytes_.fetch_add(node_bytes(height), std::memory_order_relaxed);
        while (nlocked > 0)
            locked[--nlocked]->lock().unlock();
        raise_level_hint(height);
        // Still inside the read-side section: the node cannot be freed yet.
        if (trace::enabled())
            trace::index_node_alloc(node_fields<ev::IndexNodeAlloc>(file_, node));
        return InsertResult::Inserted;
    }
}

// ---------------------------------------------------------------------------
// Erase

Page* SkipList::erase(pgoff_t index)
{
    return pernode() ? erase_lazy(index) : erase_locked(index);
}

Page* SkipList::erase_locked(pgoff_t index)
{
    Node* preds[SkipListConfig::kMaxLevelLimit];
    Node* succs[SkipListConfig::kMaxLevelLimit];
    Node* victim = nullptr;
    {
        std::lock_guard guard(*mapping_lock_);
        const int found = find(index, level_hint_.load(std::memory_order_relaxed), preds, succs);
        if (found < 0)
            return nullptr;
        victim = succs[found];
        for (int l = victim->height - 1; l >= 0; --l)
            preds[l]->next(l).store(victim->next(l).load(std::memory_order_relaxed), std::memory_order_release);
        lower_level_hint();
        count_.fetch_sub(1, std::memory_order_relaxed);
        const std::uint8_t tags = victim->tags.load(std::memory_order_relaxed);
        for (unsigned t = 0; t < kTagCount; ++t)
            if (tags & (1u << t))
                tagged_[t].fetch_sub(1, std::memory_order_relaxed);
        node_bytes_.fetch_sub(node_bytes(victim->height), std::memory_order_relaxed);
    }
    // Every access to a node happens under the mapping lock, so once it is
    // unlinked and the lock dropped nobody can reach it: free it at once.
    Page* page = victim->page;
    if (trace::enabled())
        trace::index_node_free(node_fields<ev::IndexNodeFree>(file_, victim));
    destroy_node(victim);
    return page;
}

/// The lazy skip list's remove(): mark the victim under its lock (the
/// linearisation point), then lock its preds, validate and unlink top-down.
/// The victim's lock is held until it is unlinked, so no insert can link
/// behind it and no erase of its successor can change its links.
Page* SkipList::erase_lazy(pgoff_t index)
{
    Node* preds[SkipListConfig::kMaxLevelLimit];
    Node* succs[SkipListConfig::kMaxLevelLimit];
    Node* locked[SkipListConfig::kMaxLevelLimit];
    rcu::ReadGuard rcu;
    sync::RetryBackoff backoff;
    Node* victim = nullptr;
    for (;;) {
        const int found = find(index, config_.max_level, preds, succs);
        if (!victim) {
            if (found < 0)
                return nullptr;
            Node* candidate = succs[found];
            // Found below its top level: mid-insert or mid-erase. Either way
            // not an entry at this moment (the paper's topLevel == lFound test).
            const std::uint8_t flags = candidate->flags.load(std::memory_order_acquire);
            if (!Node::is_entry(flags) || candidate->height != static_cast<unsigned>(found) + 1)
                return nullptr;
            candidate->lock().lock();
            if (candidate->flags.load(std::memory_order_relaxed) & Node::kMarked) {
                candidate->lock().unlock(); // another erase won
                return nullptr;
            }
            // The linearisation point: from here the entry is gone, with its tags.
            candidate->flags.fetch_or(Node::kMarked, std::memory_order_acq_rel);
            count_.fetch_sub(1, std::memory_order_relaxed);
            const std::uint8_t tags = candidate->tags.load(std::memory_order_relaxed);
            for (unsigned t = 0; t < kTagCount; ++t)
                if (tags & (1u << t))
                    tagged_[t].fetch_sub(1, std::memory_order_relaxed);
            victim = candidate;
        }
        unsigned nlocked = 0;
        bool valid = true;
        for (unsigned l = 0; valid && l < victim->height; ++l) {
            Node* pred = preds[l];
            if (nlocked == 0 || locked[nlocked - 1] != pred) {
                pred->lock().lock();
                locked[nlocked++] = pred;
            }
            valid = !(pred->flags.load(std::memory_order_acquire) & Node::kMarked)
                && pred->next(l).load(std::memory_order_acquire) == victim;
        }
        if (!valid) {
            while (nlocked > 0)
                locked[--nlocked]->lock().unlock();
            backoff.pause();
            continue;
        }
        // Top-down (as insert links bottom-up), so each level stays a
        // sublist of the one below for lockless searches. The victim's own
        // links are left intact for searches standing on it.
        for (int l = victim->height - 1; l >= 0; --l)
            preds[l]->next(l).store(victim->next(l).load(std::memory_order_relaxed), std::memory_order_release);
        node_bytes_.fetch_sub(node_bytes(victim->height), std::memory_order_relaxed);
        while (nlocked > 0)
            locked[--nlocked]->lock().unlock();
        victim->lock().unlock();
        break;
    }
    Page* page = victim->page;
    if (trace::enabled())
        trace::index_node_free(node_fields<ev::IndexNodeFree>(file_, victim));
    // Searches that already stand on the victim may keep reading it (and
    // inserts may still lock it, find it marked and retry) until they leave
    // their read-side sections: free it after a grace period.
    rcu::call(&victim->rcu_head(), &SkipList::free_node_rcu);
    return page;
}

// ---------------------------------------------------------------------------
// Tags

bool SkipList::set_tag(pgoff_t index, unsigned tag)
{
    return change_tag(index, tag, true);
}

bool SkipList::clear_tag(pgoff_t index, unsigned tag)
{
    return change_tag(index, tag, false);
}

bool SkipList::change_tag(pgoff_t index, unsigned tag, bool set)
{
    check_tag(tag);
    const auto bit = static_cast<std::uint8_t>(1u << tag);
    Section section(*this);
    Node* node = locate(index);
    if (!node)
        return false;
    NodeGuard guard(*this, node);
    // Under the node's lock the node cannot become marked; it may still be
    // mid-insert (not an entry yet: no entry to tag).
    if (!Node::is_entry(node->flags.load(std::memory_order_acquire)))
        return false;
    const std::uint8_t old = node->tags.load(std::memory_order_relaxed);
    if (set && !(old & bit)) {
        node->tags.store(old | bit, std::memory_order_release);
        tagged_[tag].fetch_add(1, std::memory_order_relaxed);
    } else if (!set && (old & bit)) {
        node->tags.store(old & ~bit, std::memory_order_release);
        tagged_[tag].fetch_sub(1, std::memory_order_relaxed);
    }
    return true;
}

// ---------------------------------------------------------------------------
// Snapshot

IndexSnapshot SkipList::snapshot(const SnapshotOptions& options) const
{
    IndexSnapshot s;
    s.kind = IndexKind::SkipList;
    s.scheme = config_.scheme;
    s.file = file_;
    // The mapping lock as others hold it, read before this snapshot takes it.
    if (mapping_lock_)
        s.locks.push_back({ mapping_lock_->stats()->name, mapping_lock_->state() });

    Section section(*this);
    s.count = count();
    s.memory_bytes = memory_bytes();
    for (unsigned t = 0; t < kTagCount; ++t)
        s.root_tagged[t] = tagged_[t].load(std::memory_order_relaxed) != 0;
    for (int l = static_cast<int>(config_.max_level) - 1; l >= 0; --l)
        if (head_->next(l).load(std::memory_order_acquire)) {
            s.height = l + 1;
            break;
        }
    if (pernode()) {
        const sync::LockState head_state = head_->lock().state();
        if (head_state.held)
            s.locks.push_back({ "skiplist_head", head_state });
    }
    for (Node* node = head_->next(0).load(std::memory_order_acquire); node;
         node = node->next(0).load(std::memory_order_acquire)) {
        if (s.nodes.size() >= options.max_nodes) {
            s.truncated = true;
            break;
        }
        IndexSnapshot::Node& out = s.nodes.emplace_back();
        out.id = node->number;
        out.level = node->height;
        out.first_index = node->index;
        out.span = 1;
        out.slots = node->height;
        const std::uint8_t flags = node->flags.load(std::memory_order_acquire);
        const std::uint8_t tags = node->tags.load(std::memory_order_acquire);
        const bool entry = Node::is_entry(flags);
        out.occupied = entry ? 1 : 0;
        std::uint8_t bits = entry ? IndexSnapshot::kSlotOccupied : 0;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (entry && (tags & (1u << t))) {
                out.tagged[t] = 1;
                bits |= IndexSnapshot::slot_tag_bit(t);
            }
        if (options.slot_detail) {
            out.slot_bits.assign(node->height, 0);
            out.slot_bits[0] = bits;
        }
        if (pernode()) {
            const sync::LockState state = node->lock().state();
            if (state.held) {
                out.lock = static_cast<int>(s.locks.size());
                s.locks.push_back({ "skiplist_node", state });
            }
        }
    }
    return s;
}

} // namespace pcl
