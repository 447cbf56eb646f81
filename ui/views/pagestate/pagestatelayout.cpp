#include "views/pagestate/pagestatelayout.h"

#include "kit/colors.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

constexpr double kMargin = 8;
constexpr double kGutter = 84; ///< row titles left of the strip
constexpr double kTitleH = 18;
constexpr double kLegendH = 18;
constexpr double kHostRowH = 24;
constexpr double kSimRowH = 40;
constexpr double kMinStripH = 44;
constexpr double kMaxStripH = 96;
constexpr double kOccupancyH = 5;
constexpr double kAxisH = 16;
constexpr double kMinChartH = 60;
constexpr std::size_t kWindowsDrawn = 6;
constexpr std::size_t kHostWindowsDrawn = 4000;

QColor withAlpha(QColor c, double a)
{
    c.setAlphaF(float(std::clamp(a, 0.0, 1.0)));
    return c;
}

/// 1, 2, 5 x 10^k at or above @v.
double niceCeil(double v)
{
    if (v <= 1)
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * p >= v)
            return m * p;
    return 10 * p;
}

} // namespace

RaWindowMark markOf(const ReadaheadLogRow& row)
{
    return { row.time_us, row.file, row.start, row.size, row.async_size, row.async, QString::fromStdString(row.rule) };
}

QString parseReadaheadCsv(const QString& text, std::vector<RaWindowMark>& out)
{
    out.clear();
    std::vector<ReadaheadLogRow> rows;
    const std::string error = parse_readahead_log(text.toStdString(), rows);
    if (!error.empty())
        return QString::fromStdString(error);
    out.reserve(rows.size());
    for (const ReadaheadLogRow& row : rows)
        out.push_back(markOf(row));
    return {};
}

int PageStateLayout::stripColumns(double width)
{
    return std::max(1, int(std::floor(width - kGutter - 2 * kMargin)));
}

int PageStateLayout::columnsFor(pgoff_t pages, int stripColumns)
{
    if (pages == 0)
        return 0;
    return int(std::min<pgoff_t>(pages, pgoff_t(std::max(1, stripColumns))));
}

PageVisual PageStateLayout::classify(const PageStateSummary& s, std::uint32_t evicted, std::uint32_t wasted)
{
    if (s.under_io)
        return PageVisual::UnderIo;
    if (s.locked)
        return PageVisual::Locked;
    if (wasted)
        return PageVisual::Wasted;
    if (s.readahead)
        return PageVisual::Readahead;
    if (s.writeback)
        return PageVisual::Writeback;
    if (s.dirty)
        return PageVisual::Dirty;
    if (evicted)
        return PageVisual::Evicted;
    if (s.sampled && 2 * s.present >= s.sampled)
        return PageVisual::Cached;
    return PageVisual::NotCached;
}

QColor PageStateLayout::color(PageVisual v, const QPalette& palette)
{
    switch (v) {
    case PageVisual::NotCached:
        return colors::isDark(palette) ? palette.color(QPalette::Base).lighter(160)
                                       : palette.color(QPalette::Base).darker(112);
    case PageVisual::Cached:
        return colors::cached();
    case PageVisual::UnderIo:
        return colors::cpuPageWait();
    case PageVisual::Locked:
        return colors::lockHeld();
    case PageVisual::Dirty:
        return colors::series(1);
    case PageVisual::Writeback:
        return colors::series(1).darker(170); // dirty, on its way to the disk
    case PageVisual::Readahead:
        return colors::series(3);
    case PageVisual::Evicted:
        return colors::evicted();
    case PageVisual::Wasted:
        return colors::lockBlocked();
    }
    return {};
}

QString PageStateLayout::name(PageVisual v)
{
    // In PageVisual's order, one name a state.
    static constexpr const char* kNames[kPageVisuals] = { "not cached", "cached", "under I/O", "locked", "dirty",
        "being written back", "readahead marker", "evicted recently", "wasted readahead" };
    return QString::fromLatin1(kNames[int(v)]);
}

QColor PageStateLayout::syncColor()
{
    return colors::series(0);
}
QColor PageStateLayout::asyncColor()
{
    return colors::series(5);
}
QColor PageStateLayout::hostColor(const QPalette& palette)
{
    return colors::isDark(palette) ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x40, 0x40, 0x40);
}

double PageStateLayout::xOfPage(double page) const
{
    if (pages_ == 0)
        return strip_.left();
    return strip_.left() + (page - double(first_)) / double(pages_) * strip_.width();
}

int PageStateLayout::columnAt(double x) const
{
    if (columns_ == 0 || x < strip_.left() || x >= strip_.right())
        return -1;
    const std::int64_t p = pageAt(x);
    if (p < 0)
        return -1;
    // Column c holds [first + c * pages / columns, ...): invert that.
    const auto rel = (unsigned __int128)(pgoff_t(p) - first_);
    int c = int(rel * unsigned(columns_) / pages_);
    while (c + 1 < columns_
        && first_ + pgoff_t((unsigned __int128)(pages_) * unsigned(c + 1) / unsigned(columns_)) <= pgoff_t(p))
        ++c;
    while (c > 0 && first_ + pgoff_t((unsigned __int128)(pages_) * unsigned(c) / unsigned(columns_)) > pgoff_t(p))
        --c;
    return c;
}

std::int64_t PageStateLayout::pageAt(double x) const
{
    if (pages_ == 0 || x < strip_.left() || x >= strip_.right())
        return -1;
    const double p = double(first_) + (x - strip_.left()) / strip_.width() * double(pages_);
    return std::min<std::int64_t>(std::int64_t(first_ + pages_ - 1), std::int64_t(std::floor(p)));
}

double PageStateLayout::layoutLegend(const QPalette& palette, double y, double width)
{
    const QColor text = palette.color(QPalette::WindowText);
    // Each key as wide as its name needs (about 6.5 px a character at the
    // view's font); in one row, the spare width shared out between them,
    // or in as many rows as the width needs, every key kept whole.
    auto need_of = [](PageVisual v) { return 24 + 6.5 * double(name(v).size()); };
    double need = 0;
    for (int v = 0; v < kPageVisuals; ++v)
        need += need_of(PageVisual(v));
    const double usable = width - 2 * kMargin;
    const double spare = need <= usable ? (usable - need) / kPageVisuals : 0.0;
    double x = kMargin, row = y;
    for (int v = 0; v < kPageVisuals; ++v) {
        const auto pv = PageVisual(v);
        const double step = need_of(pv) + spare;
        if (x > kMargin && x + step > width - kMargin + spare) {
            x = kMargin;
            row += kLegendH;
        }
        addDisplayItem(
            items_, ItemKind::Fill, QRectF(x, row + 3, 12, 12), color(pv, palette), QStringLiteral("legend"), name(pv));
        addDisplayItem(items_, ItemKind::Text, QRectF(x + 16, row, step - 18, kLegendH), text,
            QStringLiteral("legend-text"), name(pv), Qt::AlignLeft | Qt::AlignVCenter);
        x += step;
    }
    return row + kLegendH - y;
}

void PageStateLayout::layoutWindows(
    const std::vector<RaWindowMark>& windows, double top, double height, bool host, const QPalette& palette)
{
    if (windows.empty() || pages_ == 0)
        return;
    const double lineY = top + height - 9;
    const double bottom = top + height - 1;
    const std::size_t from = host ? 0 : windows.size() - std::min(windows.size(), kWindowsDrawn);
    std::size_t drawn = 0;
    for (std::size_t i = from; i < windows.size() && drawn < kHostWindowsDrawn; ++i) {
        const RaWindowMark& w = windows[i];
        if (w.size == 0)
            continue;
        const double end = double(w.start + w.size);
        if (end <= double(first_) || double(w.start) >= double(first_ + pages_))
            continue;
        ++drawn;
        const bool current = !host && i + 1 == windows.size();
        const double alpha = host ? 0.85 : current ? 1.0 : 0.25 + 0.5 * double(i - from) / double(kWindowsDrawn);
        const QColor base = host ? hostColor(palette) : w.async ? asyncColor() : syncColor();
        const QColor pen = withAlpha(base, alpha);
        const double x0 = std::max(strip_.left(), xOfPage(double(w.start)));
        const double x1 = std::min(strip_.right(), std::max(x0 + 1, xOfPage(end)));
        const QString role = host ? QStringLiteral("host-window") : QStringLiteral("window");
        if (current) // a light band over the pages of the current window, down through the strip
            addDisplayItem(items_, ItemKind::Fill, QRectF(QPointF(x0, lineY), QPointF(x1, strip_.bottom())),
                withAlpha(palette.color(QPalette::WindowText), 0.10), QStringLiteral("window-band"));
        const double pw = current ? 2 : 1;
        addDisplayItem(items_, ItemKind::Line, QRectF(QPointF(x0, lineY), QPointF(x1, lineY)), pen, role, {}, 0, pw);
        if (xOfPage(double(w.start)) >= strip_.left())
            addDisplayItem(items_, ItemKind::Line, QRectF(QPointF(x0, lineY), QPointF(x0, bottom)), pen,
                role + QStringLiteral("-edge"), {}, 0, pw);
        if (xOfPage(end) <= strip_.right())
            addDisplayItem(items_, ItemKind::Line, QRectF(QPointF(x1, lineY), QPointF(x1, bottom)), pen,
                role + QStringLiteral("-edge"), {}, 0, pw);
        if (w.async_size > 0) {
            const double m = double(w.start + w.size - w.async_size);
            const double a0 = std::max(strip_.left(), xOfPage(m));
            if (a0 < x1) {
                addDisplayItem(items_, ItemKind::Fill, QRectF(QPointF(a0, lineY - 3), QPointF(x1, lineY + 3)),
                    withAlpha(asyncColor(), alpha * 0.6),
                    host ? QStringLiteral("host-async") : QStringLiteral("async"));
                if (m >= double(first_))
                    addDisplayItem(items_, ItemKind::Fill,
                        QRectF(QPointF(a0 - 1.5, lineY - 5), QPointF(a0 + 1.5, bottom)),
                        withAlpha(color(PageVisual::Readahead, palette), alpha),
                        host ? QStringLiteral("host-marker") : QStringLiteral("marker"));
            }
        }
        // Only the newest window is labelled: at reading speed several open
        // within a second, and their labels would pile up on each other.
        if (current && w.age_ms < kLabelFadeMs) {
            const double a = 1.0 - w.age_ms / kLabelFadeMs;
            const QString label = QStringLiteral("%1 pages%2 · %3")
                                      .arg(w.size)
                                      .arg(w.async_size ? QStringLiteral(" (async %1)").arg(w.async_size) : QString())
                                      .arg(w.rule);
            const double lw = 240;
            double lx = std::clamp((x0 + x1) / 2 - lw / 2, strip_.left(), strip_.right() - lw);
            addDisplayItem(items_, ItemKind::Text, QRectF(lx, top, lw, 16),
                withAlpha(palette.color(QPalette::WindowText), a), QStringLiteral("label"), label,
                Qt::AlignHCenter | Qt::AlignVCenter);
        }
    }
}

void PageStateLayout::layoutChart(const Input& in, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    const QColor grid = withAlpha(text, 0.25);
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, chart_.top() - 18, kGutter + 300, 16), text,
        QStringLiteral("chart-title"), QStringLiteral("Readahead window size over time"),
        Qt::AlignLeft | Qt::AlignVCenter);
    const QRectF plot(chart_.left(), chart_.top() + 4, chart_.width(), chart_.height() - 20);
    addDisplayItem(items_, ItemKind::Outline, plot, grid, QStringLiteral("chart-frame"));
    std::uint64_t tmax = 1;
    pgoff_t smax = 1;
    for (const auto* s : { &in.series, &in.hostSeries })
        for (const RaWindowMark& w : *s) {
            tmax = std::max(tmax, w.time_us);
            smax = std::max(smax, w.size);
        }
    const double ymax = niceCeil(double(smax));
    const double xmax = double(tmax);
    auto px = [&](std::uint64_t t) { return plot.left() + double(t) / xmax * plot.width(); };
    auto py = [&](pgoff_t s) { return plot.bottom() - double(s) / ymax * plot.height(); };
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, plot.top() - 2, kGutter - 6, 14), text,
        QStringLiteral("chart-axis"), QStringLiteral("%1 pages").arg(ymax), Qt::AlignRight | Qt::AlignVCenter);
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, plot.bottom() - 12, kGutter - 6, 14), text,
        QStringLiteral("chart-axis"), QStringLiteral("0"), Qt::AlignRight | Qt::AlignVCenter);
    addDisplayItem(items_, ItemKind::Line,
        QRectF(QPointF(plot.left(), py(pgoff_t(ymax / 2))), QPointF(plot.right(), py(pgoff_t(ymax / 2)))),
        withAlpha(text, 0.12), QStringLiteral("chart-grid"));
    addDisplayItem(items_, ItemKind::Text, QRectF(plot.right() - 200, plot.bottom() + 2, 200, 14), text,
        QStringLiteral("chart-axis"), QStringLiteral("%1 ms").arg(xmax / 1000.0, 0, 'f', 1),
        Qt::AlignRight | Qt::AlignVCenter);

    // Per pixel column, the largest window of each kind: the chart costs
    // its width, however many windows a long run opened.
    const int cols = std::max(1, int(plot.width()));
    auto bucketed = [&](const std::vector<RaWindowMark>& s, bool wantAsync, bool any) {
        std::vector<std::int64_t> best(std::size_t(cols), -1);
        for (const RaWindowMark& w : s) {
            if (!any && w.async != wantAsync)
                continue;
            const int c = std::clamp(int((px(w.time_us) - plot.left())), 0, cols - 1);
            best[std::size_t(c)] = std::max(best[std::size_t(c)], std::int64_t(w.size));
        }
        return best;
    };
    // Host kernel: a line through its windows.
    const auto host = bucketed(in.hostSeries, false, true);
    QPointF prev(-1, -1);
    for (int c = 0; c < cols; ++c) {
        if (host[std::size_t(c)] < 0)
            continue;
        const QPointF pt(plot.left() + c + 0.5, py(pgoff_t(host[std::size_t(c)])));
        if (prev.x() >= 0)
            addDisplayItem(items_, ItemKind::Line, QRectF(prev, pt), withAlpha(hostColor(palette), 0.8),
                QStringLiteral("series-host"), {}, 0, 1.5);
        prev = pt;
    }
    for (bool async : { false, true }) {
        const auto b = bucketed(in.series, async, false);
        const QColor c = async ? asyncColor() : syncColor();
        for (int x = 0; x < cols; ++x)
            if (b[std::size_t(x)] >= 0) {
                const double y = py(pgoff_t(b[std::size_t(x)]));
                addDisplayItem(items_, ItemKind::Fill, QRectF(plot.left() + x - 1.5, y - 1.5, 4, 4), c,
                    async ? QStringLiteral("series-async") : QStringLiteral("series-sync"));
            }
    }
    // The chart's legend, top right inside the plot.
    double lx = plot.right() - 330;
    const double ly = plot.top() + 4;
    auto key = [&](const QColor& c, const QString& label, const QString& role) {
        addDisplayItem(items_, ItemKind::Fill, QRectF(lx, ly + 3, 10, 10), c, role);
        addDisplayItem(items_, ItemKind::Text, QRectF(lx + 14, ly, 96, 16), text, role + QStringLiteral("-text"), label,
            Qt::AlignLeft | Qt::AlignVCenter);
        lx += 110;
    };
    key(syncColor(), QStringLiteral("sync window"), QStringLiteral("chart-key"));
    key(asyncColor(), QStringLiteral("async window"), QStringLiteral("chart-key"));
    if (!in.hostSeries.empty())
        key(hostColor(palette), QStringLiteral("host kernel"), QStringLiteral("chart-key"));
}

void PageStateLayout::layout(const Input& in, const QSizeF& size, const QPalette& palette)
{
    items_.clear();
    first_ = in.first;
    pages_ = in.pages;
    columns_ = int(in.columns.size());
    const QColor text = palette.color(QPalette::WindowText);
    const double w = size.width();
    double y = 4;
    const QString range = in.pages == 0
        ? QStringLiteral("empty")
        : QStringLiteral("pages %1 to %2 of %3").arg(in.first).arg(in.first + in.pages - 1).arg(in.filePages);
    const QString lod = columns_ > 0 && in.pages > pgoff_t(columns_)
        ? QStringLiteral(" · %1 pages per column").arg(double(in.pages) / columns_, 0, 'f', 1)
        : QString();
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, y, w - 2 * kMargin, kTitleH), text, QStringLiteral("title"),
        QStringLiteral("%1 · %2%3").arg(in.fileName, range, lod), Qt::AlignLeft | Qt::AlignVCenter);
    y += kTitleH + 2;
    y += layoutLegend(palette, y, w) + 4;

    const double left = kMargin + kGutter;
    const double right = w - kMargin;
    // The strip grows with the widget (a seventh of its height), the chart takes the rest.
    const double stripH = std::clamp(size.height() / 7, kMinStripH, kMaxStripH);
    strip_ = QRectF(left, 0, std::max(1.0, right - left), stripH);
    const bool hasHost = !in.hostWindows.empty();
    const double hostTop = y;
    if (hasHost)
        y += kHostRowH;
    const double simTop = y;
    y += kSimRowH;
    strip_.moveTop(y);
    if (hasHost) {
        addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, hostTop, kGutter - 6, kHostRowH), hostColor(palette),
            QStringLiteral("row-title"), QStringLiteral("host kernel"), Qt::AlignRight | Qt::AlignVCenter);
        layoutWindows(in.hostWindows, hostTop, kHostRowH, true, palette);
    }
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, simTop + 14, kGutter - 6, kSimRowH - 14), text,
        QStringLiteral("row-title"), hasHost ? QStringLiteral("simulated") : QStringLiteral("readahead"),
        Qt::AlignRight | Qt::AlignVCenter);
    addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, strip_.top(), kGutter - 6, stripH), text,
        QStringLiteral("row-title"), QStringLiteral("pages"), Qt::AlignRight | Qt::AlignVCenter);

    // The strip.
    addDisplayItem(items_, ItemKind::Fill, strip_, color(PageVisual::NotCached, palette), QStringLiteral("strip"));
    const QRectF occ(strip_.left(), strip_.bottom() + 1, strip_.width(), kOccupancyH);
    const QColor cached = color(PageVisual::Cached, palette);
    for (int c = 0; c < columns_; ++c) {
        const PageStateSummary& s = in.columns[std::size_t(c)];
        const std::uint32_t ev = c < int(in.evicted.size()) ? in.evicted[std::size_t(c)] : 0;
        const std::uint32_t wa = c < int(in.wasted.size()) ? in.wasted[std::size_t(c)] : 0;
        const PageVisual v = classify(s, ev, wa);
        const double x0 = xOfPage(double(s.first));
        const double x1 = xOfPage(double(s.first + s.pages));
        if (v != PageVisual::NotCached) {
            // A gap between single pages when they are wide enough to show one.
            const double gap = (x1 - x0) >= 6 ? 1 : 0;
            addDisplayItem(items_, ItemKind::Fill, QRectF(x0, strip_.top(), std::max(1.0, x1 - x0 - gap), stripH),
                color(v, palette), s.pages == 1 ? QStringLiteral("page") : QStringLiteral("column"), name(v));
        }
        if (s.sampled && s.present)
            addDisplayItem(items_, ItemKind::Fill, QRectF(x0, occ.top(), std::max(1.0, x1 - x0), kOccupancyH),
                withAlpha(cached, 0.25 + 0.75 * double(s.present) / double(s.sampled)), QStringLiteral("occupancy"));
    }
    // Page numbers under the strip.
    const double axisY = occ.bottom() + 1;
    const int ticks = std::max(2, int(strip_.width() / 120));
    for (int t = 0; t <= ticks && pages_ > 0; ++t) {
        const pgoff_t page = first_ + pgoff_t((unsigned __int128)(pages_ - 1) * unsigned(t) / unsigned(ticks));
        const double x = xOfPage(double(page) + 0.5);
        addDisplayItem(items_, ItemKind::Line, QRectF(QPointF(x, occ.bottom()), QPointF(x, occ.bottom() + 3)),
            withAlpha(text, 0.6), QStringLiteral("tick"));
        const double tw = 90;
        addDisplayItem(items_, ItemKind::Text,
            QRectF(std::clamp(x - tw / 2, strip_.left() - 20, strip_.right() - tw + 20), axisY, tw, kAxisH),
            withAlpha(text, 0.8), QStringLiteral("tick-label"), QString::number(page), Qt::AlignHCenter | Qt::AlignTop);
    }
    layoutWindows(in.windows, simTop, kSimRowH, false, palette);

    y = axisY + kAxisH + 22;
    chart_ = QRectF(left, y, strip_.width(), std::max(kMinChartH, size.height() - y - kMargin));
    layoutChart(in, palette);
}

} // namespace pcl::ui
