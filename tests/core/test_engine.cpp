// core/sim: the engine - simulated CPUs running workloads against one
// process's page cache, page table and disk, and their control.
#include "engine_test_support.h"
#include "eventually.h"
#include "lib/field_error.h"
#include "sim/engine.h"
#include "workload/trace_csv.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <sstream>
#include <thread>

using namespace pcl;
using test::eventually;

namespace {

using test::EngineRun;
using test::small_engine;

} // namespace

TEST_CASE("pft: every page of the region is mapped exactly once", "[sim][engine]")
{
    for (auto scheme : { PageTable::Scheme::Single, PageTable::Scheme::Split }) {
        EngineConfig c = small_engine("pft", 2, 2048, 1'000'000);
        c.page_table_lock = scheme;
        EngineRun run(c);
        Engine& engine = run.engine;
        CHECK(engine.state() == Engine::State::Finished);
        CHECK(engine.operations() == 2048);
        CHECK(engine.page_table().mapped_count() == 2048);
        CHECK(engine.faults().faults(FaultKind::Anon) == 2048);
        CHECK(engine.device().requests() == 0);
        for (std::uint64_t v = 0; v < 2048; ++v)
            REQUIRE(engine.page_table().read_pte(engine.anon_base_vpn() + v) != nullptr);
    }
}

TEST_CASE("sequential readers on separate files read each page from disk once", "[sim][engine]")
{
    EngineConfig c = small_engine("sequential", 2, 64, 100);
    c.workload.request_pages = 4;
    EngineRun run(c);
    Engine& engine = run.engine;
    CHECK(engine.state() == Engine::State::Finished);
    CHECK(engine.operations() == 200);
    CHECK(engine.page_cache().nrpages() == 128);
    CHECK(engine.device().pages_read() == 128);           // the files fit: after one pass everything is a hit
    CHECK(engine.device().requests() == 32);              // one per 4-page request of the first pass
    CHECK(engine.page_cache().stats().insert_races == 0); // separate files: nobody else adds our pages
}

TEST_CASE("pause holds every CPU, step lets each do exactly n operations", "[sim][engine][control]")
{
    EngineConfig c = small_engine("random", 3, 256, 400);
    c.workload.access = WorkloadAccess::MmapRead;
    sync::LockRegistry registry;
    Engine engine(c, registry);
    engine.start(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(engine.state() == Engine::State::Paused);
    CHECK(engine.operations() == 0);
    engine.step(3);
    REQUIRE(eventually([&] { return engine.operations() == 9; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (const auto& cpu : engine.cpu_counters())
        CHECK(cpu.operations == 3);
    engine.step(2);
    REQUIRE(eventually([&] { return engine.operations() == 15; }));
    for (const auto& cpu : engine.cpu_counters())
        CHECK(cpu.operations == 5);
    engine.resume();
    engine.wait();
    CHECK(engine.state() == Engine::State::Finished);
    CHECK(engine.operations() == 3 * 400);
}

TEST_CASE("stop ends a paced run promptly", "[sim][engine][control]")
{
    EngineConfig c = small_engine("sequential", 2, 128, 100000);
    c.ops_per_second = 50; // demo speed: 20 ms an operation
    sync::LockRegistry registry;
    Engine engine(c, registry);
    engine.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto t0 = std::chrono::steady_clock::now();
    engine.stop();
    const auto took = std::chrono::steady_clock::now() - t0;
    CHECK(engine.state() == Engine::State::Stopped);
    CHECK(took < std::chrono::seconds(2)); // pacing sleeps in 20 ms slices: stop is not held up
    CHECK(engine.operations() > 0);
    CHECK(engine.operations() < 100); // 50 a second per CPU, for about 0.1 s
}

TEST_CASE("running out of page frames fails the run with the reason", "[sim][engine]")
{
    EngineConfig c = small_engine("pft", 2, 1024, 1'000'000);
    c.memory_pages = 100;
    EngineRun run(c);
    Engine& engine = run.engine;
    CHECK(engine.state() == Engine::State::Failed);
    CHECK_THAT(engine.error(), Catch::Contains("memory_pages = 100"));
    // Every frame but the reserve under the min watermark (3 of 100), which
    // the error names. The watermark is looked at without the zone's lock,
    // as Linux looks at it: two CPUs that both see 4 frames free may both
    // take one, so the other CPU can take the reserve's first frame.
    const std::uint64_t reserve = engine.frames().watermarks().min;
    CHECK(reserve == 3);
    CHECK(engine.frames().in_use() >= 100 - reserve);
    CHECK(engine.frames().in_use() <= 100 - reserve + 1);
    CHECK_THAT(engine.error(), Catch::Contains("free ones kept in reserve under the min watermark"));
}

TEST_CASE("the same seed maps the same pages, another seed others", "[sim][engine][seed]")
{
    auto mapped = [](std::uint64_t seed) {
        EngineConfig c = small_engine("random", 2, 4096, 300);
        c.workload.access = WorkloadAccess::MmapRead;
        c.workload.seed = seed;
        EngineRun run(c);
        Engine& engine = run.engine;
        std::set<std::uint64_t> vpns;
        for (FileId f = 0; f < 2; ++f)
            for (std::uint64_t v = 0; v < 4096; ++v)
                if (engine.page_table().read_pte(engine.file_base_vpn(f) + v))
                    vpns.insert(engine.file_base_vpn(f) + v);
        return vpns;
    };
    const auto a = mapped(7), b = mapped(7), c = mapped(8);
    CHECK(a.size() > 400);
    CHECK(a == b);
    CHECK(a != c);
}

TEST_CASE("migration moves a thread to another CPU id every K operations", "[sim][engine]")
{
    EngineConfig c = small_engine("sequential", 2, 64, 100);
    c.migrate_every = 10;
    EngineRun run(c);
    Engine& engine = run.engine;
    for (const auto& cpu : engine.cpu_counters()) {
        CHECK(cpu.operations == 100);
        CHECK(cpu.migrations == 10);
    }
    // One CPU has no other to move to.
    c.workload.cpus = 1;
    try {
        c.validate();
        FAIL("migration on one CPU was accepted");
    } catch (const pcl::FieldError& e) {
        CHECK(e.field() == "pacing.migrate_every");
        CHECK_THAT(e.what(), Catch::Matchers::Contains("needs 2 CPUs or more"));
    }
}

TEST_CASE("writes through a shared mapping dirty the pages and tag them in the index", "[sim][engine]")
{
    EngineConfig c = small_engine("sequential", 1, 32, 32);
    c.workload.access = WorkloadAccess::MmapWrite;
    EngineRun run(c);
    Engine& engine = run.engine;
    PageIndex& index = *engine.page_cache().file(0).index;
    CHECK(index.tagged(kTagDirty));
    Page* dirty[64];
    CHECK(index.gang_lookup_tag(0, 64, kTagDirty, dirty) == 32);
    for (std::size_t i = 0; i < 32; ++i)
        CHECK(dirty[i]->test(PG_dirty));
}

TEST_CASE("bad engine settings are refused with the field named", "[sim][engine][params]")
{
    EngineConfig c = small_engine("pft", 2, 1024, 10);
    c.memory_pages = 0;
    REQUIRE_THROWS_WITH(Engine(c), Catch::Contains("memory_pages"));
    c = small_engine("pft", 2, 1024, 10);
    c.ops_per_second = -1;
    REQUIRE_THROWS_WITH(Engine(c), Catch::Contains("ops_per_second"));
    // An unknown word never becomes a pattern (a scenario's is refused by its
    // field, test_scenario); the engine gets only the enumeration's values.
    CHECK_FALSE(parse_workload_pattern("zigzag"));
    c = small_engine("pft", 2, 1024, 10);
    // An unknown name never becomes a kind; a value outside the enumeration is refused too.
    REQUIRE_THROWS_WITH(c.index.kind = index_kind_named("btree"), Catch::Contains("btree"));
    c.index.kind = static_cast<IndexKind>(kIndexKinds.size());
    REQUIRE_THROWS_WITH(Engine(c), Catch::Contains("index.kind") || Catch::Contains("is unknown"));
}

TEST_CASE("the speed changes while running, and a bad speed is refused", "[sim][engine][control]")
{
    EngineConfig c = small_engine("sequential", 2, 128, 300);
    c.ops_per_second = 1; // a second an operation: 300 s if the change were ignored
    sync::LockRegistry registry;
    Engine engine(c, registry);
    CHECK(engine.ops_per_second() == 1.0);
    engine.start();
    REQUIRE(eventually([&] { return engine.operations() >= 2; }));
    CHECK_THROWS_WITH(engine.set_pacing(-1, 0), Catch::Contains("ops_per_second"));
    CHECK_THROWS_WITH(engine.set_pacing(0, EngineConfig::kMaxHoldStretchNs + 1), Catch::Contains("hold_stretch_ns"));
    CHECK(engine.ops_per_second() == 1.0); // a refused change changes nothing
    engine.set_pacing(0, 0);               // unpaced: the CPUs sleeping out their second wake for it
    CHECK(engine.ops_per_second() == 0.0);
    REQUIRE(eventually([&] { return engine.state() == Engine::State::Finished; }));
    engine.wait();
    CHECK(engine.operations() == 600);
}

TEST_CASE("pause and stop do not wait out stretched lock holds", "[sim][engine][control]")
{
    EngineConfig c = small_engine("sequential", 2, 128, 100000);
    c.hold_stretch_ns = EngineConfig::kMaxHoldStretchNs; // every lock held a whole second
    sync::LockRegistry registry;
    Engine engine(c, registry);
    const auto acquired = [&] {
        std::uint64_t n = 0;
        for (const sync::LockStatRow& row : registry.classes())
            n += row.acquisitions;
        return n;
    };
    engine.start();
    // An acquisition is counted when it is made: from then on a CPU is
    // inside a stretched hold.
    REQUIRE(eventually([&] { return acquired() > 0; }));
    engine.stop();
    CHECK(engine.state() == Engine::State::Stopped);
    // A hold waited out would have lasted the whole stretch: the holds stop
    // found in progress ended there, so none of the run's reached it.
    for (const sync::LockStatRow& row : registry.classes()) {
        INFO(row.lock_class);
        CHECK(row.hold_max_ns < EngineConfig::kMaxHoldStretchNs);
    }
    CHECK(acquired() > 0);
}

TEST_CASE("event rings beyond the memory budget are refused", "[sim][engine][params]")
{
    EngineConfig c = small_engine("sequential", 64, 128, 10);
    c.event_ring_capacity = EngineConfig::kMaxEventRingCapacity; // 1 GiB per ring
    CHECK_THROWS_WITH(c.validate(), Catch::StartsWith("event_ring_capacity") && Catch::Contains("MiB"));
    c.events = false; // no rings, no budget
    CHECK_NOTHROW(c.validate());
}

TEST_CASE(
    "the readahead policy is a run parameter: ondemand reads ahead of a sequential reader", "[sim][engine][readahead]")
{
    EngineConfig c = small_engine("sequential", 1, 256, 64); // one-page read(2)s of pages 0..63
    c.readahead = "ondemand";
    EngineRun run(c);
    Engine& engine = run.engine;
    sync::LockRegistry& registry = run.registry;
    REQUIRE(engine.state() == Engine::State::Finished);
    // Windows (0,4) then at the markers (4,8) (12,16) (28,32) (60,32) (92,32):
    // the last opens at the marker on page 60, so pages 0..123 are cached.
    CHECK(engine.page_cache().file(engine.files().at(0)).nrpages() == 124);

    c.readahead = "none";
    Engine plain(c, registry);
    plain.start();
    plain.wait();
    CHECK(plain.page_cache().file(plain.files().at(0)).nrpages() == 64);
    CHECK(plain.device().requests() == 64);
    CHECK(engine.device().requests() < plain.device().requests());

    c.readahead = "sometimes";
    CHECK_THROWS_WITH(c.validate(), Catch::StartsWith("readahead policy 'sometimes'") && Catch::Contains("ondemand"));
    c.readahead = "none";
    c.device.ra_pages = 0;
    CHECK_THROWS_WITH(c.validate(), Catch::StartsWith("device.ra_pages"));
}

TEST_CASE("morton: the streaming process runs on its own disk until process A is done", "[sim][engine][morton]")
{
    EngineConfig c = small_engine("morton", 2, 16, 1);
    c.workload.nfiles = 4;
    c.workload.stream_pages = 1 << 20; // far more than B can read before A is done
    c.memory_pages = 1 << 14;
    c.readahead = "ondemand";
    Engine e(c);
    REQUIRE(e.files().size() == 5);
    REQUIRE(e.second_device() != nullptr);
    e.start();
    e.wait();
    CHECK(e.state() == Engine::State::Finished);
    const auto cpus = e.cpu_counters();
    CHECK(cpus[0].operations == 4 * 16);
    CHECK(cpus[1].operations > 0);
    // Every page A read came from the first disk, B's from the second.
    CHECK(e.device().pages_read() == 4 * 16);
    CHECK(e.second_device()->pages_read() >= 32);
    CHECK(e.page_cache().file(4).size_pages == (1u << 20));
}

TEST_CASE("a replayed trace runs one CPU per thread over files sized by the trace", "[sim][engine][trace]")
{
    std::istringstream in("0,1,read,/f,0,16384\n"
                          "1,2,write,/g,0,8192\n"
                          "2,2,mmap_touch,/f,0,8192\n");
    EngineConfig c = small_engine("sequential", 1, 16, 1);
    c.trace = std::make_shared<TracePlan>(parse_trace_csv(in, BadLines::Stop));
    Engine e(c);
    REQUIRE(e.config().workload.cpus == 2);
    REQUIRE(e.files().size() == 2);
    CHECK(e.page_cache().file(0).size_pages == 4);
    CHECK(e.page_cache().file(1).size_pages == 2);
    e.start();
    e.wait();
    CHECK(e.state() == Engine::State::Finished);
    const auto cpus = e.cpu_counters();
    CHECK(cpus[0].operations == 1);
    CHECK(cpus[1].operations == 3); // a write, then two faults
    // The write adds /g's pages dirty without reading them.
    CHECK(e.page_cache().file(1).nrpages() == 2);
    CHECK(e.page_cache().file(1).index->test_tag(0, kTagDirty));
    CHECK(e.page_cache().file(1).index->test_tag(1, kTagDirty));
    CHECK(e.device().pages_read() == 4);
}
