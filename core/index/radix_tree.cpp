#include "index/radix_tree.h"
#include "index/radix_root_word.h"

#include "events/tracepoint.h"

#include "base/cpu.h"
#include "index/index_factory.h"
#include "lib/field_error.h"
#include "sync/cpu_relax.h"
#include "sync/rcu_read_fast.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>

namespace pcl {

using radix::Node;
using namespace radix::word;

namespace {

constexpr unsigned kSkipShards = 16;

/// A tag change's fields, the same whether the tag was set or cleared.
template <class View> typename View::Fields tag_fields(FileId file, pgoff_t index, const Node* n, unsigned tag)
{
    return { .node = node_id(n, index), .file = file, .page = index, .tag = int(tag), .level = int(n->height) - 1 };
}

// A broken locking invariant would corrupt the tree silently; stop instead.
[[noreturn]] void invariant_failed(const char* what)
{
    std::fprintf(stderr, "radix tree invariant failed: %s\n", what);
    std::terminate();
}

// The lookup's walk from node @n of height @h down to the leaf slot of
// @index, for any fanout: the shift is read into a register once (the
// slots' acquire loads would otherwise make the compiler read it from the
// tree again at every level). The shift count starts at (h - 1) * shift,
// below 64 for any height a 64-bit index needs, and drops by the shift per
// level down to the leaf's 0.
Page* walk_down(Node* n, pgoff_t index, unsigned h, unsigned shift) noexcept
{
    const pgoff_t mask = (pgoff_t(1) << shift) - 1;
    for (unsigned bits = (h - 1) * shift;; bits -= shift) {
        const std::uintptr_t c = n->slot(unsigned((index >> bits) & mask)).load(std::memory_order_acquire);
        if (!c || bits == 0)
            return to_page(c);
        n = reinterpret_cast<Node*>(c);
    }
}

// The same walk at the kernel's fanout. Linux compiles its fanout in
// (RADIX_TREE_MAP_SHIFT, 6 on a 64-bit kernel), so a level of its walk is a
// shift by a constant, a mask and a load. Here the height picks the entry
// into a run of levels whose shift counts are constants, tallest first:
// no loop counter, no shift count in a register, six instructions a level.
// Heights run from 1 to 11 (ceil(64 / 6)).
constexpr unsigned kKernelShift = 6;
static_assert(RadixTree::kMaxShift >= kKernelShift && (64 + kKernelShift - 1) / kKernelShift == 11);

[[gnu::always_inline]] inline Page* walk_down_kernel_fanout(Node* n, pgoff_t index, unsigned h) noexcept
{
    constexpr pgoff_t kMask = (pgoff_t(1) << kKernelShift) - 1;
    // One interior level: follow the slot of @index at shift count @bits.
    auto down = [&](unsigned bits) noexcept {
        const std::uintptr_t c = n->slot(unsigned((index >> bits) & kMask)).load(std::memory_order_acquire);
        n = reinterpret_cast<Node*>(c);
        return c != 0;
    };
    switch (h) {
    case 11:
        if (!down(60))
            return nullptr;
        [[fallthrough]];
    case 10:
        if (!down(54))
            return nullptr;
        [[fallthrough]];
    case 9:
        if (!down(48))
            return nullptr;
        [[fallthrough]];
    case 8:
        if (!down(42))
            return nullptr;
        [[fallthrough]];
    case 7:
        if (!down(36))
            return nullptr;
        [[fallthrough]];
    case 6:
        if (!down(30))
            return nullptr;
        [[fallthrough]];
    case 5:
        if (!down(24))
            return nullptr;
        [[fallthrough]];
    case 4:
        if (!down(18))
            return nullptr;
        [[fallthrough]];
    case 3:
        if (!down(12))
            return nullptr;
        [[fallthrough]];
    case 2:
        if (!down(6))
            return nullptr;
        [[fallthrough]];
    default: // the leaf, height 1
        return to_page(n->slot(unsigned(index & kMask)).load(std::memory_order_acquire));
    }
}

} // namespace

// The locks and path of one modifying operation, top-down.
// path[d] is the node at depth d (0 = root node); offsets[d] the slot taken
// in it. Node locks are held for depths top..depth; root_locked says whether
// the tree-level lock is still held above them.
struct RadixTree::Ladder {
    RadixTree& tree;
    // Only entries up to depth are ever read, so the arrays are left
    // uninitialised: zeroing 33 of each cost 3-7% of an insert or erase.
    Node* path[kMaxHeight + 1];
    unsigned offsets[kMaxHeight + 1];
    int top = 0;
    int depth = -1;
    bool root_locked = false;

    explicit Ladder(RadixTree& t)
        : tree(t)
    {
    }
    /// Adds @node at the next depth, locking it.
    void push(Node* node)
    {
        if (tree.node_locks())
            node->lock().lock();
        path[++depth] = node;
    }
    /// The node just pushed is safe: nothing above it can change.
    void release_above()
    {
        // Without node locks the tree lock covers the whole operation.
        if (!tree.node_locks())
            return;
        for (int d = top; d < depth; ++d)
            path[d]->lock().unlock();
        top = depth;
        if (root_locked) {
            tree.unlock_root();
            root_locked = false;
        }
    }
    void release_all()
    {
        if (tree.node_locks())
            for (int d = top; d <= depth; ++d)
                path[d]->lock().unlock();
        top = depth + 1;
        if (root_locked) {
            tree.unlock_root();
            root_locked = false;
        }
    }
    /// A change at depth @d must reach its parent: the parent must be held.
    void require_parent(int d) const
    {
        if (tree.node_locks() && (d > 0 ? d - 1 < top : !root_locked))
            invariant_failed("changing a node whose parent is not locked");
    }
};

void RadixTree::Config::validate() const
{
    if (shift < kMinShift || shift > kMaxShift)
        throw FieldError("radix_shift",
            "must be between " + std::to_string(kMinShift) + " and " + std::to_string(kMaxShift)
                + " (fanout 4..128), got " + std::to_string(shift));
}

std::string_view RadixTree::scheme_name(Scheme scheme) noexcept
{
    switch (scheme) {
    case Scheme::Spinlock:
        return "spinlock";
    case Scheme::RwLock:
        return "rwlock";
    case Scheme::Rcu:
        return "rcu";
    case Scheme::PerNode:
        return "pernode";
    case Scheme::Optimistic:
        return "optimistic";
    }
    return "?";
}

RadixTree::Scheme RadixTree::parse_scheme(std::string_view name)
{
    for (Scheme s : { Scheme::Spinlock, Scheme::RwLock, Scheme::Rcu, Scheme::PerNode, Scheme::Optimistic })
        if (scheme_name(s) == name)
            return s;
    const std::string reason
        = "'" + std::string(name) + "' is unknown; allowed: spinlock, rwlock, rcu, pernode, optimistic";
    throw FieldError("scheme", reason, "radix scheme " + reason);
}

pgoff_t RadixTree::max_index(unsigned height, unsigned shift) noexcept
{
    if (height == 0)
        return 0;
    const unsigned bits = height * shift;
    return bits >= 64 ? ~pgoff_t(0) : (pgoff_t(1) << bits) - 1;
}

RadixTree::RadixTree(FileId file, const Config& config, sync::LockRegistry& registry)
    : file_(file)
    , config_(config)
{
    config_.validate();
    const bool per_node = config.scheme == Scheme::PerNode || config.scheme == Scheme::Optimistic;
    layout_ = radix::NodeLayout::make(config.shift, per_node);
    preload_nodes_ = 2 * height_for(~pgoff_t(0)) - 1;
    const std::string name = "mapping[" + std::to_string(file) + "].tree_lock";
    if (config.scheme == Scheme::RwLock)
        tree_rwlock_.emplace(registry, name, "mapping.tree_lock");
    else
        tree_lock_.emplace(registry, name, "mapping.tree_lock");
    if (per_node)
        node_class_ = &registry.lock_class("radix_node");
    if (config.scheme == Scheme::Optimistic) {
        skips_.reset(new SkipShard[kSkipShards]);
        walks_.reset(new LastWalk[kWalkSlots]);
    }
}

RadixTree::~RadixTree()
{
    // No reader may run any more: free the nodes at once, depth first.
    std::vector<std::pair<Node*, unsigned>> stack;
    const std::uintptr_t r = root_.load(std::memory_order_acquire);
    if (is_node(r))
        stack.emplace_back(to_node(r), to_node(r)->height);
    while (!stack.empty()) {
        auto [n, h] = stack.back();
        stack.pop_back();
        if (h > 1)
            for (unsigned i = 0; i < layout_.fanout; ++i)
                if (std::uintptr_t c = n->slot(i).load(std::memory_order_relaxed))
                    stack.emplace_back(reinterpret_cast<Node*>(c), h - 1);
        radix::free_node_now(n);
    }
    // Nodes unlinked earlier are freed by their RCU callbacks, which touch
    // nothing but the node itself, so they need not be waited for.
}

unsigned RadixTree::offset(pgoff_t index, unsigned height) const noexcept
{
    const unsigned bits = (height - 1) * layout_.shift;
    return bits >= 64 ? 0 : unsigned(index >> bits) & (layout_.fanout - 1);
}

unsigned RadixTree::height_for(pgoff_t index) const noexcept
{
    unsigned h = 0;
    while (max_index(h, layout_.shift) < index)
        ++h;
    return h;
}

unsigned RadixTree::height() const noexcept
{
    rcu::ReadGuard guard; // the root node may be shrunk away and freed meanwhile
    const std::uintptr_t r = root_.load(std::memory_order_acquire);
    return is_node(r) ? to_node(r)->height : 0;
}

void RadixTree::lock_root() noexcept
{
    if (tree_rwlock_)
        tree_rwlock_->lock();
    else
        tree_lock_->lock();
}

void RadixTree::unlock_root() noexcept
{
    if (tree_rwlock_)
        tree_rwlock_->unlock();
    else
        tree_lock_->unlock();
}

// ---- allocation ---------------------------------------------------------

bool RadixTree::grant_allocations(unsigned count) noexcept
{
    for (unsigned i = 0; i < count; ++i)
        if (alloc_failure_.should_fail())
            return false;
    return true;
}

bool RadixTree::preload_for(pgoff_t index) noexcept
{
    // The tree may be (or become, before we lock it) as tall as any index
    // allows, so size for the deepest possible tree, as
    // RADIX_TREE_PRELOAD_SIZE does: growing a root to that height and then
    // building the whole path below it takes at most 2H - 1 nodes. The pool
    // keeps what an insert did not use, so this allocates only at first.
    (void)index;
    return radix::preload(layout_, preload_nodes_);
}

Node* RadixTree::new_node(unsigned height, pgoff_t index, pgoff_t within)
{
    Node* n = radix::node_from_preload(layout_, height, node_class_);
    nodes_.add(1);
    if (trace::enabled())
        trace::index_node_alloc({ .node = node_id(n, within), .file = file_, .page = index, .level = int(height) - 1 });
    return n;
}

void RadixTree::kill_node(Node* node, pgoff_t index)
{
    node->dead.store(true, std::memory_order_release);
    nodes_.add(-1);
    if (trace::enabled())
        trace::index_node_free(
            { .node = node_id(node, index), .file = file_, .page = index, .level = int(node->height) - 1 });
    radix::free_node_rcu(node);
}

// ---- structure changes at the root (root lock held) ---------------------

std::uintptr_t RadixTree::extend(std::uintptr_t root, unsigned to_height, pgoff_t index)
{
    // radix_tree_extend: each new root takes the old one as slot 0 and
    // inherits the root tags. Built bottom-up and published once, so a
    // lockless reader sees either the old root or the complete new one.
    unsigned h = is_node(root) ? to_node(root)->height : 0;
    const std::uint8_t tags = root_tags_.load(std::memory_order_relaxed);
    std::uintptr_t top = root;
    while (h < to_height) {
        Node* n = new_node(++h, index, 0); // a root: it covers 0, perhaps not yet index
        n->slot(0).store(
            is_node(top) ? reinterpret_cast<std::uintptr_t>(to_node(top)) : top, std::memory_order_relaxed);
        n->count.store(1, std::memory_order_relaxed);
        for (unsigned t = 0; t < kTagCount; ++t)
            if (tags & (1u << t))
                n->tag_set(t, 0);
        top = from_node(n);
    }
    {
        RootWrite w(*this);
        root_.store(top, std::memory_order_release);
    }
    if (trace::enabled())
        trace::index_height_grow({ .node = node_id(to_node(top), index),
            .file = file_,
            .page = index,
            .height = int(to_height),
            .level = int(to_height) - 1 });
    return top;
}

bool RadixTree::shrinkable() noexcept
{
    const std::uintptr_t r = root_.load(std::memory_order_acquire);
    if (!is_node(r))
        return false;
    Node* n = to_node(r);
    return n->count.load(std::memory_order_acquire) == 1 && n->slot(0).load(std::memory_order_acquire) != 0;
}

void RadixTree::shrink_locked()
{
    // radix_tree_shrink: while the root node has only slot 0 in use, its
    // child (or, at height 1, its one page) becomes the root. The root tags
    // stay right: the root node's only tagged slot can be slot 0.
    for (;;) {
        const std::uintptr_t r = root_.load(std::memory_order_relaxed);
        if (!is_node(r))
            return;
        Node* n = to_node(r);
        if (node_locks())
            n->lock().lock();
        const std::uintptr_t child = n->slot(0).load(std::memory_order_relaxed);
        if (n->count.load(std::memory_order_relaxed) != 1 || !child) {
            if (node_locks())
                n->lock().unlock();
            return;
        }
        {
            RootWrite w(*this);
            root_.store(n->height == 1 ? child : from_node(reinterpret_cast<Node*>(child)), std::memory_order_release);
        }
        kill_node(n, 0);
        if (node_locks())
            n->lock().unlock();
        if (trace::enabled())
            trace::index_height_shrink({ .node = node_id(n, 0),
                .file = file_,
                .page = pgoff_t { 0 },
                .height = n->height - 1,
                .level = int(n->height) - 2 });
    }
}

// ---- modification -------------------------------------------------------

// Whether @node is "safe" for @op: the operation cannot change anything in
// the node's parent, so the parent's lock need not be held (the concurrent pagecache thread's
// ladder locking). Conservative is correct; permissive is not.
bool RadixTree::safe(Node* n, unsigned height, Op op, pgoff_t index, unsigned tag) noexcept
{
    const unsigned off = offset(index, height);
    switch (op) {
    case Op::Insert:
        return true; // inserting never touches an existing node's parent
    case Op::Erase:
        // The node is freed if it empties; a tag bitmap empties if our slot
        // is its only tagged slot.
        if (n->count.load(std::memory_order_relaxed) <= 1)
            return false;
        for (unsigned t = 0; t < kTagCount; ++t)
            if (n->only_tag(t, off))
                return false;
        return true;
    case Op::SetTag:
        return n->any_tag(tag); // the parent's bit is already set
    case Op::ClearTag:
        return !n->only_tag(tag, off);
    }
    return false;
}

RadixTree::Result RadixTree::modify(Op op, pgoff_t index, unsigned tag, Page* page)
{
    Result result;
    if (config_.scheme == Scheme::Optimistic && try_optimistic(op, index, tag, page, result))
        return result;
    return modify_from_root(op, index, tag, page);
}

RadixTree::Result RadixTree::modify_root_entry(Op op, pgoff_t index, unsigned tag, Page* page, std::uintptr_t root)
{
    // Height 0: the tree is empty or holds only the page at index 0, in the root.
    Result res;
    const bool present = index == 0 && root != 0;
    res.found = present;
    RootWrite w(*this);
    switch (op) {
    case Op::Insert:
        if (present) {
            res.insert = InsertResult::Exists;
        } else {
            root_.store(reinterpret_cast<std::uintptr_t>(page), std::memory_order_release);
            count_.add(1);
        }
        break;
    case Op::Erase:
        if (present) {
            res.page = to_page(root);
            root_.store(0, std::memory_order_release);
            root_tags_.store(0, std::memory_order_relaxed);
            count_.add(-1);
        }
        break;
    case Op::SetTag:
    case Op::ClearTag:
        if (present) {
            const std::uint8_t t = root_tags_.load(std::memory_order_relaxed);
            root_tags_.store(op == Op::SetTag ? std::uint8_t(t | (1u << tag)) : std::uint8_t(t & ~(1u << tag)),
                std::memory_order_release);
        }
        break;
    }
    return res;
}

RadixTree::Result RadixTree::modify_from_root(Op op, pgoff_t index, unsigned tag, Page* page)
{
    if (op == Op::Insert && !preload_for(index))
        return { InsertResult::NoMemory, nullptr, false };
    // Lockless paths (rcu, pernode, optimistic) and snapshots may be reading.
    rcu::ReadGuard rcu_guard;
    Ladder ladder(*this);
    lock_root();
    ladder.root_locked = true;
    std::uintptr_t r = root_.load(std::memory_order_relaxed);
    unsigned h = is_node(r) ? to_node(r)->height : 0;
    unsigned budget = 0; // node allocations already granted
    if (op == Op::Insert && index > max_index(h, layout_.shift)) {
        const unsigned want = height_for(index);
        // Extension adds want - h levels; the path below the new root is
        // then missing entirely (want - 1 nodes). An empty tree needs just
        // the path (want nodes).
        budget = r ? (want - h) + (want - 1) : want;
        if (!grant_allocations(budget)) {
            ladder.release_all();
            return { InsertResult::NoMemory, nullptr, false };
        }
        if (r) {
            r = extend(r, want, index);
            budget = want - 1;
        } else {
            // Build the chain top-down while unpublished, then publish it.
            Node* top = new_node(want, index, index);
            top->count.store(0, std::memory_order_relaxed);
            r = from_node(top);
            ladder.push(top);
            ladder.offsets[0] = offset(index, want);
            {
                RootWrite w(*this);
                root_.store(r, std::memory_order_release);
            }
            if (trace::enabled())
                trace::index_height_grow({ .node = node_id(top, index),
                    .file = file_,
                    .page = index,
                    .height = int(want),
                    .level = int(want) - 1 });
            Result res = descend(ladder, op, index, tag, page, want - 1, want);
            finish(ladder, op, res);
            return res;
        }
    }
    if (!is_node(r)) {
        Result res = modify_root_entry(op, index, tag, page, r);
        ladder.release_all();
        return res;
    }
    Node* n = to_node(r);
    const unsigned nh = n->height;
    if (index > max_index(nh, layout_.shift)) {
        ladder.release_all();
        return {}; // not present
    }
    ladder.push(n);
    if (node_locks() && safe(n, nh, op, index, tag))
        ladder.release_above();
    Result res = descend(ladder, op, index, tag, page, budget, nh);
    finish(ladder, op, res);
    return res;
}

void RadixTree::finish(Ladder& ladder, Op op, const Result& result)
{
    const bool shrink = op == Op::Erase && result.found && shrinkable();
    if (!node_locks()) {
        // The tree lock covers everything: shrink before letting go of it.
        if (shrink)
            shrink_locked();
        ladder.release_all();
        return;
    }
    ladder.release_all();
    if (shrink) {
        lock_root();
        shrink_locked();
        unlock_root();
    }
}

RadixTree::Result RadixTree::descend(
    Ladder& ladder, Op op, pgoff_t index, unsigned tag, Page* page, unsigned budget, unsigned height)
{
    // @height is that of the node on top of the ladder; a child's is its
    // parent's minus one. Carrying it down, as walk() does, means no node's
    // header is read before its slot: each level costs the slot's cache
    // line only, and the leaf's header (count, tags) arrives in parallel
    // with its slot. Only the node-lock schemes look at a node's header on
    // the way down, for its lock and for safe().
    Result res;
    for (unsigned h = height;; --h) {
        const int d = ladder.depth;
        Node* n = ladder.path[d];
        const unsigned off = offset(index, h);
        ladder.offsets[d] = off;
        if (h == 1)
            break;
        const std::uintptr_t c = n->slot(off).load(std::memory_order_relaxed);
        if (c) {
            Node* child = reinterpret_cast<Node*>(c);
            ladder.push(child);
            if (node_locks() && safe(child, h - 1, op, index, tag))
                ladder.release_above();
            continue;
        }
        if (op != Op::Insert)
            return res; // nothing there
        // Build the missing path bottom-up, unpublished, then link it: a
        // lockless reader sees all of it or none.
        const unsigned need = h - 1;
        if (budget < need && !grant_allocations(need - budget)) {
            res.insert = InsertResult::NoMemory;
            return res;
        }
        std::uintptr_t below = reinterpret_cast<std::uintptr_t>(page);
        for (unsigned hh = 1; hh < h; ++hh) {
            Node* m = new_node(hh, index, index);
            m->slot(offset(index, hh)).store(below, std::memory_order_relaxed);
            m->count.store(1, std::memory_order_relaxed);
            below = reinterpret_cast<std::uintptr_t>(m);
        }
        n->slot(off).store(below, std::memory_order_release);
        n->count.store(n->count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        count_.add(1);
        return res;
    }

    const int d = ladder.depth;
    Node* leaf = ladder.path[d];
    const unsigned off = ladder.offsets[d];
    auto& slot = leaf->slot(off);
    const std::uintptr_t cur = slot.load(std::memory_order_relaxed);
    res.found = cur != 0;
    switch (op) {
    case Op::Insert:
        if (cur) {
            res.insert = InsertResult::Exists;
            return res;
        }
        slot.store(reinterpret_cast<std::uintptr_t>(page), std::memory_order_release);
        leaf->count.store(leaf->count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        count_.add(1);
        return res;
    case Op::Erase: {
        if (!cur)
            return res;
        res.page = to_page(cur);
        slot.store(0, std::memory_order_release);
        leaf->count.store(leaf->count.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
        std::array<bool, kTagCount> emptied {};
        for (unsigned t = 0; t < kTagCount; ++t)
            if (leaf->tag_get(t, off)) {
                leaf->tag_clear(t, off);
                emptied[t] = !leaf->any_tag(t);
            }
        count_.add(-1);
        propagate(ladder, op, index, tag, d, emptied);
        return res;
    }
    case Op::SetTag: {
        if (!cur || leaf->tag_get(tag, off))
            return res;
        const bool was_empty = !leaf->any_tag(tag);
        leaf->tag_set(tag, off);
        if (was_empty)
            propagate(ladder, op, index, tag, d, {});
        return res;
    }
    case Op::ClearTag:
        if (!cur || !leaf->tag_get(tag, off))
            return res;
        leaf->tag_clear(tag, off);
        if (!leaf->any_tag(tag))
            propagate(ladder, op, index, tag, d, {});
        return res;
    }
    return res;
}

// Carries a change up the held ladder: a node that emptied is unlinked from
// its parent; a tag bitmap that emptied (or became non-empty) clears (sets)
// the parent's bit; at the top, the root word and the root tags follow.
void RadixTree::propagate(
    Ladder& ladder, Op op, pgoff_t index, unsigned tag, int depth, std::array<bool, kTagCount> emptied)
{
    int d = depth;
    if (op == Op::SetTag || op == Op::ClearTag) {
        const bool set = op == Op::SetTag;
        for (;;) {
            ladder.require_parent(d);
            if (d == 0) {
                RootWrite w(*this);
                const std::uint8_t t = root_tags_.load(std::memory_order_relaxed);
                root_tags_.store(
                    set ? std::uint8_t(t | (1u << tag)) : std::uint8_t(t & ~(1u << tag)), std::memory_order_release);
                return;
            }
            Node* p = ladder.path[d - 1];
            const unsigned poff = ladder.offsets[d - 1];
            const bool was_empty = !p->any_tag(tag);
            if (set)
                p->tag_set(tag, poff);
            else
                p->tag_clear(tag, poff);
            if (trace::enabled()) {
                if (set)
                    trace::index_tag_set(tag_fields<ev::IndexTagSet>(file_, index, p, tag));
                else
                    trace::index_tag_clear(tag_fields<ev::IndexTagClear>(file_, index, p, tag));
            }
            if (set ? !was_empty : p->any_tag(tag))
                return;
            --d;
        }
    }
    // Erase.
    Node* n = ladder.path[d];
    for (;;) {
        const bool node_emptied = n->count.load(std::memory_order_relaxed) == 0;
        bool any = node_emptied;
        for (bool e : emptied)
            any = any || e;
        if (!any)
            return;
        ladder.require_parent(d);
        if (d == 0) {
            RootWrite w(*this);
            std::uint8_t t = root_tags_.load(std::memory_order_relaxed);
            for (unsigned k = 0; k < kTagCount; ++k)
                if (emptied[k] || node_emptied)
                    t = std::uint8_t(t & ~(1u << k));
            root_tags_.store(t, std::memory_order_release);
            if (node_emptied) {
                root_.store(0, std::memory_order_release);
                if (trace::enabled())
                    trace::index_height_shrink(
                        { .node = node_id(n, index), .file = file_, .page = index, .height = 0, .level = -1 });
                kill_node(n, index);
            }
            return;
        }
        Node* p = ladder.path[d - 1];
        const unsigned poff = ladder.offsets[d - 1];
        std::array<bool, kTagCount> next {};
        for (unsigned k = 0; k < kTagCount; ++k)
            if ((node_emptied || emptied[k]) && p->tag_get(k, poff)) {
                p->tag_clear(k, poff);
                next[k] = !p->any_tag(k);
                if (trace::enabled())
                    trace::index_tag_clear(tag_fields<ev::IndexTagClear>(file_, index, p, k));
            }
        if (node_emptied) {
            p->slot(poff).store(0, std::memory_order_release);
            p->count.store(p->count.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
            kill_node(n, index);
        }
        emptied = next;
        n = p;
        --d;
    }
}

void RadixTree::record_skip(int depth, pgoff_t index, bool fell_back) noexcept
{
    if (fell_back)
        skips_[thread_slot() % kSkipShards].failed.fetch_add(1, std::memory_order_relaxed);
    else
        skips_[thread_slot() % kSkipShards].levels[std::size_t(depth)].fetch_add(1, std::memory_order_relaxed);
    const auto cpu = unsigned(current_cpu());
    const std::uint64_t word = 1u | (fell_back ? 2u : 0u) | (std::uint64_t(depth & 0x3f) << 2)
        | (std::uint64_t(cpu & 0xffff) << 8) | ((std::uint64_t(index) & ((std::uint64_t(1) << 40) - 1)) << 24);
    walks_[cpu % kWalkSlots].word.store(word, std::memory_order_relaxed);
}

bool RadixTree::try_optimistic(Op op, pgoff_t index, unsigned tag, Page* page, Result& result)
{
    if (op == Op::Insert && !preload_for(index)) {
        result = { InsertResult::NoMemory, nullptr, false };
        return true;
    }
    rcu::ReadGuard rcu_guard;
    const std::uintptr_t r = root_.load(std::memory_order_acquire);
    if (!is_node(r)) {
        record_skip(0, index);
        return false; // height 0: the root lock decides
    }
    Node* n = to_node(r);
    if (index > max_index(n->height, layout_.shift)) {
        if (op == Op::Insert) {
            record_skip(0, index);
            return false; // extension happens under the root lock
        }
        result = {}; // nothing that far out
        return true;
    }
    // Walk down without locks, remembering the deepest safe node: the
    // highest node the operation changes. Nothing above it needs a lock.
    Node* best = nullptr;
    int best_depth = -1;
    unsigned best_height = 0;
    for (unsigned d = 0, h = n->height;; ++d, --h) {
        if (safe(n, h, op, index, tag)) {
            best = n;
            best_depth = int(d);
            best_height = h;
        }
        if (h == 1)
            break;
        const std::uintptr_t c = n->slot(offset(index, h)).load(std::memory_order_acquire);
        if (!c) {
            if (op != Op::Insert) {
                result = {};
                return true;
            }
            break;
        }
        n = reinterpret_cast<Node*>(c);
    }
    if (!best) {
        record_skip(0, index);
        return false; // even the root node is unsafe: start at the root lock
    }
    best->lock().lock();
    if (best->dead.load(std::memory_order_acquire) || !safe(best, best_height, op, index, tag)) {
        // Freed, or changed so that the parent is involved after all.
        best->lock().unlock();
        record_skip(0, index, true);
        return false;
    }
    record_skip(best_depth, index);
    Ladder ladder(*this);
    ladder.top = best_depth;
    ladder.depth = best_depth;
    ladder.path[best_depth] = best;
    result = descend(ladder, op, index, tag, page, 0, best_height);
    finish(ladder, op, result);
    return true;
}

// ---- the PageIndex operations ---------------------------------------------

InsertResult RadixTree::insert(pgoff_t index, Page* page)
{
    return modify(Op::Insert, index, 0, page).insert;
}

Page* RadixTree::erase(pgoff_t index)
{
    return modify(Op::Erase, index, 0, nullptr).page;
}

bool RadixTree::set_tag(pgoff_t index, unsigned tag)
{
    if (tag >= kTagCount)
        throw std::invalid_argument("tag must be below " + std::to_string(kTagCount));
    return modify(Op::SetTag, index, tag, nullptr).found;
}

bool RadixTree::clear_tag(pgoff_t index, unsigned tag)
{
    if (tag >= kTagCount)
        throw std::invalid_argument("tag must be below " + std::to_string(kTagCount));
    return modify(Op::ClearTag, index, tag, nullptr).found;
}

// Inlined into the lookups: at the kernel's fanout a lookup is then one
// function with no frame of its own (radix_tree_lookup is a leaf function
// too), which lets the processor keep more independent lookups in flight.
[[gnu::always_inline]] inline Page* RadixTree::walk(pgoff_t index) noexcept
{
    const std::uintptr_t r = root_.load(std::memory_order_acquire);
    if (!is_node(r)) [[unlikely]]
        return index == 0 ? to_page(r) : nullptr;
    Node* n = to_node(r);
    // A child's height is its parent's minus one, so only the root's header
    // is read: below it each level costs one cache line, the slot's.
    const unsigned h = n->height;
    const unsigned shift = layout_.shift;
    if (shift == kKernelShift) [[likely]] {
        // index > max_index(h): split in two shifts, each below 64.
        if ((index >> ((h - 1) * kKernelShift)) >> kKernelShift)
            return nullptr;
        return walk_down_kernel_fanout(n, index, h);
    }
    if (index > max_index(h, shift))
        return nullptr;
    return walk_down(n, index, h, shift);
}

std::uintptr_t RadixTree::load_root(std::uint8_t& tags) const noexcept
{
    sync::Backoff backoff;
    for (;;) {
        const std::uint32_t seq = root_seq_.load(std::memory_order_acquire);
        if (seq & 1) {
            backoff.pause();
            continue;
        }
        const std::uintptr_t r = root_.load(std::memory_order_acquire);
        tags = root_tags_.load(std::memory_order_acquire);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (root_seq_.load(std::memory_order_relaxed) == seq)
            return r;
    }
}

bool RadixTree::walk_tag(pgoff_t index, unsigned tag) noexcept
{
    // radix_tree_tag_get: follow the tag bits down; a clear bit on the way
    // means the entry is not tagged.
    std::uint8_t root_tags;
    const std::uintptr_t r = load_root(root_tags);
    if (!(root_tags & (1u << tag)))
        return false;
    if (!is_node(r))
        return index == 0 && r != 0;
    Node* n = to_node(r);
    unsigned h = n->height;
    if (index > max_index(h, layout_.shift))
        return false;
    for (;; --h) {
        const unsigned off = offset(index, h);
        if (!n->tag_get(tag, off))
            return false;
        const std::uintptr_t c = n->slot(off).load(std::memory_order_acquire);
        if (!c)
            return false;
        if (h == 1)
            return true;
        n = reinterpret_cast<Node*>(c);
    }
}

namespace {
// Runs @fn under the read side the scheme uses for lookups.
template <class Fn>
auto read_side(RadixTree::Scheme scheme, std::optional<sync::SpinLock>& lock, std::optional<sync::RwLock>& rw, Fn&& fn)
{
    if (scheme == RadixTree::Scheme::Spinlock) {
        std::lock_guard g(*lock);
        return fn();
    }
    if (scheme == RadixTree::Scheme::RwLock) {
        sync::RwLock::ReadGuard g(*rw);
        return fn();
    }
    rcu::FastReadGuard g;
    return fn();
}
} // namespace

Page* RadixTree::lookup(pgoff_t index)
{
    // find_get_page's lockless path (2.6.27) first, with its walk inline;
    // the locked schemes' lookups are out of line so that their calls and
    // saved registers stay out of it.
    if (lockless_lookups()) [[likely]] {
        rcu::FastReadGuard g;
        return walk(index);
    }
    return lookup_under_tree_lock(index);
}

Page* RadixTree::lookup_under_tree_lock(pgoff_t index)
{
    return read_side(config_.scheme, tree_lock_, tree_rwlock_, [&] { return walk(index); });
}

Page* RadixTree::lookup_get_locked(pgoff_t index)
{
    if (lockless_lookups())
        throw std::logic_error(
            "lookup_get_locked: the " + std::string(scheme()) + " radix tree's lookups take no lock");
    sync::RetryBackoff backoff; // the eraser needs the lock we keep taking: let it have it
    for (;;) {
        bool frozen = false;
        Page* page = read_side(config_.scheme, tree_lock_, tree_rwlock_, [&]() -> Page* {
            charge_walk();
            Page* p = walk(index);
            if (p && !p->get_unless_zero()) {
                frozen = true;
                return nullptr;
            }
            return p;
        });
        if (!frozen)
            return page;
        backoff.pause();
    }
}

bool RadixTree::test_tag(pgoff_t index, unsigned tag)
{
    if (tag >= kTagCount)
        return false;
    return read_side(config_.scheme, tree_lock_, tree_rwlock_, [&] { return walk_tag(index, tag); });
}

bool RadixTree::tagged(unsigned tag)
{
    return tag < kTagCount && (root_tags_.load(std::memory_order_acquire) & (1u << tag));
}

std::size_t RadixTree::gang(pgoff_t first, std::size_t max, Page** out, int tag) noexcept
{
    // In-order walk from @first (__lookup / __lookup_tag): in each node scan
    // the slots from the one covering the next wanted index; with a tag,
    // descend only where the tag bit is set.
    if (max == 0)
        return 0;
    std::uint8_t root_tags;
    const std::uintptr_t r = load_root(root_tags);
    if (!is_node(r)) {
        if (first == 0 && r && (tag < 0 || (root_tags & (1u << tag)))) {
            out[0] = to_page(r);
            return 1;
        }
        return 0;
    }
    Node* root = to_node(r);
    if (first > max_index(root->height, layout_.shift))
        return 0;
    std::size_t got = 0;
    struct Frame {
        Node* node;
        unsigned height;
        unsigned off;
        pgoff_t base;
    };
    Frame stack[kMaxHeight + 1];
    int sp = 0;
    stack[0] = { root, root->height, offset(first, root->height), 0 };
    bool at_first = true; // still on the path of @first: start offsets come from it
    while (sp >= 0 && got < max) {
        Frame& f = stack[sp];
        Node* n = f.node;
        const unsigned h = f.height;
        const unsigned bits = (h - 1) * layout_.shift;
        if (h == 1 && tag < 0) {
            // A leaf without a tag to follow: copy its pages in one pass
            // over the slots, which lie in consecutive cache lines that the
            // hardware prefetches, instead of one round of the loop each.
            const std::atomic<std::uintptr_t>* slots = n->slots();
            for (unsigned off = f.off; off < layout_.fanout && got < max; ++off)
                if (const std::uintptr_t c = slots[off].load(std::memory_order_acquire); c && f.base + off >= first)
                    out[got++] = to_page(c);
            --sp;
            at_first = false;
            continue;
        }
        if (tag >= 0)
            f.off = n->next_tagged(unsigned(tag), f.off);
        if (f.off >= layout_.fanout) {
            --sp;
            at_first = false;
            continue;
        }
        const unsigned off = f.off++;
        const std::uintptr_t c = n->slot(off).load(std::memory_order_acquire);
        if (!c) {
            at_first = false;
            continue;
        }
        const pgoff_t base = f.base + (bits >= 64 ? 0 : pgoff_t(off) << bits);
        if (h == 1) {
            if (base >= first)
                out[got++] = to_page(c);
            continue;
        }
        Node* child = reinterpret_cast<Node*>(c);
        const bool on_path = at_first && off == offset(first, h);
        stack[++sp] = { child, h - 1, on_path ? offset(first, h - 1) : 0u, base };
        at_first = on_path;
    }
    return got;
}

std::size_t RadixTree::gang_lookup(pgoff_t first, std::size_t max, Page** out)
{
    return read_side(config_.scheme, tree_lock_, tree_rwlock_, [&] { return gang(first, max, out, -1); });
}

std::size_t RadixTree::gang_lookup_tag(pgoff_t first, std::size_t max, unsigned tag, Page** out)
{
    if (tag >= kTagCount)
        return 0;
    return read_side(config_.scheme, tree_lock_, tree_rwlock_, [&] { return gang(first, max, out, int(tag)); });
}

std::uint64_t RadixTree::count() const
{
    return std::uint64_t(count_.sum());
}

std::uint64_t RadixTree::memory_bytes() const
{
    // Nodes in the tree plus the tree itself (root, locks, counters), as
    // mapping->page_tree's share of struct address_space.
    std::uint64_t bytes = sizeof(RadixTree) + std::uint64_t(nodes_.sum()) * layout_.bytes;
    if (tree_lock_)
        bytes += sizeof(sync::SpinLock);
    if (tree_rwlock_)
        bytes += sizeof(sync::RwLock);
    if (skips_)
        bytes += sizeof(SkipShard) * kSkipShards;
    return bytes;
}

RadixTree::OptimisticStats RadixTree::optimistic_stats() const
{
    OptimisticStats s;
    s.levels_skipped.assign(kMaxHeight + 1, 0);
    if (!skips_)
        return s;
    for (unsigned i = 0; i < kSkipShards; ++i) {
        for (unsigned d = 0; d <= kMaxHeight; ++d)
            s.levels_skipped[d] += skips_[i].levels[d].load(std::memory_order_relaxed);
        s.failed += skips_[i].failed.load(std::memory_order_relaxed);
    }
    while (s.levels_skipped.size() > 1 && s.levels_skipped.back() == 0)
        s.levels_skipped.pop_back();
    return s;
}

void RadixTree::reset_optimistic_stats() noexcept
{
    if (!skips_)
        return;
    for (unsigned i = 0; i < kSkipShards; ++i) {
        for (auto& l : skips_[i].levels)
            l.store(0, std::memory_order_relaxed);
        skips_[i].failed.store(0, std::memory_order_relaxed);
    }
}

// ---- factory -------------------------------------------------------------

std::vector<std::string> radix_schemes()
{
    return { "spinlock", "rwlock", "rcu", "pernode", "optimistic" };
}

std::unique_ptr<PageIndex> make_radix_index(const IndexSpec& spec, FileId file, sync::LockRegistry& registry)
{
    RadixTree::Config config;
    config.scheme = spec.scheme.empty() ? RadixTree::Scheme::Rcu : RadixTree::parse_scheme(spec.scheme);
    config.shift = spec.radix_shift;
    return std::make_unique<RadixTree>(file, config, registry);
}

} // namespace pcl
