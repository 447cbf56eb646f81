#include "charts/seriescatalog.h"

#include <QCoreApplication>

namespace pcl::ui {

namespace {

QString tr(const char* s)
{
    return QCoreApplication::translate("pcl::ui::SeriesCatalog", s);
}

} // namespace

QString metricGroupName(MetricGroup group)
{
    switch (group) {
    case MetricGroup::Throughput:
        return tr("Throughput");
    case MetricGroup::Faults:
        return tr("Faults");
    case MetricGroup::Cache:
        return tr("Page cache");
    case MetricGroup::Locks:
        return tr("Locks");
    case MetricGroup::Io:
        return tr("I/O");
    case MetricGroup::Memory:
        return tr("Memory");
    case MetricGroup::Index:
        return tr("Page index");
    }
    return {};
}

const std::vector<Metric>& SeriesCatalog::metrics()
{
    using G = MetricGroup;
    using U = MetricUnit;
    // Captureless lambdas: the table is data, not a class hierarchy.
    static const std::vector<Metric> kMetrics = {
        { "operations_per_s", tr("operations/s"), tr("operations"), U::PerSecond, G::Throughput, "operations",
            [](const MetricsSample& s) { return s.operations_per_s; } },
        { "minor_faults_per_s", tr("minor faults/s"), tr("minor"), U::PerSecond, G::Faults, "faults",
            [](const MetricsSample& s) { return s.minor_faults_per_s; } },
        { "major_faults_per_s", tr("major faults/s"), tr("major"), U::PerSecond, G::Faults, "faults",
            [](const MetricsSample& s) { return s.major_faults_per_s; } },
        { "wait_io_faults_per_s", tr("faults waiting for I/O/s"), tr("waiting for I/O"), U::PerSecond, G::Faults,
            "faults", [](const MetricsSample& s) { return s.wait_io_faults_per_s; } },
        { "anon_faults_per_s", tr("anonymous faults/s"), tr("anonymous"), U::PerSecond, G::Faults, "faults",
            [](const MetricsSample& s) { return s.anon_faults_per_s; } },
        // NaN (no lookup in the interval) stays NaN: the chart leaves a gap
        // rather than claiming a 0 % hit ratio.
        { "hit_ratio_percent", tr("page-cache hit ratio (%)"), tr("hit ratio"), U::Percent, G::Cache, "hit_ratio",
            [](const MetricsSample& s) { return s.hit_ratio * 100.0; } },
        { "lock_wait_percent", tr("lock wait (% of CPU time)"), tr("lock wait"), U::Percent, G::Locks, "lock_wait",
            [](const MetricsSample& s) { return s.lock_wait_fraction * 100.0; } },
        { "page_wait_percent", tr("page wait (% of CPU time)"), tr("asleep on pages under I/O"), U::Percent, G::Io,
            "page_wait", [](const MetricsSample& s) { return s.page_wait_fraction * 100.0; } },
        { "io_in_flight", tr("I/O requests in flight"), tr("in flight"), U::Requests, G::Io, "io_in_flight",
            [](const MetricsSample& s) { return double(s.io_in_flight); } },
        { "io_queued", tr("I/O requests queued"), tr("queued"), U::Requests, G::Io, "io_in_flight",
            [](const MetricsSample& s) { return double(s.io_queued); } },
        { "evictions_per_s", tr("evictions/s"), tr("evicted"), U::PerSecond, G::Memory, "reclaim",
            [](const MetricsSample& s) { return s.evictions_per_s; } },
        { "refaults_per_s", tr("refaults/s"), tr("refaulted"), U::PerSecond, G::Memory, "reclaim",
            [](const MetricsSample& s) { return s.refaults_per_s; } },
        { "wasted_readahead_per_s", tr("wasted readahead pages/s"), tr("wasted readahead"), U::PerSecond, G::Memory,
            "reclaim", [](const MetricsSample& s) { return s.wasted_readahead_per_s; } },
        { "nr_active", tr("active LRU pages"), tr("active list"), U::Pages, G::Memory, "lru",
            [](const MetricsSample& s) { return double(s.nr_active); } },
        { "nr_inactive", tr("inactive LRU pages"), tr("inactive list"), U::Pages, G::Memory, "lru",
            [](const MetricsSample& s) { return double(s.nr_inactive); } },
        { "pages_cached", tr("pages cached"), tr("cached"), U::Pages, G::Memory, "memory",
            [](const MetricsSample& s) { return double(s.pages_cached); } },
        { "frames_used", tr("page frames used"), tr("frames used"), U::Pages, G::Memory, "memory",
            [](const MetricsSample& s) { return double(s.frames_used); } },
        { "frames_free", tr("free page frames (the zone's list)"), tr("free"), U::Pages, G::Memory, "free",
            [](const MetricsSample& s) { return double(s.frames_free); } },
        { "frames_pcp", tr("free page frames on the CPUs' own lists"), tr("per-CPU lists"), U::Pages, G::Memory, "free",
            [](const MetricsSample& s) { return double(s.frames_pcp); } },
        { "wmark_high", tr("high watermark: kswapd stops"), tr("high"), U::Pages, G::Memory, "free",
            [](const MetricsSample& s) { return double(s.wmark_high); } },
        { "wmark_low", tr("low watermark: kswapd wakes"), tr("low"), U::Pages, G::Memory, "free",
            [](const MetricsSample& s) { return double(s.wmark_low); } },
        { "wmark_min", tr("min watermark: CPUs reclaim themselves"), tr("min"), U::Pages, G::Memory, "free",
            [](const MetricsSample& s) { return double(s.wmark_min); } },
        { "kswapd_reclaimed_per_s", tr("pages reclaimed by kswapd/s"), tr("by kswapd"), U::PerSecond, G::Memory,
            "reclaimers", [](const MetricsSample& s) { return s.kswapd_reclaimed_per_s; } },
        { "direct_reclaimed_per_s", tr("pages reclaimed by the faulting CPUs/s"), tr("by the CPUs"), U::PerSecond,
            G::Memory, "reclaimers", [](const MetricsSample& s) { return s.direct_reclaimed_per_s; } },
        { "nr_dirty", tr("dirty pages"), tr("dirty"), U::Pages, G::Memory, "dirty",
            [](const MetricsSample& s) { return double(s.nr_dirty); } },
        { "nr_writeback", tr("pages under writeback"), tr("being written"), U::Pages, G::Memory, "dirty",
            [](const MetricsSample& s) { return double(s.nr_writeback); } },
        { "pages_dirtied_per_s", tr("pages dirtied/s"), tr("dirtied"), U::PerSecond, G::Io, "writeback",
            [](const MetricsSample& s) { return s.pages_dirtied_per_s; } },
        { "pages_written_per_s", tr("pages written back/s"), tr("written back"), U::PerSecond, G::Io, "writeback",
            [](const MetricsSample& s) { return s.pages_written_per_s; } },
        { "index_nodes", tr("index nodes"), tr("nodes"), U::Nodes, G::Index, "index_nodes",
            [](const MetricsSample& s) { return double(s.index_nodes); } },
        { "index_height", tr("index height (levels)"), tr("height"), U::Levels, G::Index, "index_height",
            [](const MetricsSample& s) { return double(s.index_height); } },
    };
    return kMetrics;
}

const std::vector<ChartSpec>& SeriesCatalog::charts()
{
    using G = MetricGroup;
    using U = MetricUnit;
    static const std::vector<ChartSpec> kCharts = {
        { "operations", tr("Operations per second"), tr("operations/s"), U::PerSecond, G::Throughput, true, 0 },
        { "faults", tr("Faults per second by kind"), tr("faults/s"), U::PerSecond, G::Faults, true, 0 },
        { "lock_wait", tr("Lock wait (share of CPU time)"), tr("CPU time waiting for locks (%)"), U::Percent, G::Locks,
            true, 0 },
        { "hit_ratio", tr("Page-cache hit ratio"), tr("lookups that hit (%)"), U::Percent, G::Cache, true, 100 },
        { "page_wait", tr("Page wait (share of CPU time)"), tr("CPU time asleep on pages (%)"), U::Percent, G::Io,
            false, 0 },
        { "io_in_flight", tr("I/O in flight and queued"), tr("device requests"), U::Requests, G::Io, false, 0 },
        { "memory", tr("Pages cached and frames used"), tr("pages"), U::Pages, G::Memory, false, 0 },
        { "reclaim", tr("Reclaim: evictions, refaults, wasted readahead"), tr("pages/s"), U::PerSecond, G::Memory,
            false, 0 },
        { "lru", tr("LRU lists: active and inactive"), tr("pages"), U::Pages, G::Memory, false, 0 },
        { "free", tr("Free memory and the watermarks"), tr("pages"), U::Pages, G::Memory, false, 0 },
        { "reclaimers", tr("Who reclaims: kswapd or the CPUs that need a page"), tr("pages/s"), U::PerSecond, G::Memory,
            false, 0 },
        { "dirty", tr("Dirty pages and pages being written back"), tr("pages"), U::Pages, G::Memory, false, 0 },
        { "writeback", tr("Writeback: pages dirtied and written per second"), tr("pages/s"), U::PerSecond, G::Io, false,
            0 },
        { "index_nodes", tr("Index nodes"), tr("nodes"), U::Nodes, G::Index, false, 0 },
        { "index_height", tr("Index height"), tr("levels"), U::Levels, G::Index, false, 0 },
    };
    return kCharts;
}

std::vector<const Metric*> SeriesCatalog::metricsOf(const QString& chartId)
{
    std::vector<const Metric*> out;
    for (const Metric& m : metrics())
        if (m.chart == chartId)
            out.push_back(&m);
    return out;
}

const Metric* SeriesCatalog::metric(const QString& id)
{
    for (const Metric& m : metrics())
        if (m.id == id)
            return &m;
    return nullptr;
}

const ChartSpec* SeriesCatalog::chart(const QString& id)
{
    for (const ChartSpec& c : charts())
        if (c.id == id)
            return &c;
    return nullptr;
}

} // namespace pcl::ui
