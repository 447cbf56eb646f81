// sim: a run as a Chrome trace-event file (chrome_trace.h), read back: the
// phases Perfetto imports, one thread per CPU and per disk, slices that
// nest on every thread, and, where no record was dropped, as many fault
// and lock-wait slices as the run counted faults and contentions.
#include "lib/json.h"
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
            ++slices_by_cat[str(e, "cat")];
            ++slices_by_cat[str(e, "name")];
            if (str(e, "name").rfind("wait ", 0) == 0)
                ++waits;
            const std::int64_t ts = std::llround(e.find("ts")->as_double() * 1000);
            slices_by_tid[e.find("tid")->as_uint()].push_back({ ts, ts + std::llround(dur->as_double() * 1000) });
        }
        if (ph == "i" && str(e, "cat") == "readahead")
            ++readahead;
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
    std::vector<Event> batch;
    for (int i = 0; i < 5; ++i)
        batch.push_back(
            ev::PageRefault::record(1000 + i, 0, { .file = 1u, .page = pgoff_t(i), .distance = 1u, .active = false }));
    trace.add(batch);
    CHECK(trace.events_kept() == 3);
    CHECK(trace.events_left_out() == 2);
    RunResult r;
    r.cpus.resize(1);
    r.events_dropped = 4;
    const json::Value doc = json::parse(trace.json(r));
    const json::Value* other = doc.find("otherData");
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
    CHECK(label.find("6 events dropped") != std::string::npos);
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
            if (e.find("args")->find("hold_ns")->as_uint() == 10'000)
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
