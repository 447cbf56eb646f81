// RadixTree::snapshot: the tree's picture for the radix view, walked under
// RCU while writers run (every scheme frees nodes only after a grace period).
//
// Level of detail (RadixDetail): a picture of a million-page tree cannot
// draw a 4-slot leaf on its own, only how full the leaves under each pixel
// are, so the walk lists the nodes wide enough to draw and counts the others
// into per-level bins. It reads every interior node (for the levels' totals)
// but a leaf only when it lies in the range the picture shows, and a binned
// leaf only for its count and tag words, never its slots.
//
// The walk is depth first: a node's children follow it, in the order they
// were allocated, where a breadth-first queue would hold a pointer to every
// node of the next level at once. It lists into one vector per level, each
// in index order, which put one after the other from the root down is the
// breadth-first order the views expect.
#include "index/radix_tree.h"

#include "index/radix_root_word.h"

#include <algorithm>
#include <bit>

namespace pcl {

using radix::Node;
using namespace radix::word;

namespace {

/// No more bins than this per level, whatever bin_span asks for.
constexpr pgoff_t kMaxBins = pgoff_t(1) << 16;
constexpr unsigned kMaxFanout = 1u << RadixTree::kMaxShift;

/// Bits set in @w. std::popcount is a library call on a build for any
/// x86-64 (no POPCNT), and a binned leaf takes three.
unsigned bits_set(std::uint64_t w)
{
    w = w - ((w >> 1) & 0x5555555555555555ull);
    w = (w & 0x3333333333333333ull) + ((w >> 2) & 0x3333333333333333ull);
    w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return unsigned((w * 0x0101010101010101ull) >> 56);
}

class SnapshotWalk {
public:
    SnapshotWalk(IndexSnapshot& s, const SnapshotOptions& options, const radix::NodeLayout& layout, bool node_locks)
        : s_(s)
        , options_(options)
        , layout_(layout)
        , node_locks_(node_locks)
    {
        if (layout.fanout < 64)
            tag_mask_ = (std::uint64_t(1) << layout.fanout) - 1;
    }

    /// Sets up the levels, the bins and the range for a tree of @height.
    void start(unsigned height)
    {
        const unsigned shift = layout_.shift;
        last_of_.resize(height);
        listed_.resize(height);
        s_.levels.resize(height);
        RadixDetail& d = s_.detail;
        d = options_.detail;
        unsigned widest_binned = 0; // span bits of the top binned level, 0 if none
        for (unsigned level = 0; level < height; ++level) {
            const unsigned bits = (level + 1) * shift;
            last_of_[level] = bits >= 64 ? ~pgoff_t(0) : (pgoff_t(1) << bits) - 1;
            const bool binned = bits < 64 && (pgoff_t(1) << bits) < d.list_span;
            s_.levels[level].binned = binned;
            if (binned)
                widest_binned = bits;
        }
        const pgoff_t last = std::min(d.last_index, last_of_[height - 1]);
        if (widest_binned == 0)
            return;
        unsigned bin_bits
            = std::max<unsigned>(widest_binned, unsigned(std::bit_width(std::max<pgoff_t>(d.bin_span, 1) - 1)));
        const pgoff_t range = d.first_index <= last ? last - d.first_index : 0;
        while (bin_bits < 63 && (range >> bin_bits) >= kMaxBins)
            ++bin_bits;
        bin_shift_ = bin_bits;
        d.bin_span = pgoff_t(1) << bin_bits;
        s_.bin_first = d.first_index & ~(d.bin_span - 1);
        const std::size_t bins = d.first_index <= last ? std::size_t((last - s_.bin_first) >> bin_bits) + 1 : 0;
        for (auto& level : s_.levels)
            if (level.binned)
                level.bins.resize(bins);
    }

    void visit(Node* n, std::int32_t parent, unsigned offset, pgoff_t base)
    {
        const RadixDetail& d = s_.detail;
        const unsigned h = n->height;
        const unsigned level = h - 1;
        const pgoff_t last = base + last_of_[level];
        const bool in_range = base <= d.last_index && last >= d.first_index;
        const bool on_path = d.path_index && base <= *d.path_index && *d.path_index <= last;
        IndexSnapshot::Level& lv = s_.levels[level];
        const bool binned = lv.binned && in_range;
        bool list = (in_range && !lv.binned) || on_path;
        sync::LockState lock_state;
        if (node_locks_ && (in_range || on_path)) {
            lock_state = n->lock().state();
            list = list || lock_state.held;
        }
        auto& out_level = listed_[level];
        if (list && out_level.size() >= options_.max_nodes) {
            s_.truncated = true;
            list = false;
        }

        // What a binned leaf shows is its count and its tags: its slots
        // are not read (on a 64-slot node they are eight cache lines).
        const bool read_slots = h > 1 || list;
        std::uint32_t occupied = 0;
        if (!read_slots)
            occupied = n->count.load(std::memory_order_relaxed);
        std::array<std::uint32_t, kTagCount> tagged {};
        std::array<std::uint64_t, kTagCount * 2> tag_words {}; // fanout <= 128: two words a tag
        if (list || binned) {
            for (unsigned t = 0; t < kTagCount; ++t)
                for (unsigned w = 0; w < layout_.tag_words; ++w) {
                    const std::uint64_t word = n->tag_word(t, w).load(std::memory_order_acquire) & tag_mask_;
                    tag_words[t * 2 + w] = word;
                    tagged[t] += bits_set(word);
                }
        }

        std::int32_t self = -1;
        if (list) {
            self = std::int32_t(out_level.size());
            IndexSnapshot::Node& out = out_level.emplace_back();
            out.id = node_id(n, base);
            out.parent = parent;
            out.offset = offset;
            out.level = int(level);
            out.first_index = base;
            out.span = last_of_[level] == ~pgoff_t(0) ? ~pgoff_t(0) : last_of_[level] + 1;
            out.slots = layout_.fanout;
            out.tagged = tagged;
            if (options_.slot_detail)
                out.slot_bits.assign(layout_.fanout, 0);
            if (lock_state.held) {
                out.lock = int(s_.locks.size());
                s_.locks.push_back({ "radix_node", lock_state });
            }
        }

        if (read_slots) {
            const unsigned child_bits = (h - 1) * layout_.shift;
            auto child_base_of
                = [&](unsigned off) { return base + (child_bits >= 64 ? 0 : pgoff_t(off) << child_bits); };
            // A leaf is read only in range or on the path.
            auto leaf_wanted = [&](pgoff_t first) {
                const pgoff_t last_index = first + last_of_[0];
                return (first <= d.last_index && last_index >= d.first_index)
                    || (d.path_index && first <= *d.path_index && *d.path_index <= last_index);
            };
            std::array<std::uintptr_t, kMaxFanout> slot;
            for (unsigned off = 0; off < layout_.fanout; ++off)
                slot[off] = n->slot(off).load(std::memory_order_acquire);
            // Start fetching every child the walk will visit at once: one
            // node's line at a time, the walk would wait out a memory
            // latency per node (its header, and an interior node's slots).
            if (h > 1)
                for (unsigned off = 0; off < layout_.fanout; ++off) {
                    const auto* c = reinterpret_cast<const char*>(slot[off]);
                    if (!c || (h == 2 && !leaf_wanted(child_base_of(off))))
                        continue;
                    __builtin_prefetch(c);
                    if (h > 2)
                        __builtin_prefetch(c + sizeof(Node));
                }
            // And, on small nodes, the grandchildren: the children's slots
            // are on their way, and a 4-slot leaf is read in 20 ns once in
            // cache, far less than the time it takes to arrive.
            if (h > 2 && layout_.fanout <= 8) {
                const unsigned grand_bits = (h - 2) * layout_.shift;
                for (unsigned off = 0; off < layout_.fanout; ++off) {
                    auto* c = reinterpret_cast<Node*>(slot[off]);
                    if (!c)
                        continue;
                    for (unsigned off2 = 0; off2 < layout_.fanout; ++off2) {
                        const auto* g = reinterpret_cast<const char*>(c->slot(off2).load(std::memory_order_relaxed));
                        if (!g || (h == 3 && !leaf_wanted(child_base_of(off) + (pgoff_t(off2) << grand_bits))))
                            continue;
                        __builtin_prefetch(g);
                        if (h > 3)
                            __builtin_prefetch(g + sizeof(Node));
                    }
                }
            }
            for (unsigned off = 0; off < layout_.fanout; ++off) {
                const std::uintptr_t c = slot[off];
                if (self >= 0 && options_.slot_detail) {
                    std::uint8_t bits8 = c ? IndexSnapshot::kSlotOccupied : 0;
                    for (unsigned t = 0; t < kTagCount; ++t)
                        if ((tag_words[t * 2 + off / 64] >> (off % 64)) & 1)
                            bits8 |= IndexSnapshot::slot_tag_bit(t);
                    out_level[std::size_t(self)].slot_bits[off] = bits8;
                }
                if (!c)
                    continue;
                ++occupied;
                if (h == 1)
                    continue;
                ++s_.levels[level - 1].nodes;
                const pgoff_t child_base = child_base_of(off);
                if (h == 2 && !leaf_wanted(child_base)) {
                    leaves_skipped_ = true;
                    continue;
                }
                visit(reinterpret_cast<Node*>(c), self, off, child_base);
            }
        }
        if (self >= 0)
            out_level[std::size_t(self)].occupied = occupied;
        lv.occupied += occupied;
        if (binned) {
            IndexSnapshot::Bin& b = lv.bins[std::size_t((base - s_.bin_first) >> bin_shift_)];
            ++b.nodes;
            b.occupied += occupied;
            for (unsigned t = 0; t < kTagCount; ++t)
                b.tagged[t] += tagged[t];
            b.first_index = std::min(b.first_index, base);
            b.last_index = std::max(b.last_index, last);
        }
    }

    /// Puts the levels' lists one after the other from the root down, at
    /// most max_nodes, with the parents' positions in the result.
    void finish()
    {
        if (leaves_skipped_ && !s_.levels.empty())
            s_.levels[0].occupied = s_.count;
        std::size_t total = 0;
        for (const auto& l : listed_)
            total += l.size();
        s_.nodes.reserve(std::min(total, options_.max_nodes));
        std::vector<std::int32_t> first_of(listed_.size() + 1, 0);
        for (std::size_t level = listed_.size(); level-- > 0;) {
            first_of[level] = std::int32_t(s_.nodes.size());
            for (IndexSnapshot::Node& n : listed_[level]) {
                if (s_.nodes.size() >= options_.max_nodes) {
                    s_.truncated = true;
                    return;
                }
                if (n.parent >= 0)
                    n.parent += first_of[level + 1];
                s_.nodes.push_back(std::move(n));
            }
        }
    }

private:
    IndexSnapshot& s_;
    const SnapshotOptions& options_;
    const radix::NodeLayout& layout_;
    bool node_locks_;
    std::uint64_t tag_mask_ = ~std::uint64_t(0);
    unsigned bin_shift_ = 0;
    bool leaves_skipped_ = false;
    std::vector<pgoff_t> last_of_;                         ///< [level] = a node's span - 1
    std::vector<std::vector<IndexSnapshot::Node>> listed_; ///< [level], in index order
};

} // namespace

IndexSnapshot RadixTree::snapshot(const SnapshotOptions& options) const
{
    IndexSnapshot s;
    s.kind = IndexKind::Radix;
    s.scheme = config_.scheme;
    s.file = file_;
    s.count = count();
    s.memory_bytes = memory_bytes();
    s.fanout = layout_.fanout;
    s.detail = options.detail;
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
    SnapshotWalk walk(s, options, layout_, node_locks());
    walk.start(root->height);
    s.levels[root->height - 1].nodes = 1;
    walk.visit(root, -1, 0, 0);
    walk.finish();
    return s;
}

} // namespace pcl
