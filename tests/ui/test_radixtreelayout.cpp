// The radix tree view's layout: what it draws for hand-built snapshots and
// for snapshots of real trees, its level-of-detail switch points, the height
// animation and the fades, locks, the optimistic scheme's walks and the file
// strip. The widget's own tests are in test_radixtreeview.cpp.

#include "radix_test_support.h"
#include "ui_test_registry.h"

using namespace radixtest;

class TestRadixTreeLayout : public QObject {
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
};

PCL_UI_TEST(TestRadixTreeLayout)
#include "test_radixtreelayout.moc"
