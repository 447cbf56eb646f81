// The skip list view: what SkipListLayout draws for hand-built snapshots and
// for a real SkipList (towers, links, aggregation into tower-height
// histograms, locks, recent changes), the widget's zoom and tooltips, a
// live run, and a screenshot.
#include "kit/colors.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/skiplist/skiplistlayout.h"
#include "views/skiplist/skiplistview.h"

#include "index/skip_list.h"
#include "sim/scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QWheelEvent>

using namespace pcl;
using namespace pcl::ui;

namespace {

IndexSnapshot::Node node(std::uint64_t id, pcl::pgoff_t index, int level, int lock = -1)
{
    IndexSnapshot::Node n;
    n.id = id;
    n.first_index = index;
    n.level = level;
    n.slots = std::uint32_t(level);
    n.occupied = 1;
    n.lock = lock;
    return n;
}

/// Five nodes, towers 1 3 1 2 1; node 20's lock held by CPU 2 with one waiter.
IndexSnapshot fiveNodes()
{
    IndexSnapshot s;
    s.kind = pcl::IndexKind::SkipList;
    s.scheme = pcl::SkipListScheme::PerNode;
    s.count = 5;
    s.height = 3;
    s.nodes = { node(0xa, 10, 1), node(0xb, 20, 3, 0), node(0xc, 30, 1), node(0xd, 40, 2), node(0xe, 50, 1) };
    s.locks = { { "skiplist_node", test::held(2, 1) } };
    return s;
}

SkipListLayout skipListLayoutFor(IndexSnapshot s, QSizeF size = QSizeF(900, 600))
{
    return test::sceneLayout<SkipListLayout>(std::move(s), size);
}

/// Tower heights 1 + (trailing zeros of i + 1), at most 6: a perfectly
/// regular skip list, so the share of nodes reaching each level is known.
IndexSnapshot regular(std::size_t n)
{
    IndexSnapshot s;
    s.kind = pcl::IndexKind::SkipList;
    s.scheme = pcl::SkipListScheme::PerNode;
    s.count = n;
    s.height = 6;
    for (std::size_t i = 0; i < n; ++i)
        s.nodes.push_back(node(i + 1, i * 2, std::min(6, 1 + __builtin_ctzll(i + 1))));
    return s;
}

pcl::Scenario skipRun(std::uint64_t ops, double opsPerSecond, const char* scheme)
{
    pcl::Scenario s = test::pacedRun(400, ops, opsPerSecond);
    s.engine.index.kind = pcl::IndexKind::SkipList;
    s.engine.index.scheme = scheme;
    return s;
}

} // namespace

class TestSkipListView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void towersAndTheLinksASearchFollows()
    {
        const SkipListLayout::Scene s = skipListLayoutFor(fiveNodes()).build();
        QVERIFY(!s.aggregated);
        QCOMPARE(s.levels, 3);
        QCOMPARE(int(s.towers.size()), 5);
        const int heights[] = { 1, 3, 1, 2, 1 };
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(s.towers[std::size_t(i)].node, std::size_t(i));
            QCOMPARE(s.towers[std::size_t(i)].height, heights[i]);
            // Towers stand on the baseline, left to right, level by level.
            QVERIFY(std::abs(s.towers[std::size_t(i)].rect.bottom() - s.plot.bottom()) < s.levelPx * 0.2);
            QVERIFY(std::abs(s.towers[std::size_t(i)].rect.height() - heights[i] * s.levelPx) < s.levelPx * 0.2);
            if (i > 0)
                QVERIFY(s.towers[std::size_t(i)].rect.left() > s.towers[std::size_t(i) - 1].rect.right());
        }
        QCOMPARE(s.nodePx, SkipListLayout::kMaxNodePx);
        // Boxes: the head's 3 levels and one per tower level (8).
        QCOMPARE(int(s.boxes.size()), 3 + 8);
        QCOMPARE(s.boxes[3].fill, colors::series(0)); // node 10, level 1
        // Links: one into every tower level; at level 2 head -> 20 -> 40,
        // at level 3 head -> 20 only.
        QCOMPARE(int(s.links.size()), 8);
        std::vector<QLineF> level2;
        const double y2 = s.plot.bottom() - 1.5 * s.levelPx;
        for (const auto& l : s.links)
            if (std::abs(l.line.y1() - y2) < 1e-6)
                level2.push_back(l.line);
        QCOMPARE(int(level2.size()), 2);
        QCOMPARE(level2[0].x1(), s.head.right());
        QVERIFY(std::abs(level2[1].x1() - s.towers[1].rect.right()) < 1e-6);
        QVERIFY(std::abs(level2[1].x2() - s.towers[3].rect.left()) < 1e-6);
        // Page indexes under the towers.
        for (const char* t : { "10", "20", "30", "40", "50" })
            QVERIFY(test::hasLabel(s, QString::fromLatin1(t)));
    }

    void aHeldNodeLockOutlinesItsTower()
    {
        const SkipListLayout::Scene s = skipListLayoutFor(fiveNodes()).build();
        int wanted = 0;
        for (const auto& o : s.outlines)
            if (o.color == colors::lockWanted()) {
                ++wanted;
                QVERIFY(o.rect.contains(s.towers[1].rect));
            }
        QCOMPARE(wanted, 1);
        QVERIFY(test::hasLabel(s, QStringLiteral("×1")));
        // Held without waiters: green.
        IndexSnapshot snap = fiveNodes();
        snap.locks[0].state.waiters = 0;
        const SkipListLayout::Scene g = skipListLayoutFor(snap).build();
        bool green = false;
        for (const auto& o : g.outlines)
            green |= o.color == colors::lockHeld() && o.rect.contains(g.towers[1].rect);
        QVERIFY(green);
        QVERIFY(!test::hasLabel(g, QStringLiteral("×0")));
    }

    void theMappingLockOutlinesTheWholeList()
    {
        IndexSnapshot snap = fiveNodes();
        snap.scheme = pcl::SkipListScheme::Mapping;
        snap.nodes[1].lock = -1;
        snap.locks = { { "mapping[3].skiplist_lock", test::held(1) } };
        const SkipListLayout::Scene s = skipListLayoutFor(snap).build();
        QCOMPARE(int(s.outlines.size()), 1);
        QCOMPARE(s.outlines[0].color, colors::lockHeld());
        QVERIFY(s.outlines[0].rect.contains(s.plot));
        QVERIFY(
            test::hasLabel(s, QStringLiteral("one lock for the whole list: mapping[3].skiplist_lock, held by CPU 1")));
    }

    void recentInsertsAndErasesAreMarked()
    {
        SkipListLayout l = skipListLayoutFor(fiveNodes());
        l.setRecent({ { 0xc, 30, true, 1.0 }, { 0x99, 35, false, 0.5 } });
        const SkipListLayout::Scene s = l.build();
        bool inserted = false;
        for (const auto& o : s.outlines)
            inserted |= o.color.rgb() == colors::series(1).rgb() && o.rect.contains(s.towers[2].rect);
        QVERIFY(inserted);
        // The erased node 35 stood between 30 and 40.
        bool erased = false;
        for (const auto& b : s.boxes)
            if (b.fill.rgb() == colors::series(3).rgb()) {
                erased = true;
                QVERIFY(std::abs(b.fill.alphaF() - 0.5) < 0.01);
                QVERIFY(b.rect.center().x() > s.towers[2].rect.right());
                QVERIFY(b.rect.center().x() < s.towers[3].rect.left());
            }
        QVERIFY(erased);
    }

    void aSearchPathIsPughsWalkOverTheTowers()
    {
        // Towers 10:1 20:3 30:1 40:2 50:1. A search for 45 starts at the
        // head's level 3, moves to 20 (20 < 45), finds nothing taller to the
        // right, drops to level 2, moves to 40, drops to level 1 and stops
        // before 50.
        using Step = SkipListLayout::PathStep;
        const std::vector<Step> path = SkipListLayout::searchPath(fiveNodes(), 45);
        const std::vector<Step> expected { { -1, 2 }, { 1, 2 }, { 1, 1 }, { 3, 1 }, { 3, 0 } };
        QCOMPARE(path, expected);
        // A key before every node never leaves the head.
        QCOMPARE(SkipListLayout::searchPath(fiveNodes(), 5), (std::vector<Step> { { -1, 2 }, { -1, 1 }, { -1, 0 } }));
        // A key equal to a node's stops before it (the node is the next one).
        QCOMPARE(SkipListLayout::searchPath(fiveNodes(), 30).back(), (Step { 1, 0 }));

        // Drawn for a recent change: one segment per step, in its colour.
        SkipListLayout l = skipListLayoutFor(fiveNodes());
        l.setRecent({ { 0x99, 45, true, 1.0 } });
        const SkipListLayout::Scene s = l.build();
        QCOMPARE(s.paths.size(), expected.size() - 1);
        for (const auto& seg : s.paths)
            QCOMPARE(seg.color.rgb(), colors::series(1).rgb());
        // The first segment runs along level 3 from the head to tower 20.
        QVERIFY(std::abs(s.paths[0].line.p2().x() - s.towers[1].rect.center().x()) < 1.0);
        QVERIFY(std::abs(s.paths[0].line.p1().y() - s.paths[0].line.p2().y()) < 0.01);
        // The last one drops onto level 1 of tower 40.
        QVERIFY(std::abs(s.paths.back().line.p2().x() - s.towers[3].rect.center().x()) < 1.0);
        QVERIFY(s.paths.back().line.p2().y() > s.paths.back().line.p1().y());
    }

    void theAggregationSwitchPoint()
    {
        const SkipListLayout::Scene probe = skipListLayoutFor(regular(10)).build();
        const std::size_t fits = std::size_t(std::floor(probe.area.width() / SkipListLayout::kMinNodePx));
        QVERIFY(!skipListLayoutFor(regular(fits)).build().aggregated);
        QVERIFY(skipListLayoutFor(regular(fits + 1)).build().aggregated);
        // Zooming into a part of a long list brings the towers back.
        SkipListLayout l = skipListLayoutFor(regular(fits * 10));
        QVERIFY(l.build().aggregated);
        l.setView(100, double(fits));
        const SkipListLayout::Scene z = l.build();
        QVERIFY(!z.aggregated);
        QCOMPARE(z.towers.front().node, std::size_t(100));
        QCOMPARE(int(z.towers.size()), int(fits));
    }

    void columnsAreHistogramsOfTowerHeights()
    {
        const std::size_t n = 64 * 1024;
        const SkipListLayout l = skipListLayoutFor(regular(n));
        const SkipListLayout::Scene s = l.build();
        QVERIFY(s.aggregated);
        const int pixels = int(std::floor(s.area.width()));
        QCOMPARE(int(s.columns.size()), pixels);
        QCOMPARE(s.nodePx, double(n) / pixels);
        std::size_t covered = 0;
        std::size_t boxes = 0;
        for (const auto& c : s.columns) {
            covered += c.end - c.first;
            int tallest = 0;
            for (std::size_t i = c.first; i < c.end; ++i)
                tallest = std::max(tallest, l.snapshot().nodes[i].level);
            QCOMPARE(c.tallest, tallest);
            boxes += std::size_t(tallest);
        }
        QCOMPARE(covered, n);                             // every node in exactly one column
        QCOMPARE(s.boxes.size(), std::size_t(6) + boxes); // head + one box per level reached
        // Column 0's level boxes: shade = share of its nodes reaching the level.
        const auto& c0 = s.columns[0];
        const double total = double(c0.end - c0.first);
        for (int level = 0; level < c0.tallest; ++level) {
            std::size_t reach = 0;
            for (std::size_t i = c0.first; i < c0.end; ++i)
                reach += l.snapshot().nodes[i].level > level;
            const auto& box = s.boxes[6 + std::size_t(level)];
            QCOMPARE(box.fill, l.shareColor(double(reach) / total));
            QCOMPARE(box.rect.left(), c0.rect.left());
        }
        QCOMPARE(s.boxes[6].fill, l.shareColor(1.0)); // level 1: every node
        QVERIFY(l.shareColor(0.001) != l.shareColor(1.0));
    }

    void aggregatedLockAndChangeMarks()
    {
        IndexSnapshot snap = regular(20000);
        snap.locks = { { "skiplist_node", test::held(0, 2) } };
        snap.nodes[5000].lock = 0;
        SkipListLayout l = skipListLayoutFor(snap);
        l.setRecent({ { snap.nodes[9000].id, snap.nodes[9000].first_index, true, 1.0 } });
        const SkipListLayout::Scene s = l.build();
        QVERIFY(s.aggregated);
        int lockMarks = 0, changeMarks = 0;
        for (const auto& b : s.boxes) {
            if (b.fill == colors::lockWanted()) {
                ++lockMarks;
                QVERIFY(b.rect.bottom() < s.plot.top());
            }
            if (b.fill.rgb() == colors::series(1).rgb()) {
                ++changeMarks;
                QVERIFY(b.rect.top() > s.plot.bottom());
            }
        }
        QCOMPARE(lockMarks, 1);
        QCOMPARE(changeMarks, 1);
    }

    void aRealSkipListDrawnAsItIs()
    {
        pcl::sync::LockRegistry registry;
        pcl::SkipListConfig config;
        config.scheme = pcl::SkipListScheme::Mapping;
        config.seed = 7;
        pcl::SkipList list(config, 0, registry);
        pcl::Page page;
        for (pcl::pgoff_t i = 0; i < 100; ++i)
            QVERIFY(list.insert(i * 3, &page) == pcl::InsertResult::Inserted);
        QVERIFY(list.erase(30) != nullptr);
        const IndexSnapshot snap = list.snapshot();
        QCOMPARE(snap.nodes.size(), std::size_t(list.shape().nodes));
        SkipListLayout l = skipListLayoutFor(snap);
        l.setView(0, 20);
        const SkipListLayout::Scene s = l.build();
        QVERIFY(!s.aggregated);
        QCOMPARE(s.levels, snap.height);
        QCOMPARE(int(s.towers.size()), 20);
        std::size_t links = 0;
        for (const auto& t : s.towers) {
            QCOMPARE(t.height, snap.nodes[t.node].level);
            links += std::size_t(t.height);
        }
        // One link into each tower level, and one leaving the view for each
        // level some later tower reaches.
        std::vector<bool> later(std::size_t(snap.height), false);
        for (std::size_t i = 20; i < snap.nodes.size(); ++i)
            for (int lv = 0; lv < snap.nodes[i].level; ++lv)
                later[std::size_t(lv)] = true;
        QCOMPARE(s.links.size(), links + std::size_t(std::count(later.begin(), later.end(), true)));
        QVERIFY(test::hasLabel(s, QStringLiteral("27")));
        QVERIFY(!test::hasLabel(s, QStringLiteral("30"))); // erased
        // The mapping lock is free: a thin neutral outline, no colour.
        QCOMPARE(s.outlines.size(), std::size_t(1));
        QCOMPARE(s.outlines[0].color, QApplication::palette().color(QPalette::Mid));
    }

    void zoomPanAndTooltips()
    {
        Simulation sim;
        SkipListView view(sim);
        view.resize(900, 600);
        // A list the snapshot walks whole whatever the machine: the walk is
        // cut where the last one's speed says kSnapshotBudgetMs ends, never
        // before kMinSnapshotNodes, and a busy machine makes a walk of a few
        // thousand nodes outlast the budget.
        constexpr std::size_t nodes = SkipListView::kMinSnapshotNodes;
        view.benchmarkLoad(nodes);
        QVERIFY(!view.listLayout().snapshot().truncated);
        QCOMPARE(view.listLayout().nodes(), nodes);
        QVERIFY(view.scene().aggregated);
        const QPointF at = view.scene().area.center();
        QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120 * 10), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.listLayout().viewCount() < nodes * 0.2);
        QVERIFY(view.listLayout().viewFirst() > nodes * 0.2); // zoomed around the middle
        // Zoom in to single towers and hover one.
        view.setView(100, 10);
        QVERIFY(!view.scene().aggregated);
        const auto& t = view.scene().towers[3];
        const auto& n = view.listLayout().snapshot().nodes[t.node];
        QCOMPARE(view.toolTipAt(t.rect.center().toPoint()),
            QStringLiteral("page %1 · tower height %2").arg(n.first_index).arg(n.level));
        QVERIFY(view.toolTipAt(view.scene().head.center().toPoint()).startsWith(QStringLiteral("head:")));
        // Drag right by 2 towers: the view moves 2 nodes back.
        const double before = view.listLayout().viewFirst();
        const QPoint from = t.rect.center().toPoint();
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(from + QPoint(int(2 * view.scene().nodePx), 0)),
            view.mapToGlobal(QPointF(from)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, from + QPoint(int(2 * view.scene().nodePx), 0));
        QVERIFY(std::abs(view.listLayout().viewFirst() - (before - 2)) < 0.05);
        QTest::mouseDClick(&view, Qt::LeftButton, {}, from);
        QCOMPARE(view.listLayout().viewCount(), double(nodes));
        // Aggregated tooltip: the column's nodes and its tallest tower.
        const auto& col = view.scene().columns[10];
        QVERIFY(
            view.toolTipAt(col.rect.center().toPoint()).contains(QStringLiteral("tallest tower %1").arg(col.tallest)));
    }

    void benchmarkFrameTimes()
    {
        Simulation sim;
        SkipListView view(sim);
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        test::atEachBenchmarkSize(view, [&](std::uint64_t pages) {
            // Every node, or as many as the snapshot budget allows (then marked truncated).
            const auto& snap = view.listLayout().snapshot();
            QCOMPARE(snap.count, pages);
            QVERIFY(
                snap.nodes.size() == pages || (snap.truncated && snap.nodes.size() >= SkipListView::kMinSnapshotNodes));
            for (std::size_t i = 0; i < snap.nodes.size(); i += 997)
                QCOMPARE(snap.nodes[i].first_index, pcl::pgoff_t(i));
            QVERIFY(test::reportFrames(
                view, image, "skiplist", pages, QStringLiteral(" of %1 nodes").arg(snap.nodes.size())));
        });
    }

    void liveRunFollowsTheSelectedFilesList()
    {
        Simulation sim;
        SkipListView view(sim);
        test::showAtScreenshotSize(view);
        sim.setScenario(skipRun(200, 800, "pernode"));
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(!view.listLayout().snapshot().nodes.empty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 30000);
        pcl::Engine& engine = *sim.engine();
        QCOMPARE(int(engine.files().size()), 2);
        for (pcl::FileId f : engine.files()) {
            view.setFile(f);
            QCOMPARE(view.file(), f);
            const auto shape = engine.page_cache().file(f).index->shape();
            QCOMPARE(std::uint64_t(view.listLayout().nodes()), shape.nodes);
            QCOMPARE(view.listLayout().snapshot().height, shape.height);
            QCOMPARE(view.listLayout().snapshot().file, f);
        }
        sim.reset();
        QCOMPARE(view.listLayout().nodes(), std::size_t(0));
    }

    void screenshotOfARealRun()
    {
        Simulation sim;
        SkipListView view(sim);
        test::showForScreenshot(view);
        // Four CPUs reading one 52-page file at random at demo speed, with
        // long critical sections: two seconds in, about 40 pages are cached,
        // the last few inserts stand out and node locks are caught held.
        pcl::Scenario sc = skipRun(100000, 10, "pernode");
        sc.engine.workload.cpus = 4;
        sc.engine.workload.files = FileSharing::Shared;
        sc.engine.workload.file_pages = 52;
        sc.engine.hold_stretch_ns = 60000000;
        sim.setScenario(sc);
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(view.listLayout().nodes() >= 36, 15000);
        view.refresh();
        const SkipListLayout::Scene s = view.scene();
        QVERIFY(!s.aggregated);
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        QVERIFY(test::saveScreenshot(image, QStringLiteral("skiplist.png")));
        QVERIFY(test::distinctColours(image) > 30);
        // A tower's level-1 box is where the model put it, in its colour. The
        // pixel is off the box's centre lines, where the searches of recent
        // inserts are drawn over the boxes whenever one passed this tower.
        const auto& t = s.towers.front();
        const SkipListLayout::Box* box = nullptr;
        for (const SkipListLayout::Box& b : s.boxes)
            if (t.rect.contains(b.rect) && b.rect.bottom() == t.rect.bottom())
                box = &b;
        QVERIFY(box);
        const QPoint at(
            int(box->rect.left() + box->rect.width() / 4), int(box->rect.top() + box->rect.height() * 3 / 4));
        QColor expected = view.listLayout().towerColor(view.listLayout().snapshot().nodes[t.node].occupied > 0, false);
        QCOMPARE(QColor(image.pixel(at)).rgb(), expected.rgb());
        sim.reset();
    }
};

PCL_UI_TEST(TestSkipListView)
#include "test_skiplistview.moc"
