// core/sim on a modelled machine: a run is a pure function of its scenario,
// its seed and its profile. Every bundled scenario, made small, runs twice
// in one process (so at other host addresses the second time) and gives the
// same events, in the same order at the same virtual times, the same result
// and the same trace.json; and what a modelled run charges is what its
// profile says.
#include "engine_test_support.h"
#include "lib/json.h"
#include "sanitizer_support.h"
#include "sched/machine_profiles.h"
#include "sched/schedule_strategy.h"
#include "sim/chrome_trace.h"
#include "sim/run_audit.h"
#include "sim/runner.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <cmath>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace pcl;

namespace {

/// @s made small enough to run twice in a test: at most 200 operations a
/// CPU, 4,096 pages a file and 5 ms of virtual time, memory shrunk in the
/// same proportion as the files (so that a scenario about memory pressure
/// keeps it), on machine @profile.
Scenario small_modelled(Scenario s, const std::string& profile)
{
    EngineConfig& e = s.engine;
    WorkloadSpec& w = e.workload;
    w.operations_per_cpu = std::min<std::uint64_t>(w.operations_per_cpu, 200);
    if (w.file_pages > 4096) {
        const double shrink = 4096.0 / double(w.file_pages);
        w.file_pages = 4096;
        e.memory_pages = std::max<std::uint64_t>(1024, std::uint64_t(double(e.memory_pages) * shrink));
    }
    e.memory_pages = std::min<std::uint64_t>(e.memory_pages, 1 << 16);
    e.reclaim = ReclaimConfig {};
    e.machine.profile = profile;
    // At most 5 ms of virtual time: the runs that end at their duration
    // end at the same virtual instant both times.
    s.duration_seconds = s.duration_seconds > 0 ? std::min(s.duration_seconds, 0.005) : 0.005;
    return s;
}

/// Everything a run shows: each event as it was recorded, the result (its
/// host section left out: the host's own time and CPU) and the trace.json
/// that `run --out` writes.
std::string outputs_of(const Scenario& s)
{
    std::string text;
    ChromeTrace trace;
    RunOptions options;
    options.events = [&](const std::vector<Event>& batch) {
        trace.add(batch);
        for (const Event& e : batch)
            text += std::to_string(e.time_ns) + " " + std::to_string(e.cpu) + " " + std::to_string(int(e.kind)) + " "
                + std::to_string(e.object) + " " + std::to_string(e.index) + " " + std::to_string(e.arg0) + " "
                + std::to_string(e.arg1) + " " + std::to_string(e.file) + " " + std::to_string(e.detail) + "\n";
    };
    const RunResult r = run_scenario(s, options);
    json::Value doc = to_json(r);
    std::erase_if(doc.as_object(), [](const auto& member) { return member.first == "host"; });
    return text + json::write(doc) + trace.json(r);
}

const std::filesystem::path kScenarios = std::filesystem::path(PCL_SOURCE_DIR) / "resources" / "scenarios";

/// The bundled scenario files, by name.
std::vector<std::filesystem::path> bundled_scenario_files()
{
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(kScenarios))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("every bundled scenario on a modelled machine is the same run twice", "[sim][modelled]")
{
    const std::vector<std::filesystem::path> files = bundled_scenario_files();
    REQUIRE(files.size() >= 10);
    for (const auto& file : files) {
        INFO(file.filename().string());
        const Scenario s = small_modelled(load_scenario(file.string()), "altix-2005");
        const std::string first = outputs_of(s);
        const std::string second = outputs_of(s);
        CHECK(first.size() > 100);
        CHECK(first == second);
    }
}

TEST_CASE("a one-CPU anonymous fault costs what the profile says, and nothing of it is host time", "[sim][modelled]")
{
    // altix-2005's minor fault is calibrated so that a fault's trap, the
    // zeroing, the PTE written and the locks taken add up to Lameter's one
    // CPU: the modelled time of a run of N faults on one CPU is exactly N
    // times the sum of the profile's figures for them.
    const sched::MachineProfile p = sched::load_machine_profile("altix-2005");
    Scenario s;
    s.engine = test::small_engine("pft", 1, 8192, 5000);
    s.engine.memory_pages = 16384;
    s.engine.machine.profile = "altix-2005";
    s.engine.events = false;
    const RunResult r = run_scenario(s);
    REQUIRE(r.state == "finished");
    const auto& w = p.work;
    // Per fault: the trap and zeroing; the PTE; the per-CPU free list's lock
    // and the PTE page's lock (each taken once, its line already here).
    const std::uint64_t per_fault = w.minor_fault.ns + w.page_zero.ns + w.pte_install.ns + 2 * w.lock_acquire.ns;
    const std::uint64_t faults = 5000;
    // Besides: the per-CPU list's refills from the zone take its lock once
    // a batch, and each new PTE page is allocated under mm->page_table_lock
    // (the PGD came with the mm, the one PMD page with the first PTE page).
    const std::uint64_t pte_pages = r.page_table_pages - 2;
    CHECK(pte_pages == (faults + 511) / 512);
    const std::uint64_t locks = r.pcp_refills + pte_pages;
    // The run ends when its last CPU leaves, not when the runner looks.
    CHECK(std::llround(r.wall_seconds * 1e9) == std::int64_t(faults * per_fault + locks * w.lock_acquire.ns));
}

TEST_CASE("paced CPUs of a modelled machine wake in their timer slack and not at one instant", "[sim][modelled]")
{
    // Eight readers of one file on the 8-way, each paced at 2,000 operations
    // a second. Each wakes for its next slot at a seeded point of the 50 us
    // after it (Linux's default timer slack): were they all to wake at the
    // slot itself, each would find the others at the tree lock (1,932 of
    // its 4,253 acquisitions contended); in their slack, 389 of 4,250.
    Scenario s = load_scenario((kScenarios / "2002-radix-tree-per-file.json").string());
    s.engine.workload.files = FileSharing::Shared;
    s.engine.workload.cpus = 8;
    s.engine.workload.operations_per_cpu = 200;
    s.engine.machine.profile = "pentium3-xeon-8way-2002";
    s.engine.ops_per_second = 2000;
    s.duration_seconds = 0;
    const RunResult r = run_scenario(s);
    REQUIRE(r.state == "finished");
    CHECK(r.operations == 8 * 200);
    // The pace holds: the last slot is 199 intervals after the first, and
    // the run ends within the slack and one read after it (which may wait
    // for the disk).
    CHECK(r.wall_seconds >= 199 / 2000.0);
    CHECK(r.wall_seconds < 199 / 2000.0 + 2e-3);
    const auto tree = std::find_if(r.lock_classes.begin(), r.lock_classes.end(),
        [](const sync::LockStatRow& row) { return row.name == "mapping.tree_lock"; });
    REQUIRE(tree != r.lock_classes.end());
    REQUIRE(tree->acquisitions >= 8 * 200);
    CHECK(tree->contentions > 0);
    CHECK(tree->contentions * 5 < tree->acquisitions);
    // Seeded: the same wake-ups, so the same run, every time.
    s.engine.workload.operations_per_cpu = 50;
    CHECK(outputs_of(s) == outputs_of(s));
}

TEST_CASE("every bundled scenario runs to its end under each schedule, its page cache sound, replayed by its seed",
    "[sim][modelled][explore]")
{
    const std::vector<std::filesystem::path> files = bundled_scenario_files();
    REQUIRE(files.size() >= 10);
    for (const auto strategy :
        { sched::ScheduleStrategy::VirtualTime, sched::ScheduleStrategy::Random, sched::ScheduleStrategy::Pct }) {
        for (std::size_t i = 0; i < files.size(); ++i) {
            const auto& file = files[i];
            // Under a sanitizer each scenario under its machine's order and
            // one exploring strategy, random and pct in turn: both are run
            // there, in two thirds of the time.
            if (test::kSanitized && strategy != sched::ScheduleStrategy::VirtualTime
                && (i % 2 == 0) != (strategy == sched::ScheduleStrategy::Random))
                continue;
            INFO(file.filename().string() << " under " << sched::strategy_name(strategy));
            Scenario s = small_modelled(load_scenario(file.string()), "epyc-2026");
            s.engine.machine.schedule = strategy;
            s.engine.machine.pct_steps = 2000;
            s.engine.machine.schedule_seed = 5;
            // No spinner keeps its holder from running, no sleeper the
            // others, no deadline is missed for good: it ends as on the
            // machine's own order, at its end or at its 5 ms (where more
            // contention may have left it fewer operations done).
            RunOptions options;
            std::vector<std::string> problems;
            options.at_end = [&](Engine& engine) { problems = audit_page_cache(engine); };
            const RunResult r = run_scenario(s, options);
            for (const std::string& p : problems)
                UNSCOPED_INFO(p);
            CHECK(problems.empty());
            CHECK(r.error.empty());
            CHECK((r.state == "finished" || (r.state == "stopped" && r.ended_by == RunEnd::Duration)));
            CHECK(r.operations > 0);
        }
        if (strategy == sched::ScheduleStrategy::VirtualTime)
            continue;
        // The same seed is the same schedule; another seed another one.
        Scenario s = small_modelled(load_scenario((kScenarios / "2002-global-hash-lock.json").string()), "epyc-2026");
        s.engine.machine.schedule = strategy;
        s.engine.machine.pct_steps = 2000;
        s.engine.machine.schedule_seed = 5;
        const std::string first = outputs_of(s);
        CHECK(outputs_of(s) == first);
        s.engine.machine.schedule_seed = 6;
        CHECK(outputs_of(s) != first);
    }
}

TEST_CASE("the audit of a run's end names each broken invariant", "[sim][modelled][explore]")
{
    Scenario s = small_modelled(load_scenario((kScenarios / "2002-global-hash-lock.json").string()), "epyc-2026");
    s.engine.workload.cpus = 2;
    std::vector<std::string> sound;
    std::vector<std::string> broken;
    RunOptions options;
    options.at_end = [&](Engine& engine) {
        sound = audit_page_cache(engine);
        // A cached page taken off its list's flag, as a reclaim that
        // isolated it and lost it would leave it; and a PTE of file 0's
        // offset 0 mapping its offset 1 (or any other cached page).
        Page* victim = engine.page_cache().lru_pages(LruList::Inactive).at(0);
        victim->clear(PG_lru);
        const FileId file = engine.files().at(0);
        Page* other = nullptr;
        for (pgoff_t off = 1; !other; ++off)
            if ((other = engine.page_cache().find_get_page(file, off)))
                engine.page_cache().put_page(other);
        bool installed = false;
        engine.page_table().install(engine.file_base_vpn(file), other, installed);
        // And a clean page marked dirty behind its index's back, and a
        // reference to the first taken and never dropped.
        other->set(PG_dirty);
        victim->count.fetch_add(1);
        // And a frame taken and kept (settled, as a page pinned for good
        // would be), in no file and mapped by nobody.
        Page* leaked = engine.frames().alloc(kAnonymousFile, 0, Gfp::NoRetry);
        REQUIRE(leaked);
        // And a page in file 0's index past the file's end, where no
        // lookup of its offsets looks: its count and its walk disagree
        // with the lookups. And one at an offset not cached, with PG_lru
        // and the cache's reference but on no list.
        const pgoff_t size = Engine::file_sizes(engine.config()).at(0);
        PageIndex& index = *engine.page_cache().file(file).index;
        pgoff_t hole = 0;
        while (index.lookup(hole))
            ++hole;
        REQUIRE(hole < size);
        Page* stray = engine.frames().alloc(file, size + 5, Gfp::NoRetry);
        Page* unlisted = engine.frames().alloc(file, hole, Gfp::NoRetry);
        REQUIRE(stray);
        REQUIRE(unlisted);
        REQUIRE(index.insert(size + 5, stray) == InsertResult::Inserted);
        REQUIRE(index.insert(hole, unlisted) == InsertResult::Inserted);
        unlisted->set(PG_lru);
        unlisted->count.store(1);
        engine.frames().settle(3);
        broken = audit_page_cache(engine, 100);
        engine.frames().unsettle(3);
        REQUIRE(index.erase(size + 5) == stray);
        REQUIRE(index.erase(hole) == unlisted);
        for (Page* p : { stray, unlisted }) {
            p->clear(PG_lru);
            p->count.store(0);
            engine.frames().free(p);
        }
        leaked->count.store(0);
        engine.frames().free(leaked);
        victim->count.fetch_sub(1);
        other->clear(PG_dirty);
        victim->set(PG_lru);
    };
    const RunResult r = run_scenario(s, options);
    CHECK(r.state == "finished");
    CHECK(sound.empty());
    const auto said = [&](const std::string& words) {
        return std::any_of(
            broken.begin(), broken.end(), [&](const std::string& p) { return p.find(words) != std::string::npos; });
    };
    CHECK(said("LRU list without PG_lru"));
    CHECK(said("is in its file's index but on no LRU list"));
    CHECK(said("'s offset 0 maps page "));
    CHECK(said("is dirty but its index's dirty tag says otherwise"));
    CHECK(said("dirty pages, its index holds 1"));
    CHECK(said("references after the run, the cache's make 1: a reference was taken and never dropped"));
    CHECK(said("anonymous ones mapped: a frame was leaked, or freed while still mapped"));
    CHECK(said("'s index counts "));
    CHECK(said("'s index's gang lookup walk gives "));
    CHECK(said("'s index's dirty-tagged walk gives 0 pages, its lookups 1, first missing page "));
    CHECK(said("'s index says no page carries its dirty tag, but 1 page is dirty"));
    CHECK(said(" pages are on the LRU lists, the files' indexes hold "));
}

TEST_CASE("an allocation waiting for reclaim lets the others run: four CPUs in sixteen frames end under pct",
    "[sim][modelled][explore][reclaim]")
{
    // Every page reclaim isolates in sixteen frames may be locked under a
    // read or in another CPU's hands; the pass puts them back and the
    // allocation waits for what others do next. Under pct the allocating
    // CPU keeps the highest priority until it waits: a wait that its own
    // put-backs ended at once (the marks from before its pass) kept it
    // reclaiming for ever, the disk never run to unlock the pages (seed 1 at
    // depth 1 did). Each schedule must end, its cache sound.
    for (const char* access : { "mmap_read", "read" }) {
        for (unsigned depth : { 1u, 3u }) {
            for (std::uint64_t seed = 1; seed <= 3; ++seed) {
                INFO(access << ", pct depth " << depth << ", seed " << seed);
                Scenario s;
                s.engine = test::small_engine("random", 4, 40, 100, access);
                s.engine.memory_pages = 16;
                s.engine.readahead = "linux-2.6.32";
                s.engine.device.time_scale = 0;
                s.engine.events = false;
                s.engine.machine.profile = "epyc-2026";
                s.engine.machine.schedule = sched::ScheduleStrategy::Pct;
                s.engine.machine.pct_depth = depth;
                s.engine.machine.pct_steps = 20'000;
                s.engine.machine.schedule_seed = seed;
                RunOptions options;
                options.max_scheduling_points = 2'000'000; // a run takes about 30,000
                std::vector<std::string> problems;
                options.at_end = [&](Engine& engine) { problems = audit_page_cache(engine); };
                const RunResult r = run_scenario(s, options);
                CHECK(r.error == "");
                CHECK(r.state == "finished");
                CHECK(r.operations == 4 * 100);
                for (const std::string& p : problems)
                    UNSCOPED_INFO(p);
                CHECK(problems.empty());
            }
        }
    }
}
