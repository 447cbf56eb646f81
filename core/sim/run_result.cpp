#include "sim/run_result.h"

#include "lib/counter_json.h"
#include "sim/run_figures.h"

#include <algorithm>

namespace pcl {

HistogramSummary HistogramSummary::of(std::string name, const LatencyHistogram& histogram)
{
    HistogramSummary h;
    h.name = std::move(name);
    h.count = histogram.count();
    h.total_ns = histogram.total_ns();
    h.mean_ns = histogram.mean_ns();
    h.p50_ns = histogram.quantile_ns(0.50);
    h.p90_ns = histogram.quantile_ns(0.90);
    h.p99_ns = histogram.quantile_ns(0.99);
    h.max_ns = histogram.max_ns();
    for (unsigned b = 0; b < LatencyHistogram::kBuckets; ++b)
        if (const std::uint64_t n = histogram.bucket(b))
            h.buckets.push_back({ LatencyHistogram::lower(b),
                b + 1 < LatencyHistogram::kBuckets ? LatencyHistogram::lower(b + 1) : 0, n });
    return h;
}

RunResult collect_result(Engine& engine, const Scenario& scenario, const MetricsSampler& sampler, double wall_seconds)
{
    RunResult r;
    r.scenario = scenario;
    r.provenance = make_provenance();
    r.state = Engine::state_name(engine.state());
    r.error = engine.error();
    r.wall_seconds = wall_seconds;

    r.cpus = engine.cpu_counters();
    for (const auto& c : r.cpus)
        r.operations += c.operations;
    const FaultHandler& faults = engine.faults();
    for (unsigned k = 0; k < kFaultKinds; ++k)
        r.faults[k] = faults.faults(FaultKind(k));
    r.fault_around_mapped = faults.fault_around_mapped();
    r.page_cache = engine.page_cache().stats();
    r.pages_cached = engine.page_cache().nrpages();
    r.pte_backouts = engine.page_table().backouts();
    r.ptes_mapped = engine.page_table().mapped_count();
    r.page_table_pages = engine.page_table().table_pages();
    r.page_locks = engine.page_cache().page_locks().stats();
    r.device_requests = engine.device().requests();
    r.device_pages = engine.device().pages_read();
    for (BlockDevice* d : { &engine.device(), engine.second_device() })
        if (d) {
            const Writeback::DiskDirty dirty = engine.writeback().dirty_of(*d);
            r.devices.push_back(
                DeviceSummary { d->config().model, d->submitted(), d->requests(), d->merged(), d->pages_read(),
                    d->seeks(), d->busy_ns(), d->write_requests(), d->pages_written(), dirty.dirty, dirty.writeback });
        }
    r.writeback = engine.writeback().stats();
    r.dirty_background_thresh = engine.writeback().background_thresh();
    r.dirty_thresh = engine.writeback().dirty_thresh();
    for (FileId f : engine.files()) {
        const AddressSpace& as = engine.page_cache().file(f);
        const FileMemorySummary m { f, as.nrpages(), as.evictions.load(std::memory_order_relaxed),
            as.refaults.load(std::memory_order_relaxed), as.wasted_readahead.load(std::memory_order_relaxed),
            as.nr_dirty.load(std::memory_order_relaxed), as.nr_writeback.load(std::memory_order_relaxed) };
        if (m.evictions || m.refaults || m.wasted_readahead || m.pages_dirty || m.pages_writeback)
            r.file_memory.push_back(m);
    }
    std::stable_sort(r.file_memory.begin(), r.file_memory.end(),
        [](const FileMemorySummary& a, const FileMemorySummary& b) { return a.wasted_readahead > b.wasted_readahead; });
    r.frames_used = engine.frames().in_use();
    r.frames_total = engine.frames().total();
    r.frame_failures = engine.frames().failures();
    r.frame_stalls = engine.frames().stalls();
    r.frames_zone_free = engine.frames().zone_free();
    r.frames_pcp_free = engine.frames().pcp_free();
    r.watermarks = engine.frames().watermarks();
    r.pcp = engine.frames().pcp_sizing();
    r.pcp_refills = engine.frames().pcp_refills();
    r.pcp_spills = engine.frames().pcp_spills();
    r.pcp_drains = engine.frames().pcp_drains();
    r.kswapd_on = engine.kswapd() != nullptr;
    if (r.kswapd_on)
        r.kswapd = engine.kswapd()->stats();
    r.events_pushed = engine.events().pushed();
    r.events_dropped = engine.events().dropped();

    r.locks = engine.registry().locks();
    r.lock_classes = engine.registry().classes();
    r.lock_names = engine.registry().lock_names();
    r.class_names = engine.registry().class_names();

    for (FaultKind kind : { FaultKind::Minor, FaultKind::Major, FaultKind::WaitIo, FaultKind::Anon })
        r.histograms.push_back(
            HistogramSummary::of(std::string("fault.") + fault_kind_name(kind), faults.fault_latency(kind)));
    r.histograms.push_back(HistogramSummary::of("read", faults.read_latency()));
    r.histograms.push_back(HistogramSummary::of("device", engine.device().latency()));

    r.series = sampler.series();
    return r;
}

json::Value to_json(const sync::LockStatRow& row)
{
    return json::Object {
        { "name", row.name },
        { "class", row.lock_class },
        { "instances", row.instances },
        { "acquisitions", row.acquisitions },
        { "contentions", row.contentions },
        { "contention_ratio", row.contention_ratio() },
        { "acq_bounces", row.acq_bounces },
        { "con_bounces", row.con_bounces },
        { "wait_total_ns", row.wait_total_ns },
        { "wait_min_ns", row.wait_min_ns },
        { "wait_max_ns", row.wait_max_ns },
        { "wait_avg_ns", row.wait_avg_ns() },
        { "hold_total_ns", row.hold_total_ns },
        { "hold_min_ns", row.hold_min_ns },
        { "hold_max_ns", row.hold_max_ns },
        { "hold_avg_ns", row.hold_avg_ns() },
    };
}

json::Value to_json(const HistogramSummary& h)
{
    json::Array buckets;
    for (const auto& b : h.buckets)
        buckets.push_back(json::Object {
            { "lower_ns", b.lower_ns },
            { "upper_ns", b.upper_ns ? json::Value(b.upper_ns) : json::Value(nullptr) },
            { "count", b.count },
        });
    return json::Object {
        { "name", h.name },
        { "count", h.count },
        { "total_ns", h.total_ns },
        { "mean_ns", h.mean_ns },
        { "p50_ns", h.p50_ns },
        { "p90_ns", h.p90_ns },
        { "p99_ns", h.p99_ns },
        { "max_ns", h.max_ns },
        { "buckets", std::move(buckets) },
    };
}

json::Value to_json(const MetricsSample& s)
{
    json::Object o;
    for (const SampleColumn& c : sample_columns()) {
        if (c.count)
            o.emplace_back(std::string(c.name), s.*c.count);
        else if (c.real)
            o.emplace_back(std::string(c.name), s.*c.real);
        else
            o.emplace_back(std::string(c.name), s.*c.integer);
    }
    return o;
}

namespace {

json::Object host_json(const RunResult& r)
{
    json::Object host { { "wall_time_s", r.host_wall_seconds }, { "cpu_time_s", r.host_cpu_seconds } };
    for (auto& member : provenance_members(r.provenance))
        host.push_back(std::move(member));
    return host;
}

} // namespace

double modelled_cpu_seconds(const RunResult& result)
{
    std::uint64_t busy = 0;
    for (const CpuCounters& c : result.cpus)
        busy += c.busy_ns;
    return double(busy) / 1e9;
}

json::Value to_json(const RunResult& r)
{
    json::Array cpus;
    for (std::size_t cpu = 0; cpu < r.cpus.size(); ++cpu)
        cpus.push_back(json::Object {
            { "cpu", std::uint64_t(cpu) },
            { "operations", r.cpus[cpu].operations },
            { "migrations", r.cpus[cpu].migrations },
        });
    json::Object faults;
    for (unsigned k = 0; k < kFaultKinds; ++k)
        faults.emplace_back(fault_kind_name(FaultKind(k)), r.faults[k]);
    json::Array disks, files;
    for (const DeviceSummary& d : r.devices)
        disks.push_back(json::Object {
            { "model", d.model },
            { "submitted", d.submitted },
            { "requests", d.requests },
            { "merged", d.merged },
            { "pages_read", d.pages },
            { "seeks", d.seeks },
            { "busy_ns", d.busy_ns },
            { "write_requests", d.write_requests },
            { "pages_written", d.pages_written },
            { "pages_dirty", d.pages_dirty },
            { "pages_writeback", d.pages_writeback },
        });
    for (const FileMemorySummary& f : r.file_memory)
        files.push_back(json::Object {
            { "file", std::uint64_t(f.file) },
            { "pages_cached", f.pages_cached },
            { "evictions", f.evictions },
            { "refaults", f.refaults },
            { "wasted_readahead", f.wasted_readahead },
            { "pages_dirty", f.pages_dirty },
            { "pages_writeback", f.pages_writeback },
        });
    const PageCacheStats& pc = r.page_cache;
    const std::span page_cache = page_cache_counters();
    // Each object lists its counters (mm/page_cache_stats.h), with the
    // figures derived from them beside the counters they come from.
    json::Object cache = counters_json(page_cache, "page_cache", pc);
    insert_after(cache, "hits",
        {
            { "misses", pc.lookups - pc.hits },
            { "hit_ratio", pc.lookups ? double(pc.hits) / double(pc.lookups) : 0.0 },
        });
    cache.emplace_back("pages_cached", r.pages_cached);
    json::Object reclaim = counters_json(page_cache, "reclaim", pc);
    insert_after(reclaim, "direct_reclaims",
        {
            { "kswapd_reclaimed", r.kswapd.reclaimed },
            { "direct_reclaimed", pc.evictions - std::min(pc.evictions, r.kswapd.reclaimed) },
            { "kswapd",
                r.kswapd_on ? json::Value(counters_json(kswapd_counters(), "kswapd", r.kswapd)) : json::Value() },
        });
    reclaim.emplace_back("files", std::move(files));
    json::Object writeback = counters_json(page_cache, "writeback", pc);
    append(writeback,
        {
            { "pages_submitted", r.writeback.pages_submitted },
            { "submissions", r.writeback.submissions },
            { "background_runs", r.writeback.runs[unsigned(WbReason::Background)] },
            { "vmscan_runs", r.writeback.runs[unsigned(WbReason::Vmscan)] },
            { "periodic_runs", r.writeback.runs[unsigned(WbReason::Periodic)] },
            { "fsyncs", r.writeback.fsyncs },
            { "syncs", r.writeback.syncs },
            { "throttled", r.writeback.throttled },
            { "throttle_ns", r.writeback.throttle_ns },
            { "background_thresh_pages", r.dirty_background_thresh },
            { "dirty_thresh_pages", r.dirty_thresh },
        });

    json::Object totals {
        { "operations", r.operations },
        { "operations_per_s", r.operations_per_s() },
        { "cpus", std::move(cpus) },
        { "faults", std::move(faults) },
        { "fault_around_mapped", r.fault_around_mapped },
        { "page_cache", std::move(cache) },
        { "reclaim", std::move(reclaim) },
        { "writeback", std::move(writeback) },
        { "page_table",
            json::Object {
                { "pte_backouts", r.pte_backouts },
                { "ptes_mapped", r.ptes_mapped },
                { "table_pages", r.page_table_pages },
            } },
        { "page_lock",
            json::Object {
                { "waits", r.page_locks.waits },
                { "wait_ns", r.page_locks.wait_ns },
                { "max_wait_ns", r.page_locks.max_wait_ns },
            } },
        { "device",
            json::Object {
                { "requests", r.device_requests },
                { "pages_read", r.device_pages },
                { "disks", std::move(disks) },
            } },
        { "frames",
            json::Object {
                { "used", r.frames_used },
                { "total", r.frames_total },
                { "failures", r.frame_failures },
                { "stalls", r.frame_stalls },
                { "zone_free", r.frames_zone_free },
                { "pcp_free", r.frames_pcp_free },
                { "watermarks",
                    json::Object {
                        { "min", r.watermarks.min },
                        { "low", r.watermarks.low },
                        { "high", r.watermarks.high },
                    } },
                { "pcp",
                    json::Object {
                        { "batch", r.pcp.batch },
                        { "high", r.pcp.high },
                        { "refills", r.pcp_refills },
                        { "spills", r.pcp_spills },
                        { "drains", r.pcp_drains },
                    } },
            } },
        { "events",
            json::Object {
                { "pushed", r.events_pushed },
                { "dropped", r.events_dropped },
                { "drained", r.events_drained },
            } },
    };

    json::Object figures;
    for (const RunFigure& f : run_figures(r))
        figures.emplace_back(f.name, f.value);

    json::Array locks, classes, histograms, series;
    for (const auto& row : r.locks)
        locks.push_back(to_json(row));
    for (const auto& row : r.lock_classes)
        classes.push_back(to_json(row));
    for (const auto& h : r.histograms)
        histograms.push_back(to_json(h));
    for (const auto& s : r.series)
        series.push_back(to_json(s));

    return json::Object {
        { "version", RunResult::kVersion },
        { "scenario", scenario_to_json(r.scenario) },
        { "state", r.state },
        { "ended_by", std::string(run_end_name(r.ended_by)) },
        { "error", r.error },
        { "wall_time_s", r.wall_seconds },
        { "figures", std::move(figures) },
        { "totals", std::move(totals) },
        { "locks", std::move(locks) },
        { "lock_classes", std::move(classes) },
        { "histograms", std::move(histograms) },
        { "series", std::move(series) },
        // The computer that made it and what it spent, apart: everything
        // above is the same for the same scenario on a modelled machine,
        // this is not.
        { "host", host_json(r) },
    };
}

} // namespace pcl
