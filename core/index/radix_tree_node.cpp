#include "index/radix_tree_node.h"

#include "base/task_local.h"

#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace pcl::radix {

NodeLayout NodeLayout::make(unsigned shift, bool has_lock)
{
    NodeLayout l;
    l.shift = shift;
    l.fanout = 1u << shift;
    l.tag_words = (l.fanout + 63) / 64;
    l.has_lock = has_lock;
    const std::size_t tag_bytes = std::size_t(3) * l.tag_words * sizeof(std::uint64_t);
    std::size_t end = sizeof(Node) + std::size_t(l.fanout) * sizeof(std::uintptr_t);
    if (tag_bytes <= Node::kHeaderTagBytes) {
        l.tags_offset = offsetof(Node, header_tags);
    } else {
        l.tags_offset = end;
        end += tag_bytes;
    }
    if (has_lock) {
        end = (end + alignof(sync::SpinLock) - 1) / alignof(sync::SpinLock) * alignof(sync::SpinLock);
        l.lock_offset = end;
        end += sizeof(sync::SpinLock);
    }
    l.bytes = (end + 63) / 64 * 64;
    return l;
}

unsigned Node::tag_count(unsigned tag) noexcept
{
    unsigned n = 0;
    for (unsigned w = 0; w < tag_words; ++w)
        n += unsigned(std::popcount(tag_word(tag, w).load(std::memory_order_acquire)));
    return n;
}

bool Node::any_tag(unsigned tag) noexcept
{
    for (unsigned w = 0; w < tag_words; ++w)
        if (tag_word(tag, w).load(std::memory_order_acquire))
            return true;
    return false;
}

bool Node::only_tag(unsigned tag, unsigned offset) noexcept
{
    for (unsigned w = 0; w < tag_words; ++w) {
        const std::uint64_t v = tag_word(tag, w).load(std::memory_order_acquire);
        const std::uint64_t mine = (w == offset / 64) ? (std::uint64_t(1) << (offset % 64)) : 0;
        if (v != mine)
            return false;
    }
    return true;
}

unsigned Node::next_tagged(unsigned tag, unsigned offset) noexcept
{
    const unsigned fanout = 1u << shift;
    while (offset < fanout) {
        const unsigned w = offset / 64;
        const std::uint64_t v = tag_word(tag, w).load(std::memory_order_acquire) >> (offset % 64);
        if (v)
            return offset + unsigned(std::countr_zero(v));
        offset = (w + 1) * 64;
    }
    return fanout;
}

namespace {

// The calling thread's preloaded nodes, by allocation size (trees with
// different fanouts or schemes have different node sizes).
struct PreloadPools {
    struct Pool {
        std::size_t bytes = 0;
        std::vector<void*> nodes;
    };
    static constexpr unsigned kPools = 4;
    Pool pools[kPools];
    unsigned next_victim = 0;

    Pool& pool(std::size_t bytes)
    {
        for (auto& p : pools)
            if (p.bytes == bytes)
                return p;
        for (auto& p : pools)
            if (p.bytes == 0) {
                p.bytes = bytes;
                return p;
            }
        Pool& victim = pools[next_victim++ % kPools];
        release(victim);
        victim.bytes = bytes;
        return victim;
    }
    static void release(Pool& p)
    {
        for (void* n : p.nodes)
            ::operator delete(n, std::align_val_t(64));
        p.nodes.clear();
    }

    PreloadPools() = default;
    PreloadPools(const PreloadPools&) = delete;
    PreloadPools& operator=(const PreloadPools&) = delete;
    ~PreloadPools()
    {
        for (auto& p : pools)
            release(p);
    }
};

// radix_tree_preload()'s nodes are per CPU with preemption off until the
// insertion that uses them; a task of a modelled machine can be switched out
// in between (a contended lock), so they are the task's own. Held by a
// pointer, made at the first preload: a modelled machine moves every
// task-local at every task switch, and this moves as one pointer.
thread_local std::unique_ptr<PreloadPools> t_preload;
PCL_TASK_LOCAL(t_preload);

void destroy(Node* node) noexcept
{
    if (node->lock_offset)
        std::destroy_at(&node->lock());
    node->~Node();
    ::operator delete(static_cast<void*>(node), std::align_val_t(64));
}

} // namespace

bool preload(const NodeLayout& layout, unsigned count) noexcept
{
    try {
        if (!t_preload) [[unlikely]]
            t_preload = std::make_unique<PreloadPools>();
        auto& pool = t_preload->pool(layout.bytes);
        if (pool.nodes.size() >= count)
            return true;
        pool.nodes.reserve(count);
        while (pool.nodes.size() < count)
            pool.nodes.push_back(::operator new(layout.bytes, std::align_val_t(64)));
    } catch (const std::bad_alloc&) {
        return false;
    }
    return true;
}

Node* node_from_preload(const NodeLayout& layout, unsigned height, sync::LockClass* lock_class) noexcept
{
    auto& pool = t_preload->pool(layout.bytes);
    void* mem = pool.nodes.back();
    pool.nodes.pop_back();
    std::memset(mem, 0, layout.bytes);
    Node* node = new (mem) Node;
    node->height = std::uint8_t(height);
    node->shift = std::uint8_t(layout.shift);
    node->tag_words = std::uint8_t(layout.tag_words);
    node->tags_offset = std::uint32_t(layout.tags_offset);
    auto* slots = node->slots();
    for (unsigned i = 0; i < layout.fanout; ++i)
        new (&slots[i]) std::atomic<std::uintptr_t>(0);
    for (unsigned t = 0; t < 3; ++t)
        for (unsigned w = 0; w < layout.tag_words; ++w)
            new (&node->tag_word(t, w)) std::atomic<std::uint64_t>(0);
    if (layout.has_lock) {
        node->lock_offset = std::uint32_t(layout.lock_offset);
        new (reinterpret_cast<char*>(node) + layout.lock_offset) sync::SpinLock(*lock_class);
    }
    return node;
}

void free_node_now(Node* node) noexcept
{
    destroy(node);
}

void free_node_rcu(Node* node) noexcept
{
    rcu::call(&node->rcu, [](rcu::Head* head) { destroy(reinterpret_cast<Node*>(head)); });
}

} // namespace pcl::radix
