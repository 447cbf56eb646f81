// What the radix tree view's tests share: hand-built snapshot nodes and a
// two-level tree, the layout's items of one role, a layout at a size, a real
// tree with its own lock registry, and the small run a live test plays.
#pragma once

#include "base/cpu.h"
#include "index/radix_tree.h"
#include "kit/colors.h"
#include "kit/numberformat.h"
#include "sync/lock_stats.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/radix/radixtreelayout.h"

#include <QPainter>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

using pcl::IndexSnapshot;
using pcl::RadixTree;
using pcl::ui::RadixTreeLayout;
using Role = RadixTreeLayout::Role;
using Detail = RadixTreeLayout::Detail;

namespace radixtest {

inline constexpr std::uint8_t kOcc = IndexSnapshot::kSlotOccupied;
inline constexpr std::uint8_t kDirty = IndexSnapshot::slot_tag_bit(pcl::kTagDirty);

inline IndexSnapshot::Node node(std::uint64_t id, int parent, unsigned offset, int level, pcl::pgoff_t first,
    pcl::pgoff_t span, std::vector<std::uint8_t> bits)
{
    IndexSnapshot::Node n;
    n.id = id;
    n.parent = parent;
    n.offset = offset;
    n.level = level;
    n.first_index = first;
    n.span = span;
    n.slots = unsigned(bits.size());
    for (auto b : bits) {
        if (b & kOcc)
            ++n.occupied;
        for (unsigned t = 0; t < pcl::kTagCount; ++t)
            if (b & IndexSnapshot::slot_tag_bit(t))
                ++n.tagged[t];
    }
    n.slot_bits = std::move(bits);
    return n;
}

/// Height 2, fanout 4: a root with slots 0 and 2 in use, leaf A (0..3)
/// holding 0, 1 (dirty) and 3, leaf B (8..11) holding 10.
inline IndexSnapshot twoLevels(const std::string& scheme = "rcu")
{
    IndexSnapshot s;
    s.kind = pcl::IndexKind::Radix;
    s.scheme = pcl::RadixTree::parse_scheme(scheme);
    s.file = 0;
    s.count = 4;
    s.height = 2;
    s.fanout = 4;
    s.nodes.push_back(node(1, -1, 0, 1, 0, 16, { kOcc | kDirty, 0, kOcc, 0 }));
    s.nodes.push_back(node(2, 0, 0, 0, 0, 4, { kOcc, kOcc | kDirty, 0, kOcc }));
    s.nodes.push_back(node(3, 0, 2, 0, 8, 4, { 0, 0, kOcc, 0 }));
    s.locks.push_back({ "mapping[0].tree_lock", {} });
    return s;
}

inline std::vector<RadixTreeLayout::Item> itemsOf(const RadixTreeLayout& l, Role role, int level = -2)
{
    std::vector<RadixTreeLayout::Item> out;
    for (const auto& it : l.items())
        if (it.role == role && (level == -2 || it.level == level))
            out.push_back(it);
    return out;
}

inline int countFilled(const std::vector<RadixTreeLayout::Item>& items, const QColor& c)
{
    int n = 0;
    for (const auto& it : items)
        n += it.fill == c;
    return n;
}

/// Nodes of the whole tree a snapshot counts (a level-of-detail one lists fewer).
inline std::uint64_t treeNodes(const IndexSnapshot& s)
{
    if (s.levels.empty())
        return s.nodes.size();
    std::uint64_t n = 0;
    for (const auto& l : s.levels)
        n += l.nodes;
    return n;
}

inline RadixTreeLayout laidOut(const QRectF& r = QRectF(0, 0, 900, 600))
{
    RadixTreeLayout l;
    l.setPalette(QPalette());
    l.setFont(QFont());
    l.setRect(r);
    return l;
}

/// A tree of its own (own lock registry) with pages kept alive beside it.
struct Tree {
    explicit Tree(unsigned shift, RadixTree::Scheme scheme = RadixTree::Scheme::Rcu, std::uint64_t pages = 1 << 12)
        : pages(std::make_unique<pcl::Page[]>(pages))
    {
        RadixTree::Config c;
        c.scheme = scheme;
        c.shift = shift;
        tree = std::make_unique<RadixTree>(0, c, registry);
    }
    void insert(pcl::pgoff_t i) { QCOMPARE(int(tree->insert(i, &pages[i])), int(pcl::InsertResult::Inserted)); }
    pcl::sync::LockRegistry registry;
    std::unique_ptr<pcl::Page[]> pages;
    std::unique_ptr<RadixTree> tree;
};

inline pcl::Scenario liveScenario()
{
    pcl::Scenario s = pcl::ui::test::twoCpus(
        { .filePages = 4096, .ops = 700, .memoryPages = 16384, .device = { 1000, 100, 1.0 }, .sampleMs = 20 });
    s.engine.workload.access = pcl::WorkloadAccess::MmapWrite;
    s.engine.index.kind = pcl::IndexKind::Radix;
    s.engine.index.scheme = "pernode";
    s.engine.index.radix_shift = 4;
    return s;
}

} // namespace radixtest
