// sim: a run as a Chrome trace-event file (chrome_trace.h), read back: the
// phases Perfetto imports, one thread per CPU and per disk, slices that
// nest on every thread, and, where no record was dropped, as many fault
// and lock-wait slices as the run counted faults and contentions; slices
// that aggregate (no args, so a handful of speedscope frames per CPU), what
// their records say on the instants beside them, anonymous pages without a
// file; the size limit, no limit, and a window of the run.
#include "lib/json.h"
#include "mm/fault.h"
#include "sim/chrome_trace.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace pcl;

namespace {

/// Two CPUs faulting in one shared file through 2.4's one global hash
/// lock, paced so that every event is recorded and none is dropped.
Scenario paced_shared_file()
{
    Scenario s;
    s.title = "trace test";
    s.sample_interval_ms = 10;
    EngineConfig& e = s.engine;
    e.workload.pattern = WorkloadPattern::Sequential;
    e.workload.access = WorkloadAccess::MmapRead;
    e.workload.files = FileSharing::Shared;
    e.workload.cpus = 2;
    e.workload.file_pages = 256;
    e.workload.operations_per_cpu = 400;
    e.index.kind = IndexKind::Hash;
    e.memory_pages = 1 << 14;
    e.device = { 2'000, 200, 1.0 };
    e.ops_per_second = 20'000;
    return s;
}

struct Read {
    json::Value doc;
    RunResult result;
};

/// The pft workload (the pagefault scalability thread, 2005) in place of
/// the file's: the two CPUs write-fault an anonymous region under one
/// page_table_lock, every fault recorded.
Scenario paced_pft()
{
    Scenario s = paced_shared_file();
    s.title = "pft trace test";
    s.engine.workload.pattern = WorkloadPattern::Pft;
    s.engine.workload.file_pages = 1 << 14;
    s.engine.workload.operations_per_cpu = 1500;
    s.engine.page_table_lock = PageTable::Scheme::Single;
    s.engine.memory_pages = 1 << 16;
    return s;
}

Read traced_run(const Scenario& s)
{
    ChromeTrace trace;
    RunOptions options;
    options.events = [&](const std::vector<Event>& batch) { trace.add(batch); };
    Read r;
    r.result = run_scenario(s, options);
    r.doc = json::parse(trace.json(r.result));
    return r;
}

const json::Array& events_of(const json::Value& doc)
{
    const json::Value* events = doc.find("traceEvents");
    REQUIRE(events != nullptr);
    REQUIRE(events->is_array());
    return events->as_array();
}

std::string str(const json::Value& e, const char* key)
{
    const json::Value* v = e.find(key);
    return v && v->is_string() ? v->as_string() : std::string();
}

/// The tids of the threads named "CPU @cpu" and its overflow ("CPU 0,
/// overlapping 2").
std::set<std::uint64_t> cpu_threads(const json::Value& doc, unsigned cpu)
{
    const std::string name = "CPU " + std::to_string(cpu);
    std::set<std::uint64_t> tids;
    for (const json::Value& e : events_of(doc))
        if (str(e, "ph") == "M" && str(e, "name") == "thread_name") {
            const std::string thread = str(*e.find("args"), "name");
            if (thread == name || thread.rfind(name + ",", 0) == 0)
                tids.insert(e.find("tid")->as_uint());
        }
    return tids;
}

/// The frames speedscope makes of @tids' slices: its Chrome importer keys a
/// frame by the name and, when there are args, their JSON
/// (src/import/trace-event.ts, getEventId).
std::set<std::string> speedscope_frames(const json::Value& doc, const std::set<std::uint64_t>& tids)
{
    std::set<std::string> frames;
    for (const json::Value& e : events_of(doc))
        if (str(e, "ph") == "X" && tids.count(e.find("tid")->as_uint())) {
            const json::Value* args = e.find("args");
            frames.insert(str(e, "name") + (args ? " " + json::write(*args, -1) : std::string()));
        }
    return frames;
}

/// @n page refaults of file 1, one a microsecond from @t0_ns on CPU 0.
std::vector<Event> refaults(int n, std::uint64_t t0_ns = 1000, std::uint64_t step_ns = 1000)
{
    std::vector<Event> batch;
    for (int i = 0; i < n; ++i)
        batch.push_back(ev::PageRefault::record(t0_ns + std::uint64_t(i) * step_ns, 0,
            { .file = 1u, .page = pgoff_t(i), .distance = 1u, .active = false }));
    return batch;
}

} // namespace

TEST_CASE("a paced run's trace: its tracks, phases, and a slice for every fault and every lock wait", "[sim][trace]")
{
    const Read r = traced_run(paced_shared_file());
    REQUIRE(r.result.state == "finished");
    REQUIRE(r.result.events_dropped == 0);
    const json::Value* other = r.doc.find("otherData");
    REQUIRE(other != nullptr);
    CHECK(other->find("events_dropped")->as_uint() == 0);
    CHECK(other->find("complete")->as_bool());
    CHECK(other->find("parameters")->find("workload")->find("cpus")->as_uint() == 2);

    std::set<std::string> thread_names;
    std::map<std::string, std::uint64_t> slices_by_cat;
    std::uint64_t waits = 0, readahead = 0;
    // Spans in whole nanoseconds, as a trace reader keeps them: the sum of
    // two microsecond doubles can exceed the end it stands for by an ulp,
    // and a slice ending where the next begins would seem to overlap it.
    std::map<std::uint64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> slices_by_tid;
    // Where each fault slice and each "faulted page" instant is (tid, ts).
    std::multiset<std::pair<std::uint64_t, double>> fault_slices, faulted_pages;
    for (const json::Value& e : events_of(r.doc)) {
        const std::string ph = str(e, "ph");
        INFO(json::write(e, -1));
        REQUIRE((ph == "X" || ph == "i" || ph == "C" || ph == "M"));
        REQUIRE(e.find("pid") != nullptr);
        if (ph == "M" && str(e, "name") == "thread_name")
            thread_names.insert(str(*e.find("args"), "name"));
        if (ph != "M")
            REQUIRE(e.find("ts")->is_number());
        if (ph == "X") {
            const json::Value* dur = e.find("dur");
            REQUIRE(dur != nullptr);
            REQUIRE(dur->is_number());
            REQUIRE(dur->as_double() >= 0);
            // The name alone says what a slice is, so that viewers sum them.
            CHECK(e.find("args") == nullptr);
            ++slices_by_cat[str(e, "cat")];
            ++slices_by_cat[str(e, "name")];
            if (str(e, "cat") == "fault")
                fault_slices.insert({ e.find("tid")->as_uint(), e.find("ts")->as_double() });
            if (str(e, "name").rfind("wait ", 0) == 0)
                ++waits;
            const std::int64_t ts = std::llround(e.find("ts")->as_double() * 1000);
            slices_by_tid[e.find("tid")->as_uint()].push_back({ ts, ts + std::llround(dur->as_double() * 1000) });
        }
        if (ph == "i" && str(e, "cat") == "readahead")
            ++readahead;
        if (ph == "i" && str(e, "name") == "faulted page") {
            const json::Value& args = *e.find("args");
            CHECK(args.find("file")->as_uint() < 2); // the one shared file
            CHECK(args.find("page") != nullptr);
            CHECK(args.find("vpn") != nullptr);
            faulted_pages.insert({ e.find("tid")->as_uint(), e.find("ts")->as_double() });
        }
    }
    CHECK(thread_names.count("CPU 0") == 1);
    CHECK(thread_names.count("CPU 1") == 1);
    CHECK(std::any_of(
        thread_names.begin(), thread_names.end(), [](const std::string& n) { return n.rfind("disk 0 (", 0) == 0; }));

    // Every fault is a slice named by its kind; an access that found its
    // PTE set (FaultKind::Mapped) was no fault and has none.
    std::uint64_t faults = 0;
    for (unsigned k = 1; k < kFaultKinds; ++k)
        faults += r.result.faults[k];
    CHECK(faults > 0);
    CHECK(slices_by_cat["mapped fault"] == 0);
    for (unsigned k = 1; k < kFaultKinds; ++k)
        CHECK(slices_by_cat[std::string(fault_kind_name(FaultKind(k))) + " fault"] == r.result.faults[k]);
    CHECK(slices_by_cat["fault"] == faults);
    // Each fault's page is on an instant at the fault's start, on its thread.
    CHECK(faulted_pages == fault_slices);
    CHECK(other->find("slice_details")->find("instants")->as_uint() >= faults);
    std::uint64_t contentions = 0;
    for (const auto& c : r.result.lock_classes)
        contentions += c.contentions;
    CHECK(waits == contentions);
    CHECK(slices_by_cat["io"] == r.result.devices.at(0).submitted);
    CHECK(readahead > 0);

    // On every thread, slices nest: each starts after the previous ended
    // or ends within the one it starts in (Chrome's rule for X events).
    for (auto& [tid, spans] : slices_by_tid) {
        std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
            return a.first < b.first || (a.first == b.first && a.second > b.second);
        });
        std::vector<std::int64_t> open;
        for (const auto& [start, end] : spans) {
            while (!open.empty() && open.back() <= start)
                open.pop_back();
            INFO("thread " << tid << " slice " << start << ".." << end << " ns, inside one ending at "
                           << (open.empty() ? -1 : open.back()));
            CHECK((open.empty() || end <= open.back()));
            open.push_back(end);
        }
    }
}

TEST_CASE("a trace that outgrows its size limit says how many events it left out", "[sim][trace]")
{
    ChromeTrace trace(3);
    trace.add(refaults(5, 1'000'000, 250'000'000)); // at 1 ms, 251 ms, 501 ms...
    CHECK(trace.events_kept() == 3);
    CHECK(trace.events_left_out() == 2);
    RunResult r;
    r.cpus.resize(1);
    r.events_dropped = 4;
    r.wall_seconds = 1.5;
    MetricsSample sample;
    sample.time_s = 0.1;
    sample.interval_s = 0.1;
    sample.clock_ns = 100'000'000; // the run started at 0 on the records' clock
    r.series.push_back(sample);
    // Where the trace was cut and how much it holds, in words.
    CHECK(trace.kept_until_s(r) == Approx(0.501));
    CHECK(trace.cut_note(r) == "the first 3 of 5 events, up to 0.501 s of the run's 1.500 s");
    const json::Value doc = json::parse(trace.json(r));
    const json::Value* other = doc.find("otherData");
    CHECK(other->find("size_limit")->as_uint() == 3);
    CHECK(other->find("kept_until_s")->as_double() == Approx(0.501));
    CHECK(other->find("cut")->as_string().find("the first 3 of 5 events") != std::string::npos);
    CHECK(other->find("events_left_out_at_size_limit")->as_uint() == 2);
    CHECK(other->find("events_dropped_by_rings")->as_uint() == 4);
    CHECK(other->find("events_dropped")->as_uint() == 6);
    CHECK_FALSE(other->find("complete")->as_bool());
    std::uint64_t instants = 0;
    std::string label;
    for (const json::Value& e : events_of(doc)) {
        instants += str(e, "ph") == "i";
        if (str(e, "name") == "process_labels")
            label = str(*e.find("args"), "labels");
    }
    CHECK(instants == 3);
    CHECK(label.find("cut at 0.501 s by the size limit") != std::string::npos);
    CHECK(label.find("6 events dropped") != std::string::npos);
}

TEST_CASE("a trace without a size limit keeps every event, and says nothing was cut", "[sim][trace]")
{
    ChromeTrace trace(ChromeTrace::kNoLimit);
    trace.add(refaults(2000));
    CHECK(trace.events_kept() == 2000);
    CHECK(trace.events_left_out() == 0);
    RunResult r;
    r.cpus.resize(1);
    CHECK(trace.cut_note(r).empty());
    const json::Value doc = json::parse(trace.json(r));
    const json::Value* other = doc.find("otherData");
    CHECK(other->find("size_limit")->as_string() == "none");
    CHECK(other->find("complete")->as_bool());
    CHECK(other->find("cut") == nullptr);
    CHECK(other->find("instants")->as_uint() == 2000);
}

TEST_CASE(
    "a trace of a window of the run keeps the records stamped in it, measured from the run's start", "[sim][trace]")
{
    // The run starts at 5 s on the records' clock; a record every 10 ms
    // from there, the first ones before the first sample tells the start.
    constexpr std::uint64_t kStart = 5'000'000'000;
    ChromeTrace trace(ChromeTrace::kDefaultMaxEvents, ChromeTrace::Window { .from_s = 0.05, .to_s = 0.12 });
    const std::vector<Event> early = refaults(10, kStart, 10'000'000);
    trace.add(early);
    CHECK(trace.events_kept() == 0); // waiting for the start
    MetricsSample sample;
    sample.time_s = 0.1;
    sample.interval_s = 0.1;
    sample.clock_ns = kStart + 100'000'000;
    trace.add_sample(sample);
    // 0, 10, ... 90 ms: 50..90 ms are in the window.
    CHECK(trace.events_kept() == 5);
    trace.add(refaults(10, kStart + 100'000'000, 10'000'000));
    // 100..190 ms: 100 and 110 ms are in it, 120 ms is its end.
    CHECK(trace.events_kept() == 7);
    CHECK(trace.events_outside_window() == 13);

    RunResult r;
    r.cpus.resize(1);
    r.wall_seconds = 0.2;
    for (int k = 1; k <= 20; ++k) {
        MetricsSample s;
        s.time_s = 0.01 * k;
        s.interval_s = 0.01;
        s.clock_ns = kStart + std::uint64_t(k) * 10'000'000;
        r.series.push_back(s);
    }
    const json::Value doc = json::parse(trace.json(r));
    const json::Value* other = doc.find("otherData");
    CHECK(other->find("window_s")->find("from")->as_double() == Approx(0.05));
    CHECK(other->find("window_s")->find("to")->as_double() == Approx(0.12));
    CHECK(other->find("events_outside_window")->as_uint() == 13);
    // The times are the run's (microseconds from its start): the records
    // and the counters of the window only.
    std::uint64_t instants = 0, counters = 0;
    std::string label;
    for (const json::Value& e : events_of(doc)) {
        const std::string ph = str(e, "ph");
        if (ph == "i" || ph == "C") {
            INFO(json::write(e, -1));
            CHECK(e.find("ts")->as_double() >= 50'000 - 1e-6);
            CHECK(e.find("ts")->as_double() <= 120'000 + 1e-6);
            ++(ph == "i" ? instants : counters);
        }
        if (str(e, "name") == "process_labels")
            label = str(*e.find("args"), "labels");
    }
    CHECK(instants == 7);
    CHECK(counters == 4 * 8); // the samples at 50, 60, ... 120 ms, four tracks each
    CHECK(label.find("0.05 s to 0.12 s of the run") != std::string::npos);

    // A window whose start no sample gave is placed by the run's series.
    ChromeTrace unsampled(ChromeTrace::kDefaultMaxEvents, ChromeTrace::Window { .from_s = 0.05, .to_s = 0.12 });
    unsampled.add(early);
    const json::Value doc2 = json::parse(unsampled.json(r));
    CHECK(doc2.find("otherData")->find("events_outside_window")->as_uint() == 5);
    CHECK(doc2.find("otherData")->find("instants")->as_uint() == 5);
}

TEST_CASE(
    "a pft run's trace: anonymous faults have no file, and each CPU's slices are a handful of frames", "[sim][trace]")
{
    const Read r = traced_run(paced_pft());
    REQUIRE(r.result.state == "finished");
    REQUIRE(r.result.faults[unsigned(FaultKind::Anon)] > 0);
    std::uint64_t anon_slices = 0, anon_pages = 0;
    for (const json::Value& e : events_of(r.doc)) {
        INFO(json::write(e, -1));
        if (str(e, "ph") == "X" && str(e, "name") == "anon fault")
            ++anon_slices;
        if (const json::Value* args = e.find("args"); args && str(e, "ph") != "M") {
            // No page of this run has a file: none may claim file ~0.
            CHECK(args->find("file") == nullptr);
            if (str(e, "name") == "faulted page") {
                CHECK(args->find("page") == nullptr);
                CHECK(args->find("vpn") != nullptr);
                ++anon_pages;
            }
        }
    }
    CHECK(anon_slices == r.result.faults[unsigned(FaultKind::Anon)]);
    CHECK(anon_pages == anon_slices);
    // Thousands of slices on CPU 0, yet the frames a profile viewer makes
    // of them are the kinds of work: the fault and the locks' waits and holds.
    const std::set<std::uint64_t> cpu0 = cpu_threads(r.doc, 0);
    REQUIRE_FALSE(cpu0.empty());
    const std::set<std::string> frames = speedscope_frames(r.doc, cpu0);
    INFO([&] {
        std::string all;
        for (const std::string& f : frames)
            all += f + "\n";
        return all;
    }());
    CHECK(frames.count("anon fault") == 1);
    CHECK(frames.size() <= 8);
}

TEST_CASE("a lane whose slices overlap a thousand deep keeps its threads apart from the next lane's", "[sim][trace]")
{
    // 1200 holds on CPU 0, each beginning before the last ends and ending
    // after it: none nests in another, so each needs a thread of its own;
    // CPU 1 holds one lock. No thread of CPU 0 may take CPU 1's number.
    constexpr std::size_t kOverlapping = 1200;
    std::vector<Event> batch;
    for (std::size_t i = 0; i < kOverlapping; ++i)
        batch.push_back(ev::LockReleased::record(
            100'000 + i, 0, { .lock = 1u, .lock_id = 0u, .class_id = 0u, .hold_ns = 50'000u }));
    batch.push_back(
        ev::LockReleased::record(120'000, 1, { .lock = 2u, .lock_id = 0u, .class_id = 0u, .hold_ns = 10'000u }));
    ChromeTrace trace;
    trace.add(batch);
    RunResult r;
    r.cpus.resize(2);
    const json::Value doc = json::parse(trace.json(r));
    std::map<std::uint64_t, std::string> names;
    std::set<std::uint64_t> slice_threads;
    std::uint64_t cpu1_slice_tid = 0;
    for (const json::Value& e : events_of(doc)) {
        if (str(e, "ph") == "M" && str(e, "name") == "thread_name")
            CHECK(names.emplace(e.find("tid")->as_uint(), str(*e.find("args"), "name")).second);
        if (str(e, "ph") == "X") {
            CHECK(slice_threads.insert(e.find("tid")->as_uint()).second);
            if (e.find("dur")->as_double() == Approx(10.0)) // CPU 1's hold, 10 us
                cpu1_slice_tid = e.find("tid")->as_uint();
        }
    }
    CHECK(slice_threads.size() == kOverlapping + 1);
    CHECK(names.size() == kOverlapping + 1);
    std::size_t cpu0 = 0;
    for (const auto& [tid, name] : names)
        cpu0 += name.rfind("CPU 0", 0) == 0;
    CHECK(cpu0 == kOverlapping);
    CHECK(names[cpu1_slice_tid] == "CPU 1");
}
