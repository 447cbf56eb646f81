// RadixTree::snapshot: the tree's picture for the radix view, walked under
// RCU while writers run (every scheme frees nodes only after a grace period).
#include "index/radix_tree.h"

#include "index/radix_root_word.h"

#include <algorithm>
#include <deque>

namespace pcl {

using radix::Node;
using namespace radix::word;

IndexSnapshot RadixTree::snapshot(const SnapshotOptions& options) const
{
    IndexSnapshot s;
    s.kind = IndexKind::Radix;
    s.scheme = config_.scheme;
    s.file = file_;
    s.count = count();
    s.memory_bytes = memory_bytes();
    s.fanout = layout_.fanout;
    IndexSnapshot::Lock tree;
    tree.name = "mapping[" + std::to_string(file_) + "].tree_lock";
    tree.state = tree_rwlock_ ? tree_rwlock_->state() : tree_lock_->state();
    s.locks.push_back(tree);

    if (walks_) {
        for (unsigned i = 0; i < kWalkSlots; ++i) {
            const std::uint64_t w = walks_[i].word.load(std::memory_order_relaxed);
            if (!(w & 1))
                continue;
            IndexSnapshot::Walk walk;
            walk.fell_back = w & 2;
            walk.levels_skipped = int((w >> 2) & 0x3f);
            walk.cpu = int((w >> 8) & 0xffff);
            walk.index = pgoff_t(w >> 24);
            s.walks.push_back(walk);
        }
    }

    // Every scheme frees nodes through RCU, so the walk needs no lock.
    rcu::ReadGuard guard;
    std::uint8_t root_tags;
    const std::uintptr_t r = load_root(root_tags);
    for (unsigned t = 0; t < kTagCount; ++t)
        s.root_tagged[t] = root_tags & (1u << t);
    if (!is_node(r))
        return s;
    Node* root = to_node(r);
    s.height = root->height;
    // One allocation for the picture (the count may move meanwhile: it is a hint).
    s.nodes.reserve(std::size_t(std::min<std::uint64_t>(nodes(), options.max_nodes)));
    struct Item {
        Node* node;
        std::int32_t parent;
        unsigned offset;
        pgoff_t base;
    };
    std::deque<Item> queue { { root, -1, 0, 0 } };
    while (!queue.empty()) {
        if (s.nodes.size() >= options.max_nodes) {
            s.truncated = true;
            break;
        }
        const Item it = queue.front();
        queue.pop_front();
        Node* n = it.node;
        const unsigned h = n->height;
        const unsigned bits = (h - 1) * layout_.shift;
        IndexSnapshot::Node out;
        out.id = node_id(n);
        out.parent = it.parent;
        out.offset = it.offset;
        out.level = int(h) - 1;
        out.first_index = it.base;
        const unsigned span_bits = h * layout_.shift;
        out.span = span_bits >= 64 ? ~pgoff_t(0) : pgoff_t(1) << span_bits;
        out.slots = layout_.fanout;
        if (options.slot_detail)
            out.slot_bits.assign(layout_.fanout, 0);
        const std::int32_t self = std::int32_t(s.nodes.size());
        for (unsigned off = 0; off < layout_.fanout; ++off) {
            const std::uintptr_t c = n->slot(off).load(std::memory_order_acquire);
            std::uint8_t bits8 = 0;
            if (c) {
                ++out.occupied;
                bits8 |= IndexSnapshot::kSlotOccupied;
                if (h > 1)
                    queue.push_back(
                        { reinterpret_cast<Node*>(c), self, off, it.base + (bits >= 64 ? 0 : pgoff_t(off) << bits) });
            }
            for (unsigned t = 0; t < kTagCount; ++t)
                if (n->tag_get(t, off)) {
                    ++out.tagged[t];
                    bits8 |= IndexSnapshot::slot_tag_bit(t);
                }
            if (options.slot_detail)
                out.slot_bits[off] = bits8;
        }
        if (node_locks()) {
            const sync::LockState ls = n->lock().state();
            if (ls.held) {
                out.lock = int(s.locks.size());
                s.locks.push_back({ "radix_node", ls });
            }
        }
        s.nodes.push_back(std::move(out));
    }
    return s;
}

} // namespace pcl
