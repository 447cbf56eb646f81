// core/sim: the metrics sampler, the run result and the scenario runner -
// exact totals, series that add up to them, the JSON form, how runs end.
// The runs whose counts are exact whatever the interleaving run on this
// computer's threads and again on a modelled machine (altix-2005), so that
// the core's paths run there too (and under ThreadSanitizer, in CI).
#include "lib/json.h"
#include "sim/metrics.h"
#include "sim/run_result.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <string>

using namespace pcl;

namespace {

Scenario make(const char* pattern, const char* access, unsigned cpus, pgoff_t pages, std::uint64_t ops,
    const std::string& machine = "host")
{
    Scenario s;
    s.engine.machine.profile = machine;
    s.title = "test";
    s.sample_interval_ms = 10;
    EngineConfig& e = s.engine;
    e.workload.pattern = parse_workload_pattern(pattern).value();
    e.workload.access = parse_workload_access(access).value();
    e.workload.cpus = cpus;
    e.workload.file_pages = pages;
    e.workload.operations_per_cpu = ops;
    e.memory_pages = 1 << 14;
    e.device = { 2'000, 200, 1.0 };
    return s;
}

/// The whole of @series as one sample: its counts summed, as merging
/// neighbours sums them.
MetricsSample sum(const std::vector<MetricsSample>& series)
{
    MetricsSample t;
    for (const auto& s : series)
        t = MetricsSampler::merge(t, s);
    return t;
}

const sync::LockStatRow* row_named(const std::vector<sync::LockStatRow>& rows, const std::string& name)
{
    auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.name == name; });
    return it == rows.end() ? nullptr : &*it;
}

} // namespace

TEST_CASE("pft: P pages over T CPUs are exactly P anonymous faults, in the totals and the series", "[sim][metrics]")
{
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    for (auto scheme : { PageTable::Scheme::Single, PageTable::Scheme::Split }) {
        Scenario s = make("pft", "read", 4, 4096, 1'000'000, machine);
        s.engine.page_table_lock = scheme;
        const RunResult r = run_scenario(s);
        CHECK(r.state == "finished");
        CHECK(run_end_name(r.ended_by) == "finished");
        CHECK(r.error.empty());
        CHECK(r.operations == 4096);
        CHECK(r.faults_of(FaultKind::Anon) == 4096);
        CHECK(r.faults_of(FaultKind::Major) == 0);
        CHECK(r.faults_of(FaultKind::Minor) == 0);
        CHECK(r.ptes_mapped == 4096);
        CHECK(r.device_requests == 0);
        CHECK(r.frames_used == 4096);
        REQUIRE(r.cpus.size() == 4);
        for (const auto& cpu : r.cpus)
            CHECK(cpu.operations == 1024);

        // The last sample is taken after the CPUs left: the series adds up.
        REQUIRE_FALSE(r.series.empty());
        const MetricsSample t = sum(r.series);
        CHECK(t.operations == 4096);
        CHECK(t.anon_faults == 4096);
        CHECK(t.major_faults + t.minor_faults + t.wait_io_faults == 0);
        for (std::size_t i = 1; i < r.series.size(); ++i)
            CHECK(r.series[i].time_s >= r.series[i - 1].time_s);

        // The lock table: mm->page_table_lock is a named lock; the split
        // scheme's PTE locks count only in their class.
        const auto* mm = row_named(r.locks, "mm[0].page_table_lock");
        REQUIRE(mm != nullptr);
        CHECK(mm->lock_class == "mm.page_table_lock");
        CHECK(row_named(r.lock_classes, "mm.page_table_lock") != nullptr);
        CHECK(row_named(r.locks, "zone.lock") != nullptr);
        if (scheme == PageTable::Scheme::Split) {
            const auto* pte = row_named(r.lock_classes, "pte_lock");
            REQUIRE(pte != nullptr);
            CHECK(pte->acquisitions >= 4096); // every install takes its PTE page's lock
        } else {
            CHECK(mm->acquisitions >= 4096);
        }
    }
}

TEST_CASE("a sequential mmap reader: N major faults, then a second pass finds every page mapped", "[sim][metrics]")
{
    constexpr pgoff_t kPages = 256;
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    Scenario once = make("sequential", "mmap_read", 1, kPages, kPages, machine);
    const RunResult r1 = run_scenario(once);
    CHECK(r1.state == "finished");
    CHECK(r1.faults_of(FaultKind::Major) == kPages);
    CHECK(r1.faults_of(FaultKind::Minor) == 0);
    CHECK(r1.faults_of(FaultKind::Mapped) == 0);
    CHECK(r1.device_requests == kPages);
    CHECK(r1.device_pages == kPages);
    CHECK(r1.pages_cached == kPages);
    CHECK(r1.page_cache.adds == kPages);
    CHECK(r1.page_cache.insert_races == 0);
    CHECK(r1.pte_backouts == 0);
    const MetricsSample t1 = sum(r1.series);
    CHECK(t1.major_faults == kPages);
    CHECK(t1.lookups == r1.page_cache.lookups);
    CHECK(t1.lookup_hits == r1.page_cache.hits);
    // The index: a radix tree of fanout 64 over 256 pages is a root over 4 leaves.
    CHECK(r1.series.back().pages_cached == kPages);
    CHECK(r1.series.back().index_nodes == 5);
    CHECK(r1.series.back().index_height == 2);

    Scenario twice = make("sequential", "mmap_read", 1, kPages, 2 * kPages, machine);
    const RunResult r2 = run_scenario(twice);
    CHECK(r2.faults_of(FaultKind::Major) == kPages);
    CHECK(r2.faults_of(FaultKind::Mapped) == kPages);
    CHECK(r2.faults_of(FaultKind::Minor) == 0);
    CHECK(r2.operations == 2 * kPages);
}

TEST_CASE("read(2) through the hash: lookups in the series add up to the cache's", "[sim][metrics]")
{
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    Scenario s = make("sequential", "read", 2, 128, 512, machine);
    s.engine.index.kind = IndexKind::Hash;
    s.engine.index.hash_buckets = 256;
    s.engine.workload.files = FileSharing::Shared;
    const RunResult r = run_scenario(s);
    CHECK(r.state == "finished");
    CHECK(r.operations == 1024);
    CHECK(r.pages_cached == 128);
    const MetricsSample t = sum(r.series);
    CHECK(t.lookups == r.page_cache.lookups);
    CHECK(t.lookup_hits == r.page_cache.hits);
    CHECK(r.series.back().index_nodes == 0); // a hash has no nodes
    CHECK(r.series.back().index_height == 0);
    CHECK(row_named(r.locks, "pagecache_lock") != nullptr);
    // Every CPU's read latency was recorded.
    const auto read
        = std::find_if(r.histograms.begin(), r.histograms.end(), [](const auto& h) { return h.name == "read"; });
    REQUIRE(read != r.histograms.end());
    CHECK(read->count == 1024);
    std::uint64_t in_buckets = 0;
    for (const auto& b : read->buckets)
        in_buckets += b.count;
    CHECK(in_buckets == 1024);
    CHECK(read->p50_ns <= read->p99_ns);
    CHECK(read->p99_ns <= read->max_ns);
}

TEST_CASE("a run result's JSON parses back with the expected fields", "[sim][metrics][json]")
{
    Scenario s = make("pft", "read", 2, 512, 1'000'000);
    s.title = "pft, two CPUs";
    const RunResult r = run_scenario(s);
    const json::Value doc = to_json(r);
    const json::Value back = json::parse(json::write(doc));
    REQUIRE(back.is_object());
    REQUIRE(back.find("version"));
    CHECK(back.find("version")->as_int() == 1);
    for (const char* key : { "scenario", "state", "ended_by", "error", "wall_time_s", "totals", "locks", "lock_classes",
             "histograms", "series" })
        CHECK(back.find(key) != nullptr);
    // Integers may come back as signed or unsigned, so compare the text.
    CHECK(json::write(back) == json::write(doc));
    CHECK(back.find("scenario")->find("title")->as_string() == "pft, two CPUs");
    // The scenario in the result reads back as the scenario that ran.
    CHECK(scenario_to_json(scenario_from_json(*back.find("scenario"))) == scenario_to_json(s));

    const json::Value& totals = *back.find("totals");
    CHECK(totals.find("operations")->as_uint() == 512);
    CHECK(totals.find("faults")->find("anon")->as_uint() == 512);
    CHECK(totals.find("page_lock")->find("wait_ns") != nullptr);
    CHECK(totals.find("events")->find("dropped") != nullptr);
    const json::Value& lock = back.find("locks")->as_array().at(0);
    for (const char* key : { "name", "class", "acquisitions", "contentions", "con_bounces", "acq_bounces",
             "wait_total_ns", "wait_max_ns", "wait_avg_ns", "hold_max_ns", "hold_avg_ns" })
        CHECK(lock.find(key) != nullptr);
    const json::Value& h = back.find("histograms")->as_array().at(0);
    for (const char* key : { "name", "count", "p50_ns", "p90_ns", "p99_ns", "max_ns", "buckets" })
        CHECK(h.find(key) != nullptr);
    REQUIRE_FALSE(back.find("series")->as_array().empty());
    const json::Value& sample = back.find("series")->as_array().back();
    for (const char* key : { "time_s", "operations_per_s", "anon_faults_per_s", "hit_ratio", "lock_wait_fraction",
             "page_wait_fraction", "io_in_flight", "pages_cached", "index_nodes", "index_height" })
        CHECK(sample.find(key) != nullptr);
}

TEST_CASE("a run ends at its duration, on cancel, or failed with the engine's reason", "[sim][metrics][control]")
{
    SECTION("duration")
    {
        Scenario s = make("sequential", "read", 2, 64, 1'000'000);
        s.engine.ops_per_second = 200; // far from done after 0.3 s
        s.duration_seconds = 0.3;
        s.sample_interval_ms = 50;
        std::size_t progress_calls = 0;
        RunOptions options;
        options.progress = [&](const MetricsSample&) { ++progress_calls; };
        const RunResult r = run_scenario(s, options);
        CHECK(run_end_name(r.ended_by) == "duration");
        CHECK(r.state == "stopped");
        CHECK(r.wall_seconds >= 0.3);
        CHECK(r.wall_seconds < 2.0);
        CHECK(r.operations < 2'000'000);
        CHECK(progress_calls == r.series.size());
        CHECK(r.series.size() >= 4); // 0.3 s at 50 ms, plus the closing sample
        CHECK(sum(r.series).operations == r.operations);
    }
    SECTION("cancel")
    {
        Scenario s = make("sequential", "read", 1, 64, 1'000'000);
        s.engine.ops_per_second = 100;
        std::atomic<bool> cancel { false };
        RunOptions options;
        options.cancel = &cancel;
        options.progress = [&](const MetricsSample&) { cancel = true; };
        const RunResult r = run_scenario(s, options);
        CHECK(run_end_name(r.ended_by) == "cancelled");
        CHECK(r.state == "stopped");
        CHECK(r.wall_seconds < 2.0);
    }
    SECTION("failed")
    {
        Scenario s = make("pft", "read", 1, 4096, 1'000'000);
        s.engine.memory_pages = 100;
        const RunResult r = run_scenario(s);
        CHECK(run_end_name(r.ended_by) == "failed");
        CHECK(r.state == "failed");
        // Every frame but the reserve under the min watermark (3 of 100).
        CHECK_THAT(r.error,
            Catch::Contains("out of memory (memory_pages = 100): every frame but the 3 free ones kept in reserve "
                            "under the min watermark is pinned: 97 anonymous"));
        CHECK(r.faults_of(FaultKind::Anon) == 97);
    }
    SECTION("a bad scenario is refused before anything runs")
    {
        Scenario s = make("pft", "read", 1, 64, 64);
        s.engine.workload.cpus = 0;
        REQUIRE_THROWS_AS(run_scenario(s), ScenarioError);
        try {
            run_scenario(s);
        } catch (const ScenarioError& e) {
            CHECK(e.field() == "workload.cpus");
        }
    }
}

TEST_CASE("the event stream is drained while the run goes, not dropped", "[sim][metrics][events]")
{
    // Fewer events than one ring holds per CPU: every record is drained.
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    Scenario s = make("sequential", "mmap_read", 2, 256, 256, machine);
    const RunResult r = run_scenario(s);
    CHECK(r.events_pushed > 0);
    CHECK(r.events_dropped == 0);
    CHECK(r.events_drained == r.events_pushed);
}

TEST_CASE("a long series is thinned, keeping its span and its sums", "[sim][metrics]")
{
    Scenario s = make("pft", "read", 1, 4096, 4096);
    sync::LockRegistry registry;
    Engine engine(s.engine, registry);
    // A sampler keeping 500 (a run's keeps kMaxSeries): the same halving,
    // in a fortieth of the samples.
    constexpr std::size_t kept = 500;
    MetricsSampler sampler(engine, kept);
    CHECK(MetricsSampler(engine).max_series() == MetricsSampler::kMaxSeries);
    engine.start();
    engine.wait();
    const std::uint64_t total = engine.operations();
    // Far more samples than are kept: the first one holds every operation.
    const std::size_t taken = kept * 2 + 7;
    for (std::size_t i = 0; i < taken; ++i)
        sampler.sample();
    const auto& series = sampler.series();
    CHECK(series.size() < kept);
    CHECK(series.size() >= kept / 2);
    std::uint64_t ops = 0;
    double covered = 0;
    for (const auto& m : series) {
        ops += m.operations;
        covered += m.interval_s;
    }
    CHECK(ops == total);
    CHECK(series.back().time_s == Approx(covered).epsilon(1e-6));
}

TEST_CASE("merging two samples sums counts and recomputes rates over the joined interval", "[sim][metrics]")
{
    const MetricsSample a {
        .interval_s = 1, .operations = 100, .lookups = 10, .lookup_hits = 5, .lock_wait_fraction = 0.5
    };
    const MetricsSample b { .time_s = 4,
        .interval_s = 3,
        .operations = 200,
        .lookups = 10,
        .lookup_hits = 10,
        .lock_wait_fraction = 0.1,
        .pages_cached = 77 };
    const MetricsSample m = MetricsSampler::merge(a, b);
    CHECK(m.interval_s == 4);
    CHECK(m.time_s == 4);
    CHECK(m.operations == 300);
    CHECK(m.operations_per_s == 75);
    CHECK(m.hit_ratio == 0.75);
    CHECK(m.lock_wait_fraction == Approx((0.5 * 1 + 0.1 * 3) / 4));
    CHECK(m.pages_cached == 77);
}

TEST_CASE("the runner hands every drained event to a callback: ondemand's windows with their rules",
    "[sim][metrics][readahead]")
{
    Scenario s = make("sequential", "read", 1, 256, 64); // one-page read(2)s of pages 0..63
    s.engine.readahead = "ondemand";
    RunOptions options;
    std::vector<Event> windows;
    options.events = [&](const std::vector<Event>& batch) {
        for (const Event& e : batch)
            if (e.kind == EventKind::ReadaheadWindow)
                windows.push_back(e);
    };
    const RunResult r = run_scenario(s, options);
    REQUIRE(r.state == "finished");
    REQUIRE(r.events_dropped == 0);
    // (start, size, async_size, asynchronous, rule): the initial window at
    // the first miss, then one at each marker, x4 and x2 up to ra_pages.
    struct Expected {
        pgoff_t start, size;
        std::int32_t async_size;
        bool async;
        RaRule rule;
    };
    const Expected expected[] = { { 0, 4, 3, false, RaRule::Initial }, { 4, 8, 8, true, RaRule::Marker },
        { 12, 16, 16, true, RaRule::Marker }, { 28, 32, 32, true, RaRule::Marker },
        { 60, 32, 32, true, RaRule::Marker }, { 92, 32, 32, true, RaRule::Marker } };
    REQUIRE(windows.size() == std::size(expected));
    for (std::size_t i = 0; i < windows.size(); ++i) {
        INFO("window " << i);
        CHECK(windows[i].index == expected[i].start);
        CHECK(windows[i].arg0 == std::int64_t(expected[i].size));
        CHECK(windows[i].arg1 == expected[i].async_size);
        CHECK((windows[i].object == 1) == expected[i].async);
        CHECK(static_cast<RaRule>(windows[i].detail) == expected[i].rule);
    }
}

TEST_CASE("Morton's test under memory pressure: evictions, refaults and wasted readahead add up everywhere",
    "[sim][metrics][reclaim]")
{
    const std::string machine = GENERATE(as<std::string> {}, "host", "altix-2005");
    INFO(machine);
    Scenario s = make("morton", "read", 2, 64, 1, machine);
    s.engine.workload.nfiles = 24;
    s.engine.workload.stream_pages = 4096;
    s.engine.memory_pages = 512; // far less than A's 24 files and B's stream
    s.engine.readahead = "ondemand";
    s.engine.device.time_scale = 0;
    s.sample_interval_ms = 10;
    const RunResult r = run_scenario(s);
    REQUIRE(r.state == "finished");
    CHECK(r.cpus.at(0).operations == 24 * 64);
    const PageCacheStats& pc = r.page_cache;
    CHECK(pc.evictions > 0);
    CHECK(pc.wasted_readahead <= pc.evictions);
    // The series' counts add up to the totals, and so do the files'.
    const auto total = [](const auto& rows, auto member) {
        std::uint64_t n = 0;
        for (const auto& row : rows)
            n += row.*member;
        return n;
    };
    CHECK(total(r.series, &MetricsSample::evictions) == pc.evictions);
    CHECK(total(r.series, &MetricsSample::refaults) == pc.refaults);
    CHECK(total(r.series, &MetricsSample::wasted_readahead) == pc.wasted_readahead);
    CHECK(total(r.file_memory, &FileMemorySummary::evictions) == pc.evictions);
    CHECK(total(r.file_memory, &FileMemorySummary::refaults) == pc.refaults);
    CHECK(total(r.file_memory, &FileMemorySummary::wasted_readahead) == pc.wasted_readahead);
    // Memory is bounded: every frame accounted for by the LRU lists at the end.
    CHECK(r.frames_used <= 512);
    CHECK(pc.nr_active + pc.nr_inactive == r.pages_cached);
    // Two disks: A's and B's stream.
    REQUIRE(r.devices.size() == 2);
    CHECK(r.devices[0].pages == r.device_pages);
    CHECK(r.devices[1].pages >= 32);
    const json::Value j = to_json(r);
    CHECK(j.find("totals")->find("reclaim")->find("evictions")->as_uint() == pc.evictions);
    CHECK(j.find("totals")->find("device")->find("disks")->as_array().size() == 2);
}
