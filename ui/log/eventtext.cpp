#include "log/eventtext.h"

#include "events/lanes.h"
#include "index/index_snapshot.h"
#include "mm/fault.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdlib>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::EventText", text);
}

QString cpuName(int cpu)
{
    return QStringLiteral("CPU ") + QString::number(cpu);
}

QString pages(std::int64_t n)
{
    return n == 1 ? QStringLiteral("1 page") : QString::number(n) + QStringLiteral(" pages");
}

QString tagName(std::int64_t tag)
{
    switch (tag) {
    case kTagDirty:
        return QStringLiteral("dirty");
    case kTagWriteback:
        return QStringLiteral("writeback");
    case kTagTowrite:
        return QStringLiteral("towrite");
    default:
        return QStringLiteral("tag ") + QString::number(tag);
    }
}

} // namespace

QString lineKindName(LineKind kind)
{
    switch (kind) {
    case LineKind::LockWait:
        return tr("lock wait");
    case LineKind::LockWaitBegin:
        return tr("wait begins");
    case LineKind::LockAcquire:
        return tr("lock taken");
    case LineKind::LockRelease:
        return tr("lock released");
    case LineKind::PageSleep:
        return tr("page sleep");
    case LineKind::PageSleepBegin:
        return tr("sleep begins");
    case LineKind::FaultMajor:
        return tr("major fault");
    case LineKind::FaultWaitIo:
        return tr("wait_io fault");
    case LineKind::FaultOther:
        return tr("other fault");
    case LineKind::FaultBegin:
        return tr("fault begins");
    case LineKind::IoSubmit:
        return tr("I/O submit");
    case LineKind::IoComplete:
        return tr("I/O done");
    case LineKind::IndexHeight:
        return tr("tree height");
    case LineKind::IndexNode:
        return tr("index node");
    case LineKind::IndexTag:
        return tr("index tag");
    case LineKind::IndexChain:
        return tr("hash chain");
    case LineKind::Readahead:
        return tr("readahead");
    case LineKind::Eviction:
        return tr("eviction");
    case LineKind::Refault:
        return tr("refault");
    }
    return {};
}

QString lineKindDescription(LineKind kind)
{
    switch (kind) {
    case LineKind::LockWait:
        return tr("A CPU got a lock after waiting for it, and who held it");
    case LineKind::LockWaitBegin:
        return tr("A CPU found a lock held and started waiting");
    case LineKind::LockAcquire:
        return tr("A CPU took a lock without waiting (recorded at demo speed only)");
    case LineKind::LockRelease:
        return tr("A CPU released a lock, and how long it held it");
    case LineKind::PageSleep:
        return tr("A CPU woke from sleeping on a locked page (a read in flight)");
    case LineKind::PageSleepBegin:
        return tr("A CPU went to sleep on a locked page");
    case LineKind::FaultMajor:
        return tr("A fault that read its page from the disk");
    case LineKind::FaultWaitIo:
        return tr("A fault that found its page cached but waited for another CPU's read of it");
    case LineKind::FaultOther:
        return tr("Minor, anonymous and failed faults");
    case LineKind::FaultBegin:
        return tr("The start of a fault that had something to wait for");
    case LineKind::IoSubmit:
        return tr("A read, or a write of dirty pages, submitted to the disk");
    case LineKind::IoComplete:
        return tr("The disk completed a read or a write");
    case LineKind::IndexHeight:
        return tr("The radix tree gained or lost a level");
    case LineKind::IndexNode:
        return tr("An index node was allocated or freed");
    case LineKind::IndexTag:
        return tr("A dirty, writeback or towrite tag was set or cleared in a node");
    case LineKind::IndexChain:
        return tr("A hash chain changed length");
    case LineKind::Readahead:
        return tr("A readahead window opened");
    case LineKind::Eviction:
        return tr("Reclaim evicted a page to free its frame (wasted: a readahead page never read)");
    case LineKind::Refault:
        return tr("A page evicted recently was needed again and read back in");
    }
    return {};
}

LineKind lineKindOf(const Event& e) noexcept
{
    switch (e.kind) {
    case EventKind::LockWaitBegin:
        return LineKind::LockWaitBegin;
    case EventKind::LockAcquired:
        return ev::LockAcquired { e }.wait_ns() > 0 ? LineKind::LockWait : LineKind::LockAcquire;
    case EventKind::LockReleased:
        return LineKind::LockRelease;
    case EventKind::FaultBegin:
        return LineKind::FaultBegin;
    case EventKind::FaultEnd:
        switch (static_cast<FaultKind>(ev::FaultEnd { e }.fault_kind())) {
        case FaultKind::Major:
            return LineKind::FaultMajor;
        case FaultKind::WaitIo:
            return LineKind::FaultWaitIo;
        default:
            return LineKind::FaultOther;
        }
    case EventKind::PageLockWait:
        return LineKind::PageSleepBegin;
    case EventKind::PageLockWoken:
        return LineKind::PageSleep;
    case EventKind::IoSubmit:
        return LineKind::IoSubmit;
    case EventKind::IoComplete:
        return LineKind::IoComplete;
    case EventKind::IndexNodeAlloc:
    case EventKind::IndexNodeFree:
        return LineKind::IndexNode;
    case EventKind::IndexHeightGrow:
    case EventKind::IndexHeightShrink:
        return LineKind::IndexHeight;
    case EventKind::IndexTagSet:
    case EventKind::IndexTagClear:
        return LineKind::IndexTag;
    case EventKind::IndexChainLength:
        return LineKind::IndexChain;
    case EventKind::ReadaheadWindow:
        return LineKind::Readahead;
    case EventKind::PageEvicted:
        return LineKind::Eviction;
    case EventKind::PageRefault:
        return LineKind::Refault;
    }
    return LineKind::FaultOther;
}

QString formatDuration(std::uint64_t ns)
{
    if (ns < 1000)
        return QString::number(ns) + QStringLiteral(" ns");
    static const char16_t* const kUnits[] = { u" µs", u" ms", u" s" };
    double v = double(ns) / 1000.0;
    unsigned unit = 0;
    for (;;) {
        // Three significant digits; a value that rounds up to 1000 moves to
        // the next unit ("1.00 ms", not "1000 µs").
        const int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
        if (v < 999.5 || unit == 2)
            return QString::number(v, 'f', decimals) + QString::fromUtf16(kUnits[unit]);
        v /= 1000.0;
        ++unit;
    }
}

QString formatRunTime(std::int64_t ns)
{
    const bool negative = ns < 0;
    const std::uint64_t us = (static_cast<std::uint64_t>(std::llabs(ns)) + 500) / 1000;
    const std::uint64_t frac = us % 1000000;
    QString s;
    s.reserve(16);
    if (negative)
        s += QLatin1Char('-');
    s += QString::number(us / 1000000);
    s += QLatin1Char('.');
    s += QStringLiteral("%1 %2 s").arg(frac / 1000, 3, 10, QLatin1Char('0')).arg(frac % 1000, 3, 10, QLatin1Char('0'));
    return s;
}

EventText::EventText(LockNamer namer, IndexKind indexKind, unsigned cpus, unsigned disks)
    : namer_(std::move(namer))
    , indexKind_(indexKind)
    , cpus_(cpus)
    , disks_(disks)
{
}

QString EventText::actor(const Event& e) const
{
    // The device's completions come from its own thread, on its disk's
    // lane after the CPUs'; the disk's flusher records its writes on the
    // same lane, and kswapd on the lane after the disks' (events/lanes.h).
    if (e.kind == EventKind::IoComplete)
        return tr("disk");
    const LaneLayout lanes(cpus_, disks_);
    if (cpus_ == 0 || lanes.kind(e.cpu) == LaneKind::Cpu)
        return cpuName(e.cpu);
    if (lanes.kind(e.cpu) == LaneKind::Disk)
        return disks_ > 1 ? tr("flusher of disk %1").arg(lanes.index(e.cpu)) : tr("flusher");
    return QStringLiteral("kswapd");
}

QString EventText::lockName(const Event& e) const
{
    QString name = namer_ ? namer_(e) : QString();
    if (name.isEmpty())
        name = QStringLiteral("lock #") + QString::number(ev::LockAcquired { e }.lock_id());
    return name;
}

QString EventText::pageOf(const Event& e) const
{
    return QStringLiteral("file ") + QString::number(e.file) + QStringLiteral(" page ") + QString::number(e.index);
}

QString EventText::sentence(const Event& e, int holder) const
{
    // Each kind's fields are read through its view (core's event_kinds.h).
    const QString cpu = actor(e);
    const QString file = QStringLiteral("file ") + QString::number(e.file) + QStringLiteral(": ");
    const QString atPage = QStringLiteral(" (page ") + QString::number(e.index) + QLatin1Char(')');
    switch (e.kind) {
    case EventKind::LockWaitBegin: {
        const int holderCpu = ev::LockWaitBegin { e }.holder_cpu();
        return cpu + QStringLiteral(" started waiting for ") + lockName(e)
            + (holderCpu >= 0 ? QStringLiteral(", held by ") + cpuName(holderCpu) : QString());
    }
    case EventKind::LockAcquired: {
        const std::uint64_t wait = ev::LockAcquired { e }.wait_ns();
        if (wait == 0 && holder < 0)
            return cpu + QStringLiteral(" took ") + lockName(e);
        return cpu + QStringLiteral(" waited ") + formatDuration(wait) + QStringLiteral(" for ") + lockName(e)
            + (holder >= 0 ? QStringLiteral(", held by ") + cpuName(holder) : QString());
    }
    case EventKind::LockReleased:
        return cpu + QStringLiteral(" released ") + lockName(e) + QStringLiteral(" after holding it ")
            + formatDuration(ev::LockReleased { e }.hold_ns());
    case EventKind::FaultBegin:
    case EventKind::FaultEnd: {
        // FaultBegin and FaultEnd share their first fields (vpn, file, page).
        const ev::FaultEnd fault { e };
        const QString where = fault.file() == kAnonymousFile
            ? QStringLiteral("anonymous page at virtual page ") + QString::number(fault.vpn())
            : pageOf(e);
        if (e.kind == EventKind::FaultBegin)
            return cpu + QStringLiteral(": fault began on ") + where;
        const auto kind = static_cast<FaultKind>(fault.fault_kind());
        return cpu + QStringLiteral(": ") + QLatin1String(fault_kind_name(kind)) + QStringLiteral(" fault on ") + where
            + QStringLiteral(" (") + formatDuration(fault.duration_ns()) + QLatin1Char(')');
    }
    case EventKind::PageLockWait: {
        const ev::PageLockWait wait { e };
        return cpu + QStringLiteral(" went to sleep on page ") + QString::number(wait.page())
            + QStringLiteral(" of file ") + QString::number(wait.file()) + QStringLiteral(" (locked: under I/O)");
    }
    case EventKind::PageLockWoken: {
        // A page is locked only while its read is in flight (PG_locked:
        // under I/O or being filled), so that is why anyone sleeps on it.
        const ev::PageLockWoken woken { e };
        return cpu + QStringLiteral(" slept ") + formatDuration(woken.slept_ns()) + QStringLiteral(" on page ")
            + QString::number(woken.page()) + QStringLiteral(" of file ") + QString::number(woken.file())
            + QStringLiteral(" (locked: under I/O)");
    }
    case EventKind::IoSubmit:
        return (ev::IoSubmit { e }.write() ? QStringLiteral("disk: write-back of ") : QStringLiteral("disk: read of "))
            + pages(std::int64_t(ev::IoSubmit { e }.pages())) + QStringLiteral(" from ") + pageOf(e)
            + QStringLiteral(" submitted by ") + cpu;
    case EventKind::IoComplete: {
        const ev::IoComplete done { e };
        return QStringLiteral("disk: ") + (done.write() ? QStringLiteral("write ") : QStringLiteral("request "))
            + QString::number(done.request()) + QStringLiteral(" done (") + pages(std::int64_t(done.pages()))
            + QLatin1Char(')');
    }
    case EventKind::IndexNodeAlloc:
    case EventKind::IndexNodeFree: {
        const bool alloc = e.kind == EventKind::IndexNodeAlloc;
        const int level = ev::IndexNodeAlloc { e }.level();
        if (indexKind_ == IndexKind::SkipList)
            return file + QStringLiteral("skip-list node with a tower of ") + QString::number(level)
                + (alloc ? QStringLiteral(" linked") : QStringLiteral(" unlinked")) + atPage;
        return file + QStringLiteral("node ") + (alloc ? QStringLiteral("allocated") : QStringLiteral("freed"))
            + QStringLiteral(" at level ") + QString::number(level) + atPage;
    }
    case EventKind::IndexHeightGrow:
        return file + QStringLiteral("radix tree grew to height ")
            + QString::number(ev::IndexHeightGrow { e }.height());
    case EventKind::IndexHeightShrink:
        return file + QStringLiteral("radix tree shrank to height ")
            + QString::number(ev::IndexHeightShrink { e }.height());
    case EventKind::IndexTagSet:
    case EventKind::IndexTagClear: {
        const ev::IndexTagSet tag { e };
        return file + tagName(tag.tag()) + QStringLiteral(" tag ")
            + (e.kind == EventKind::IndexTagSet ? QStringLiteral("set") : QStringLiteral("cleared"))
            + QStringLiteral(" at level ") + QString::number(tag.level()) + atPage;
    }
    case EventKind::IndexChainLength: {
        const ev::IndexChainLength chain { e };
        return QStringLiteral("hash bucket ") + QString::number(chain.bucket()) + QStringLiteral(": chain now ")
            + QString::number(chain.length())
            + (chain.length() == 1 ? QStringLiteral(" entry long") : QStringLiteral(" entries long"))
            + QStringLiteral(" (") + pageOf(e) + QLatin1Char(')');
    }
    case EventKind::ReadaheadWindow: {
        const ev::ReadaheadWindow window { e };
        return file + QStringLiteral("readahead window [") + QString::number(window.start()) + QStringLiteral(", +")
            + QString::number(window.size()) + QStringLiteral(") async ") + QString::number(window.async_size())
            + (window.async() ? QStringLiteral(" (asynchronous: marker hit)") : QStringLiteral(" (synchronous)"));
    }
    case EventKind::PageEvicted: {
        const ev::PageEvicted evicted { e };
        return file + QStringLiteral("page ") + QString::number(evicted.page()) + QStringLiteral(" evicted")
            + (evicted.wasted() ? QStringLiteral(" before it was ever read (wasted readahead)") : QString())
            + (evicted.mapped() ? QStringLiteral(", unmapped first") : QString());
    }
    case EventKind::PageRefault: {
        const ev::PageRefault refault { e };
        return file + QStringLiteral("page ") + QString::number(refault.page()) + QStringLiteral(" refaulted, ")
            + QString::number(refault.distance()) + QStringLiteral(" evictions after it went")
            + (refault.active() ? QStringLiteral(" (within the active list: working set thrashing)") : QString());
    }
    }
    return QString::fromLatin1(to_string(e.kind).data(), qsizetype(to_string(e.kind).size()));
}

} // namespace pcl::ui
