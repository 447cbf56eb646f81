// The radix tree view: what its layout draws for hand-built snapshots and
// for snapshots of real trees, its level-of-detail switch points, the height
// animation and the fades, locks, the file strip, a live run, a screenshot,
// and paint times of benchmarkLoad trees.
#include "base/cpu.h"
#include "index/radix_tree.h"
#include "kit/colors.h"
#include "kit/numberformat.h"
#include "run/simulation.h"
#include "sync/lock_stats.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/radix/radixtreelayout.h"
#include "views/radix/radixtreeview.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QPainter>
#include <QTest>

#include <memory>

using pcl::IndexSnapshot;
using pcl::RadixTree;
using pcl::ui::RadixTreeLayout;
using pcl::ui::RadixTreeView;
using pcl::ui::Simulation;
using Role = RadixTreeLayout::Role;
using Detail = RadixTreeLayout::Detail;

namespace {

constexpr std::uint8_t kOcc = IndexSnapshot::kSlotOccupied;
constexpr std::uint8_t kDirty = IndexSnapshot::slot_tag_bit(pcl::kTagDirty);

IndexSnapshot::Node node(std::uint64_t id, int parent, unsigned offset, int level, pcl::pgoff_t first,
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
IndexSnapshot twoLevels(const std::string& scheme = "rcu")
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

std::vector<RadixTreeLayout::Item> itemsOf(const RadixTreeLayout& l, Role role, int level = -2)
{
    std::vector<RadixTreeLayout::Item> out;
    for (const auto& it : l.items())
        if (it.role == role && (level == -2 || it.level == level))
            out.push_back(it);
    return out;
}

int countFilled(const std::vector<RadixTreeLayout::Item>& items, const QColor& c)
{
    int n = 0;
    for (const auto& it : items)
        n += it.fill == c;
    return n;
}

/// Nodes of the whole tree a snapshot counts (a level-of-detail one lists fewer).
std::uint64_t treeNodes(const IndexSnapshot& s)
{
    if (s.levels.empty())
        return s.nodes.size();
    std::uint64_t n = 0;
    for (const auto& l : s.levels)
        n += l.nodes;
    return n;
}

RadixTreeLayout laidOut(const QRectF& r = QRectF(0, 0, 900, 600))
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

pcl::Scenario liveScenario()
{
    pcl::Scenario s = pcl::ui::test::twoCpus(
        { .filePages = 4096, .ops = 700, .memoryPages = 16384, .device = { 1000, 100, 1.0 }, .sampleMs = 20 });
    s.engine.workload.access = "mmap_write";
    s.engine.index.kind = pcl::IndexKind::Radix;
    s.engine.index.scheme = "pernode";
    s.engine.index.radix_shift = 4;
    return s;
}

} // namespace

class TestRadixTreeView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void handBuiltTreeIsDrawnSlotBySlot()
    {
        auto l = laidOut();
        l.setSnapshot(twoLevels(), 0);
        l.build(0);
        QCOMPARE(l.levelDetail(1), Detail::Slots);
        QCOMPARE(l.levelDetail(0), Detail::Slots);
        const QRectF tree = l.treeRect();
        QVERIFY(tree.left() > 100); // the level labels
        QCOMPARE(tree.right(), 900.0 - 14);
        const double w = tree.width();

        QCOMPARE(itemsOf(l, Role::NodeFrame).size(), std::size_t(3));
        const auto slots = itemsOf(l, Role::Slot);
        QCOMPARE(slots.size(), std::size_t(12));
        QCOMPARE(countFilled(slots, l.occupiedColor()), 6);
        QCOMPARE(countFilled(slots, l.emptyColor()), 6);
        const auto tags = itemsOf(l, Role::SlotTag);
        QCOMPARE(tags.size(), std::size_t(2));
        for (const auto& t : tags) {
            QCOMPARE(t.tag, int(pcl::kTagDirty));
            QCOMPARE(t.fill, RadixTreeLayout::tagColor(pcl::kTagDirty));
        }
        QCOMPARE(tags[0].level, 1); // root slot 0: a dirty page below it
        QCOMPARE(tags[0].slot, 0);
        QCOMPARE(tags[1].level, 0);
        QCOMPARE(tags[1].slot, 1);
        QCOMPARE(itemsOf(l, Role::Connector).size(), std::size_t(2));

        // Leaf B covers indexes 8..11 of 0..15: the third quarter of the width,
        // under root slot 2; its slot 2 (index 10) is occupied.
        const double rowH = std::min(RadixTreeLayout::kMaxRowPx, tree.height() / 2);
        int checked = 0;
        for (const auto& s : slots) {
            if (s.node != 2 || s.slot != 2)
                continue;
            QCOMPARE(s.rect.left(), tree.left() + w / 2 + 2 * w / 16 + 1);
            QCOMPARE(s.rect.width(), w / 16 - 2);
            QCOMPARE(s.rect.top(), tree.top() + rowH + 1);
            QCOMPARE(s.fill, l.occupiedColor());
            ++checked;
        }
        QCOMPARE(checked, 1);
        const auto frames = itemsOf(l, Role::NodeFrame, 0);
        QCOMPARE(frames[1].rect.left(), tree.left() + w / 2);
        QCOMPARE(frames[1].rect.width(), w / 4);
        // The height on the side, a row label per level.
        QCOMPARE(itemsOf(l, Role::HeightLabel).front().text, QStringLiteral("height\n2"));
        const auto labels = itemsOf(l, Role::LevelLabel);
        QCOMPARE(labels.size(), std::size_t(2));
        QVERIFY(labels[0].text.startsWith(QStringLiteral("root · level 1\n1 node · 50% full")));
        QVERIFY(labels[1].text.startsWith(QStringLiteral("leaves · level 0\n2 nodes · 50% full")));
        // A legend for every colour.
        QStringList legend;
        for (const auto& it : itemsOf(l, Role::Legend))
            legend << it.text;
        QCOMPARE(legend,
            QStringList({ "occupied slot", "empty slot", "dirty tag", "writeback tag", "towrite tag", "lock held",
                "held + wanted" }));
    }

    void hoverNamesThePageAndTheSlot()
    {
        auto l = laidOut();
        l.setSnapshot(twoLevels(), 0);
        l.build(0);
        for (const auto& s : itemsOf(l, Role::Slot)) {
            const auto hit = l.hitTest(s.rect.center(), 0);
            QCOMPARE(hit.node, s.node);
            QCOMPARE(hit.slot, s.slot);
            QCOMPARE(hit.level, s.level);
        }
        const auto leafA = itemsOf(l, Role::Slot, 0);
        const auto hit = l.hitTest(leafA[1].rect.center(), 0);
        QCOMPARE(hit.first, pcl::pgoff_t(1));
        QCOMPARE(hit.last, pcl::pgoff_t(1));
        QCOMPARE(l.describe(hit), QStringLiteral("page index 1\nleaf slot 1 of 4: occupied\ntags: dirty"));
        const auto root = itemsOf(l, Role::Slot, 1);
        const auto rootHit = l.hitTest(root[2].rect.center(), 0);
        QCOMPARE(rootHit.first, pcl::pgoff_t(8));
        QCOMPARE(rootHit.last, pcl::pgoff_t(11));
        QCOMPARE(
            l.describe(rootHit), QStringLiteral("indexes 8 - 11\nlevel 1 slot 2 of 4: points to a node\ntags: none"));
        // Between the rows: nothing.
        QCOMPARE(l.hitTest(QPointF(500, l.treeRect().bottom() - 1), 0).node, -1);
    }

    void realTreeSnapshotIsDrawnAsItIs()
    {
        Tree t(2);
        for (pcl::pgoff_t i : { 0, 1, 5, 63 })
            t.insert(i);
        QVERIFY(t.tree->set_tag(5, pcl::kTagDirty));
        const auto snap = t.tree->snapshot();
        QCOMPARE(snap.height, 3);
        QCOMPARE(snap.nodes.size(), std::size_t(t.tree->shape().nodes));
        QCOMPARE(snap.nodes.size(), std::size_t(6));
        auto l = laidOut();
        l.setSnapshot(snap, 0);
        l.build(0);
        for (int level = 0; level < 3; ++level)
            QCOMPARE(l.levelDetail(level), Detail::Slots);
        const auto slots = itemsOf(l, Role::Slot);
        QCOMPARE(slots.size(), std::size_t(24));
        // root: slots 0 and 3; level 1: 0, 1 and 3; leaves: 0, 1 | 5 | 63.
        QCOMPARE(countFilled(slots, l.occupiedColor()), 9);
        QCOMPARE(countFilled(itemsOf(l, Role::Slot, 2), l.occupiedColor()), 2);
        QCOMPARE(countFilled(itemsOf(l, Role::Slot, 1), l.occupiedColor()), 3);
        QCOMPARE(countFilled(itemsOf(l, Role::Slot, 0), l.occupiedColor()), 4);
        // The dirty tag marks the path to page 5, one slot per level.
        const auto tags = itemsOf(l, Role::SlotTag);
        QCOMPARE(tags.size(), std::size_t(3));
        for (const auto& tag : tags) {
            const auto hit = l.hitTest(QPointF(tag.rect.center().x(), tag.rect.top() - 3), 0);
            QVERIFY(hit.first <= 5 && 5 <= hit.last);
        }
    }

    void withoutSlotDetailTheSlotsAreDerivedAndFetched()
    {
        Tree t(2);
        for (pcl::pgoff_t i : { 0, 1, 5, 63 })
            t.insert(i);
        QVERIFY(t.tree->set_tag(63, pcl::kTagTowrite));
        auto full = laidOut();
        full.setSnapshot(t.tree->snapshot(), 0);
        full.build(0);
        QVERIFY(!full.missingLeafDetail());

        pcl::SnapshotOptions bare;
        bare.slot_detail = false;
        auto l = laidOut();
        l.setSnapshot(t.tree->snapshot(bare), 0);
        l.build(0);
        // Interior slots come from the children; leaves wait for their bits.
        QCOMPARE(itemsOf(l, Role::Slot, 2).size(), std::size_t(4));
        QCOMPARE(itemsOf(l, Role::Slot, 1).size(), std::size_t(8));
        QCOMPARE(itemsOf(l, Role::Slot, 0).size(), std::size_t(0));
        QCOMPARE(itemsOf(l, Role::NodeCell, 0).size(), std::size_t(3));
        const auto missing = l.missingLeafDetail();
        QVERIFY(missing);
        QCOMPARE(missing->first, pcl::pgoff_t(0));
        QCOMPARE(missing->second, pcl::pgoff_t(64));
        std::vector<std::uint8_t> bits(64, 0);
        for (pcl::pgoff_t i = 0; i < 64; ++i)
            if (t.tree->lookup(i))
                bits[i] = kOcc
                    | (t.tree->test_tag(i, pcl::kTagTowrite) ? IndexSnapshot::slot_tag_bit(pcl::kTagTowrite) : 0);
        l.setLeafDetail(0, bits);
        l.build(0);
        QVERIFY(!l.missingLeafDetail());
        for (Role role : { Role::Slot, Role::SlotTag }) {
            const auto a = itemsOf(full, role);
            const auto b = itemsOf(l, role);
            QCOMPARE(a.size(), b.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(b[i].rect, a[i].rect);
                QCOMPARE(b[i].fill, a[i].fill);
            }
        }
    }

    void levelOfDetailSwitchesWhereSlotsAndNodesGetTooThin()
    {
        Tree t(6, RadixTree::Scheme::Rcu, 100000);
        for (pcl::pgoff_t i = 0; i < 100000; ++i)
            t.insert(i);
        auto l = laidOut();
        l.setSnapshot(t.tree->snapshot(), 0);
        l.build(0);
        QCOMPARE(l.snapshot().height, 3); // 262144 indexes
        const double w = l.treeRect().width();
        // Whole tree in about 700 px: root slots 11 px; level-1 nodes 11 px
        // (slots 0.17 px); leaves 0.17 px.
        QVERIFY(w > 640 && w < 768);
        QCOMPARE(l.levelDetail(2), Detail::Slots);
        QCOMPARE(l.levelDetail(1), Detail::Cells);
        QCOMPARE(l.levelDetail(0), Detail::Bar);
        QCOMPARE(itemsOf(l, Role::LevelBar, 0).size(), std::size_t(1));
        // The leaves' bar: bins over indexes 0..99999 only, each with no node
        // of its own, the first completely full.
        double covered = 0;
        const auto bins = itemsOf(l, Role::NodeCell, 0);
        for (const auto& b : bins) {
            QCOMPARE(b.node, -1);
            covered += b.rect.width();
        }
        // Bins of 2 px from index 0 to the end of the last leaf (100031).
        QCOMPARE(covered, 2 * std::ceil(100032 * w / 2 / 262144));
        QCOMPARE(bins.front().fill, l.occupancyColor(1.0));
        QCOMPARE(itemsOf(l, Role::NodeCell, 1).size(), std::size_t(25)); // 100000 / 4096 rounded up

        // Leaves show slots from 3 px a slot, cells from 3 px a node.
        l.setView(0, w / 3 * 0.999);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Slots);
        l.setView(0, w / 3 * 1.001);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Cells);
        l.setView(0, 64 * w / 3 * 0.999);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Cells);
        l.setView(0, 64 * w / 3 * 1.001);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Bar);
        // Zoomed far in: single slots of the leaves in view, all occupied.
        l.setView(50000, 100);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Slots);
        const auto leafSlots = itemsOf(l, Role::Slot, 0);
        QVERIFY(leafSlots.size() >= 100 && leafSlots.size() <= 102);
        QCOMPARE(countFilled(leafSlots, l.occupiedColor()), int(leafSlots.size()));
        QCOMPARE(l.hitTest(leafSlots[10].rect.center(), 0).first,
            pcl::pgoff_t(leafSlots[10].slot) + l.snapshot().nodes[std::size_t(leafSlots[10].node)].first_index);
        l.fit();
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Bar);
    }

    void aBigTreeIsSnapshottedAtTheViewsDetail()
    {
        // 100,000 pages under 4-slot nodes (33,000 nodes), every 7th dirty.
        // At the detail the fitted view needs, the snapshot lists the nodes
        // wide enough to draw and bins the rest; the picture says what the
        // full snapshot's says: the same titles and level labels, the same
        // levels of detail, the same cells and slots of the levels it lists.
        Tree t(2, RadixTree::Scheme::Rcu, 100000);
        for (pcl::pgoff_t i = 0; i < 100000; ++i) {
            t.insert(i);
            if (i % 7 == 0)
                QVERIFY(t.tree->set_tag(i, pcl::kTagDirty));
        }
        auto full = laidOut();
        full.setSnapshot(t.tree->snapshot(), 0);
        auto l = laidOut();
        pcl::SnapshotOptions o;
        o.detail = l.detailFor(t.tree->fanout(), int(t.tree->height()));
        l.setSnapshot(t.tree->snapshot(o), 0);
        QVERIFY(l.showsView());
        QVERIFY(l.snapshot().nodes.size() < 1000);
        QCOMPARE(treeNodes(l.snapshot()), t.tree->nodes());
        QVERIFY(l.snapshot().levels[0].binned);
        full.build(0);
        l.build(0);
        auto sameItems = [&](Role role, int level) {
            const auto a = itemsOf(full, role, level);
            const auto b = itemsOf(l, role, level);
            QCOMPARE(b.size(), a.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                QCOMPARE(b[i].rect, a[i].rect);
                QCOMPARE(b[i].fill, a[i].fill);
                QCOMPARE(b[i].text, a[i].text);
            }
        };
        sameItems(Role::Title, -2);
        sameItems(Role::LevelLabel, -2);
        for (int level = 0; level < l.snapshot().height; ++level) {
            QCOMPARE(l.levelDetail(level), full.levelDetail(level));
            if (!l.snapshot().levels[std::size_t(level)].binned) {
                sameItems(Role::NodeCell, level);
                sameItems(Role::Slot, level);
            }
        }
        // A bin of the leaves' bar tells how many leaves it stands for, as
        // the full snapshot counts them.
        const auto bins = itemsOf(l, Role::NodeCell, 0);
        QVERIFY(!bins.empty());
        const auto hit = l.hitTest(bins[bins.size() / 2].rect.center(), 0);
        QCOMPARE(hit.level, 0);
        QVERIFY(hit.bin >= 0);
        std::uint64_t leaves = 0, occupied = 0, dirty = 0;
        for (const auto& n : full.snapshot().nodes)
            if (n.level == 0 && n.first_index >= hit.first && n.first_index + n.span - 1 <= hit.last) {
                ++leaves;
                occupied += n.occupied;
                dirty += n.tagged[pcl::kTagDirty];
            }
        QVERIFY(leaves > 0);
        const QString tip = l.describe(hit);
        QVERIFY2(
            tip.startsWith(QStringLiteral("%1 leaves covering").arg(pcl::ui::groupedNumber(leaves))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("%1 of %2 slots occupied")
                                  .arg(pcl::ui::groupedNumber(occupied))
                                  .arg(pcl::ui::groupedNumber(leaves * 4))),
            qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("dirty %1").arg(dirty)), qPrintable(tip));

        // Zoomed in, the snapshot no longer holds what is shown; the next one
        // lists the leaves in view, slot by slot, as the full snapshot.
        for (auto* layout : { &full, &l })
            layout->setView(50000, 100);
        QVERIFY(!l.showsView());
        o.detail = l.detailFor(t.tree->fanout(), int(t.tree->height()));
        l.setSnapshot(t.tree->snapshot(o), 0);
        QVERIFY(l.showsView());
        full.build(0);
        l.build(0);
        QCOMPARE(l.levelDetail(0), Detail::Slots);
        for (int level = 0; level < l.snapshot().height; ++level) {
            QCOMPARE(l.levelDetail(level), full.levelDetail(level));
            sameItems(Role::Slot, level);
            sameItems(Role::SlotTag, level);
            sameItems(Role::NodeCell, level);
        }
        QVERIFY(itemsOf(l, Role::SlotTag, 0).size() >= 100 / 7);
        // Panned by a third of a view: still in the snapshot's margin.
        l.panBy(l.treeRect().width() / 3, 0);
        QVERIFY(l.showsView());
        // Fitted again: the snapshot is too narrow.
        l.fit();
        QVERIFY(!l.showsView());
    }

    void theViewTakesTheDetailItsZoomNeeds()
    {
        Simulation sim;
        RadixTreeView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(100000, 2);
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        QVERIFY(view.layout().showsView());
        QVERIFY(!view.layout().snapshot().detail.full());
        QCOMPARE(view.layout().levelDetail(0), Detail::Bar);
        // The paint after a zoom takes the snapshot the zoom needs.
        view.layout().setView(70000, 120);
        view.render(&image);
        QVERIFY(view.layout().showsView());
        QCOMPARE(view.layout().levelDetail(0), Detail::Slots);
        const auto leaves = itemsOf(view.layout(), Role::Slot, 0);
        QVERIFY(leaves.size() >= 120);
        QCOMPARE(countFilled(leaves, view.layout().occupiedColor()), int(leaves.size()));
        int dirty = 0;
        for (const auto& t : itemsOf(view.layout(), Role::SlotTag, 0))
            dirty += t.tag == int(pcl::kTagDirty);
        QVERIFY(dirty >= int(leaves.size()) / 7 - 1 && dirty <= int(leaves.size()) / 7 + 1);
        // A small tree is snapshotted whole.
        view.benchmarkLoad(1000, 2);
        view.render(&image);
        QVERIFY(view.layout().snapshot().detail.full());
        QCOMPARE(view.layout().snapshot().nodes.size(), std::size_t(view.layout().files()[0].nodes));
    }

    void heightGrowSlidesTheOldRootIntoSlotZero()
    {
        Tree t(2);
        for (pcl::pgoff_t i = 0; i < 4; ++i)
            t.insert(i);
        auto l = laidOut();
        l.setSnapshot(t.tree->snapshot(), 0);
        l.build(0);
        QCOMPARE(l.snapshot().height, 1);
        const QRectF tree = l.treeRect();
        const std::uint64_t oldRoot = l.snapshot().nodes[0].id;

        t.insert(4); // beyond index 3: a new root above the old one
        l.setSnapshot(t.tree->snapshot(), 1000);
        QCOMPARE(l.snapshot().height, 2);
        QCOMPARE(l.snapshot().nodes[1].id, oldRoot); // now slot 0 of the new root
        QVERIFY(l.animating(1000));
        // At the start the old root is where it was: the top row, full width.
        l.build(1000);
        QRectF r = l.nodeRect(1, 1000);
        QCOMPARE(r.left(), tree.left());
        QCOMPARE(r.width(), tree.width());
        QCOMPARE(r.top(), tree.top());
        for (const auto& s : itemsOf(l, Role::Slot, 1))
            QCOMPARE(s.alpha, 0.0); // the new root fades in
        for (const auto& s : itemsOf(l, Role::Slot, 0))
            QCOMPARE(s.alpha, s.node == 1 ? 1.0 : 0.0); // the new leaf (4..7) too
        // Half way: smaller and lower.
        l.build(1200);
        r = l.nodeRect(1, 1200);
        QVERIFY(r.width() < tree.width() && r.width() > tree.width() / 4);
        QVERIFY(r.top() > tree.top());
        for (const auto& s : itemsOf(l, Role::Slot, 0))
            QCOMPARE(s.alpha, s.node == 1 ? 1.0 : 0.5);
        // At the end: slot 0 of the new root, one row down.
        l.build(1400);
        QVERIFY(!l.animating(1400));
        r = l.nodeRect(1, 1400);
        QCOMPARE(r.width(), tree.width() / 4);
        QCOMPARE(r.top(), l.rowTop(0, 1400));
        QCOMPARE(l.rowTop(1, 1400), tree.top());
        const auto rootSlot0 = itemsOf(l, Role::Slot, 1).front();
        QCOMPARE(rootSlot0.rect.center().x(), r.center().x());

        // Shrink: erase 4, the old root comes back up; the root and the leaf
        // 4..7 fade out where they were.
        QVERIFY(t.tree->erase(4));
        l.setSnapshot(t.tree->snapshot(), 2000);
        QCOMPARE(l.snapshot().height, 1);
        QCOMPARE(l.snapshot().nodes[0].id, oldRoot);
        l.build(2000);
        QCOMPARE(l.nodeRect(0, 2000).width(), tree.width() / 4);
        l.build(2200);
        int ghosts = 0;
        for (const auto& c : itemsOf(l, Role::NodeCell))
            if (c.node == -1) {
                ++ghosts;
                QCOMPARE(c.alpha, 0.5);
            }
        QCOMPARE(ghosts, 2);
        l.build(2400);
        QVERIFY(!l.animating(2400));
        QCOMPARE(l.nodeRect(0, 2400).width(), tree.width());
        QCOMPARE(itemsOf(l, Role::NodeCell).size(), std::size_t(0));
    }

    void heldLocksAreOutlinedInTracysColours()
    {
        // A per-node scheme: leaf B's lock held by CPU 1 with two waiters.
        IndexSnapshot s = twoLevels("pernode");
        pcl::sync::LockState held;
        held.held = true;
        held.holder_cpu = 1;
        held.waiters = 2;
        s.locks.push_back({ "radix_node", held });
        s.nodes[2].lock = 1;
        auto l = laidOut();
        l.setSnapshot(s, 0);
        l.build(0);
        auto outlines = itemsOf(l, Role::NodeLock);
        QCOMPARE(outlines.size(), std::size_t(1));
        QCOMPARE(outlines[0].node, 2);
        QCOMPARE(outlines[0].pen, pcl::ui::colors::lockWanted());
        QVERIFY(outlines[0].rect.contains(l.nodeRect(2, 0)));
        auto labels = itemsOf(l, Role::LockLabel);
        QCOMPARE(labels.size(), std::size_t(1));
        QCOMPARE(labels[0].text, QStringLiteral("+2"));
        QVERIFY(itemsOf(l, Role::TreeLock).empty());
        const auto hit = l.hitTest(l.nodeRect(2, 0).center(), 0);
        QVERIFY(l.describe(hit).contains(QStringLiteral("node lock held by CPU 1, 2 waiting")));

        // No waiters: green.
        s.locks[1].state.waiters = 0;
        l.setSnapshot(s, 0, false);
        l.build(0);
        QCOMPARE(itemsOf(l, Role::NodeLock).front().pen, pcl::ui::colors::lockHeld());
        QVERIFY(itemsOf(l, Role::LockLabel).empty());

        // The tree lock of @scheme's two-level tree in @state, as drawn.
        auto treeLock = [&](const auto& scheme, pcl::sync::LockState state) {
            IndexSnapshot s = twoLevels(scheme);
            s.locks[0].state = state;
            l.setSnapshot(s, 0, false);
            l.build(0);
            return itemsOf(l, Role::TreeLock);
        };
        // The per-mapping lock: the whole tree outlined.
        const auto tree = treeLock("rcu", pcl::ui::test::held(3));
        QCOMPARE(tree.size(), std::size_t(1));
        QCOMPARE(tree[0].pen, pcl::ui::colors::lockHeld());
        for (const auto& f : itemsOf(l, Role::NodeFrame))
            QVERIFY(tree[0].rect.contains(f.rect));
        QCOMPARE(itemsOf(l, Role::LockLabel).front().text, QStringLiteral("tree_lock held by CPU 3"));

        // Under pernode the same lock guards the root pointer only.
        pcl::sync::LockState wanted;
        wanted.held = true;
        wanted.waiters = 1;
        const auto root = treeLock("pernode", wanted);
        QCOMPARE(root.size(), std::size_t(1));
        QCOMPARE(root[0].pen, pcl::ui::colors::lockWanted());
        QVERIFY(root[0].rect.right() < l.treeRect().left());
    }

    void optimisticShowsWhereTheWalksLocked()
    {
        auto l = laidOut();
        l.setSnapshot(twoLevels("optimistic"), 0);
        l.setSkipHistogram({ 1, 3 });
        l.build(0);
        const auto skips = itemsOf(l, Role::SkipLabel);
        QCOMPARE(skips.size(), std::size_t(2));
        QCOMPARE(skips[0].level, 1);
        QCOMPARE(skips[0].text, QStringLiteral("25% of locks here"));
        QCOMPARE(skips[1].level, 0);
        QCOMPARE(skips[1].text, QStringLiteral("75% of locks here"));
    }

    void optimisticWalksAreMarkedWhereTheyLocked()
    {
        Tree t(2, RadixTree::Scheme::Optimistic);
        pcl::set_current_cpu(5);
        for (pcl::pgoff_t i = 0; i < 16; ++i)
            t.insert(i);
        t.insert(17); // beyond index 15: extended under the root lock
        auto snap = t.tree->snapshot();
        QCOMPARE(snap.height, 3);
        QCOMPARE(snap.walks.size(), std::size_t(1));
        QCOMPARE(snap.walks[0].cpu, 5);
        QCOMPARE(snap.walks[0].index, pcl::pgoff_t(17));
        QCOMPARE(snap.walks[0].levels_skipped, 0);
        t.insert(18); // an insert changes only the leaf 16..19: two levels skipped
        pcl::set_current_cpu(2);
        QCOMPARE(int(t.tree->insert(1, &t.pages[1])), int(pcl::InsertResult::Exists)); // still locked the leaf 0..3
        pcl::set_current_cpu(-1);
        snap = t.tree->snapshot();
        QCOMPARE(snap.walks.size(), std::size_t(2));
        QCOMPARE(snap.walks[0].cpu, 2);
        QCOMPARE(snap.walks[0].index, pcl::pgoff_t(1));
        QCOMPARE(snap.walks[0].levels_skipped, 2);
        QCOMPARE(snap.walks[1].cpu, 5);
        QCOMPARE(snap.walks[1].index, pcl::pgoff_t(18));
        QCOMPARE(snap.walks[1].levels_skipped, 2);
        QVERIFY(!snap.walks[1].fell_back);

        auto l = laidOut();
        l.setSnapshot(snap, 0);
        l.build(0);
        const auto marks = itemsOf(l, Role::WalkMark);
        QCOMPARE(marks.size(), std::size_t(2));
        const QRectF tree = l.treeRect();
        QCOMPARE(marks[1].node, 5);
        QCOMPARE(marks[1].level, 0);
        QCOMPARE(marks[1].rect.center().x(), tree.left() + 18.5 / 64 * tree.width());
        QCOMPARE(marks[1].rect.bottom(), l.rowTop(0, 0) - 2);
        QCOMPARE(marks[1].fill, pcl::ui::colors::series(5));
        QCOMPARE(itemsOf(l, Role::WalkLabel)[1].text, QStringLiteral("CPU 5"));
    }

    void theOverviewStripListsEveryFile()
    {
        auto l = laidOut();
        l.setFiles({ { 0, 100, 8, 2 }, { 1, 300, 21, 2 }, { 2, 0, 0, 0 } }, 1);
        l.setSnapshot(twoLevels(), 0);
        l.build(0);
        const auto cells = itemsOf(l, Role::FileCell);
        QCOMPARE(cells.size(), std::size_t(6));                     // a cell and a pages bar each
        QCOMPARE(cells[2].penWidth, 2.0);                           // the selected file
        QCOMPARE(cells[3].rect.width(), cells[2].rect.width() - 2); // the largest file's bar is full
        QCOMPARE(cells[1].rect.width(), (cells[0].rect.width() - 2) / 3);
        const auto labels = itemsOf(l, Role::FileLabel);
        QCOMPARE(labels.size(), std::size_t(3));
        QCOMPARE(labels[1].text, QStringLiteral("file 1 · 300 p · h 2"));
        const auto hit = l.hitTest(cells[4].rect.center(), 0);
        QCOMPARE(hit.file, 2);
        QCOMPARE(l.describe(hit), QStringLiteral("file 2: 0 pages, tree height 0, 0 nodes"));
    }

    void anEmptyTreeAndAnotherIndexSayWhy()
    {
        auto l = laidOut();
        IndexSnapshot empty;
        empty.kind = pcl::IndexKind::Radix;
        empty.scheme = pcl::RadixScheme::Rcu;
        l.setSnapshot(empty, 0);
        l.build(0);
        QCOMPARE(itemsOf(l, Role::Message).size(), std::size_t(1));
        QVERIFY(itemsOf(l, Role::Slot).empty());
        l.setMessage(QStringLiteral("another index"));
        l.build(0);
        QCOMPARE(itemsOf(l, Role::Message).front().text, QStringLiteral("another index"));
    }

    void liveRunShowsTheEnginesTree()
    {
        Simulation sim;
        RadixTreeView view(sim);
        QCOMPARE(view.objectName(), QStringLiteral("radix"));
        view.resize(900, 600);
        sim.setScenario(liveScenario());
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 30000);
        view.refresh();
        auto& cache = sim.engine()->page_cache();
        const auto& idx = *cache.file(0).index;
        QCOMPARE(view.layout().snapshot().file, pcl::FileId(0));
        QCOMPARE(view.layout().snapshot().count, idx.count());
        QCOMPARE(view.layout().snapshot().nodes.size(), std::size_t(idx.shape().nodes));
        QCOMPARE(view.layout().snapshot().height, idx.shape().height);
        QVERIFY(idx.count() > 100);
        QCOMPARE(view.layout().files().size(), std::size_t(2));
        QCOMPARE(view.layout().files()[1].pages, cache.file(1).index->count());
        auto* combo = view.findChild<QComboBox*>();
        QVERIFY(combo);
        QCOMPARE(combo->count(), 2);
        view.selectFile(1);
        QCOMPARE(view.layout().snapshot().file, pcl::FileId(1));
        QCOMPARE(view.layout().snapshot().count, cache.file(1).index->count());
        QCOMPARE(combo->currentIndex(), 1);

        // Hovering an occupied leaf slot reads the page's flags and references.
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        (void)view.grab();
        view.layout().setView(0, 200);
        (void)view.grab();
        bool found = false;
        for (const auto& s : view.layout().items()) {
            if (s.role != Role::Slot || s.level != 0 || s.fill != view.layout().occupiedColor())
                continue;
            const QString tip = view.toolTipAt(s.rect.center().toPoint());
            QVERIFY2(tip.contains(QStringLiteral("page index")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("references: ")), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("uptodate")), qPrintable(tip));
            found = true;
            break;
        }
        QVERIFY(found);

        // A new run clears the view; its first snapshot is of an empty tree.
        sim.reset();
        QCOMPARE(view.layout().snapshot().count, std::uint64_t(0));
    }

    void anotherIndexKindIsExplained()
    {
        Simulation sim;
        RadixTreeView view(sim);
        pcl::Scenario s = liveScenario();
        s.engine.index.kind = pcl::IndexKind::Hash;
        s.engine.index.scheme = "";
        sim.setScenario(s);
        view.refresh();
        view.resize(900, 600);
        (void)view.grab();
        const auto msg = itemsOf(view.layout(), Role::Message);
        QCOMPARE(msg.size(), std::size_t(1));
        QVERIFY(msg[0].text.contains(QStringLiteral("hash table")));
    }

    void screenshotIsNotBlank_data() { pcl::ui::test::addThemeRows(); }

    void screenshotIsNotBlank()
    {
        QFETCH(bool, dark);
        Simulation sim;
        RadixTreeView view(sim);
        pcl::ui::test::applyTheme(view, dark, QSize(900, 600));
        pcl::Scenario s = liveScenario();
        s.engine.workload.operations_per_cpu = 1500;
        sim.setScenario(s);
        sim.play();
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 30000);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.refresh();
        // Every node of the first snapshot of a run fades in: let it.
        QTest::qWait(int(RadixTreeLayout::kAnimationMs) + 50);
        const QImage image = view.grab().toImage();
        QVERIFY(pcl::ui::test::distinctColours(image) > 20);
        // Key elements are where the model says: an occupied root slot, and
        // the legend's dirty swatch.
        bool checked = false;
        for (const auto& it : view.layout().items()) {
            if (it.role == Role::Slot && it.fill == view.layout().occupiedColor() && it.rect.width() > 6) {
                QCOMPARE(QColor(image.pixel(it.rect.center().toPoint())), it.fill);
                checked = true;
                break;
            }
        }
        QVERIFY(checked);
        for (const auto& it : itemsOf(view.layout(), Role::Legend))
            if (it.text == QStringLiteral("dirty tag"))
                QCOMPARE(QColor(image.pixel(it.rect.center().toPoint())), RadixTreeLayout::tagColor(pcl::kTagDirty));
        const QString dir = pcl::ui::test::screenshotDir();
        QVERIFY(image.save(
            dir + (dark ? QStringLiteral("/radix-finished-dark.png") : QStringLiteral("/radix-finished.png"))));
        // Zoomed in to the first leaves: slots and tag marks.
        view.layout().setView(0, 160);
        const QImage zoomed = view.grab().toImage();
        QVERIFY(pcl::ui::test::distinctColours(zoomed) > 12);
        QVERIFY(!itemsOf(view.layout(), Role::Slot, 0).empty());
        QVERIFY(
            zoomed.save(dir + (dark ? QStringLiteral("/radix-zoomed-dark.png") : QStringLiteral("/radix-zoomed.png"))));
    }

    void aLessonsLeafIsOutlinedAndBroughtIntoView()
    {
        // Pages 0 .. 4095 under 64-slot nodes: height 2, 64 leaves. A
        // lesson points at page 2209: the leaf of pages 2176 .. 2239 is
        // outlined in the highlight colour, on screen.
        Simulation sim;
        RadixTreeView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(4096);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setHighlightedNode(pcl::pgoff_t(2209));
        QCOMPARE(view.highlightedNode(), std::optional<pcl::pgoff_t>(2209));
        const QImage image = view.grab().toImage();
        // The outline, in the highlight colour, on a ring of the background.
        const auto outlines = itemsOf(view.layout(), Role::LeafOutline);
        QCOMPARE(outlines.size(), std::size_t(2));
        const QColor highlight = view.palette().color(QPalette::Highlight);
        QCOMPARE(outlines[0].pen, view.palette().color(QPalette::Base));
        QCOMPARE(outlines[1].pen, highlight);
        QVERIFY(outlines[0].rect.contains(outlines[1].rect));
        const auto& leaf = view.layout().snapshot().nodes[std::size_t(outlines[1].node)];
        QCOMPARE(leaf.level, 0);
        QCOMPARE(leaf.first_index, pcl::pgoff_t(2176));
        const QRectF r = outlines[1].rect;
        QCOMPARE(QColor(image.pixel(QPointF(r.left(), r.center().y()).toPoint())), highlight);
        QCOMPARE(QColor(image.pixel(QPointF(r.center().x(), r.bottom()).toPoint())), highlight);
        QVERIFY(image.save(pcl::ui::test::screenshotDir() + QStringLiteral("/radix-leaf-outlined.png")));
        // Zoomed in elsewhere, the page is brought into view at that zoom.
        view.layout().setView(0, 160);
        view.setHighlightedNode(pcl::pgoff_t(3000));
        const double now = view.nowMs();
        QCOMPARE(view.layout().viewSpan(now), 160.0);
        QVERIFY(view.layout().viewFirst(now) <= 3000 && 3000 < view.layout().viewFirst(now) + 160);
        (void)view.grab();
        QCOMPARE(itemsOf(view.layout(), Role::LeafOutline).size(), std::size_t(2));
        // None: nothing outlined.
        view.setHighlightedNode(std::nullopt);
        (void)view.grab();
        QVERIFY(itemsOf(view.layout(), Role::LeafOutline).empty());
    }

    void screenshotOfATreeGrowingUnderLocks_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::newRow("pernode") << QStringLiteral("pernode");
        QTest::newRow("optimistic") << QStringLiteral("optimistic");
    }

    void screenshotOfATreeGrowingUnderLocks()
    {
        QFETCH(QString, scheme);
        // Four CPUs at demo speed writing one mapped file at random under
        // per-node locks, each lock held 5 ms longer: a lecture's picture.
        Simulation sim;
        RadixTreeView view(sim);
        view.resize(900, 600);
        pcl::Scenario s = liveScenario();
        s.engine.workload.files = "shared";
        s.engine.workload.cpus = 4;
        s.engine.workload.operations_per_cpu = 1000000;
        s.engine.ops_per_second = 150;
        s.engine.hold_stretch_ns = 5'000'000;
        s.engine.index.scheme = scheme.toStdString();
        sim.setScenario(s);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        sim.play();
        auto& idx = *sim.engine()->page_cache().file(0).index;
        QTRY_VERIFY_WITH_TIMEOUT(idx.count() > 600, 30000);
        QTest::qWait(int(RadixTreeLayout::kAnimationMs) + 50); // the fades of the first snapshot
        view.refresh();
        const QImage image = view.grab().toImage();
        sim.pause();
        QVERIFY(pcl::ui::test::distinctColours(image) > 20);
        QCOMPARE(view.layout().snapshot().height, 3); // 4096 indexes at 16 slots a node
        const QString dir = pcl::ui::test::screenshotDir();
        if (scheme == QLatin1String("optimistic"))
            QVERIFY(!itemsOf(view.layout(), Role::WalkMark).empty());
        QVERIFY(image.save(dir
            + (scheme == QLatin1String("pernode") ? QStringLiteral("/radix.png")
                                                  : QStringLiteral("/radix-optimistic.png"))));
    }

    void benchmarkLoadBuildsRealTrees()
    {
        Simulation sim;
        RadixTreeView view(sim);
        view.resize(900, 600);
        for (std::uint64_t pages : { std::uint64_t(1000), std::uint64_t(100000), std::uint64_t(1000000) }) {
            view.benchmarkLoad(pages);
            const auto& snap = view.layout().snapshot();
            QCOMPARE(snap.count, pages);
            QCOMPARE(view.layout().files().size(), std::size_t(1));
            QCOMPARE(treeNodes(snap), view.layout().files()[0].nodes);
            QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
            double worst = 0;
            for (int i = 0; i < 5; ++i) {
                image.fill(Qt::white);
                view.render(&image);
                worst = std::max(worst, view.lastPaintMs());
            }
            qInfo("radix view, %llu pages: snapshot %.2f ms, paint %.2f ms (worst of 5)", (unsigned long long)pages,
                view.lastSnapshotMs(), worst);
            QVERIFY(pcl::ui::test::distinctColours(image) > 10);
        }
        // The most nodes a million pages make: 4-slot nodes (shift 2).
        view.benchmarkLoad(1000000, 2);
        {
            QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
            view.render(&image);
            qInfo("radix view, 1000000 pages at 4 slots a node (%llu nodes, %zu listed): snapshot %.2f ms, paint %.2f "
                  "ms",
                (unsigned long long)treeNodes(view.layout().snapshot()), view.layout().snapshot().nodes.size(),
                view.lastSnapshotMs(), view.lastPaintMs());
            QCOMPARE(treeNodes(view.layout().snapshot()), view.layout().files()[0].nodes);
        }
        view.benchmarkLoad(1000000);
        // A million pages: the leaves are one bar; zoomed in, single slots,
        // fetched for the leaves in view.
        QCOMPARE(view.layout().levelDetail(0), Detail::Bar);
        view.layout().setView(500000, 150);
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        QCOMPARE(view.layout().levelDetail(0), Detail::Slots);
        const auto leaves = itemsOf(view.layout(), Role::Slot, 0);
        QVERIFY2(leaves.size() >= 150,
            qPrintable(QString::number(leaves.size()) + QLatin1Char(' ')
                + QString::number(itemsOf(view.layout(), Role::NodeCell, 0).size())));
        QCOMPARE(countFilled(leaves, view.layout().occupiedColor()), int(leaves.size()));
        int dirty = 0;
        for (const auto& t : itemsOf(view.layout(), Role::SlotTag, 0))
            dirty += t.tag == int(pcl::kTagDirty);
        QVERIFY(dirty >= int(leaves.size()) / 7 - 1 && dirty <= int(leaves.size()) / 7 + 1);
    }
};

QTEST_MAIN(TestRadixTreeView)
#include "test_radixtreeview.moc"
