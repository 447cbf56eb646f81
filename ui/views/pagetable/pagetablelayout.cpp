#include "views/pagetable/pagetablelayout.h"

#include "kit/colors.h"
#include "kit/lockstate.h"

#include <QFontMetricsF>
#include <QGuiApplication>

#include <algorithm>
#include <cmath>
#include <map>

namespace pcl::ui {

namespace {

constexpr double kMargin = 8;
constexpr double kTitleH = 18;
constexpr double kLegendH = 18;
/// Room left for the view's Fit button at the title's right.
constexpr double kFitButtonW = 60;
constexpr double kCpuX = 8, kCpuW = 60;
constexpr double kPgdX = 100, kPgdW = 52;
constexpr double kPmdX = 176, kPmdW = 64;
constexpr double kPteX = 268;
constexpr double kPageColW = 124;
constexpr double kGap = 6;
/// Room above the tables for the routes of the faults' arrows.
constexpr double kChannelH = 8;

QColor withAlpha(QColor c, double a)
{
    c.setAlphaF(float(std::clamp(a, 0.0, 1.0)));
    return c;
}

/// The busier of two lock states: waiters first, then held.
sync::LockState busier(const sync::LockState& a, const sync::LockState& b)
{
    if (a.waiters != b.waiters)
        return a.waiters > b.waiters ? a : b;
    return a.held || !b.held ? a : b;
}

QString hexVpn(std::uint64_t vpn)
{
    return QStringLiteral("0x%1").arg(vpn, 0, 16);
}

} // namespace

QColor PageTableLayout::lockColor(const sync::LockState& s, const QPalette& palette)
{
    return ui::lockColor(s, withAlpha(palette.color(QPalette::WindowText), 0.3));
}

QColor PageTableLayout::fillColor()
{
    return colors::cached();
}
QColor PageTableLayout::faultColor()
{
    return colors::series(1);
}
QColor PageTableLayout::pageWaitColor()
{
    return colors::cpuPageWait();
}

int PageTableLayout::boxOf(std::uint64_t vpn) const
{
    // Boxes are in ascending vpn order.
    auto it = std::upper_bound(
        boxes_.begin(), boxes_.end(), vpn, [](std::uint64_t v, const PteBox& b) { return v < b.firstVpn; });
    if (it == boxes_.begin())
        return -1;
    --it;
    return vpn <= it->lastVpn ? int(it - boxes_.begin()) : -1;
}

int PageTableLayout::boxAt(const QPointF& p) const
{
    for (std::size_t i = 0; i < boxes_.size(); ++i)
        if (boxes_[i].rect.contains(p))
            return int(i);
    return -1;
}

int PageTableLayout::cpuAt(const QPointF& p) const
{
    for (std::size_t i = 0; i < cpus_.size(); ++i)
        if (cpus_[i].contains(p))
            return int(i);
    return -1;
}

QRectF PageTableLayout::cpuRect(int cpu) const
{
    return cpu >= 0 && cpu < int(cpus_.size()) ? cpus_[std::size_t(cpu)] : QRectF();
}

QRectF PageTableLayout::contentRect(const QFontMetricsF& fm) const
{
    QRectF all;
    for (const Item& it : items_) {
        QRectF r = it.rect.normalized();
        if (it.kind == ItemKind::Text) {
            const double tw = std::min(r.width(), fm.horizontalAdvance(it.text));
            if (it.align & Qt::AlignRight)
                r.setLeft(r.right() - tw);
            else if (it.align & Qt::AlignHCenter)
                r = QRectF(r.center().x() - tw / 2, r.top(), tw, r.height());
            else
                r.setWidth(tw);
        } else if (it.kind == ItemKind::Outline) {
            r.adjust(-it.width / 2, -it.width / 2, it.width / 2, it.width / 2);
        }
        all = all.isNull() ? r : all.united(r);
    }
    return all;
}

void PageTableLayout::layout(const Input& in, const QSizeF& size, const QPalette& palette)
{
    items_.clear();
    boxes_.clear();
    cpus_.clear();
    group_ = 1;
    const PageTableSnapshot& s = in.snapshot;
    const bool split = s.scheme == PageTable::Scheme::Split;
    const QColor text = palette.color(QPalette::WindowText);
    const QColor quiet = withAlpha(text, 0.3);
    const QColor boxFill = colors::isDark(palette) ? palette.color(QPalette::Base).lighter(130)
                                                   : palette.color(QPalette::Base).darker(106);
    const double w = size.width(), h = size.height();

    // The title in one line where it fits beside the Fit button, else the
    // scheme on one and the counts on the next: cut at the view's edge, or
    // under the button, it would lose the counts a picture is saved for.
    const QFontMetricsF metrics(QGuiApplication::font());
    const QString scheme = split ? QStringLiteral("Page table (split lock: one pte_lock per PTE page)")
                                 : QStringLiteral("Page table (single lock: mm->page_table_lock for all)");
    const QString counts = QStringLiteral("%1 PTE pages, %2 entries mapped, %3 back-outs")
                               .arg(s.pte_pages.size())
                               .arg(s.mapped)
                               .arg(s.backouts);
    const double titleW = w - 2 * kMargin - kFitButtonW;
    QStringList titleLines { scheme + QStringLiteral(": ") + counts };
    if (metrics.horizontalAdvance(titleLines.front()) > titleW)
        titleLines = { scheme, counts };
    double y = 4;
    for (const QString& line : titleLines) {
        addDisplayItem(items_, ItemKind::Text, QRectF(kMargin, y, titleW, kTitleH), text, QStringLiteral("title"), line,
            Qt::AlignLeft | Qt::AlignVCenter);
        y += kTitleH;
    }

    // Legend, in as many rows as the width needs.
    {
        double x = kMargin;
        y += 2;
        auto key = [&](const QColor& c, bool outline, const QString& label, double width) {
            if (x > kMargin && x + width > w - kMargin) {
                x = kMargin;
                y += kLegendH;
            }
            if (outline)
                addDisplayItem(items_, ItemKind::Outline, QRectF(x + 1, y + 3, 12, 12), c, QStringLiteral("legend"),
                    label, 0, 2.5);
            else
                addDisplayItem(items_, ItemKind::Fill, QRectF(x, y + 3, 14, 12), c, QStringLiteral("legend"), label);
            addDisplayItem(items_, ItemKind::Text, QRectF(x + 18, y, width - 20, kLegendH), text,
                QStringLiteral("legend-text"), label, Qt::AlignLeft | Qt::AlignVCenter);
            x += width;
        };
        key(colors::lockHeld(), true, QStringLiteral("lock held"), 92);
        key(colors::lockWanted(), true, QStringLiteral("held, CPUs waiting (+n)"), 170);
        key(quiet, true, QStringLiteral("lock free"), 84);
        key(fillColor(), false, QStringLiteral("PTEs set (of 512)"), 134);
        key(faultColor(), false, QStringLiteral("fault in flight"), 112);
        key(pageWaitColor(), false, QStringLiteral("sleeping on a page lock"), 170);
        y += kLegendH;
    }

    const double top = y + 10 + kChannelH;
    const double bottom = std::max(top + 40, h - kMargin);

    // CPUs.
    const int ncpu = std::max(0, in.cpus);
    if (ncpu > 0) {
        const double slot = std::min(34.0, (bottom - top) / ncpu);
        const double bh = std::max(6.0, slot - 4);
        for (int c = 0; c < ncpu; ++c) {
            const QRectF r(kCpuX, top + c * slot, kCpuW, bh);
            cpus_.push_back(r);
            addDisplayItem(items_, ItemKind::Fill, r, boxFill, QStringLiteral("cpu"), {}, 0, 1, c);
            addDisplayItem(items_, ItemKind::Outline, r, quiet, QStringLiteral("cpu-frame"), {}, 0, 1, c);
            if (bh >= 12)
                addDisplayItem(items_, ItemKind::Text, r, text, QStringLiteral("cpu-label"),
                    QStringLiteral("CPU %1").arg(c), Qt::AlignCenter, 1, c);
        }
    }

    // PGD and PMD pages.
    std::map<unsigned, std::size_t> pmds; // pgd index -> PTE pages under it
    for (const PtePageInfo& p : s.pte_pages)
        ++pmds[PageTable::pgd_index(p.first_vpn)];
    const QRectF pgd(kPgdX, top, kPgdW, std::min(80.0, bottom - top));
    addDisplayItem(items_, ItemKind::Fill, pgd, boxFill, QStringLiteral("pgd"));
    addDisplayItem(items_, ItemKind::Outline, pgd, quiet, QStringLiteral("pgd-frame"));
    addDisplayItem(
        items_, ItemKind::Text, pgd, text, QStringLiteral("pgd-label"), QStringLiteral("PGD"), Qt::AlignCenter);
    std::map<unsigned, QRectF> pmdRects;
    {
        const double slot = pmds.empty() ? 36 : std::min(36.0, (bottom - top) / double(pmds.size()));
        double y = top;
        for (auto [pgdIndex, n] : pmds) {
            const QRectF r(kPmdX, y, kPmdW, std::max(6.0, slot - 4));
            pmdRects[pgdIndex] = r;
            addDisplayItem(items_, ItemKind::Fill, r, boxFill, QStringLiteral("pmd"), {}, 0, 1, int(pgdIndex));
            addDisplayItem(items_, ItemKind::Outline, r, quiet, QStringLiteral("pmd-frame"));
            if (r.height() >= 12)
                addDisplayItem(items_, ItemKind::Text, r, text, QStringLiteral("pmd-label"),
                    QStringLiteral("PMD %1").arg(pgdIndex), Qt::AlignCenter);
            addDisplayItem(items_, ItemKind::Line,
                QRectF(QPointF(pgd.right(), pgd.center().y()), QPointF(r.left(), r.center().y())), quiet,
                QStringLiteral("pgd-pmd"));
            y += slot;
        }
    }

    // PTE boxes.
    const double areaL = kPteX, areaR = w - kMargin - kPageColW;
    const double aw = std::max(kMinBoxWidth, areaR - areaL), ah = bottom - top;
    const std::size_t P = s.pte_pages.size();
    const int cols = std::max(1, int((aw + kGap) / (kMinBoxWidth + kGap)));
    // Taller boxes when few PTE pages leave the room (easier to read on a projector).
    const int tallRows = std::max(1, int((ah + kGap) / (kTallBoxHeight + kGap)));
    const double boxH = std::size_t(cols) * std::size_t(tallRows) >= P ? kTallBoxHeight : kBoxHeight;
    const int rows = std::max(1, int((ah + kGap) / (boxH + kGap)));
    const std::size_t capacity = std::size_t(cols) * std::size_t(rows);
    group_ = P == 0 ? 1 : (P + capacity - 1) / capacity;
    const std::size_t nboxes = P == 0 ? 0 : (P + group_ - 1) / group_;
    const int usedCols = int(std::min<std::size_t>(std::size_t(cols), std::max<std::size_t>(1, nboxes)));
    const double bw = std::min(190.0, (aw - (usedCols - 1) * kGap) / usedCols);
    for (std::size_t b = 0; b < nboxes; ++b) {
        PteBox box;
        box.firstPte = b * group_;
        box.count = std::min(group_, P - box.firstPte);
        box.firstVpn = s.pte_pages[box.firstPte].first_vpn;
        box.lastVpn = s.pte_pages[box.firstPte + box.count - 1].first_vpn + PageTable::kVpnsPerPtePage - 1;
        for (std::size_t k = 0; k < box.count; ++k) {
            const PtePageInfo& p = s.pte_pages[box.firstPte + k];
            box.entries += p.entries_set;
            box.lock = k == 0 ? p.lock : busier(box.lock, p.lock);
        }
        const int col = int(b % std::size_t(cols)), row = int(b / std::size_t(cols));
        box.rect = QRectF(areaL + col * (bw + kGap), top + row * (boxH + kGap), bw, boxH);
        boxes_.push_back(box);
    }
    // Lines from each PMD page to its first PTE box, round the other PTE
    // pages as the faults' arrows go (a lane left of the PTE pages, the gap
    // above the box's row), so that a line to a box further on crosses none.
    const double pmdLaneX = kPteX - 16;
    for (auto [pgdIndex, r] : pmdRects) {
        const int bi = boxOf(std::uint64_t(pgdIndex) * PageTable::kVpnsPerPmdPage);
        int target = bi;
        if (target < 0)
            for (std::size_t i = 0; i < boxes_.size(); ++i)
                if (PageTable::pgd_index(boxes_[i].lastVpn) >= pgdIndex) {
                    target = int(i);
                    break;
                }
        if (target < 0)
            continue;
        const QRectF& box = boxes_[std::size_t(target)].rect;
        const double gapY = box.top() - kGap / 2;
        const QPointF points[] = { QPointF(r.right(), r.center().y()), QPointF(pmdLaneX, r.center().y()),
            QPointF(pmdLaneX, gapY), QPointF(box.left() + 6, gapY), QPointF(box.left() + 6, box.top()) };
        for (std::size_t k = 0; k + 1 < std::size(points); ++k)
            addDisplayItem(items_, ItemKind::Line, QRectF(points[k], points[k + 1]), quiet, QStringLiteral("pmd-pte"));
    }
    std::vector<bool> grew(boxes_.size(), false);
    for (std::uint64_t v : in.grew)
        if (int bi = boxOf(v); bi >= 0)
            grew[std::size_t(bi)] = true;
    const QFontMetricsF labelMetrics(QGuiApplication::font());
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
        const PteBox& b = boxes_[i];
        const int idx = int(i);
        addDisplayItem(items_, ItemKind::Fill, b.rect, boxFill, QStringLiteral("pte"), {}, 0, 1, idx);
        // A PTE page is named by the first virtual page it maps (the hover
        // says the rest); "PTE 0x1000" would not fit a box at 1280 px.
        QString label = b.count == 1 ? hexVpn(b.firstVpn) : QStringLiteral("%1 PTE pages").arg(b.count);
        // A box of many PTE pages may be too narrow for the whole phrase:
        // "11 pages" then, never a word cut short.
        if (b.count > 1 && labelMetrics.horizontalAdvance(label) > b.rect.width() - 6)
            label = QStringLiteral("%1 pages").arg(b.count);
        addDisplayItem(items_, ItemKind::Text, QRectF(b.rect.left() + 3, b.rect.top() + 1, b.rect.width() - 6, 13),
            text, QStringLiteral("pte-label"), label, Qt::AlignLeft | Qt::AlignVCenter, 1, idx);
        const QRectF bar(b.rect.left() + 3, b.rect.top() + 16, b.rect.width() - 6, b.rect.height() - 20);
        addDisplayItem(
            items_, ItemKind::Fill, bar, palette.color(QPalette::Base), QStringLiteral("pte-bar"), {}, 0, 1, idx);
        const double frac = double(b.entries) / double(PageTable::kEntries * b.count);
        if (b.entries > 0)
            addDisplayItem(items_, ItemKind::Fill,
                QRectF(bar.left(), bar.top(), std::max(1.0, bar.width() * frac), bar.height()), fillColor(),
                QStringLiteral("pte-fill"), QString::number(b.entries), 0, 1, idx);
        if (grew[i])
            addDisplayItem(items_, ItemKind::Outline, bar, withAlpha(fillColor().lighter(150), 0.9),
                QStringLiteral("grew"), {}, 0, 1.5, idx);
        if (split) {
            const bool busy = b.lock.held || b.lock.waiters;
            addDisplayItem(items_, ItemKind::Outline, b.rect, lockColor(b.lock, palette), QStringLiteral("pte-lock"),
                {}, 0, busy ? 2.5 : 1, idx);
        } else {
            addDisplayItem(items_, ItemKind::Outline, b.rect, quiet, QStringLiteral("pte-frame"), {}, 0, 1, idx);
        }
        if (split && b.lock.waiters > 0)
            addDisplayItem(items_, ItemKind::Text, QRectF(b.rect.right() - 40, b.rect.top() + 1, 37, 13),
                colors::lockWanted(), QStringLiteral("waiters"), QStringLiteral("+%1").arg(b.lock.waiters),
                Qt::AlignRight | Qt::AlignVCenter, 1, idx);
    }

    // mm->page_table_lock: round everything (single) or the PGD and PMD pages (split).
    {
        const double right = split ? kPmdX + kPmdW + 6
                                   : std::max(areaL + bw, boxes_.empty() ? areaL + bw : boxes_.back().rect.right()) + 6;
        double lowest = pgd.bottom();
        for (auto& [k, r] : pmdRects)
            lowest = std::max(lowest, r.bottom());
        if (!split)
            for (const PteBox& b : boxes_)
                lowest = std::max(lowest, b.rect.bottom());
        const QRectF r(kPgdX - 6, top - 6, right - (kPgdX - 6), lowest - top + 12);
        const bool busy = s.mm_lock.held || s.mm_lock.waiters;
        addDisplayItem(items_, ItemKind::Outline, r, lockColor(s.mm_lock, palette), QStringLiteral("mm-lock"), {}, 0,
            busy ? 3 : 1.5);
        const QString name
            = split ? QStringLiteral("mm->page_table_lock (allocation)") : QStringLiteral("mm->page_table_lock");
        addDisplayItem(items_, ItemKind::Text, QRectF(r.left(), r.bottom() + 1, 260, 14),
            busy ? lockColor(s.mm_lock, palette) : withAlpha(text, 0.7), QStringLiteral("mm-lock-label"),
            s.mm_lock.waiters ? name + QStringLiteral(" +%1").arg(s.mm_lock.waiters) : name,
            Qt::AlignLeft | Qt::AlignVCenter);
    }

    // Faults in flight and the pages they sleep on. A straight arrow from a
    // CPU to its entry would cross the PGD and PMD pages (and, on to the
    // page slept on, the PTE pages on its way): each goes round them
    // instead, in the free lanes between the columns and the rows, as a
    // route of lines that ends in the arrow. Out of its CPU to a lane of its
    // own between the CPUs and the PGD (so that several faults' routes stay
    // apart), up to the channel above the tables, along it past the PMD
    // pages, down the lane left of the PTE pages to the gap above the
    // entry's row, along that gap, and down into the entry.
    std::map<std::pair<FileId, pgoff_t>, QRectF> waited;
    // The pages slept on in a column after the PTE pages (not pinned to
    // the view's right edge, so that Fit can enlarge a small table).
    double usedRight = boxes_.empty() ? areaR : areaL;
    for (const PteBox& b : boxes_)
        usedRight = std::max(usedRight, b.rect.right());
    const double pageX = std::min(w - kMargin - kPageColW + 14, usedRight + 24);
    const QColor faultInk = withAlpha(faultColor(), 0.85);
    auto route = [&](const std::vector<QPointF>& points, const QColor& c, const QString& role, int cpu) {
        for (std::size_t k = 0; k + 2 < points.size(); ++k)
            addDisplayItem(items_, ItemKind::Line, QRectF(points[k], points[k + 1]), c, role + QStringLiteral("-route"),
                {}, 0, 1.6, cpu);
    };
    const double channelY = top - kChannelH / 2 - 6;
    const double pteLaneX = kPteX - 11;
    for (const Fault& f : in.faults) {
        if (f.cpu < 0 || f.cpu >= int(cpus_.size()))
            continue;
        const QRectF c = cpus_[std::size_t(f.cpu)];
        const QPointF from(c.right(), c.center().y());
        const double laneX = kCpuX + kCpuW + 6 + double(f.cpu % 7) * 3;
        std::vector<QPointF> points { from };
        QPointF to;
        const int bi = boxOf(f.vpn);
        const PteBox* box = bi >= 0 ? &boxes_[std::size_t(bi)] : nullptr;
        if (box) {
            const double span = double(box->lastVpn - box->firstVpn + 1);
            const double x
                = box->rect.left() + 3 + (box->rect.width() - 6) * (double(f.vpn - box->firstVpn) + 0.5) / span;
            to = QPointF(x, box->rect.top() + 16 + (box->rect.height() - 20) / 2);
            const double gapY = box->rect.top() - kGap / 2;
            points.insert(points.end(),
                { QPointF(laneX, from.y()), QPointF(laneX, channelY), QPointF(pteLaneX, channelY),
                    QPointF(pteLaneX, gapY), QPointF(to.x(), gapY), to });
        } else {
            // Its tables are being allocated: to the PGD, the next column.
            to = QPointF(pgd.left(), std::clamp(from.y(), pgd.top() + 4, pgd.bottom() - 4));
            points.insert(points.end(), { QPointF(laneX, from.y()), QPointF(laneX, to.y()), to });
        }
        route(points, faultInk, QStringLiteral("fault"), f.cpu);
        addDisplayItem(items_, ItemKind::Arrow, QRectF(points[points.size() - 2], to), faultInk,
            QStringLiteral("fault"), QStringLiteral("vpn %1").arg(hexVpn(f.vpn)), 0, 1.6, f.cpu);
        if (!f.waitsOnPage)
            continue;
        auto key = std::make_pair(f.file, f.index);
        auto it = waited.find(key);
        if (it == waited.end() && waited.size() < 24) {
            const QRectF r(pageX, top + double(waited.size()) * 26, kPageColW - 18, 22);
            it = waited.emplace(key, r).first;
            addDisplayItem(items_, ItemKind::Fill, r, withAlpha(pageWaitColor(), 0.3), QStringLiteral("waited-page"));
            addDisplayItem(
                items_, ItemKind::Outline, r, pageWaitColor(), QStringLiteral("waited-page-frame"), {}, 0, 1.5);
            addDisplayItem(items_, ItemKind::Text, r, text, QStringLiteral("waited-page-label"),
                QStringLiteral("file %1 page %2").arg(f.file).arg(f.index), Qt::AlignCenter);
        }
        if (it == waited.end())
            continue;
        // From the entry down to the gap under its row, along it to the
        // lane right of the PTE pages, and across to the page.
        const QPointF page(it->second.left(), it->second.center().y());
        std::vector<QPointF> wait { to };
        if (box) {
            const double gapY = box->rect.bottom() + kGap / 2;
            const double laneRight = pageX - 7;
            wait.insert(wait.end(), { QPointF(to.x(), gapY), QPointF(laneRight, gapY), QPointF(laneRight, page.y()) });
        }
        wait.push_back(page);
        route(wait, pageWaitColor(), QStringLiteral("page-wait"), f.cpu);
        addDisplayItem(items_, ItemKind::Arrow, QRectF(wait[wait.size() - 2], page), pageWaitColor(),
            QStringLiteral("page-wait"), {}, 0, 1.6, f.cpu);
    }
    if (!waited.empty())
        addDisplayItem(items_, ItemKind::Text, QRectF(pageX, top - 16, kPageColW - 18, 14), withAlpha(text, 0.8),
            QStringLiteral("waited-title"), QStringLiteral("pages slept on"), Qt::AlignLeft | Qt::AlignVCenter);
    if (P == 0)
        addDisplayItem(items_, ItemKind::Text, QRectF(areaL, top, aw, 40), withAlpha(text, 0.7),
            QStringLiteral("empty"), QStringLiteral("no PTE page yet: nothing has been faulted"),
            Qt::AlignLeft | Qt::AlignVCenter);
}

} // namespace pcl::ui
