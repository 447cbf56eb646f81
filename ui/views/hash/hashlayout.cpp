// The hash view's geometry: bucket column, lock strip, expanded chain,
// chain-length histogram with the uniform expectation, chi-square, legend.
#include "views/hash/hashlayout.h"

#include "kit/colors.h"
#include "kit/lockstate.h"
#include "kit/numberformat.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

/// Widest histogram: longer chains are grouped into bins of several lengths.
constexpr std::size_t kMaxHistogramBars = 48;
/// Chain entries listed when a bucket is expanded.
constexpr std::size_t kMaxChainBoxes = 40;

/// How contended a lock state is: free < held < held with waiters.
int contention(const sync::LockState& s)
{
    return s.waiters > 0 ? 2 : s.held ? 1 : 0;
}

/// Where the parts of the view sit, worked out once per build(); the steps
/// after it read the parts they need from the Scene.
struct Geometry {
    QRectF header;
    QRectF axis;             ///< bucket numbers, left of the strip
    QRectF strip;            ///< lock bands
    QRectF column;           ///< bucket cells (its height shrinks to whole rows)
    QRectF chain;            ///< expanded chain
    QRectF histTitle;        ///< the histogram's heading
    QRectF histogram;        ///< its plot area
    QRectF histText;         ///< lines under it: axis, chi-square, statistics
    std::uint64_t first = 0; ///< first bucket in view
    std::uint64_t count = 0; ///< buckets in view
    std::uint64_t perCell = 1;
    double rowHeight = 0;
    double lineHeight = 0;
};

/// @text broken at its spaces into lines no wider than @width as @fm writes
/// them (a word wider than that stands alone on its line).
QStringList wrapped(const QString& text, const QFontMetricsF& fm, double width)
{
    QStringList lines;
    QString line;
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString& word : words) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

} // namespace

void HashLayout::setSnapshot(IndexSnapshot snapshot)
{
    snap_ = std::move(snapshot);
    longest_ = snap_.chain_histogram.empty() ? 0 : std::uint32_t(snap_.chain_histogram.size() - 1);
    if (selected_ && *selected_ >= buckets())
        setSelected(std::nullopt);
    setView(first_, count_);
}

void HashLayout::setView(double first, double count)
{
    clampView(first, count, double(buckets()), double(kMinViewBuckets), true);
}

void HashLayout::setSelected(std::optional<std::uint64_t> bucket, std::vector<HashChainEntry> chain)
{
    selected_ = bucket;
    chain_ = bucket ? std::move(chain) : std::vector<HashChainEntry> {};
}

QString HashLayout::chiSquareVerdict(double perDegree, std::uint64_t degrees)
{
    // Under a uniform spread chi-square has mean dof and standard deviation
    // sqrt(2 dof): within three of those it is chance, whatever the ratio.
    const double z = (perDegree - 1.0) * std::sqrt(double(std::max<std::uint64_t>(degrees, 1)) / 2.0);
    if (z < -3) // sequential keys through a hash that keeps them apart
        return QStringLiteral("more even than random");
    if (z < 3 || perDegree < 1.05)
        return QStringLiteral("uniform");
    if (perDegree < 1.5)
        return QStringLiteral("slightly clustered");
    if (perDegree < 4)
        return QStringLiteral("clustered");
    return QStringLiteral("badly clustered");
}

std::int64_t HashLayout::bucketOfLockName(const std::string& name)
{
    static const std::string prefix = "hash_bucket_lock[";
    if (name.rfind(prefix, 0) != 0 || name.back() != ']')
        return -1;
    try {
        return std::stoll(name.substr(prefix.size(), name.size() - prefix.size() - 1));
    } catch (...) {
        return -1;
    }
}

int HashLayout::lockOf(std::uint64_t bucket) const
{
    if (snap_.scheme == HashScheme::Bucket) {
        for (std::size_t k = 0; k < snap_.locks.size(); ++k)
            if (bucketOfLockName(snap_.locks[k].name) == std::int64_t(bucket))
                return int(k);
        return -1;
    }
    if (snap_.buckets_per_lock == 0)
        return -1;
    const std::uint64_t k = bucket / snap_.buckets_per_lock;
    return k < snap_.locks.size() ? int(k) : -1;
}

HashLayout::Scene HashLayout::build() const
{
    Scene s;
    const QFontMetricsF fm(font_);
    Geometry g;
    g.lineHeight = fm.height();
    const double w = size_.width();
    const double h = size_.height();
    const double margin = 10;

    // The header: the title, wrapped rather than cut where the view is
    // narrow (beside a lesson at 1280 pixels), and the legend's entries in
    // as many rows as they need.
    const std::uint64_t m = buckets();
    const std::uint64_t pages = tablePages();
    QString scheme;
    if (snap_.scheme == HashScheme::Global)
        scheme = QStringLiteral("one lock for the table (pagecache_lock)");
    else if (snap_.scheme == HashScheme::Hashed)
        scheme = QStringLiteral("%1 hashed locks × %2 buckets")
                     .arg(groupedNumber(snap_.locks.size()), groupedNumber(snap_.buckets_per_lock));
    else if (snap_.scheme == HashScheme::Bucket)
        scheme = QStringLiteral("a lock per bucket");
    QFont boldFont = font_;
    boldFont.setBold(true);
    const QString title = QStringLiteral("Page hash table: %1 buckets, %2 pages from %3 file%4 · %5")
                              .arg(groupedNumber(m), groupedNumber(pages), QString::number(files_),
                                  files_ == 1 ? QString() : QStringLiteral("s"), scheme);
    // Clear of the Fit button in the top right corner.
    const QStringList titleLines = wrapped(title, QFontMetricsF(boldFont), w - 2 * margin - 60);
    s.scaleMax = std::max<std::uint32_t>(longest_, 4);
    auto heatOf = [&](std::uint32_t len) {
        if (len == 0)
            return palette_.color(QPalette::Base);
        return colors::heat(0.2 + 0.8 * std::min(1.0, double(len) / double(s.scaleMax)), palette_);
    };
    std::vector<std::pair<QColor, QString>> legend;
    legend.emplace_back(heatOf(0), QStringLiteral("empty"));
    const std::uint32_t mid = std::max<std::uint32_t>(1, s.scaleMax / 2);
    legend.emplace_back(heatOf(1), QStringLiteral("1"));
    if (mid > 1)
        legend.emplace_back(heatOf(mid), QString::number(mid));
    legend.emplace_back(heatOf(s.scaleMax), QStringLiteral("%1+ pages in the chain").arg(s.scaleMax));
    legend.emplace_back(colors::lockHeld(), QStringLiteral("lock held"));
    legend.emplace_back(colors::lockWanted(), QStringLiteral("held and wanted (×N waiting)"));
    legend.emplace_back(palette_.color(QPalette::Highlight), QStringLiteral("insert / erase (flash)"));
    const double sw = g.lineHeight * 0.8;
    // Each entry's place: its row and its x.
    std::vector<std::pair<int, double>> places;
    {
        int row = 0;
        double x = margin;
        for (const auto& entry : legend) {
            const double entryW = sw + 4 + fm.horizontalAdvance(entry.second) + 2;
            if (x > margin && x + entryW > w - margin) {
                ++row;
                x = margin;
            }
            places.emplace_back(row, x);
            x += entryW + 12;
        }
    }
    const int legendRows = places.empty() ? 0 : places.back().first + 1;
    g.header
        = QRectF(margin, 6, w - 2 * margin, g.lineHeight * double(titleLines.size() + std::size_t(legendRows)) + 6);
    const double top = g.header.bottom() + 10;
    const double bottom = h - margin - g.lineHeight - 4;
    const double axisW = fm.horizontalAdvance(QStringLiteral("1,048,576")) + 6;
    g.axis = QRectF(margin, top, axisW, bottom - top);
    g.strip = QRectF(g.axis.right() + 2, top, 16, bottom - top);
    const double columnW = std::clamp(w * 0.13, 70.0, 140.0);
    g.column = QRectF(g.strip.right() + 3, top, columnW, bottom - top);
    const double chainX = g.column.right() + fm.horizontalAdvance(QStringLiteral("×99")) + 14;
    const double chainW = std::clamp(w * 0.22, 150.0, 230.0);
    g.chain = QRectF(chainX, top, chainW, bottom - top);
    const double histX = g.chain.right() + 24;
    g.histTitle = QRectF(histX, top, std::max(0.0, w - margin - histX), g.lineHeight);
    const double textLines = 7; // tick labels, caption, statistics, chi-square (2), its meaning (2)
    g.histText = QRectF(
        histX, bottom + g.lineHeight + 4 - textLines * g.lineHeight, g.histTitle.width(), textLines * g.lineHeight);
    g.histogram = QRectF(histX + fm.horizontalAdvance(groupedNumber(std::max<std::uint64_t>(buckets(), 10))) + 6,
        g.histTitle.bottom() + 2 * g.lineHeight, 0, 0);
    g.histogram.setRight(w - margin);
    g.histogram.setBottom(g.histText.top() - 4);

    // The visible buckets, in whole rows.
    g.first = std::uint64_t(first_);
    g.count = std::uint64_t(std::llround(viewCount()));
    g.count = std::min(g.count, m - std::min(m, g.first));
    const double colH = g.column.height();
    if (g.count > 0 && double(g.count) * kMinBucketRowPx <= colH) {
        g.perCell = 1;
        g.rowHeight = std::min(kMaxBucketRowPx, colH / double(g.count));
    } else if (g.count > 0) {
        g.perCell = std::uint64_t(std::ceil(double(g.count) / std::max(1.0, std::floor(colH))));
        const std::uint64_t rows = (g.count + g.perCell - 1) / g.perCell;
        g.rowHeight = colH / double(rows);
    }
    if (g.count > 0)
        g.column.setHeight(g.rowHeight * double((g.count + g.perCell - 1) / g.perCell));
    g.strip.setHeight(g.column.height());

    s.column = g.column;
    s.strip = g.strip;
    s.histogram = g.histogram;
    s.chain = g.chain;
    s.bucketsPerCell = g.perCell;

    const QColor text = palette_.color(QPalette::WindowText);
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    auto label = [&](const QRectF& r, const QString& t, int flags, const QColor& c = QColor(), bool bold = false) {
        s.labels.push_back({ r, t, flags, c.isValid() ? c : text, bold });
    };
    // ---- header: title and legend ----
    for (int i = 0; i < int(titleLines.size()); ++i)
        label(QRectF(g.header.left(), g.header.top() + i * g.lineHeight, g.header.width() - 60, g.lineHeight),
            titleLines[i], Qt::AlignLeft | Qt::AlignVCenter, text, true);
    const double legendTop = g.header.top() + double(titleLines.size()) * g.lineHeight + 4;
    for (std::size_t i = 0; i < legend.size(); ++i) {
        const auto& [colour, t] = legend[i];
        const double ly = legendTop + places[i].first * g.lineHeight;
        double lx = places[i].second;
        s.swatches.push_back({ QRectF(lx, ly + (g.lineHeight - sw) / 2, sw, sw), colour });
        lx += sw + 4;
        label(QRectF(lx, ly, fm.horizontalAdvance(t) + 2, g.lineHeight), t, Qt::AlignLeft | Qt::AlignVCenter);
    }

    buildColumn(s);
    {
        // Axis: bucket numbers at the ends and about every 90 px.
        const double rows = g.count ? double((g.count + g.perCell - 1) / g.perCell) : 0;
        const int ticks = std::max(1, int(g.column.height() / 90));
        for (int t = 0; t <= ticks && rows > 0; ++t) {
            const double y = g.column.top() + g.column.height() * t / ticks;
            const std::uint64_t b = std::min<std::uint64_t>(
                m, g.first + std::uint64_t(std::llround((y - g.column.top()) / g.rowHeight)) * g.perCell);
            const QRectF r(g.axis.left(), y - g.lineHeight / 2, g.axis.width() - 4, g.lineHeight);
            label(r, groupedNumber(b), Qt::AlignRight | Qt::AlignVCenter, dim);
        }
        QString caption = g.perCell == 1
            ? QStringLiteral("one row = one bucket")
            : QStringLiteral("one row = %1 buckets, shaded by the longest chain").arg(groupedNumber(g.perCell));
        label(QRectF(g.axis.left(), g.column.bottom() + 4, g.histogram.left() - g.axis.left(), g.lineHeight), caption,
            Qt::AlignLeft | Qt::AlignVCenter, dim);
    }
    buildLocks(s);
    buildChain(s);
    buildHistogram(s);
    return s;
}

void HashLayout::buildColumn(Scene& s) const
{
    const std::uint64_t m = buckets();
    const std::uint64_t first = std::uint64_t(first_);
    const std::uint64_t count = std::min(std::uint64_t(std::llround(viewCount())), m - std::min(m, first));
    if (count == 0)
        return;
    const std::uint64_t per = s.bucketsPerCell;
    const std::uint64_t rows = (count + per - 1) / per;
    const double rowH = s.column.height() / double(rows);
    const std::uint32_t* len = snap_.chain_lengths.data();
    s.cells.reserve(rows);
    const QFontMetricsF fm(font_);
    for (std::uint64_t r = 0; r < rows; ++r) {
        Cell c;
        c.first = first + r * per;
        c.end = std::min(first + count, c.first + per);
        c.longestBucket = c.first;
        std::uint64_t sum = 0;
        for (std::uint64_t b = c.first; b < c.end; ++b) {
            sum += len[b];
            if (len[b] > c.longest) {
                c.longest = len[b];
                c.longestBucket = b;
            }
        }
        c.mean = double(sum) / double(c.end - c.first);
        c.rect = QRectF(s.column.left(), s.column.top() + double(r) * rowH, s.column.width(), rowH);
        c.fill = c.longest == 0
            ? palette_.color(QPalette::Base)
            : colors::heat(0.2 + 0.8 * std::min(1.0, double(c.longest) / double(s.scaleMax)), palette_);
        s.cells.push_back(c);
        if (per == 1 && rowH >= kMinBucketRowPx) {
            const QColor ink = c.fill.lightnessF() > 0.55 ? QColor(Qt::black) : QColor(Qt::white);
            s.labels.push_back({ c.rect.adjusted(4, 0, -4, 0),
                QStringLiteral("%1: %2").arg(groupedNumber(c.first), QString::number(c.longest)),
                Qt::AlignLeft | Qt::AlignVCenter, ink, false });
        }
    }
    if (selected_ && *selected_ >= first && *selected_ < first + count) {
        const std::uint64_t r = (*selected_ - first) / per;
        // Wider than the column and never thinner than 8 px: a row of a
        // fitted table is a pixel tall, and the outline must show on a
        // projector.
        QRectF box = s.cells[r].rect.adjusted(-4, -2, 4, 2);
        if (box.height() < 8)
            box = QRectF(box.left(), box.center().y() - 4, box.width(), 8);
        // On a halo of the background: inserts flash their rows in the
        // highlight colour too, and a running table flashes everywhere.
        s.outlines.push_back({ box, palette_.color(QPalette::Base), 7 });
        s.outlines.push_back({ box, palette_.color(QPalette::Highlight), 3 });
    }
}

void HashLayout::buildLocks(Scene& s) const
{
    if (s.cells.empty())
        return;
    const QColor text = palette_.color(QPalette::WindowText);
    const QColor freeA = palette_.color(QPalette::Mid);
    const QColor freeB = palette_.color(QPalette::Midlight);
    const std::uint64_t first = s.cells.front().first;
    const std::uint64_t end = s.cells.back().end;
    const double rowH = s.cells.front().rect.height();
    const std::uint64_t per = s.bucketsPerCell;
    auto yOfBucket = [&](std::uint64_t b) { return s.column.top() + double(b - first) / double(per) * rowH; };
    const QFontMetricsF fm(font_);
    auto waitersLabel = [&](const Band& band) {
        if (band.state.waiters == 0)
            return;
        const double cy = band.rect.center().y();
        s.labels.push_back({ QRectF(s.column.right() + 4, cy - fm.height() / 2,
                                 fm.horizontalAdvance(QStringLiteral("×99")) + 4, fm.height()),
            QStringLiteral("×%1").arg(band.state.waiters), Qt::AlignLeft | Qt::AlignVCenter, text, true });
    };
    auto overlay = [&](const Band& band) {
        if (contention(band.state) == 0)
            return;
        // Drawn over the buckets it covers, so the held range reads across the column.
        QRectF r(s.strip.left(), band.rect.top(), s.column.right() - s.strip.left(), band.rect.height());
        s.outlines.push_back({ r.adjusted(-1, -1, 1, 1), band.fill, 2 });
        waitersLabel(band);
    };

    if (snap_.scheme == HashScheme::Global && !snap_.locks.empty()) {
        Band b;
        b.rect = s.strip;
        b.first = 0;
        b.end = buckets();
        b.state = snap_.locks[0].state;
        b.fill = lockColor(b.state, freeA);
        s.bands.push_back(b);
        // One lock around everything: the outline encloses strip and column.
        QColor around = contention(b.state) ? b.fill : text;
        s.outlines.push_back(
            { QRectF(s.strip.left(), s.column.top(), s.column.right() - s.strip.left(), s.column.height())
                    .adjusted(-3, -3, 3, 3),
                around, contention(b.state) ? 3.0 : 1.0 });
        waitersLabel(b);
        return;
    }
    if (snap_.scheme == HashScheme::Bucket) {
        for (std::size_t k = 0; k < snap_.locks.size(); ++k) {
            const std::int64_t bucket = bucketOfLockName(snap_.locks[k].name);
            if (bucket < 0 || std::uint64_t(bucket) < first || std::uint64_t(bucket) >= end)
                continue;
            const std::uint64_t r = (std::uint64_t(bucket) - first) / per;
            Band b;
            b.firstLock = k;
            b.first = std::uint64_t(bucket);
            b.end = b.first + 1;
            b.state = snap_.locks[k].state;
            b.rect = QRectF(s.strip.left(), s.cells[r].rect.top(), s.strip.width(), std::max(2.0, rowH));
            b.fill = lockColor(b.state, freeA);
            s.bands.push_back(b);
            overlay(b);
        }
        return;
    }
    // Hashed: each lock covers buckets_per_lock contiguous buckets. Locks
    // narrower than two pixels merge per pixel row, keeping the worst state.
    const std::uint64_t bpl = std::max<std::uint32_t>(1, snap_.buckets_per_lock);
    const std::uint64_t firstLock = first / bpl;
    const std::uint64_t endLock = std::min<std::uint64_t>((end + bpl - 1) / bpl, snap_.locks.size());
    for (std::uint64_t k = firstLock; k < endLock;) {
        Band b;
        b.firstLock = k;
        b.first = std::max(first, k * bpl);
        b.end = std::min(end, (k + 1) * bpl);
        b.state = snap_.locks[k].state;
        double y0 = yOfBucket(b.first);
        double y1 = yOfBucket(b.end);
        std::uint64_t next = k + 1;
        if (y1 - y0 < 2) {
            const double rowEnd = std::floor(y0) + 2;
            while (next < endLock && yOfBucket(std::min(end, (next + 1) * bpl)) <= rowEnd) {
                if (contention(snap_.locks[next].state) > contention(b.state))
                    b.state = snap_.locks[next].state;
                ++next;
            }
            b.end = std::min(end, next * bpl);
            y1 = yOfBucket(b.end);
        }
        b.locks = next - k;
        b.rect = QRectF(s.strip.left(), y0, s.strip.width(), y1 - y0);
        b.fill = lockColor(b.state, (k % 2 == 0 || b.locks > 1) ? freeA : freeB);
        s.bands.push_back(b);
        overlay(b);
        k = next;
    }
}

void HashLayout::buildChain(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const QColor text = palette_.color(QPalette::WindowText);
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    const double lh = fm.height();
    QRectF r = s.chain;
    if (!selected_) {
        std::uint64_t longestBucket = 0;
        std::uint32_t longest = 0;
        for (std::uint64_t b = 0; b < buckets(); ++b)
            if (snap_.chain_lengths[b] > longest) {
                longest = snap_.chain_lengths[b];
                longestBucket = b;
            }
        QString hint = QStringLiteral("Click a bucket to list the pages on its chain.");
        if (longest > 0)
            hint += QStringLiteral("\n\nLongest chain: bucket %1, %2 page%3.")
                        .arg(groupedNumber(longestBucket), QString::number(longest),
                            longest == 1 ? QString() : QStringLiteral("s"));
        s.labels.push_back({ QRectF(r.left(), r.top(), r.width(), lh * 5), hint,
            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, dim, false });
        return;
    }
    const std::uint32_t length = *selected_ < buckets() ? snap_.chain_lengths[*selected_] : 0;
    s.labels.push_back({ QRectF(r.left(), r.top(), r.width(), lh),
        QStringLiteral("Bucket %1: %2 page%3")
            .arg(groupedNumber(*selected_), QString::number(length), length == 1 ? QString() : QStringLiteral("s")),
        Qt::AlignLeft | Qt::AlignVCenter, text, true });
    const double boxH = lh + 4;
    double y = r.top() + lh + 6;
    const std::size_t fits = std::size_t(std::max(0.0, (r.bottom() - y - lh) / (boxH + 3)));
    const std::size_t shown = std::min({ chain_.size(), fits, kMaxChainBoxes });
    for (std::size_t i = 0; i < shown; ++i) {
        const HashChainEntry& e = chain_[i];
        QString t = QStringLiteral("file %1 · page %2").arg(e.file).arg(groupedNumber(e.index));
        if (e.tags & (1u << kTagDirty))
            t += QStringLiteral(" · dirty");
        if (e.tags & (1u << kTagWriteback))
            t += QStringLiteral(" · writeback");
        s.chainBoxes.push_back({ QRectF(r.left() + 10, y, r.width() - 10, boxH), e, t });
        y += boxH + 3;
    }
    if (chain_.size() > shown)
        s.labels.push_back({ QRectF(r.left() + 10, y, r.width() - 10, lh),
            QStringLiteral("… %1 more").arg(groupedNumber(chain_.size() - shown)), Qt::AlignLeft | Qt::AlignVCenter,
            dim, false });
    else if (chain_.empty())
        s.labels.push_back({ QRectF(r.left() + 10, y, r.width() - 10, lh), QStringLiteral("(empty chain)"),
            Qt::AlignLeft | Qt::AlignVCenter, dim, false });
}

void HashLayout::buildHistogram(Scene& s) const
{
    const QFontMetricsF fm(font_);
    const QColor text = palette_.color(QPalette::WindowText);
    const QColor dim = palette_.color(QPalette::PlaceholderText);
    const double lh = fm.height();
    // Wide enough for the largest count, the bucket count.
    const double axisW = fm.horizontalAdvance(groupedNumber(std::max<std::uint64_t>(buckets(), 10))) + 6;
    const std::vector<std::uint64_t>& hist = snap_.chain_histogram;
    std::uint64_t m = 0;
    std::uint64_t n = 0;
    for (std::size_t k = 0; k < hist.size(); ++k) {
        m += hist[k];
        n += hist[k] * k;
    }
    const double lambda = m ? double(n) / double(m) : 0;

    // Statistics and chi-square under the plot, each wrapped to the panel's
    // width rather than cut at the view's edge (beside a lesson at 1280
    // pixels the panel is narrow): the plot gives up the lines they need.
    struct Line {
        QString text;
        bool bold = false;
        bool dim = false;
    };
    std::vector<Line> lines;
    const double x0 = s.histogram.left() - axisW;
    const double tw = s.histogram.right() - x0;
    if (!hist.empty()) {
        const std::uint64_t dof = m > 1 ? m - 1 : 1;
        const double perDegree = snap_.chi_square / double(dof);
        const double emptyPct = m ? 100.0 * double(hist[0]) / double(m) : 0;
        const Line stats[] = {
            { QStringLiteral("chain length (pages per bucket)"), false, true },
            { QStringLiteral("n/m = %1 · longest %2 · %3% empty")
                    .arg(QString::number(lambda, 'f', 2), QString::number(hist.size() - 1),
                        QString::number(emptyPct, 'f', 0)) },
            { QStringLiteral("χ² = %1 over %2 degrees of freedom")
                    .arg(groupedNumber(std::uint64_t(std::llround(snap_.chi_square))), groupedNumber(dof)),
                true },
            { QStringLiteral("= %1 per degree of freedom: %2")
                    .arg(QString::number(perDegree, 'f', 2),
                        n ? chiSquareVerdict(perDegree, dof) : QStringLiteral("no pages yet")),
                true },
            { QStringLiteral("≈ 1 per degree: spread uniformly"), false, true },
            { QStringLiteral("≫ 1: piled on few chains, long walks"), false, true },
        };
        QFont boldFont = font_;
        boldFont.setBold(true);
        for (const Line& l : stats)
            for (const QString& part : wrapped(l.text, l.bold ? QFontMetricsF(boldFont) : fm, tw))
                lines.push_back({ part, l.bold, l.dim });
    }
    // The text block ends where the seven lines build() set aside for it end.
    const double textBottom = s.histogram.bottom() + 4 + 7 * lh;
    s.histogram.setBottom(std::min(s.histogram.bottom(), textBottom - double(lines.size() + 1) * lh - 2));
    const QRectF plot = s.histogram;
    s.labels.push_back({ QRectF(plot.left() - axisW, plot.top() - 3 * lh, plot.width() + axisW, lh),
        QStringLiteral("Chain lengths"), Qt::AlignLeft | Qt::AlignVCenter, text, true });
    s.labels.push_back({ QRectF(plot.left() - axisW, plot.top() - 2 * lh, plot.width() + axisW, lh),
        QStringLiteral("bars: buckets per length · marks: if uniform"), Qt::AlignLeft | Qt::AlignVCenter, dim, false });
    if (hist.empty() || plot.width() < 20 || plot.height() < 20)
        return;
    const std::size_t lengths = hist.size();
    const std::uint32_t binW = std::uint32_t((lengths + kMaxHistogramBars - 1) / kMaxHistogramBars);
    const std::size_t bins = (lengths + binW - 1) / binW;
    // Expected buckets per length if the hash spread n pages uniformly over
    // m buckets: Poisson(n/m), the yardstick chi-square measures against.
    std::vector<double> expected(bins, 0.0);
    std::vector<std::uint64_t> counts(bins, 0);
    double logp = -lambda; // log P(k) at k = 0
    for (std::size_t k = 0; k < lengths; ++k) {
        if (k > 0)
            logp += std::log(lambda) - std::log(double(k));
        expected[k / binW] += lambda > 0 ? double(m) * std::exp(logp) : (k == 0 ? double(m) : 0);
        counts[k / binW] += hist[k];
    }
    double top = 1;
    for (std::size_t i = 0; i < bins; ++i)
        top = std::max({ top, double(counts[i]), expected[i] });
    const double slot = plot.width() / double(bins);
    const double barW = std::max(1.0, slot * 0.75);
    const QColor expectColor = text;
    for (std::size_t i = 0; i < bins; ++i) {
        Bar b;
        b.length = std::uint32_t(i * binW);
        b.lengthEnd = std::uint32_t(std::min<std::size_t>(lengths, (i + 1) * binW));
        b.buckets = counts[i];
        const double bh = plot.height() * double(counts[i]) / top;
        b.rect = QRectF(plot.left() + i * slot + (slot - barW) / 2, plot.bottom() - bh, barW, bh);
        const std::uint32_t len = b.length;
        QColor none = text;
        none.setAlphaF(0.35); // empty buckets: neutral, visible on either theme
        b.fill = len == 0 ? none : colors::heat(0.2 + 0.8 * std::min(1.0, double(len) / double(s.scaleMax)), palette_);
        s.bars.push_back(b);
        const double ey = plot.bottom() - plot.height() * expected[i] / top;
        s.outlines.push_back({ QRectF(b.rect.left() - 1, ey - 1, barW + 2, 2), expectColor, 2 });
    }
    // Axes: y at 0, top/2, top; x every few bars.
    for (int t = 0; t <= 2; ++t) {
        const double v = top * t / 2;
        const double y = plot.bottom() - plot.height() * t / 2;
        s.labels.push_back({ QRectF(plot.left() - axisW, y - lh / 2, axisW - 6, lh),
            groupedNumber(std::uint64_t(std::llround(v))), Qt::AlignRight | Qt::AlignVCenter, dim, false });
    }
    const double labelW = fm.horizontalAdvance(QStringLiteral("99–99")) + 6;
    const std::size_t every = std::max<std::size_t>(1, std::size_t(std::ceil(labelW / slot)));
    for (std::size_t i = 0; i < bins; i += every) {
        const Bar& b = s.bars[i];
        const QString t
            = binW == 1 ? QString::number(b.length) : QStringLiteral("%1–%2").arg(b.length).arg(b.lengthEnd - 1);
        s.labels.push_back({ QRectF(b.rect.center().x() - labelW / 2, plot.bottom() + 2, labelW, lh), t,
            Qt::AlignHCenter | Qt::AlignTop, dim, false });
    }
    const double y0 = plot.bottom() + lh + 2;
    for (std::size_t i = 0; i < lines.size(); ++i)
        s.labels.push_back({ QRectF(x0, y0 + double(i) * lh, tw, lh), lines[i].text, Qt::AlignLeft | Qt::AlignVCenter,
            lines[i].dim ? dim : text, lines[i].bold });
}

std::optional<QRectF> HashLayout::rowOf(const Scene& scene, std::uint64_t bucket)
{
    if (scene.cells.empty() || bucket < scene.cells.front().first || bucket >= scene.cells.back().end)
        return std::nullopt;
    return scene.cells[(bucket - scene.cells.front().first) / scene.bucketsPerCell].rect;
}

const HashLayout::Cell* HashLayout::cellAt(const Scene& scene, const QPointF& pos)
{
    if (scene.cells.empty() || pos.x() < scene.column.left() || pos.x() > scene.column.right())
        return nullptr;
    const double rowH = scene.cells.front().rect.height();
    const double r = std::floor((pos.y() - scene.column.top()) / rowH);
    if (r < 0 || r >= double(scene.cells.size()))
        return nullptr;
    return &scene.cells[std::size_t(r)];
}

const HashLayout::Bar* HashLayout::barAt(const Scene& scene, const QPointF& pos)
{
    for (const Bar& b : scene.bars)
        if (pos.x() >= b.rect.left() && pos.x() <= b.rect.right() && pos.y() >= scene.histogram.top()
            && pos.y() <= scene.histogram.bottom())
            return &b;
    return nullptr;
}

const HashLayout::Band* HashLayout::bandAt(const Scene& scene, const QPointF& pos)
{
    for (const Band& b : scene.bands)
        if (b.rect.adjusted(0, -0.5, 0, 0.5).contains(pos))
            return &b;
    return nullptr;
}

const HashLayout::ChainBox* HashLayout::chainBoxAt(const Scene& scene, const QPointF& pos)
{
    for (const ChainBox& b : scene.chainBoxes)
        if (b.rect.contains(pos))
            return &b;
    return nullptr;
}

} // namespace pcl::ui
