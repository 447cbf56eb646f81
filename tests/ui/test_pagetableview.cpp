// The page-table view: what its layout draws for known snapshots (locks in
// both schemes, fill bars, aggregation), faults in flight from the event
// stream, a live pft run, and a screenshot.
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/pagetable/pagetablelayout.h"
#include "views/pagetable/pagetableview.h"

#include "kit/colors.h"
#include "kit/displaylist.h"
#include "mm/page_table.h"
#include "sim/scenario.h"
#include "sync/lock_stats.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

using namespace pcl;
using namespace pcl::ui;

namespace {

std::vector<const PageTableLayout::Item*> withRole(const PageTableLayout& l, const QString& role)
{
    std::vector<const PageTableLayout::Item*> out;
    for (const auto& it : l.items())
        if (it.role == role)
            out.push_back(&it);
    return out;
}

PtePageInfo pte(std::uint64_t firstVpn, std::uint32_t set, bool split, sync::LockState lock = {})
{
    return { .first_vpn = firstVpn, .entries_set = set, .split_lock = split, .lock = lock };
}

Scenario pftRun(const char* scheme)
{
    std::string path = PCL_SOURCE_DIR "/resources/scenarios/2005-pft-";
    path.append(scheme).append("-page-table-lock.json");
    Scenario s = load_scenario(path);
    s.engine.workload.file_pages = 32768;
    s.engine.workload.operations_per_cpu = 4096;
    s.engine.memory_pages = 40000;
    s.sample_interval_ms = 20;
    return s;
}

} // namespace

class TestPageTableView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void splitLocksOnePerPtePage()
    {
        PageTableLayout::Input in;
        in.snapshot.scheme = pcl::PageTableScheme::Split;
        in.snapshot.pte_pages
            = { pte(0, 512, true, { true, 0, 2, 1 }), pte(512, 100, true, { true, 0, 0, 0 }), pte(1024, 0, true) };
        in.snapshot.mapped = 612;
        in.cpus = 4;
        PageTableLayout l;
        const QPalette pal;
        l.layout(in, QSizeF(900, 600), pal);
        QCOMPARE(l.group(), std::size_t(1));
        QCOMPARE(int(l.boxes().size()), 3);
        const auto locks = withRole(l, QStringLiteral("pte-lock"));
        QCOMPARE(int(locks.size()), 3);                  // one lock outline per PTE page
        QCOMPARE(locks[0]->color, colors::lockWanted()); // held and wanted
        QCOMPARE(locks[1]->color, colors::lockHeld());
        QCOMPARE(locks[2]->color, PageTableLayout::lockColor({}, pal));
        const auto waiters = withRole(l, QStringLiteral("waiters"));
        QCOMPARE(int(waiters.size()), 1);
        QCOMPARE(waiters[0]->text, QStringLiteral("+2"));
        // Fill bars: full, 100/512, none.
        const auto fills = withRole(l, QStringLiteral("pte-fill"));
        QCOMPARE(int(fills.size()), 2);
        const auto bars = withRole(l, QStringLiteral("pte-bar"));
        QCOMPARE(fills[0]->rect.width(), bars[0]->rect.width());
        QVERIFY(std::abs(fills[1]->rect.width() - bars[1]->rect.width() * 100 / 512) < 1e-9);
        // mm->page_table_lock guards only allocation: its outline stops before the PTE pages.
        const auto mm = withRole(l, QStringLiteral("mm-lock"));
        QCOMPARE(int(mm.size()), 1);
        QVERIFY(mm[0]->rect.right() < l.boxes()[0].rect.left());
        QCOMPARE(int(withRole(l, QStringLiteral("cpu")).size()), 4);
        QCOMPARE(l.boxOf(600), 1);
        QCOMPARE(l.boxOf(5000), -1);
    }

    void singleLockGoesRoundEverything()
    {
        PageTableLayout::Input in;
        in.snapshot.scheme = pcl::PageTableScheme::Single;
        in.snapshot.mm_lock = { true, 0, 3, 2 };
        in.snapshot.pte_pages = { pte(0, 10, false, in.snapshot.mm_lock), pte(512, 20, false, in.snapshot.mm_lock) };
        in.cpus = 2;
        PageTableLayout l;
        const QPalette pal;
        l.layout(in, QSizeF(900, 600), pal);
        QVERIFY(withRole(l, QStringLiteral("pte-lock")).empty()); // no per-page locks
        const auto mm = withRole(l, QStringLiteral("mm-lock"));
        QCOMPARE(int(mm.size()), 1);
        QCOMPARE(mm[0]->color, colors::lockWanted());
        for (const auto& b : l.boxes())
            QVERIFY(mm[0]->rect.contains(b.rect));
        const auto label = withRole(l, QStringLiteral("mm-lock-label"));
        QCOMPARE(label[0]->text, QStringLiteral("mm->page_table_lock +3"));
    }

    void manyPtePagesAggregate()
    {
        PageTableLayout::Input in;
        in.snapshot.scheme = pcl::PageTableScheme::Split;
        for (std::uint64_t i = 0; i < 4096; ++i)
            in.snapshot.pte_pages.push_back(
                pte(i * 512, 512, true, i == 100 ? sync::LockState { true, 0, 1, 0 } : sync::LockState {}));
        PageTableLayout l;
        l.layout(in, QSizeF(900, 600), QPalette());
        // 900 x 600: (900-8-124-268+6)/(64+6) = 7 columns, (600-8-66+6)/(34+6) = 13 rows: 91 boxes.
        QCOMPARE(l.group(), std::size_t((4096 + 90) / 91));
        QCOMPARE(int(l.boxes().size()), int((4096 + l.group() - 1) / l.group()));
        std::uint64_t entries = 0;
        for (const auto& b : l.boxes())
            entries += b.entries;
        QCOMPARE(entries, std::uint64_t(4096) * 512);
        // The switch point: 91 PTE pages get a box each, 92 share boxes by two.
        for (std::size_t n : { std::size_t(91), std::size_t(92) }) {
            PageTableLayout::Input few = in;
            few.snapshot.pte_pages.resize(n);
            PageTableLayout m;
            m.layout(few, QSizeF(900, 600), QPalette());
            QCOMPARE(m.group(), n == 91 ? std::size_t(1) : std::size_t(2));
        }
        // Up to 70 they are drawn taller (10 rows of 46 px).
        PageTableLayout::Input seventy = in;
        seventy.snapshot.pte_pages.resize(70);
        PageTableLayout m;
        m.layout(seventy, QSizeF(900, 600), QPalette());
        QCOMPARE(m.boxes()[0].rect.height(), PageTableLayout::kTallBoxHeight);
        seventy.snapshot.pte_pages.resize(71);
        m.layout(seventy, QSizeF(900, 600), QPalette());
        QCOMPARE(m.boxes()[0].rect.height(), PageTableLayout::kBoxHeight);
        const int b = l.boxOf(100 * 512);
        QVERIFY(l.boxes()[std::size_t(b)].lock.waiters == 1); // the busiest lock of the run shows
    }

    void faultsInFlightFromEvents()
    {
        Simulation sim;
        PageTableView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(2048);
        Q_EMIT sim.runReset(); // back to the (empty) run: no bench faults
        std::vector<Event> ev;
        ev.push_back(make_event_at(100, EventKind::FaultBegin, 0, 700, 0, 7));
        ev.push_back(make_event_at(110, EventKind::FaultBegin, 1, 1500, 0, 15));
        ev.push_back(make_event_at(120, EventKind::PageLockWait, 1, 99, 0, 15));
        ev.push_back(make_event_at(130, EventKind::FaultEnd, 0, 700, 0, 7, 30));
        Q_EMIT sim.eventsArrived(ev);
        QCOMPARE(int(view.faultsInFlight().size()), 1);
        const auto& f = view.faultsInFlight().at(1);
        QCOMPARE(f.vpn, std::uint64_t(1500));
        QVERIFY(f.waitsOnPage);
        QCOMPARE(f.index, pgoff_t(15));
        ev = { make_event_at(140, EventKind::PageLockWoken, 1, 99, 0, 15, 20) };
        Q_EMIT sim.eventsArrived(ev);
        QVERIFY(!view.faultsInFlight().at(1).waitsOnPage);
        // A fault whose end never came goes after kStaleFaultNs.
        ev = { make_event_at(140 + PageTableView::kStaleFaultNs, EventKind::LockAcquired, 2) };
        Q_EMIT sim.eventsArrived(ev);
        QVERIFY(view.faultsInFlight().empty());
    }

    void arrowsGoRoundTheTablesToTheEntryAndThePage()
    {
        // Two PMD pages, a dozen PTE pages in two rows, four CPUs faulting:
        // every route starts at its CPU, is unbroken, ends at its entry (or
        // on at the page slept on), and crosses no PGD or PMD page and no
        // PTE page but its own.
        PageTableLayout::Input in;
        in.snapshot.scheme = pcl::PageTableScheme::Split;
        for (std::uint64_t k = 0; k < 10; ++k)
            in.snapshot.pte_pages.push_back(pte(k * 512, 300, true));
        in.snapshot.pte_pages.push_back(pte(PageTable::kVpnsPerPmdPage, 12, true));
        in.snapshot.pte_pages.push_back(pte(PageTable::kVpnsPerPmdPage + 512, 12, true));
        in.cpus = 4;
        const std::uint64_t vpns[] = { 256, 512 * 8 + 3, PageTable::kVpnsPerPmdPage + 512 + 256, 512 * 4 + 500 };
        for (int cpu = 0; cpu < 4; ++cpu) {
            PageTableLayout::Fault f;
            f.cpu = cpu;
            f.vpn = vpns[cpu];
            f.waitsOnPage = cpu == 2;
            f.file = 0;
            f.index = 42;
            in.faults.push_back(f);
        }
        PageTableLayout l;
        l.layout(in, QSizeF(900, 600), QPalette());
        QCOMPARE(int(withRole(l, QStringLiteral("pmd")).size()), 2);
        QVERIFY(l.boxes().back().rect.top() > l.boxes().front().rect.bottom()); // two rows

        std::vector<QRectF> tables;
        for (const char* role : { "pgd", "pmd" })
            for (const auto* it : withRole(l, QLatin1String(role)))
                tables.push_back(it->rect);
        // A leg is a horizontal or vertical line: it crosses a box when it runs through its inside.
        auto crosses = [](const QRectF& leg, const QRectF& box) {
            const QRectF inside = box.adjusted(1, 1, -1, -1);
            const QRectF line = leg.normalized().adjusted(-0.01, -0.01, 0.01, 0.01);
            return line.intersects(inside);
        };
        const auto arrows = withRole(l, QStringLiteral("fault"));
        QCOMPARE(int(arrows.size()), 4);
        for (const auto* arrow : arrows) {
            const int cpu = arrow->index;
            std::vector<QRectF> legs;
            for (const auto* it : withRole(l, QStringLiteral("fault-route")))
                if (it->index == cpu)
                    legs.push_back(it->rect);
            legs.push_back(arrow->rect);
            QCOMPARE(legs.front().topLeft(), QPointF(l.cpuRect(cpu).right(), l.cpuRect(cpu).center().y()));
            for (std::size_t k = 1; k < legs.size(); ++k)
                QCOMPARE(legs[k].topLeft(), legs[k - 1].bottomRight());
            const int own = l.boxOf(vpns[cpu]);
            QVERIFY(own >= 0);
            const auto& box = l.boxes()[std::size_t(own)];
            const std::uint64_t entry = vpns[cpu] - box.firstVpn;
            QVERIFY(std::abs(arrow->rect.right() - (box.rect.left() + 3 + (box.rect.width() - 6) * (entry + 0.5) / 512))
                < 1e-9);
            QVERIFY(box.rect.contains(arrow->rect.bottomRight()));
            for (const QRectF& leg : legs) {
                QVERIFY(leg.width() == 0 || leg.height() == 0);
                for (const QRectF& t : tables)
                    QVERIFY2(!crosses(leg, t), qPrintable(QStringLiteral("CPU %1 crosses a PGD or PMD page").arg(cpu)));
                for (int b = 0; b < int(l.boxes().size()); ++b)
                    QVERIFY2(b == own || !crosses(leg, l.boxes()[std::size_t(b)].rect),
                        qPrintable(QStringLiteral("CPU %1 crosses PTE box %2").arg(cpu).arg(b)));
            }
        }

        // The lines from the PMD pages to their first PTE pages cross no other page either.
        const auto pmdLines = withRole(l, QStringLiteral("pmd-pte"));
        QVERIFY(!pmdLines.empty());
        for (const auto* line : pmdLines) {
            QVERIFY(line->rect.width() == 0 || line->rect.height() == 0);
            for (const QRectF& t : tables)
                QVERIFY2(
                    !crosses(line->rect, t) || line->rect.left() == t.right(), "a PMD line crosses a PGD or PMD page");
            for (const auto& b : l.boxes())
                QVERIFY2(!crosses(line->rect, b.rect), "a PMD line crosses a PTE page");
        }

        // CPU 2 sleeps on file 0 page 42: on from its entry to the page.
        const auto wait = withRole(l, QStringLiteral("page-wait"));
        QCOMPARE(int(wait.size()), 1);
        std::vector<QRectF> legs;
        for (const auto* it : withRole(l, QStringLiteral("page-wait-route")))
            legs.push_back(it->rect);
        legs.push_back(wait[0]->rect);
        const auto* cpu2 = *std::find_if(arrows.begin(), arrows.end(), [](const auto* a) { return a->index == 2; });
        QCOMPARE(legs.front().topLeft(), cpu2->rect.bottomRight());
        for (std::size_t k = 1; k < legs.size(); ++k)
            QCOMPARE(legs[k].topLeft(), legs[k - 1].bottomRight());
        const auto pages = withRole(l, QStringLiteral("waited-page"));
        QCOMPARE(int(pages.size()), 1);
        QCOMPARE(legs.back().bottomRight(), QPointF(pages[0]->rect.left(), pages[0]->rect.center().y()));
        const int own = l.boxOf(vpns[2]);
        for (const QRectF& leg : legs)
            for (int b = 0; b < int(l.boxes().size()); ++b)
                QVERIFY2(b == own || !crosses(leg, l.boxes()[std::size_t(b)].rect),
                    qPrintable(QStringLiteral("the page wait crosses PTE box %1").arg(b)));
        QCOMPARE(withRole(l, QStringLiteral("waited-page-label"))[0]->text, QStringLiteral("file 0 page 42"));
    }

    void theTitleAndLegendWrapInANarrowView()
    {
        // The room the view has beside a lesson and the charts at 1280 x
        // 720: the title's counts and every legend entry stay in view, and
        // the title clear of the Fit button.
        PageTableLayout::Input in;
        in.snapshot.scheme = pcl::PageTableScheme::Split;
        in.snapshot.pte_pages = { pte(0, 300, true), pte(512, 12, true) };
        in.snapshot.mapped = 312;
        in.snapshot.backouts = 17;
        in.cpus = 4;
        for (const double width : { 480.0, 674.0, 1600.0 }) {
            PageTableLayout l;
            l.layout(in, QSizeF(width, 420), QPalette());
            const QFontMetricsF fm(QGuiApplication::font());
            const QString whole = QStringLiteral(
                "Page table (split lock: one pte_lock per PTE page): 2 PTE pages, 312 entries mapped, 17 back-outs");
            QStringList title;
            for (const auto* it : withRole(l, QStringLiteral("title"))) {
                title << it->text;
                QVERIFY2(it->rect.left() + fm.horizontalAdvance(it->text) <= width - 60, qPrintable(it->text));
            }
            QVERIFY(
                title.join(QLatin1Char(' ')).contains(QStringLiteral("2 PTE pages, 312 entries mapped, 17 back-outs")));
            QCOMPARE(title.size(), fm.horizontalAdvance(whole) > width - 16 - 60 ? 2 : 1);
            const auto legend = withRole(l, QStringLiteral("legend-text"));
            QCOMPARE(int(legend.size()), 6);
            for (const auto* it : legend)
                QVERIFY2(it->rect.left() + fm.horizontalAdvance(it->text) <= width - 8, qPrintable(it->text));
            // The tables start below all of it.
            QVERIFY(l.cpuRect(0).top() > legend.back()->rect.bottom());
        }
    }

    void fitShowsTheTableAsLargeAsTheViewAllows()
    {
        Simulation sim;
        PageTableView view(sim);
        view.resize(1600, 900);
        view.benchmarkLoad(2000); // four PTE pages, eight CPUs: the top of the view
        QFont small = view.font();
        small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
        const QRectF content = view.layoutModel().contentRect(QFontMetricsF(small));
        QVERIFY2(content.width() < 1300 && content.height() < 700,
            qPrintable(QStringLiteral("%1 x %2").arg(content.width()).arg(content.height())));
        const Viewport before = view.viewport();
        QCOMPARE(before.x.span, 1600.0);

        view.fit();
        const Viewport v = view.viewport();
        const double sx = v.x.pixels / v.x.span, sy = v.y.pixels / v.y.span;
        QVERIFY(std::abs(sx - sy) < 1e-9); // one scale: nothing stretched
        QVERIFY2(sx > 1.2, qPrintable(QString::number(sx)));
        // All of the drawing in view, and one side of it (nearly) filling the view.
        auto toView = [&](QPointF p) { return QPointF((p.x() - v.x.first) * sx, (p.y() - v.y.first) * sy); };
        const QRectF shown(toView(content.topLeft()), toView(content.bottomRight()));
        QVERIFY(QRectF(view.rect()).adjusted(-0.5, -0.5, 0.5, 0.5).contains(shown));
        QVERIFY(shown.width() > 1600 - 40 || shown.height() > 900 - 40);
        // The picture is the drawing enlarged: the first PTE box's fill where Fit put it.
        const auto& box = view.layoutModel().boxes()[0];
        // (A quarter along its bar: the faults' arrows come down at entries 0, 250 and 500.)
        const QPointF inBar = toView(QPointF(box.rect.left() + box.rect.width() / 4, box.rect.top() + 16 + 5));
        const QImage fitted = view.grab().toImage();
        QCOMPARE(QColor(fitted.pixel(inBar.toPoint())), PageTableLayout::fillColor());
        QVERIFY(fitted.save(test::screenshotDir() + QStringLiteral("/pagetable-fitted.png")));

        // Fitted, a new snapshot is fitted again; a zoom ends that.
        view.refresh();
        QCOMPARE(view.viewport().x.span, v.x.span);
        QWheelEvent wheel(QPointF(800, 450), view.mapToGlobal(QPointF(800, 450)), QPoint(), QPoint(0, 120),
            Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        const double zoomedSpan = view.viewport().x.span;
        QVERIFY(zoomedSpan < v.x.span);
        view.refresh();
        QCOMPARE(view.viewport().x.span, zoomedSpan);
    }

    void benchmarkSnapshotsARealTable()
    {
        Simulation sim;
        PageTableView view(sim);
        test::atEachBenchmarkSize(view, [&](std::uint64_t n) {
            QCOMPARE(view.input().snapshot.mapped, n);
            QCOMPARE(view.input().snapshot.pte_pages.size(), std::size_t((n + 511) / 512));
            QImage image(900, 600, QImage::Format_ARGB32);
            QVERIFY(test::reportFrames(view, image, "pagetable", n));
        });
    }

    void outlinesAreFilledWhereAPenWouldStrokeThem()
    {
        // The view paints each outline as four fills, not with a pen: the
        // picture is the display list as QPainter strokes it, pixel for
        // pixel, but for the outer corners of the wider outlines, which a
        // stroke bevels and the fills square.
        Simulation sim;
        PageTableView view(sim);
        view.resize(1280, 720);
        view.benchmarkLoad(100000);
        QImage filled(view.size(), QImage::Format_ARGB32_Premultiplied);
        view.render(&filled);
        QImage stroked(view.size(), QImage::Format_ARGB32_Premultiplied);
        {
            QPainter p(&stroked);
            p.fillRect(stroked.rect(), view.palette().color(QPalette::Window));
            QFont small = view.font();
            small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
            p.setFont(small);
            paintDisplayList(p, view.layoutModel().items());
        }
        std::vector<QPointF> corners;
        int outlines = 0;
        for (const auto& it : view.layoutModel().items()) {
            if (it.kind != DisplayKind::Outline)
                continue;
            ++outlines;
            const QRectF o = it.rect.adjusted(-it.width / 2, -it.width / 2, it.width / 2, it.width / 2);
            corners.insert(corners.end(), { o.topLeft(), o.topRight(), o.bottomLeft(), o.bottomRight() });
        }
        QVERIFY(outlines > 100);
        const QRect fit = view.fitButton()->geometry();
        int differing = 0;
        for (int y = 0; y < filled.height(); ++y)
            for (int x = 0; x < filled.width(); ++x) {
                if (filled.pixel(x, y) == stroked.pixel(x, y) || fit.contains(x, y))
                    continue;
                ++differing;
                const QPointF c(x + 0.5, y + 0.5);
                const bool atCorner = std::any_of(corners.begin(), corners.end(),
                    [&](const QPointF& k) { return std::abs(k.x() - c.x()) <= 1.5 && std::abs(k.y() - c.y()) <= 1.5; });
                QVERIFY2(atCorner, qPrintable(QStringLiteral("pixel %1,%2 is not an outline's corner").arg(x).arg(y)));
            }
        QVERIFY(differing < outlines);
    }

    void liveRunMatchesTheEngine()
    {
        for (const char* scheme : { "single", "split" }) {
            Simulation sim;
            PageTableView view(sim);
            test::showForScreenshot(view);
            sim.setScenario(pftRun(scheme));
            sim.setPacing(2000, 500000);
            sim.play();
            QTRY_VERIFY_WITH_TIMEOUT(view.input().snapshot.pte_pages.size() >= 4, 20000);
            QTest::qWait(200);
            sim.pause();
            // The CPUs finish the operations they are in before they stop,
            // on their own threads, and the view learns of the last faults'
            // ends at the tick after that: a view refreshed sooner shows a
            // table the engine is still changing.
            QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->held_since().has_value(), 10000);
            QSignalSpy ticks(&sim, &LiveRun::ticked);
            QVERIFY(ticks.wait(10000));
            view.refresh();
            const PageTableSnapshot snap = sim.engine()->page_table().snapshot();
            QCOMPARE(view.input().snapshot.pte_pages.size(), snap.pte_pages.size());
            QCOMPARE(view.input().snapshot.mapped, snap.mapped);
            std::uint64_t entries = 0;
            for (const auto& b : view.layoutModel().boxes())
                entries += b.entries;
            QCOMPARE(entries, snap.mapped);
            QCOMPARE(int(withRole(view.layoutModel(), QStringLiteral("pte-lock")).size()),
                std::string(scheme) == "split" ? int(view.layoutModel().boxes().size()) : 0);
            QImage image = view.grab().toImage();
            QVERIFY(test::distinctColours(image) > 12);
            // The first box's bar at its left end: filled if at least 2 px of it are.
            const auto& box = view.layoutModel().boxes()[0];
            const double filled = (box.rect.width() - 6) * double(box.entries) / 512.0;
            const QPoint at(int(box.rect.left()) + 4, int(box.rect.top()) + 16 + 4);
            QCOMPARE(QColor(image.pixel(at)),
                filled >= 2 ? PageTableLayout::fillColor() : view.palette().color(QPalette::Base));

            // The picture for people: taken running, when faults are in flight if any are recorded
            // (an uncontended fault leaves no FaultBegin).
            sim.play();
            // Not required: an uncontended fault leaves no FaultBegin, so none may come.
            (void)QTest::qWaitFor([&] { return !view.faultsInFlight().empty(); }, 3000);
            view.refresh();
            image = view.grab().toImage();
            QVERIFY(test::distinctColours(image) > 12);
            const QString name = QStringLiteral("/pagetable-%1.png").arg(QLatin1String(scheme));
            image.save(test::screenshotDir() + name);
        }
    }
};

PCL_UI_TEST(TestPageTableView)
#include "test_pagetableview.moc"
