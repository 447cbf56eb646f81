#include "sim/run_summary.h"

#include "lib/report.h"
#include "lib/text.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace pcl {

namespace {

std::string micros(std::uint64_t ns)
{
    return fixed(double(ns) / 1e3, 2);
}

/// "label value, label value...": every counter of @group, in the table's order.
template <class Stats>
std::string counter_list(std::span<const Counter<Stats>> table, std::string_view group, const Stats& s)
{
    std::string out;
    for_each_counter(table, group, [&](const Counter<Stats>& c) {
        out += (out.empty() ? "" : ", ") + std::string(c.label) + " " + with_commas(s.*c.member);
    });
    return out;
}

} // namespace

void print_lock_table(std::ostream& out, std::vector<pcl::sync::LockStatRow> rows, bool classes)
{
    std::erase_if(rows, [](const auto& r) { return r.acquisitions == 0; });
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.contentions != b.contentions ? a.contentions > b.contentions : a.acquisitions > b.acquisitions;
    });
    std::vector<std::string> columns;
    if (classes)
        columns = { "class", "locks" };
    else
        columns = { "name", "class" };
    for (const char* c :
        { "con-bounces", "contentions", "waittime-min", "waittime-max", "waittime-total", "waittime-avg", "acq-bounces",
            "acquisitions", "holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg" })
        columns.emplace_back(c);
    Report table(columns);
    for (const auto& r : rows) {
        table.add_row();
        if (classes) {
            table.set("class", r.name);
            table.set("locks", r.instances);
        } else {
            table.set("name", r.name);
            table.set("class", r.lock_class);
        }
        // lockstat's columns: the waits (of contentions), then the holds (of acquisitions).
        const auto times
            = [&](const std::string& what, std::uint64_t min, std::uint64_t max, std::uint64_t total, double avg) {
                  table.set(what + "time-min", micros(min));
                  table.set(what + "time-max", micros(max));
                  table.set(what + "time-total", micros(total));
                  table.set(what + "time-avg", fixed(avg / 1e3, 2));
              };
        table.set("con-bounces", r.con_bounces);
        table.set("contentions", r.contentions);
        times("wait", r.wait_min_ns, r.wait_max_ns, r.wait_total_ns, r.wait_avg_ns());
        table.set("acq-bounces", r.acq_bounces);
        table.set("acquisitions", r.acquisitions);
        times("hold", r.hold_min_ns, r.hold_max_ns, r.hold_total_ns, r.hold_avg_ns());
    }
    if (rows.empty())
        out << "  (none taken)\n";
    else
        table.print(out);
}

void print_run_summary(std::ostream& out, const pcl::RunResult& r, const std::string& path)
{
    using pcl::FaultKind;
    auto line = [&out](const char* key, const std::string& value) {
        out << "  " << std::left << std::setw(14) << key << value << '\n';
    };
    const pcl::Scenario& sc = r.scenario;
    out << "scenario " << (sc.title.empty() ? path : sc.title);
    // The source names its thread with the year ("radix-tree pagecache
    // (2002)"); the year alone is said only when the source does not say it.
    const bool year_in_source = sc.year && sc.source.find(std::to_string(sc.year)) != std::string::npos;
    if (sc.year || !sc.source.empty()) {
        out << " (";
        if (sc.year && !year_in_source)
            out << sc.year << (sc.source.empty() ? "" : ", ");
        out << sc.source << ")";
    }
    out << '\n';
    const auto& w = sc.engine.workload;
    const std::string index = "index " + std::string(index_kind_name(sc.engine.index.kind)) + "/"
        + (sc.engine.index.scheme.empty() ? "default" : sc.engine.index.scheme);
    if (const auto& plan = sc.engine.trace) {
        const Trace& t = plan->trace();
        line("workload",
            "trace " + sc.trace.path + " replayed: " + with_commas(t.events.size()) + " accesses by "
                + std::to_string(plan->threads()) + " thread(s) on " + std::to_string(w.cpus) + " CPU(s), "
                + with_commas(t.files.size()) + " " + plural(t.files.size(), "file") + ", " + index);
        if (t.skipped_lines) {
            const TraceLineError& first = t.errors.front();
            line("bad lines",
                with_commas(t.skipped_lines) + " skipped; the first, line " + std::to_string(first.line) + ": "
                    + first.reason + ": " + first.content);
        }
    } else if (w.pattern == WorkloadPattern::Morton) {
        line("workload",
            "morton: process A reads " + counted(w.nfiles, "file") + " of " + with_commas(w.file_pages) + " "
                + plural(w.file_pages, "page") + " round-robin, " + with_commas(w.request_pages)
                + " page(s) at a time; process B streams " + with_commas(w.stream_pages) + " "
                + plural(w.stream_pages, "page") + " from a second disk; " + index);
    } else {
        // pft and mixed choose their own kinds of operation; access is for the others.
        const bool own_access = w.pattern == WorkloadPattern::Pft || w.pattern == WorkloadPattern::Mixed;
        line("workload",
            std::string(workload_pattern_name(w.pattern))
                + (own_access ? "" : " " + std::string(workload_access_name(w.access))) + ", " + std::to_string(w.cpus)
                + " CPU(s), " + with_commas(w.file_pages) + " " + plural(w.file_pages, "page") + " per "
                + (w.pattern == WorkloadPattern::Pft ? "region" : "file") + ", " + index);
    }
    std::string state = r.state;
    if (r.ended_by == RunEnd::Duration)
        state += " at its duration";
    else if (r.ended_by == RunEnd::Cancelled)
        state += " (cancelled)";
    line("state", state);
    if (!r.error.empty())
        line("error", r.error);
    const MachineSpec& machine = r.scenario.engine.machine;
    if (machine.is_modelled())
        line("machine",
            "modelled " + machine.profile
                + (machine.latency_scale != 1 ? ", transfer latencies x" + fixed(machine.latency_scale, 2) : "")
                + ": times are virtual, the same on every computer");
    if (machine.is_exploring())
        line("schedule",
            std::string(sched::strategy_name(machine.schedule))
                + (machine.schedule == sched::ScheduleStrategy::Pct ? " (depth " + std::to_string(machine.pct_depth)
                            + " over " + with_commas(machine.pct_steps) + " points)"
                                                                    : std::string())
                + ", seed " + std::to_string(machine.schedule_seed ? machine.schedule_seed : w.seed)
                + ": an exploring schedule, looking for races; its times are not a model of the machine's");
    line(machine.is_modelled() ? "modelled time" : "wall time", fixed(r.wall_seconds, 3) + " s");
    if (machine.is_modelled() && r.host_wall_seconds > 0)
        line("host time", fixed(r.host_wall_seconds, 3) + " s to compute it");
    line("operations", with_commas(r.operations) + " (" + with_commas(std::uint64_t(r.operations_per_s())) + " ops/s)");
    if (w.pattern == WorkloadPattern::Morton && r.cpus.size() == 2) {
        const auto& a = r.cpus[0];
        if (a.finished_ns)
            line("process A",
                "read its " + counted(w.nfiles, "file") + " in " + fixed(double(a.finished_ns) / 1e9, 3) + " s ("
                    + with_commas(a.operations) + " " + plural(a.operations, "read") + "); B streamed meanwhile");
        else
            line("process A", "did not finish");
    }
    line("faults",
        "minor " + with_commas(r.faults_of(FaultKind::Minor)) + ", major " + with_commas(r.faults_of(FaultKind::Major))
            + ", wait_io " + with_commas(r.faults_of(FaultKind::WaitIo)) + ", anon "
            + with_commas(r.faults_of(FaultKind::Anon)) + ", already mapped "
            + with_commas(r.faults_of(FaultKind::Mapped)) + ", fault-around mapped "
            + with_commas(r.fault_around_mapped));
    const auto& pc = r.page_cache;
    const std::span cache = page_cache_counters();
    line("page cache",
        counter_list(cache, "page_cache", pc) + "; hit ratio "
            + (pc.lookups ? fixed(double(pc.hits) / double(pc.lookups), 3) : std::string("-")) + ", cached "
            + with_commas(r.pages_cached));
    line("page table", "PTE back-outs " + with_commas(r.pte_backouts) + ", PTEs mapped " + with_commas(r.ptes_mapped));
    line("page lock",
        "waits " + with_commas(r.page_locks.waits) + ", wait time " + fixed(double(r.page_locks.wait_ns) / 1e6, 3)
            + " ms");
    for (std::size_t d = 0; d < r.devices.size(); ++d) {
        const DeviceSummary& dev = r.devices[d];
        line((r.devices.size() > 1 ? "I/O disk " + std::to_string(d) : std::string("I/O")).c_str(),
            dev.model + ": requests " + with_commas(dev.requests) + " (" + with_commas(dev.submitted) + " submitted, "
                + with_commas(dev.merged) + " merged), pages read " + with_commas(dev.pages)
                + (dev.pages_written ? ", pages written " + with_commas(dev.pages_written) + " in "
                            + with_commas(dev.write_requests) + " requests"
                                     : std::string())
                + (dev.seeks ? ", seeks " + with_commas(dev.seeks) : std::string()) + ", busy "
                + fixed(double(dev.busy_ns) / 1e9, 3) + " s of device time"
                + (dev.pages_dirty || dev.pages_writeback ? "; its files' pages dirty at the end "
                            + with_commas(dev.pages_dirty) + ", being written " + with_commas(dev.pages_writeback)
                                                          : std::string()));
    }
    if (any_count(cache, "writeback", pc)) {
        const WritebackStats& wb = r.writeback;
        line("writeback",
            counter_list(cache, "writeback", pc) + "; flusher runs: background "
                + with_commas(wb.runs[unsigned(WbReason::Background)]) + ", for reclaim "
                + with_commas(wb.runs[unsigned(WbReason::Vmscan)]) + ", periodic "
                + with_commas(wb.runs[unsigned(WbReason::Periodic)]) + "; writers throttled "
                + with_commas(wb.throttled) + " times (" + fixed(double(wb.throttle_ns) / 1e6, 1) + " ms), fsyncs "
                + with_commas(wb.fsyncs));
    }
    line("frames",
        with_commas(r.frames_used) + " of " + with_commas(r.frames_total) + " in use; watermarks min "
            + with_commas(r.watermarks.min) + ", low " + with_commas(r.watermarks.low) + ", high "
            + with_commas(r.watermarks.high)
            + (r.pcp.high ? "; per-CPU lists of " + with_commas(r.pcp.high) + " (batches of " + with_commas(r.pcp.batch)
                        + "), " + with_commas(r.pcp_refills) + " refills"
                          : std::string("; no per-CPU lists")));
    if (reclaim_evicted(pc)) {
        line("reclaim", counter_list(cache, "reclaim", pc) + (r.kswapd_on ? "" : "; no kswapd"));
        if (r.kswapd_on)
            line("kswapd", counter_list(kswapd_counters(), "kswapd", r.kswapd));
        std::string worst;
        for (std::size_t i = 0; i < r.file_memory.size() && i < 3 && r.file_memory[i].wasted_readahead; ++i)
            worst += (worst.empty() ? "" : ", ") + std::string("file ") + std::to_string(r.file_memory[i].file) + " "
                + with_commas(r.file_memory[i].wasted_readahead);
        if (!worst.empty())
            line("thrashing", "wasted readahead pages by file, most first: " + worst);
    }
    line("events",
        "pushed " + with_commas(r.events_pushed) + ", dropped " + with_commas(r.events_dropped) + ", drained "
            + with_commas(r.events_drained));
    out << "\nlocks (named), by contentions; times in us\n";
    print_lock_table(out, r.locks, false);
    out << "\nlock classes, by contentions; times in us\n";
    print_lock_table(out, r.lock_classes, true);
}

} // namespace pcl
