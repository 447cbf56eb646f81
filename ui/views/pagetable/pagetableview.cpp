#include "views/pagetable/pagetableview.h"

#include "kit/hovertip.h"

#include "run/simulation.h"

#include "mm/page_table.h"
#include "sync/lock_stats.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace pcl::ui {

namespace {

QString lockText(const sync::LockState& s)
{
    if (!s.held && !s.waiters)
        return QStringLiteral("free");
    QString t = s.held
        ? (s.holder_cpu >= 0 ? QStringLiteral("held by CPU %1").arg(s.holder_cpu) : QStringLiteral("held"))
        : QStringLiteral("free");
    if (s.waiters)
        t += QStringLiteral(", %1 waiting").arg(s.waiters);
    return t;
}

} // namespace

PageTableView::PageTableView(Simulation& sim, QWidget* parent)
    : QWidget(parent)
    , sim_(sim)
{
    setObjectName(QStringLiteral("pagetable"));
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(&sim_, &Simulation::ticked, this, &PageTableView::onTicked);
    connect(&sim_, &Simulation::runReset, this, &PageTableView::onRunReset);
    connect(&sim_, &Simulation::eventsArrived, this, &PageTableView::onEvents);
}

PageTableView::~PageTableView() = default;

PageTable* PageTableView::table() const
{
    if (benchTable_)
        return benchTable_.get();
    return sim_.engine() ? &sim_.engine()->page_table() : nullptr;
}

void PageTableView::refresh()
{
    input_ = {};
    if (PageTable* t = table()) {
        input_.snapshot = t->snapshot();
        input_.cpus = benchTable_ ? benchCpus_ : int(sim_.engine()->config().workload.cpus);
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
    update();
}

void PageTableView::onTicked()
{
    if (!isVisible())
        return;
    refresh();
}

void PageTableView::onRunReset()
{
    faults_.clear();
    faultBeginNs_.clear();
    lastEntries_.clear();
    benchTable_.reset();
    benchPage_.reset();
    benchRegistry_.reset();
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
    benchTable_.reset();
    benchRegistry_ = std::make_unique<sync::LockRegistry>();
    benchPage_ = std::make_unique<Page>(0, 0);
    PageTable::Config config;
    config.scheme = PageTable::Scheme::Split;
    benchTable_ = std::make_unique<PageTable>(config, *benchRegistry_);
    pages = std::min<std::uint64_t>(pages, PageTable::kMaxVpns);
    for (std::uint64_t v = 0; v < pages; ++v)
        benchTable_->install(v, benchPage_.get());
    benchCpus_ = 8;
    for (int c = 0; c < benchCpus_ && pages > 0; ++c) {
        PageTableLayout::Fault f;
        f.cpu = c;
        f.vpn = pages * std::uint64_t(c) / std::uint64_t(benchCpus_);
        f.waitsOnPage = c % 2 == 1;
        f.index = f.vpn;
        faults_[c] = f;
    }
    refresh();
}

QString PageTableView::toolTipAt(const QPoint& pos) const
{
    const QPointF p(pos);
    if (int b = layout_.boxAt(p); b >= 0) {
        const auto& box = layout_.boxes()[std::size_t(b)];
        const bool split = input_.snapshot.scheme == "split";
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

bool PageTableView::event(QEvent* e)
{
    return showHoverTip(this, e) || QWidget::event(e);
}

void PageTableView::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    refresh();
}

void PageTableView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Window));
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() * 0.9));
    p.setFont(small);
    for (const PageTableLayout::Item& it : layout_.items()) {
        switch (it.kind) {
        case PageTableLayout::ItemKind::Fill:
            p.fillRect(it.rect, it.color);
            break;
        case PageTableLayout::ItemKind::Outline:
            p.setPen(QPen(it.color, it.width));
            p.setBrush(Qt::NoBrush);
            p.drawRect(it.rect);
            break;
        case PageTableLayout::ItemKind::Line:
            p.setPen(QPen(it.color, it.width));
            p.drawLine(it.rect.topLeft(), it.rect.bottomRight());
            break;
        case PageTableLayout::ItemKind::Arrow: {
            // Only arrows are antialiased: boxes and bars sit on whole pixels,
            // and antialiasing every fill would cost more than the rest of the frame.
            p.setRenderHint(QPainter::Antialiasing, true);
            const QPointF a = it.rect.topLeft(), b = it.rect.bottomRight();
            p.setPen(QPen(it.color, it.width));
            p.drawLine(a, b);
            const double ang = std::atan2(b.y() - a.y(), b.x() - a.x());
            const double len = 9;
            QPainterPath head;
            head.moveTo(b);
            head.lineTo(b - QPointF(std::cos(ang - 0.4) * len, std::sin(ang - 0.4) * len));
            head.lineTo(b - QPointF(std::cos(ang + 0.4) * len, std::sin(ang + 0.4) * len));
            head.closeSubpath();
            p.fillPath(head, it.color);
            p.setRenderHint(QPainter::Antialiasing, false);
            break;
        }
        case PageTableLayout::ItemKind::Text:
            p.setPen(it.color);
            p.drawText(it.rect, it.align, it.text);
            break;
        }
    }
    lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

} // namespace pcl::ui
