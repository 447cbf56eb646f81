#include "sim/run_figures.h"

#include "index/index_kind.h"
#include "lib/report.h"

#include <algorithm>

namespace pcl {

std::vector<RunFigure> run_figures(const RunResult& r)
{
    std::uint64_t contentions = 0, bounces = 0, wait_ns = 0;
    for (const sync::LockStatRow& c : r.lock_classes) {
        contentions += c.contentions;
        bounces += c.acq_bounces;
        wait_ns += c.wait_total_ns;
    }
    std::uint64_t migrations = 0;
    for (const CpuCounters& c : r.cpus)
        migrations += c.migrations;
    const double per_1000_ops = r.operations ? 1000.0 / double(r.operations) : 0.0;
    const double hit_ratio = r.page_cache.lookups ? double(r.page_cache.hits) / double(r.page_cache.lookups) : 0.0;
    std::uint64_t requests = 0, pages_read = 0;
    for (const DeviceSummary& d : r.devices) {
        requests += d.requests;
        pages_read += d.pages;
    }
    const auto f = [&](FaultKind k) { return double(r.faults_of(k)); };
    return {
        { "ops_per_s", "ops/s", "operations per second of running time, all CPUs", r.operations_per_s() },
        { "operations", "", "operations done by all CPUs", double(r.operations) },
        { "wall_s", "s", "running time", r.wall_seconds },
        { "minor_faults", "", "faults on a cached page", f(FaultKind::Minor) },
        { "major_faults", "", "faults that read the page from the disk", f(FaultKind::Major) },
        { "wait_io_faults", "", "faults that waited for another CPU's read", f(FaultKind::WaitIo) },
        { "anon_faults", "", "anonymous pages faulted in", f(FaultKind::Anon) },
        { "hit_ratio", "", "page-cache lookups that found the page, 0 to 1", hit_ratio },
        { "lock_contentions", "", "lock acquisitions that had to wait, every lock class", double(contentions) },
        { "contentions_per_1000_ops", "", "lock contentions per 1000 operations", double(contentions) * per_1000_ops },
        { "bounces_per_1000_ops", "",
            "lock acquisitions on another CPU than the last (cache-line bounces) per 1000 operations",
            double(bounces) * per_1000_ops },
        { "lock_wait_ms", "ms", "time spent waiting for locks, all CPUs", double(wait_ns) / 1e6 },
        { "page_lock_waits", "", "sleeps on a locked page", double(r.page_locks.waits) },
        { "migrations", "", "times a reader changed CPUs", double(migrations) },
        { "disk_requests", "", "requests the disks served (after merging)", double(requests) },
        { "pages_read", "pages", "pages read from the disks", double(pages_read) },
        { "evictions", "pages", "pages reclaim evicted", double(r.page_cache.evictions) },
        { "wasted_readahead", "pages", "readahead pages evicted before their first use",
            double(r.page_cache.wasted_readahead) },
        { "events_dropped", "", "event records the rings overwrote before they were read", double(r.events_dropped) },
    };
}

std::string machine_caption(const Scenario& s)
{
    const MachineSpec& m = s.engine.machine;
    if (!m.is_modelled())
        return "this computer's threads";
    try {
        return "a modelled " + m.load().title;
    } catch (const std::exception&) {
        return "a modelled " + m.profile;
    }
}

std::string time_caption(const Scenario& s)
{
    return s.engine.machine.is_modelled() ? "modelled time" : "running time";
}

std::string parameter_caption(const Scenario& s, const std::vector<std::string>& varied)
{
    // A sweep's caption is what its cells share: a part whose field the
    // grid varies is left out (the chart's axis and legend give it).
    const auto fixed_field = [&](std::initializer_list<const char*> fields) {
        for (const char* f : fields)
            if (std::find(varied.begin(), varied.end(), f) != varied.end())
                return false;
        return true;
    };
    const EngineConfig& e = s.engine;
    std::vector<std::string> parts;
    if (fixed_field({ "index.kind", "index.scheme", "index.radix_shift" })) {
        std::string index = std::string(index_kind_name(e.index.kind)) + " index";
        if (!e.index.scheme.empty())
            index += " (" + e.index.scheme + ")";
        if (e.index.kind == IndexKind::Radix)
            index += ", fanout " + std::to_string(1u << e.index.radix_shift);
        parts.push_back(index);
    }
    if (fixed_field({ "workload.cpus" }))
        parts.push_back(std::to_string(e.workload.cpus) + (e.workload.cpus == 1 ? " CPU" : " CPUs")
            + (e.machine.is_modelled() && fixed_field({ "machine.profile" }) ? " of " + machine_caption(s) : ""));
    else if (e.machine.is_modelled() && fixed_field({ "machine.profile" }))
        parts.push_back("on " + machine_caption(s));
    const double mib = double(e.memory_pages) * 4096.0 / double(1 << 20);
    if (fixed_field({ "memory_pages" }))
        parts.push_back((mib >= 1024 ? significant(mib / 1024) + " GiB" : significant(mib) + " MiB") + " of memory");
    if (fixed_field({ "readahead" }))
        parts.push_back("readahead " + e.readahead);
    if (fixed_field({ "ops_per_second" }))
        parts.push_back(
            e.ops_per_second > 0 ? "paced at " + significant(e.ops_per_second) + " ops/s per CPU" : "unpaced");
    if (e.hold_stretch_ns && fixed_field({ "hold_stretch_ns" }))
        parts.push_back("locks held " + std::to_string(e.hold_stretch_ns) + " ns longer");
    std::string c;
    for (const std::string& p : parts)
        c += (c.empty() ? "" : ", ") + p;
    return c;
}

std::vector<std::string> run_figure_names()
{
    std::vector<std::string> names;
    for (const RunFigure& f : run_figures(RunResult {}))
        names.push_back(f.name);
    return names;
}

const RunFigure* find_figure(const std::vector<RunFigure>& figures, std::string_view name)
{
    for (const RunFigure& f : figures)
        if (f.name == name)
            return &f;
    return nullptr;
}

} // namespace pcl
