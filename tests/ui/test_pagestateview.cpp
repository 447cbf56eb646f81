// The readahead and page-state view: what its layout draws for known page
// states and windows, the level-of-detail switch, the probe CSV, a live run,
// and a screenshot.
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/pagestate/pagestatelayout.h"
#include "views/pagestate/pagestateview.h"

#include "mm/frame_allocator.h"
#include "mm/page_cache.h"
#include "sync/rcu.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace pcl;
using namespace pcl::ui;

namespace {

PageStateSummary page(pgoff_t index, bool present, std::uint32_t flags = PG_uptodate)
{
    PageStateSummary s;
    s.first = index;
    s.pages = 1;
    s.sampled = 1;
    if (present) {
        s.present = 1;
        s.uptodate = (flags & PG_uptodate) ? 1 : 0;
        s.under_io = (flags & PG_locked) && !(flags & PG_uptodate);
        s.locked = (flags & PG_locked) && (flags & PG_uptodate);
        s.dirty = (flags & PG_dirty) ? 1 : 0;
        s.readahead = (flags & PG_readahead) ? 1 : 0;
        s.max_count = 1;
    }
    return s;
}

std::vector<const PageStateLayout::Item*> withRole(const PageStateLayout& l, const QString& role)
{
    std::vector<const PageStateLayout::Item*> out;
    for (const auto& it : l.items())
        if (it.role == role)
            out.push_back(&it);
    return out;
}

/// A sequential reader with ondemand readahead over a file larger than
/// memory, paced so that windows move visibly and reclaim evicts.
Scenario readaheadRun()
{
    Scenario s = test::twoCpus({ .pattern = WorkloadPattern::Sequential,
        .filePages = 4096,
        .ops = 3000,
        .memoryPages = 3072,
        .device = { 20000, 2000, 1.0 },
        .sampleMs = 20 });
    s.engine.readahead = "ondemand";
    return s;
}

} // namespace

class TestPageStateView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void classifyPrefersTheTellingStates()
    {
        PageStateSummary s;
        s.sampled = 10;
        s.present = 4;
        QCOMPARE(PageStateLayout::classify(s, 0, 0), PageVisual::NotCached); // 4 of 10 cached: majority not
        s.present = 5;
        QCOMPARE(PageStateLayout::classify(s, 0, 0), PageVisual::Cached);
        QCOMPARE(PageStateLayout::classify(s, 2, 0), PageVisual::Evicted);
        s.dirty = 1;
        QCOMPARE(PageStateLayout::classify(s, 2, 0), PageVisual::Dirty);
        s.writeback = 1; // one of the dirty pages is being written
        QCOMPARE(PageStateLayout::classify(s, 2, 0), PageVisual::Writeback);
        s.readahead = 1;
        QCOMPARE(PageStateLayout::classify(s, 2, 0), PageVisual::Readahead);
        QCOMPARE(PageStateLayout::classify(s, 2, 1), PageVisual::Wasted);
        s.locked = 1;
        QCOMPARE(PageStateLayout::classify(s, 2, 1), PageVisual::Locked);
        s.under_io = 1;
        QCOMPARE(PageStateLayout::classify(s, 2, 1), PageVisual::UnderIo);
    }

    void singlePagesAndWindowBrackets()
    {
        // 10 pages on a strip 808 px wide: one rect per non-empty page.
        PageStateLayout::Input in;
        in.fileName = QStringLiteral("file 0");
        in.filePages = 10;
        in.first = 0;
        in.pages = 10;
        in.columns = { page(0, true), page(1, true), page(2, true, PG_uptodate | PG_readahead), page(3, true),
            page(4, true, PG_locked), page(5, true, PG_locked), page(6, false), page(7, false), page(8, false),
            page(9, false) };
        in.evicted = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1 };
        in.wasted = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
        RaWindowMark w;
        w.start = 2;
        w.size = 4;
        w.async_size = 4;
        w.async = true;
        w.rule = QStringLiteral("marker");
        w.age_ms = 200;
        in.windows = { w };
        PageStateLayout l;
        const QPalette pal;
        l.layout(in, QSizeF(900, 600), pal);
        // The strip spans x 92..892: 80 px a page.
        QCOMPARE(l.strip().left(), 92.0);
        QCOMPARE(l.strip().width(), 800.0);
        QCOMPARE(l.xOfPage(1), 172.0);
        const auto pages = withRole(l, QStringLiteral("page"));
        QCOMPARE(int(pages.size()), 8);          // 6 cached or locked, 2 evicted; 6 and 7 are not cached (background)
        QCOMPARE(l.strip().height(), 600.0 / 7); // a seventh of the height, between 44 and 96
        QCOMPARE(pages[0]->rect, QRectF(92, l.strip().top(), 79, 600.0 / 7));
        QCOMPARE(pages[2]->color, PageStateLayout::color(PageVisual::Readahead, pal));
        QCOMPARE(pages[4]->color, PageStateLayout::color(PageVisual::UnderIo, pal));
        QCOMPARE(pages[4]->text, QStringLiteral("under I/O"));
        QCOMPARE(pages[6]->color, PageStateLayout::color(PageVisual::Evicted, pal));
        QCOMPARE(pages[7]->color, PageStateLayout::color(PageVisual::Wasted, pal));
        // The window: a bracket over pages 2..5, all asynchronous, its marker at page 2.
        const auto lines = withRole(l, QStringLiteral("window"));
        QCOMPARE(int(lines.size()), 1);
        QCOMPARE(lines[0]->rect.left(), l.xOfPage(2));
        QCOMPARE(lines[0]->rect.right(), l.xOfPage(6));
        QVERIFY(lines[0]->rect.top() < l.strip().top());
        QCOMPARE(int(withRole(l, QStringLiteral("window-edge")).size()), 2);
        const auto async = withRole(l, QStringLiteral("async"));
        QCOMPARE(int(async.size()), 1);
        QCOMPARE(async[0]->rect.left(), l.xOfPage(2));
        QCOMPARE(int(withRole(l, QStringLiteral("marker")).size()), 1);
        // The label fades: 200 ms old is 80 % opaque.
        const auto labels = withRole(l, QStringLiteral("label"));
        QCOMPARE(int(labels.size()), 1);
        QCOMPARE(labels[0]->text, QStringLiteral("4 pages (async 4) · marker"));
        QVERIFY(std::abs(labels[0]->color.alphaF() - 0.8) < 0.01);
        // Old windows are not labelled.
        in.windows[0].age_ms = PageStateLayout::kLabelFadeMs + 1;
        l.layout(in, QSizeF(900, 600), pal);
        QVERIFY(withRole(l, QStringLiteral("label")).empty());
        // The legend names every state.
        QCOMPARE(int(withRole(l, QStringLiteral("legend")).size()), kPageVisuals);
        // Hit testing: the middle of page 4.
        QCOMPARE(l.pageAt(l.xOfPage(4.5)), std::int64_t(4));
        QCOMPARE(l.columnAt(l.xOfPage(4.5)), 4);
        QCOMPARE(l.pageAt(l.strip().left() - 1), std::int64_t(-1));
    }

    void levelOfDetailSwitchesAtOnePagePerPixel()
    {
        const int cols = PageStateLayout::stripColumns(900);
        QCOMPARE(cols, 800);
        QCOMPARE(PageStateLayout::columnsFor(800, cols), 800); // one page per column
        QCOMPARE(PageStateLayout::columnsFor(801, cols), 800); // from here columns aggregate
        QCOMPARE(PageStateLayout::columnsFor(1 << 20, cols), 800);
        QCOMPARE(PageStateLayout::columnsFor(5, cols), 5);
        QCOMPARE(PageStateLayout::columnsFor(0, cols), 0);
    }

    void aggregatedColumnsFromARealCache()
    {
        // 100000 pages, the first half cached, one page under I/O at 70000.
        sync::LockRegistry registry;
        FrameAllocator frames(60000, registry);
        {
            IndexSpec spec;
            PageCache cache(spec, frames, registry);
            const FileId f = cache.add_file(100000);
            for (pgoff_t i = 0; i < 50000; ++i) {
                auto r = cache.find_or_create_page(f, i);
                r.page->set(PG_uptodate);
                cache.page_locks().unlock_page(*r.page);
                cache.put_page(r.page);
            }
            auto io = cache.find_or_create_page(f, 70000); // stays locked, not uptodate
            std::vector<PageStateSummary> sums;
            summarise_page_states(cache, f, 0, 100000, 800, 16, sums);
            PageStateLayout::Input in;
            in.filePages = in.pages = 100000;
            in.columns = sums;
            PageStateLayout l;
            const QPalette pal;
            l.layout(in, QSizeF(900, 600), pal);
            const auto cols = withRole(l, QStringLiteral("column"));
            // Columns 0..399 cached (125 pages each), and the one holding 70000 (column 560) under I/O.
            QCOMPARE(int(cols.size()), 401);
            for (int c = 0; c < 400; ++c)
                QCOMPARE(cols[std::size_t(c)]->color, PageStateLayout::color(PageVisual::Cached, pal));
            QCOMPARE(cols[400]->color, PageStateLayout::color(PageVisual::UnderIo, pal));
            QCOMPARE(l.columnAt(cols[400]->rect.center().x()), 560);
            QCOMPARE(sums[560].under_io, 1u);
            QCOMPARE(sums[560].sampled, 16u);
            io.page->set(PG_uptodate);
            cache.page_locks().unlock_page(*io.page);
            cache.put_page(io.page);
        }
        rcu::barrier();
    }

    void csvParsesAndNamesBadLines()
    {
        std::vector<RaWindowMark> w;
        QCOMPARE(parseReadaheadCsv(QStringLiteral("time_us,cpu,file,start,size,async_size,kind,rule\n"
                                                  "10,0,0,0,4,2,sync,host\n20,0,0,4,8,8,async,host\n"),
                     w),
            QString());
        QCOMPARE(int(w.size()), 2);
        QCOMPARE(w[1].start, pgoff_t(4));
        QCOMPARE(w[1].size, pgoff_t(8));
        QCOMPARE(w[1].async_size, pgoff_t(8));
        QVERIFY(w[1].async);
        QCOMPARE(w[1].rule, QStringLiteral("host"));
        QCOMPARE(parseReadaheadCsv(QStringLiteral("time_us,cpu,file,start,size,async_size,kind,rule\n"
                                                  "10,0,0,0,4,2,sync,host\n20,0,0,x,8,8,async,host\n"),
                     w),
            QStringLiteral("line 3: start is not a non-negative integer: 'x'"));
        QVERIFY(w.empty());
        QVERIFY(parseReadaheadCsv(QStringLiteral("time_us,cpu,file,start,size,async_size,kind,rule\n1,2,3\n"), w)
                    .startsWith(QStringLiteral("line 2: expected 8 fields")));
        QVERIFY(
            parseReadaheadCsv(QStringLiteral("a,b\n"), w).startsWith(QStringLiteral("line 1: expected the header")));
        QVERIFY(parseReadaheadCsv(QString(), w).startsWith(QStringLiteral("line 1:")));
        QCOMPARE(parseReadaheadCsv(QStringLiteral("time_us,cpu,file,start,size,async_size,kind,rule\n"
                                                  "1,0,0,0,4,2,both,host\n"),
                     w),
            QStringLiteral("line 2: kind must be sync or async, found 'both'"));
        QCOMPARE(parseReadaheadCsv(QStringLiteral("time_us,cpu,file,start,size,async_size,kind,rule\n"
                                                  "1,0,0,0,4,6,sync,host\n"),
                     w),
            QStringLiteral("line 2: async_size (6) is larger than size (4)"));
    }

    void hostWindowsOverlayAsASecondRow()
    {
        Simulation sim;
        PageStateView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(2048);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("probe.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("time_us,cpu,file,start,size,async_size,kind,rule\n0,0,0,0,4,3,sync,host\n50,0,0,4,8,8,async,host\n"
                "90,0,0,12,16,16,async,host\n");
        f.close();
        QString error;
        QVERIFY2(view.loadHostCsv(path, &error), qPrintable(error));
        QCOMPARE(view.hostWindowCount(), std::size_t(3));
        const auto host = withRole(view.layoutModel(), QStringLiteral("host-window"));
        QCOMPARE(int(host.size()), 3);
        const auto titles = withRole(view.layoutModel(), QStringLiteral("row-title"));
        QVERIFY(std::any_of(
            titles.begin(), titles.end(), [](auto* t) { return t->text == QStringLiteral("host kernel"); }));
        QVERIFY(!withRole(view.layoutModel(), QStringLiteral("series-host")).empty());
        view.setFollowing(false);
        view.setViewRange(0, 64);
        const QImage image = view.grab().toImage();
        QVERIFY(test::distinctColours(image) > 12);
        image.save(test::screenshotDir() + QStringLiteral("/readahead-host.png"));
        // A bad file leaves the overlay as it was and names the line.
        QFile bad(dir.filePath(QStringLiteral("bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("time_us,cpu,file,start,size,async_size,kind,rule\n0,0,0,0,4,3,sync,host\n0,0,0,-1,4,3,sync,host\n");
        bad.close();
        QVERIFY(!view.loadHostCsv(bad.fileName(), &error));
        QVERIFY2(error.contains(QStringLiteral("line 3: start")), qPrintable(error));
        QCOMPARE(view.hostWindowCount(), std::size_t(3));
    }

    void zoomDownToSinglePagesWithTooltips()
    {
        Simulation sim;
        PageStateView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(100000);
        QCOMPARE(view.viewPages(), pgoff_t(100000));
        QVERIFY(!withRole(view.layoutModel(), QStringLiteral("column")).empty());
        view.setFollowing(false); // the benchmark's current window is at the end of the file
        view.setViewRange(100, 50);
        QCOMPARE(view.viewFirst(), pgoff_t(100));
        QCOMPARE(view.viewPages(), pgoff_t(50));
        const auto pages = withRole(view.layoutModel(), QStringLiteral("page"));
        QCOMPARE(int(pages.size()), 50); // all cached in the benchmark's first block
        // Page 160 is a readahead marker (every 64 pages from 32): hover shows its flags and count.
        view.setViewRange(150, 20);
        const double x = view.layoutModel().xOfPage(160.5);
        const int y = int(view.layoutModel().strip().center().y()) + view.canvasTop();
        const QString tip = view.toolTipAt(QPoint(int(x), y));
        QVERIFY2(tip.startsWith(QStringLiteral("page 160: readahead marker")), qPrintable(tip));
        QVERIFY2(
            tip.contains(QStringLiteral("readahead")) && tip.contains(QStringLiteral("uptodate")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("reference count: 1")), qPrintable(tip));
        view.fit();
        QCOMPARE(view.viewPages(), pgoff_t(100000));
        // Following, a zoomed view jumps to the current window (the last, at the end).
        view.setFollowing(true);
        view.setViewRange(0, 1000);
        QCOMPARE(view.viewFirst() + view.viewPages(), pgoff_t(100000));
    }

    void frameTimes()
    {
        // Not an assertion on speed: the numbers the benchmark reports.
        Simulation sim;
        PageStateView view(sim);
        test::atEachBenchmarkSize(view, [&](std::uint64_t n) {
            QImage image(900, 600, QImage::Format_ARGB32);
            QVERIFY(test::reportFrames(view, image, "readahead", n));
            QVERIFY(view.lastPaintMs() > 0);
        });
    }

    void liveRunShowsWhatTheCacheHolds()
    {
        Simulation sim;
        PageStateView view(sim);
        test::showForScreenshot(view);
        sim.setScenario(readaheadRun());
        sim.setPacing(6000, 0);
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(view.input().windows.size() >= 6, 20000);
        QTest::qWait(300);
        sim.pause();
        QTest::qWait(100);
        view.refresh();
        // Every column's presence is what the cache holds: 4096 pages on 800 columns are about
        // 5 a column, fewer than kSamplesPerColumn, so each column is read whole.
        PageCache& cache = sim.engine()->page_cache();
        std::vector<PageStateBits> bits;
        read_page_states(cache, 0, 0, 4096, bits);
        std::uint64_t present = 0;
        for (const auto& b : bits)
            present += b.present;
        QCOMPARE(present, cache.file(0).nrpages());
        std::uint64_t shown = 0;
        for (const auto& c : view.input().columns)
            shown += c.present;
        QCOMPARE(shown, present); // columns of at most 16 pages are read whole
        QVERIFY(!withRole(view.layoutModel(), QStringLiteral("window")).empty());
        QVERIFY(!withRole(view.layoutModel(), QStringLiteral("series-sync")).empty()
            || !withRole(view.layoutModel(), QStringLiteral("series-async")).empty());

        // Zoomed in on 400 pages, following: the current window is in view.
        view.setViewRange(0, 400);
        const RaWindowMark current = view.input().windows.back();
        QVERIFY(current.start >= view.viewFirst());
        QVERIFY(current.start + current.size <= view.viewFirst() + view.viewPages());
        const auto brackets = withRole(view.layoutModel(), QStringLiteral("window"));
        QVERIFY(!brackets.empty());
        QCOMPARE(brackets.back()->rect.left(), view.layoutModel().xOfPage(double(current.start)));

        const QImage image = view.grab().toImage();
        QVERIFY(test::distinctColours(image) > 12);
        // The strip is where the model says: the pixel at a cached column is the cached colour.
        int checked = 0;
        const auto band = withRole(view.layoutModel(), QStringLiteral("window-band"));
        QCOMPARE(int(band.size()), 1);
        for (const auto* c : withRole(view.layoutModel(), QStringLiteral("page"))) {
            if (c->rect.intersects(band[0]->rect))
                continue; // under the current window's band
            const QPoint at(int(c->rect.center().x()), int(c->rect.center().y()) + view.canvasTop());
            QCOMPARE(QColor(image.pixel(at)), c->color);
            ++checked;
        }
        QVERIFY(checked > 0);
        image.save(test::screenshotDir() + QStringLiteral("/readahead.png"));
        sim.reset();
        QVERIFY(view.input().windows.empty());
    }
};

PCL_UI_TEST(TestPageStateView)
#include "test_pagestateview.moc"
