// The hash view: what HashLayout draws for hand-built snapshots and for a
// real HashIndex (cells, aggregation switch point, lock bands, histogram,
// expanded chain), the widget's flashes and tooltips, a live run, and a
// screenshot.
#include "kit/colors.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/hash/hashlayout.h"
#include "views/hash/hashview.h"

#include "index/hash_index.h"
#include "index/page_hash.h"
#include "sim/scenario.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>

#include <numeric>

using namespace pcl;
using namespace pcl::ui;

namespace {

/// Eight buckets, two hashed locks of four buckets: the first held by CPU 1,
/// the second held by CPU 3 with two CPUs waiting.
IndexSnapshot eightBuckets()
{
    IndexSnapshot s;
    s.kind = pcl::IndexKind::Hash;
    s.scheme = pcl::HashScheme::Hashed;
    s.count = 7;
    s.chain_lengths = { 0, 1, 2, 0, 3, 0, 0, 1 };
    s.chain_histogram = pcl::chain_histogram(s.chain_lengths);
    s.chi_square = pcl::chi_square(s.chain_lengths);
    s.buckets_per_lock = 4;
    s.locks = { { "hash_lock[0]", test::held(1) }, { "hash_lock[1]", test::held(3, 2) } };
    return s;
}

HashLayout hashLayoutFor(IndexSnapshot s, QSizeF size = QSizeF(900, 600))
{
    return test::sceneLayout<HashLayout>(std::move(s), size);
}

QColor heatFor(std::uint32_t len, std::uint32_t scaleMax)
{
    return colors::heat(0.2 + 0.8 * std::min(1.0, double(len) / double(scaleMax)), QApplication::palette());
}

bool hasLabelContaining(const HashLayout::Scene& s, const QString& text)
{
    for (const auto& l : s.labels)
        if (l.text.contains(text))
            return true;
    return false;
}

/// A small paced run on the page hash: 2 CPUs, 2 files, 256 buckets.
pcl::Scenario hashRun(std::uint64_t ops, double opsPerSecond)
{
    pcl::Scenario s = test::pacedRun(600, ops, opsPerSecond);
    s.engine.index.kind = pcl::IndexKind::Hash;
    s.engine.index.scheme = "hashed";
    s.engine.index.hash_buckets = 256;
    s.engine.index.hash_locks = 8;
    return s;
}

} // namespace

class TestHashView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneRowPerBucketWhenTheyFit()
    {
        const HashLayout l = hashLayoutFor(eightBuckets());
        const HashLayout::Scene s = l.build();
        QCOMPARE(s.bucketsPerCell, std::uint64_t(1));
        QCOMPARE(s.scaleMax, 4u); // the longest chain is 3; the scale starts at 4
        QCOMPARE(int(s.cells.size()), 8);
        const std::uint32_t len[] = { 0, 1, 2, 0, 3, 0, 0, 1 };
        for (int b = 0; b < 8; ++b) {
            const HashLayout::Cell& c = s.cells[std::size_t(b)];
            QCOMPARE(c.first, std::uint64_t(b));
            QCOMPARE(c.end, std::uint64_t(b + 1));
            QCOMPARE(c.longest, len[b]);
            QCOMPARE(c.rect.height(), HashLayout::kMaxBucketRowPx);
            QCOMPARE(c.rect.top(), s.column.top() + b * HashLayout::kMaxBucketRowPx);
            QCOMPARE(c.fill, len[b] ? heatFor(len[b], 4) : QApplication::palette().color(QPalette::Base));
        }
        // A single-bucket row is labelled "bucket: chain length".
        QVERIFY(test::hasLabel(s, QStringLiteral("4: 3")));
        QCOMPARE(s.column.height(), 8 * HashLayout::kMaxBucketRowPx);
    }

    void hashedLocksAreBandsOverTheirBuckets()
    {
        const HashLayout::Scene s = hashLayoutFor(eightBuckets()).build();
        QCOMPARE(int(s.bands.size()), 2);
        QCOMPARE(s.bands[0].first, std::uint64_t(0));
        QCOMPARE(s.bands[0].end, std::uint64_t(4));
        QCOMPARE(s.bands[0].fill, colors::lockHeld());
        QCOMPARE(s.bands[0].rect.top(), s.cells[0].rect.top());
        QCOMPARE(s.bands[0].rect.bottom(), s.cells[3].rect.bottom());
        QCOMPARE(s.bands[1].first, std::uint64_t(4));
        QCOMPARE(s.bands[1].fill, colors::lockWanted()); // held and wanted
        QCOMPARE(s.bands[1].state.waiters, 2u);
        // Both held: each outlined across the column in its colour.
        int green = 0, yellow = 0;
        for (const auto& o : s.outlines) {
            green += o.color == colors::lockHeld();
            yellow += o.color == colors::lockWanted();
        }
        QCOMPARE(green, 1);
        QCOMPARE(yellow, 1);
        QVERIFY(test::hasLabel(s, QStringLiteral("×2")));
        QVERIFY(!test::hasLabel(s, QStringLiteral("×0")));
    }

    void freeLocksAlternateSoTheirBoundariesShow()
    {
        IndexSnapshot snap = eightBuckets();
        snap.locks = { { "hash_lock[0]", {} }, { "hash_lock[1]", {} } };
        const HashLayout::Scene s = hashLayoutFor(snap).build();
        QCOMPARE(int(s.bands.size()), 2);
        QCOMPARE(s.bands[0].fill, QApplication::palette().color(QPalette::Mid));
        QCOMPARE(s.bands[1].fill, QApplication::palette().color(QPalette::Midlight));
        for (const auto& o : s.outlines) // no lock outline for free locks
            QVERIFY(o.color != colors::lockHeld() && o.color != colors::lockWanted());
    }

    void oneGlobalLockIsOneBandAroundEverything()
    {
        IndexSnapshot snap = eightBuckets();
        snap.scheme = pcl::HashScheme::Global;
        snap.buckets_per_lock = 8;
        snap.locks = { { "pagecache_lock", test::held(0, 3) } };
        const HashLayout::Scene s = hashLayoutFor(snap).build();
        QCOMPARE(int(s.bands.size()), 1);
        QCOMPARE(s.bands[0].rect, s.strip);
        QCOMPARE(s.bands[0].fill, colors::lockWanted());
        // One lock outline, enclosing strip and column (the others are the
        // histogram's expectation marks).
        std::vector<HashLayout::Outline> around;
        for (const auto& o : s.outlines)
            if (o.rect.contains(s.column))
                around.push_back(o);
        QCOMPARE(int(around.size()), 1);
        QVERIFY(around[0].rect.contains(s.strip));
        QCOMPARE(around[0].color, colors::lockWanted());
        QCOMPARE(around[0].width, 3.0);
        QVERIFY(test::hasLabel(s, QStringLiteral("×3")));
    }

    void aLockPerBucketShowsTheHeldOnesAtTheirRows()
    {
        IndexSnapshot snap = eightBuckets();
        snap.scheme = pcl::HashScheme::Bucket;
        snap.buckets_per_lock = 1;
        snap.locks = { { "hash_bucket_lock[5]", test::held(2) }, { "hash_bucket_lock[2]", test::held(1, 1) } };
        const HashLayout l = hashLayoutFor(snap);
        const HashLayout::Scene s = l.build();
        QCOMPARE(int(s.bands.size()), 2);
        QCOMPARE(s.bands[0].first, std::uint64_t(5));
        QCOMPARE(s.bands[0].rect.top(), s.cells[5].rect.top());
        QCOMPARE(s.bands[0].fill, colors::lockHeld());
        QCOMPARE(s.bands[1].first, std::uint64_t(2));
        QCOMPARE(s.bands[1].fill, colors::lockWanted());
        QCOMPARE(l.lockOf(5), 0);
        QCOMPARE(l.lockOf(2), 1);
        QCOMPARE(l.lockOf(3), -1);
        QCOMPARE(HashLayout::bucketOfLockName("hash_bucket_lock[123]"), std::int64_t(123));
        QCOMPARE(HashLayout::bucketOfLockName("hash_lock[1]"), std::int64_t(-1));
    }

    void histogramBarsAndTheUniformExpectation()
    {
        const HashLayout::Scene s = hashLayoutFor(eightBuckets()).build();
        // Lengths 0..3: 4, 2, 1, 1 buckets.
        QCOMPARE(int(s.bars.size()), 4);
        const std::uint64_t counts[] = { 4, 2, 1, 1 };
        for (int k = 0; k < 4; ++k) {
            QCOMPARE(s.bars[std::size_t(k)].length, std::uint32_t(k));
            QCOMPARE(s.bars[std::size_t(k)].buckets, counts[k]);
            QCOMPARE(s.bars[std::size_t(k)].rect.bottom(), s.histogram.bottom());
        }
        // The tallest bar spans the plot; the others are in proportion.
        QCOMPARE(s.bars[0].rect.height(), s.histogram.height());
        QCOMPARE(s.bars[1].rect.height(), s.histogram.height() / 2);
        // chi-square of {0,1,2,0,3,0,0,1}: n = 7, m = 8, expected 7/8 per
        // bucket; sum of squared deviations 8.875, over 0.875 = 10.14.
        QVERIFY(test::hasLabel(s, QStringLiteral("χ² = 10 over 7 degrees of freedom")));
        QVERIFY(test::hasLabel(s, QStringLiteral("= 1.45 per degree of freedom: uniform")));
        QVERIFY(hasLabelContaining(s, QStringLiteral("n/m = 0.88 · longest 3 · 50% empty")));
        QVERIFY(hasLabelContaining(s, QStringLiteral("≈ 1 per degree: spread uniformly")));
        // 1.45 over 7 degrees is chance; over 16,383 it is not.
        QCOMPARE(HashLayout::chiSquareVerdict(1.45, 7), QStringLiteral("uniform"));
        QCOMPARE(HashLayout::chiSquareVerdict(1.45, 16383), QStringLiteral("slightly clustered"));
        QCOMPARE(HashLayout::chiSquareVerdict(1.02, 1000000), QStringLiteral("uniform"));
        QCOMPARE(HashLayout::chiSquareVerdict(2.56, 16383), QStringLiteral("clustered"));
        QCOMPARE(HashLayout::chiSquareVerdict(50, 100), QStringLiteral("badly clustered"));
        // A file read in order through linux24 fills consecutive buckets: too even for chance.
        QCOMPARE(HashLayout::chiSquareVerdict(0.05, 1048575), QStringLiteral("more even than random"));
    }

    void nothingIsCutBesideALessonAt1280Pixels()
    {
        // 2.4's table as the 2002 lesson shows it, in the room the hash view
        // has beside the lesson and the charts in a 1280 x 720 window: the
        // title, the legend and the chi-square lines wrap, none runs past
        // the view's right edge or under the Fit button.
        IndexSnapshot snap;
        snap.kind = pcl::IndexKind::Hash;
        snap.scheme = pcl::HashScheme::Global;
        snap.chain_lengths.assign(16384, 0);
        for (std::uint64_t i = 0; i < 961; ++i)
            snap.chain_lengths[(i * 2654435761u) % 16384] += 1;
        snap.count = 961;
        snap.chain_histogram = pcl::chain_histogram(snap.chain_lengths);
        snap.chi_square = pcl::chi_square(snap.chain_lengths);
        snap.locks = { { "pagecache_lock", test::held(1, 2) } };
        const QSizeF size(674, 420);
        HashLayout l = hashLayoutFor(snap, size);
        l.setFiles(4);
        const HashLayout::Scene s = l.build();
        QFont boldFont = QApplication::font();
        boldFont.setBold(true);
        QString title;
        for (const auto& label : s.labels) {
            const QFontMetricsF fm(label.bold ? boldFont : QApplication::font());
            // A wrapped label stays in its rectangle; a one-line one is as wide as its text.
            const double right = (label.flags & (Qt::AlignRight | Qt::TextWordWrap))
                ? label.rect.right()
                : label.rect.left() + fm.horizontalAdvance(label.text);
            QVERIFY2(
                right <= size.width() - 4, qPrintable(QStringLiteral("\"%1\" ends at %2").arg(label.text).arg(right)));
            QVERIFY2(!label.text.contains(QChar(0x2026)), qPrintable(label.text)); // nothing elided
            if (label.rect.top() < s.column.top() - 10 && label.bold)
                title += (title.isEmpty() ? QString() : QStringLiteral(" ")) + label.text;
        }
        QCOMPARE(title,
            QStringLiteral("Page hash table: 16,384 buckets, 961 pages from 4 files · one lock for the table "
                           "(pagecache_lock)"));
        QVERIFY(hasLabelContaining(s, QStringLiteral("χ² = ")));
        QVERIFY(hasLabelContaining(s, QStringLiteral("per degree of freedom")));
        QVERIFY(hasLabelContaining(s, QStringLiteral("held and wanted (×N waiting)")));
        for (const auto& w : s.swatches)
            QVERIFY(w.rect.right() <= size.width());
        QVERIFY(s.histogram.height() >= 40);
    }

    void manyBucketsAggregateByTheLongestChain()
    {
        IndexSnapshot snap;
        snap.kind = pcl::IndexKind::Hash;
        snap.scheme = pcl::HashScheme::Hashed;
        const std::size_t m = 1 << 16;
        snap.chain_lengths.resize(m);
        for (std::size_t b = 0; b < m; ++b)
            snap.chain_lengths[b] = std::uint32_t((b * 2654435761u >> 7) % 5);
        snap.chain_lengths[40000] = 19; // one long chain among many
        snap.chain_histogram = pcl::chain_histogram(snap.chain_lengths);
        snap.buckets_per_lock = std::uint32_t(m / 64);
        snap.locks.resize(64);
        snap.locks[10].state = test::held(4);
        const HashLayout::Scene s = hashLayoutFor(snap).build();
        QVERIFY(s.bucketsPerCell > 1);
        const double rows = std::floor(s.column.height() + 1e-9);
        QCOMPARE(s.bucketsPerCell, std::uint64_t(std::ceil(double(m) / rows)));
        QCOMPARE(s.cells.size(), std::size_t((m + s.bucketsPerCell - 1) / s.bucketsPerCell));
        for (const auto& c : s.cells) {
            std::uint32_t longest = 0;
            for (std::uint64_t b = c.first; b < c.end; ++b)
                longest = std::max(longest, snap.chain_lengths[b]);
            QCOMPARE(c.longest, longest);
        }
        const HashLayout::Cell* hot = nullptr;
        for (const auto& c : s.cells)
            if (c.first <= 40000 && 40000 < c.end)
                hot = &c;
        QVERIFY(hot);
        QCOMPARE(hot->longest, 19u);
        QCOMPARE(hot->longestBucket, std::uint64_t(40000));
        QCOMPARE(hot->fill, heatFor(19, 19));
        // 64 locks over ~500 rows: a band each; lock 10 green.
        QCOMPARE(int(s.bands.size()), 64);
        QCOMPARE(s.bands[10].fill, colors::lockHeld());
        QCOMPARE(s.bands[10].first, std::uint64_t(10 * 1024));
        // 20 lengths: one bar each.
        QCOMPARE(int(s.bars.size()), 20);
    }

    void theAggregationSwitchPoint()
    {
        // The column's full height, from an aggregated layout (its rows fill it).
        IndexSnapshot big;
        big.scheme = pcl::HashScheme::Global;
        big.chain_lengths.assign(4096, 1);
        big.chain_histogram = pcl::chain_histogram(big.chain_lengths);
        big.locks = { { "pagecache_lock", {} } };
        const HashLayout::Scene agg = hashLayoutFor(big).build();
        QVERIFY(agg.bucketsPerCell > 1);
        const double colH = agg.column.height();
        // Up to colH / 14 buckets: labelled rows of at least 14 px.
        const std::size_t labelled = std::size_t(std::floor(colH / HashLayout::kMinBucketRowPx));
        IndexSnapshot at = big;
        at.chain_lengths.assign(labelled, 1);
        HashLayout::Scene s = hashLayoutFor(at).build();
        QCOMPARE(s.bucketsPerCell, std::uint64_t(1));
        QVERIFY(s.cells[0].rect.height() >= HashLayout::kMinBucketRowPx);
        QVERIFY(test::hasLabel(s, QStringLiteral("0: 1")));
        // One more: still a row per bucket, too thin to label.
        at.chain_lengths.assign(labelled + 1, 1);
        s = hashLayoutFor(at).build();
        QCOMPARE(s.bucketsPerCell, std::uint64_t(1));
        QVERIFY(s.cells[0].rect.height() < HashLayout::kMinBucketRowPx);
        QVERIFY(!test::hasLabel(s, QStringLiteral("0: 1")));
        // One bucket per pixel row at most; beyond, two buckets share a row.
        const std::size_t pixelRows = std::size_t(std::floor(colH + 1e-9));
        at.chain_lengths.assign(pixelRows, 1);
        QCOMPARE(hashLayoutFor(at).build().bucketsPerCell, std::uint64_t(1));
        at.chain_lengths.assign(pixelRows + 1, 1);
        QCOMPARE(hashLayoutFor(at).build().bucketsPerCell, std::uint64_t(2));
    }

    void zoomAndPanShowARangeOfBuckets()
    {
        IndexSnapshot snap = eightBuckets();
        snap.chain_lengths.assign(1000, 1);
        snap.chain_lengths[500] = 4;
        snap.chain_histogram = pcl::chain_histogram(snap.chain_lengths);
        snap.buckets_per_lock = 125;
        snap.locks.resize(8);
        HashLayout l = hashLayoutFor(snap);
        l.setView(495, 10);
        HashLayout::Scene s = l.build();
        QCOMPARE(s.bucketsPerCell, std::uint64_t(1));
        QCOMPARE(int(s.cells.size()), 10);
        QCOMPARE(s.cells.front().first, std::uint64_t(495));
        QCOMPARE(s.cells[5].longest, 4u);
        // Bands cover only what is in view: lock 3 (375..499) and lock 4 (500..624).
        QCOMPARE(int(s.bands.size()), 2);
        QCOMPARE(s.bands[0].first, std::uint64_t(495));
        QCOMPARE(s.bands[0].end, std::uint64_t(500));
        QCOMPARE(s.bands[1].first, std::uint64_t(500));
        // Clamped: not before 0, not fewer than kMinViewBuckets, not past the end.
        l.setView(-50, 2);
        QCOMPARE(l.viewFirst(), 0.0);
        QCOMPARE(l.viewCount(), double(HashLayout::kMinViewBuckets));
        l.setView(990, 100);
        QCOMPARE(l.viewFirst(), 900.0);
        l.fit();
        QCOMPARE(l.viewCount(), 1000.0);
    }

    void aRealTableItsChainsAndTheirPages()
    {
        pcl::sync::LockRegistry registry;
        HashConfig config;
        config.scheme = HashScheme::Hashed;
        config.buckets = 64;
        config.locks = 4;
        auto table = HashIndex::create(config, registry);
        auto f0 = table->mapping(0);
        auto f1 = table->mapping(1);
        pcl::Page page;
        for (pcl::pgoff_t i = 0; i < 200; ++i)
            QVERIFY(f0->insert(i, &page) == pcl::InsertResult::Inserted);
        for (pcl::pgoff_t i = 0; i < 50; ++i)
            QVERIFY(f1->insert(i * 7, &page) == pcl::InsertResult::Inserted);
        f0->set_tag(3, pcl::kTagDirty);
        HashLayout l = hashLayoutFor(f1->snapshot());
        l.setTablePages(table->count());
        l.setFiles(2);
        const HashLayout::Scene s = l.build();
        QCOMPARE(int(s.cells.size()), 64);
        std::uint64_t total = 0;
        for (const auto& c : s.cells) {
            QCOMPARE(c.longest, table->chain_length(c.first));
            total += c.longest;
        }
        QCOMPARE(total, std::uint64_t(250));
        std::uint64_t histBuckets = 0;
        for (const auto& b : s.bars)
            histBuckets += b.buckets;
        QCOMPARE(histBuckets, std::uint64_t(64));
        QCOMPARE(int(s.bands.size()), 4);
        QVERIFY(
            hasLabelContaining(s, QStringLiteral("64 buckets, 250 pages from 2 files · 4 hashed locks × 16 buckets")));

        // Expanding a bucket lists exactly its chain, newest first.
        const std::uint64_t b = table->bucket_of(0, 3);
        const std::vector<HashChainEntry> chain = table->chain_entries(b);
        QCOMPARE(chain.size(), std::size_t(table->chain_length(b)));
        bool found = false;
        for (const HashChainEntry& e : chain) {
            QCOMPARE(table->bucket_of(e.file, e.index), b);
            if (e.file == 0 && e.index == 3) {
                found = true;
                QCOMPARE(e.tags, std::uint8_t(1u << pcl::kTagDirty));
            }
        }
        QVERIFY(found);
        QVERIFY_EXCEPTION_THROWN(table->chain_entries(64), std::invalid_argument);
        QCOMPARE(table->chain_entries(b, 1).size(), std::size_t(1));
        l.setSelected(b, chain);
        const HashLayout::Scene sel = l.build();
        QCOMPARE(sel.chainBoxes.size(), chain.size());
        for (std::size_t i = 0; i < chain.size(); ++i)
            QVERIFY(sel.chainBoxes[i].text.startsWith(
                QStringLiteral("file %1 · page %2").arg(chain[i].file).arg(chain[i].index)));
        QVERIFY(test::hasLabel(sel, QStringLiteral("Bucket %1: %2 pages").arg(b).arg(chain.size())));
        // The selected row is outlined in the highlight colour.
        bool outlined = false;
        for (const auto& o : sel.outlines)
            outlined
                |= o.color == QApplication::palette().color(QPalette::Highlight) && o.rect.contains(sel.cells[b].rect);
        QVERIFY(outlined);
    }

    void aLessonsBucketIsOutlinedAndBroughtIntoView()
    {
        Simulation sim;
        HashView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(16384);
        const std::uint64_t b = view.hashLayout().buckets() / 2 + 5;
        view.selectBucket(b);
        QCOMPARE(view.selectedBucket(), std::optional<std::uint64_t>(b));
        // Fitted, the bucket shares a row a pixel or two tall; its outline
        // is still 8 px tall, 3 px wide, in the highlight colour.
        const HashLayout::Scene s = view.scene();
        QVERIFY(s.bucketsPerCell > 1);
        const QColor highlight = view.palette().color(QPalette::Highlight);
        const auto outline
            = std::find_if(s.outlines.begin(), s.outlines.end(), [&](const auto& o) { return o.color == highlight; });
        QVERIFY(outline != s.outlines.end());
        QVERIFY(outline->rect.height() >= 8);
        QVERIFY(outline->rect.contains(*HashLayout::rowOf(s, b)));
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        QCOMPARE(QColor(image.pixel(QPointF(outline->rect.left(), outline->rect.center().y()).toPoint())), highlight);
        QCOMPARE(QColor(image.pixel(QPointF(outline->rect.right(), outline->rect.center().y()).toPoint())), highlight);
        QVERIFY(image.save(test::screenshotDir() + QStringLiteral("/hash-bucket-outlined.png")));
        // Zoomed in elsewhere, a bucket is brought into view at that zoom.
        view.setView(0, 32);
        view.selectBucket(b);
        QCOMPARE(view.hashLayout().viewCount(), 32.0);
        QVERIFY(HashLayout::rowOf(view.scene(), b).has_value());
        view.selectBucket(std::nullopt);
        QVERIFY(!view.selectedBucket());
    }

    void clickExpandsFlashesFadeAndTooltipsDescribe()
    {
        Simulation sim;
        HashView view(sim);
        view.resize(900, 600);
        view.benchmarkLoad(300);
        const HashLayout::Scene& s = view.scene();
        QVERIFY(!s.cells.empty());
        const HashLayout::Cell cell = s.cells[7];
        QTest::mouseClick(&view, Qt::LeftButton, {}, cell.rect.center().toPoint());
        QVERIFY(view.hashLayout().selected().has_value());
        QCOMPARE(*view.hashLayout().selected(), cell.longestBucket);
        QCOMPARE(view.scene().chainBoxes.size(), std::size_t(cell.longest));

        view.flashBucket(cell.first);
        const auto flashes = view.flashes();
        QCOMPARE(int(flashes.size()), 1);
        QCOMPARE(flashes[0].first, cell.first);
        QVERIFY(flashes[0].second > 0.5);
        QTRY_VERIFY_WITH_TIMEOUT(view.flashes().empty(), 2000); // faded after kFlashMs

        const QString tip = view.toolTipAt(cell.rect.center().toPoint());
        QVERIFY2(tip.contains(QStringLiteral("hash_lock[")), qPrintable(tip));
        const QString bandTip = view.toolTipAt(view.scene().bands[0].rect.center().toPoint());
        QVERIFY2(bandTip.startsWith(QStringLiteral("hash_lock[0]: free")), qPrintable(bandTip));
        QVERIFY(view.toolTipAt(QPoint(2, 590)).isEmpty());
        // Double-click: back to every bucket.
        QTest::mouseDClick(&view, Qt::LeftButton, {}, cell.rect.center().toPoint());
        QCOMPARE(view.hashLayout().viewFirst(), 0.0);
    }

    void benchmarkFrameTimes()
    {
        Simulation sim;
        HashView view(sim);
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        test::atEachBenchmarkSize(view, [&](std::uint64_t pages) {
            QCOMPARE(view.hashLayout().snapshot().chain_histogram.empty(), false);
            std::uint64_t n = 0;
            for (std::uint32_t len : view.hashLayout().snapshot().chain_lengths)
                n += len;
            QCOMPARE(n, pages);
            QVERIFY(test::reportFrames(view, image, "hash", pages));
        });
    }

    void liveRunShowsTheEnginesTableAndFlashesInserts()
    {
        Simulation sim;
        HashView view(sim);
        test::showAtScreenshotSize(view);
        sim.setScenario(hashRun(150, 600));
        sim.play();
        QTRY_VERIFY_WITH_TIMEOUT(!view.flashes().empty(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(sim.state(), Simulation::State::Finished, 30000);
        view.refresh();
        pcl::Engine& engine = *sim.engine();
        std::uint64_t pages = 0;
        for (pcl::FileId f : engine.files())
            pages += engine.page_cache().file(f).nrpages();
        const IndexSnapshot& snap = view.hashLayout().snapshot();
        QCOMPARE(snap.chain_lengths.size(), std::size_t(256));
        QCOMPARE(std::accumulate(snap.chain_lengths.begin(), snap.chain_lengths.end(), std::uint64_t(0)), pages);
        QCOMPARE(int(view.scene().cells.size()), 256 / int(view.scene().bucketsPerCell));
        QCOMPARE(int(view.scene().bands.size()), 8);
        QVERIFY(hasLabelContaining(view.scene(), QStringLiteral("256 buckets, %1 pages from 2 files").arg(pages)));
        sim.reset();
        QCOMPARE(view.hashLayout().snapshot().chain_lengths.size(), std::size_t(256)); // fresh table, empty
        QCOMPARE(view.hashLayout().snapshot().count, std::uint64_t(0));
    }

    void screenshotOfARealRun()
    {
        Simulation sim;
        HashView view(sim);
        test::showForScreenshot(view);
        // The 2002 thread's four CPUs on four files, with Molnar's 64 hashed locks
        // instead of one: filled at full speed, then slowed to demo speed
        // with stretched critical sections, so that inserts flash one by one
        // and locks are caught held.
        pcl::Scenario sc = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
        sc.engine.index.scheme = "hashed";
        sc.engine.index.hash_locks = 64;
        sim.setScenario(sc);
        sim.play();
        auto cached = [&] {
            std::uint64_t n = 0;
            for (pcl::FileId f : sim.engine()->files())
                n += sim.engine()->page_cache().file(f).nrpages();
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(cached() >= 12000, 20000);
        sim.setPacing(100, 4000000);
        QTest::qWait(1200);
        view.refresh();
        // Expand the longest chain in view.
        const HashLayout::Cell* longest = nullptr;
        for (const auto& c : view.scene().cells)
            if (!longest || c.longest > longest->longest)
                longest = &c;
        QVERIFY(longest && longest->longest > 0);
        const std::uint64_t expanded = longest->longestBucket; // the scene is rebuilt below
        view.selectBucket(expanded);
        const HashLayout::Scene s = view.scene();
        const auto flashing = view.flashes(); // those the render draws, or more
        QImage image(900, 600, QImage::Format_ARGB32_Premultiplied);
        view.render(&image);
        const QString dir = test::screenshotDir();
        QVERIFY(image.save(dir + QStringLiteral("/hash.png")));
        QVERIFY(test::distinctColours(image) > 30);
        // A cell with pages is drawn in its heat colour where the model put
        // it: the middle of three rows of one colour, away from flashes and
        // from the edges of lock outlines.
        // Rows are about a pixel tall and a flash at least 2 px: neither
        // neighbour may flash either.
        auto clear = [&](const HashLayout::Cell& before, const HashLayout::Cell& c, const HashLayout::Cell& after) {
            for (const auto& f : flashing)
                if (f.first >= before.first && f.first < after.end)
                    return false;
            for (const auto& o : s.outlines)
                if (std::abs(o.rect.top() - c.rect.center().y()) < 4
                    || std::abs(o.rect.bottom() - c.rect.center().y()) < 4)
                    return false;
            return true;
        };
        int checked = 0;
        for (std::size_t i = 1; i + 1 < s.cells.size() && checked < 5; ++i) {
            const auto& c = s.cells[i];
            if (c.longest == 0 || c.fill != s.cells[i - 1].fill || c.fill != s.cells[i + 1].fill
                || !clear(s.cells[i - 1], c, s.cells[i + 1]))
                continue;
            const QPoint at(int(c.rect.center().x()), int(c.rect.center().y()));
            QCOMPARE(QColor(image.pixel(at)).rgb(), c.fill.rgb());
            ++checked;
        }
        QVERIFY(checked > 0);
        // The histogram's tallest bar of non-empty chains is filled in its heat colour.
        const auto& bar = *std::max_element(
            s.bars.begin() + 1, s.bars.end(), [](const auto& a, const auto& b) { return a.buckets < b.buckets; });
        QVERIFY(bar.rect.height() > 4);
        QCOMPARE(QColor(image.pixel(bar.rect.center().toPoint())).rgb(), bar.fill.rgb());
        QVERIFY(view.lastPaintMs() > 0);
        // Zoomed in around the expanded bucket: a labelled row per bucket.
        view.setView(double(expanded) - 12, 32);
        QCOMPARE(view.scene().bucketsPerCell, std::uint64_t(1));
        QCOMPARE(int(view.scene().cells.size()), 32);
        view.render(&image);
        QVERIFY(image.save(dir + QStringLiteral("/hash-zoomed.png")));
        sim.reset();
    }
};

PCL_UI_TEST(TestHashView)
#include "test_hashview.moc"
