// The radix tree view's widget: the detail its zoom asks for, why an empty
// tree or another index shows nothing, a live run, screenshots, a lesson's
// leaf brought into view, and paint times of benchmarkLoad trees. What its
// layout draws is tested in test_radixtreelayout.cpp.

#include "radix_test_support.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "views/radix/radixtreeview.h"

#include <QComboBox>
#include <QElapsedTimer>

using pcl::ui::RadixTreeView;
using pcl::ui::Simulation;
using namespace radixtest;

class TestRadixTreeView : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
        s.engine.workload.files = pcl::FileSharing::Shared;
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
        pcl::ui::test::atEachBenchmarkSize(view, [&](std::uint64_t pages) {
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
        });
        if (QTest::currentTestFailed())
            return;
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

PCL_UI_TEST(TestRadixTreeView)
#include "test_radixtreeview.moc"
