#include "views/pagetable/pagetableview.h"

#include "kit/lockstate.h"

#include "kit/liverun.h"

#include "mm/page_table.h"

#include <QElapsedTimer>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

/// An outline as four bars of its pen's width, centred on its edges. A
/// rectangle stroked with a pen goes through QPainter's stroker, which took
/// 7 of the 10 ms of a million-page table's frame (380 outlines, the PTE
/// pages' locks); four fills take a fraction of that. The bars do not
/// overlap, so a translucent colour (a free lock) stays even at the corners.
void paintOutline(QPainter& p, const QRectF& r, const QColor& c, double width)
{
    const QRectF o = r.adjusted(-width / 2, -width / 2, width / 2, width / 2);
    const double inner = o.height() - 2 * width;
    p.fillRect(QRectF(o.left(), o.top(), o.width(), width), c);
    p.fillRect(QRectF(o.left(), o.bottom() - width, o.width(), width), c);
    if (inner > 0) {
        p.fillRect(QRectF(o.left(), o.top() + width, width, inner), c);
        p.fillRect(QRectF(o.right() - width, o.top() + width, width, inner), c);
    }
}

/// The layout's items in order, outlines as fills, the rest as every view
/// draws them.
void paintItems(QPainter& p, const DisplayList& items)
{
    DisplayList one(1);
    for (const DisplayItem& it : items) {
        if (it.kind == DisplayKind::Outline) {
            paintOutline(p, it.rect, it.color, it.width);
            continue;
        }
        one.front() = it;
        paintDisplayList(p, one);
    }
}

} // namespace

PageTableView::PageTableView(LiveRun& run, QWidget* parent)
    : StructureView(run, parent)
{
    setObjectName(QStringLiteral("pagetable"));
    setMouseTracking(true);
    setFitToolTip(tr("Show the whole page table (double-click does the same)"));
}

PageTableView::~PageTableView() = default;

PageTable* PageTableView::table() const
{
    return source_.pageTable();
}

void PageTableView::refresh()
{
    input_ = {};
    if (PageTable* t = table()) {
        input_.snapshot = t->snapshot();
        input_.cpus = int(source_.cpus());
        std::unordered_map<std::uint64_t, std::uint32_t> now;
        now.reserve(input_.snapshot.pte_pages.size());
        for (const PtePageInfo& p : input_.snapshot.pte_pages) {
            now[p.first_vpn] = p.entries_set;
            auto it = lastEntries_.find(p.first_vpn);
            if (p.entries_set > (it == lastEntries_.end() ? 0 : it->second))
                input_.grew.push_back(p.first_vpn);
        }
        lastEntries_ = std::move(now);
    }
    for (const auto& [cpu, f] : faults_)
        input_.faults.push_back(f);
    layout_.layout(input_, size(), palette());
    // Fitted, the view keeps the table whole as it grows.
    if (fitted_)
        applyFit();
    update();
}

void PageTableView::onRunReset()
{
    faults_.clear();
    faultBeginNs_.clear();
    lastEntries_.clear();
    source_.clear();
    refresh();
}

void PageTableView::onEvents(const std::vector<Event>& events)
{
    std::uint64_t last = 0;
    for (const Event& e : events) {
        last = std::max(last, e.time_ns);
        const int cpu = int(e.cpu);
        switch (e.kind) {
        case EventKind::FaultBegin: {
            PageTableLayout::Fault f;
            f.cpu = cpu;
            const ev::FaultBegin begin { e };
            f.vpn = begin.vpn();
            f.file = begin.file();
            f.index = begin.page();
            faults_[cpu] = f;
            faultBeginNs_[cpu] = e.time_ns;
            break;
        }
        case EventKind::FaultEnd:
            if (auto it = faults_.find(cpu); it != faults_.end() && it->second.vpn == ev::FaultEnd { e }.vpn()) {
                faults_.erase(it);
                faultBeginNs_.erase(cpu);
            }
            break;
        case EventKind::PageLockWait:
            if (auto it = faults_.find(cpu); it != faults_.end()) {
                it->second.waitsOnPage = true;
                it->second.file = e.file;
                it->second.index = e.index;
            }
            break;
        case EventKind::PageLockWoken:
            if (auto it = faults_.find(cpu); it != faults_.end())
                it->second.waitsOnPage = false;
            break;
        default:
            break;
        }
    }
    for (auto it = faultBeginNs_.begin(); it != faultBeginNs_.end();) {
        if (last > it->second + kStaleFaultNs) {
            faults_.erase(it->first);
            it = faultBeginNs_.erase(it);
        } else {
            ++it;
        }
    }
}

void PageTableView::benchmarkLoad(std::uint64_t pages)
{
    faults_.clear();
    faultBeginNs_.clear();
    lastEntries_.clear();
    source_.loadPageTable(pages);
    pages = std::min<std::uint64_t>(pages, PageTable::kMaxVpns);
    const int cpus = int(StructureSource::kBenchmarkCpus);
    for (int c = 0; c < cpus && pages > 0; ++c) {
        PageTableLayout::Fault f;
        f.cpu = c;
        f.vpn = pages * std::uint64_t(c) / std::uint64_t(cpus);
        f.waitsOnPage = c % 2 == 1;
        f.index = f.vpn;
        faults_[c] = f;
    }
    refresh();
}

QString PageTableView::toolTipAt(const QPoint& pos) const
{
    const QPointF p = zoom().inverted().map(QPointF(pos));
    if (int b = layout_.boxAt(p); b >= 0) {
        const auto& box = layout_.boxes()[std::size_t(b)];
        const bool split = input_.snapshot.scheme == PageTable::Scheme::Split;
        QString t = box.count == 1 ? tr("PTE page for vpn 0x%1 to 0x%2\n%3 of 512 entries set")
                                         .arg(box.firstVpn, 0, 16)
                                         .arg(box.lastVpn, 0, 16)
                                         .arg(box.entries)
                                   : tr("%1 PTE pages, vpn 0x%2 to 0x%3\n%4 of %5 entries set")
                                         .arg(box.count)
                                         .arg(box.firstVpn, 0, 16)
                                         .arg(box.lastVpn, 0, 16)
                                         .arg(box.entries)
                                         .arg(box.count * 512);
        t += split ? tr("\npte_lock%1: %2").arg(box.count > 1 ? tr(" (busiest)") : QString(), lockText(box.lock))
                   : tr("\nguarded by mm->page_table_lock: %1").arg(lockText(input_.snapshot.mm_lock));
        return t;
    }
    if (int c = layout_.cpuAt(p); c >= 0) {
        auto it = faults_.find(c);
        if (it == faults_.end())
            return tr("CPU %1: no fault in flight").arg(c);
        const auto& f = it->second;
        QString t = tr("CPU %1: faulting vpn 0x%2 (file %3 page %4)").arg(c).arg(f.vpn, 0, 16).arg(f.file).arg(f.index);
        if (f.waitsOnPage)
            t += tr("\nsleeping on the page lock of file %1 page %2 (read in flight)").arg(f.file).arg(f.index);
        return t;
    }
    return {};
}

void PageTableView::resizeEvent(QResizeEvent* e)
{
    StructureView::resizeEvent(e);
    // The layout is laid out again for the new size: what was in view is
    // not there any more (fitted, it is fitted again).
    zoomSpan_[0] = zoomSpan_[1] = 0;
    refresh();
}

Viewport PageTableView::viewport() const
{
    Viewport v;
    const double extent[2] = { double(width()), double(height()) };
    ViewAxis* axes[2] = { &v.x, &v.y };
    for (int i = 0; i < 2; ++i) {
        ViewAxis& a = *axes[i];
        a.lo = 0;
        a.hi = extent[i];
        a.minSpan = extent[i] / 16;
        a.first = zoomSpan_[i] > 0 ? zoomFirst_[i] : 0;
        a.span = zoomSpan_[i] > 0 ? zoomSpan_[i] : extent[i];
        a.pixels = extent[i];
    }
    return v;
}

void PageTableView::setViewport(const Viewport& v)
{
    fitted_ = false;
    const ViewAxis* axes[2] = { &v.x, &v.y };
    for (int i = 0; i < 2; ++i) {
        zoomFirst_[i] = axes[i]->first;
        zoomSpan_[i] = axes[i]->span;
    }
    update();
}

void PageTableView::fit()
{
    fitted_ = true;
    applyFit();
    update();
}

void PageTableView::applyFit()
{
    // The page table as large as the view allows: a few CPUs and PTE pages
    // fill a corner of a large window, and a projector wants them big. One
    // scale for both axes, so that boxes and text keep their proportions.
    zoomSpan_[0] = zoomSpan_[1] = 0;
    const QRectF content
        = layout_.contentRect(QFontMetricsF(paintFont())).adjusted(-kFitMargin, -kFitMargin, kFitMargin, kFitMargin);
    if (!content.isEmpty() && width() > 0 && height() > 0) {
        const double scale = std::min({ width() / content.width(), height() / content.height(), kMaxFitScale });
        if (scale > 1.01) {
            const double extent[2] = { double(width()), double(height()) };
            const double centre[2] = { content.center().x(), content.center().y() };
            for (int i = 0; i < 2; ++i) {
                zoomSpan_[i] = extent[i] / scale;
                zoomFirst_[i] = std::clamp(centre[i] - zoomSpan_[i] / 2, 0.0, extent[i] - zoomSpan_[i]);
            }
        }
    }
}

QFont PageTableView::paintFont() const
{
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    return small;
}

QTransform PageTableView::zoom() const
{
    const Viewport v = viewport();
    if (!v.x.moves() || !v.y.moves())
        return {};
    const double sx = v.x.pixels / v.x.span, sy = v.y.pixels / v.y.span;
    return QTransform(sx, 0, 0, sy, -v.x.first * sx, -v.y.first * sy);
}

void PageTableView::paintScene(QPainter& p)
{
    p.fillRect(rect(), palette().color(QPalette::Window));
    p.setTransform(zoom());
    p.setFont(paintFont());
    paintItems(p, layout_.items());
}

} // namespace pcl::ui
