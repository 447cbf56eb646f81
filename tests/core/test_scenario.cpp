// Scenario files: defaults, the full round trip, every kind of error naming
// its field, overrides, saving and loading, and the bundled presets.
#include "lib/file_io.h"
#include "sim/scenario.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace pcl;

namespace {

/// Parses @text expecting a ScenarioError on @field whose message contains @what.
void expect_error(const std::string& text, const std::string& field, const std::string& what)
{
    INFO("scenario: " << text);
    try {
        parse_scenario(text, "test.json");
        FAIL("parsed without error");
    } catch (const ScenarioError& e) {
        INFO("message: " << e.what());
        CHECK(e.field() == field);
        CHECK(std::string(e.what()).find(what) != std::string::npos);
        // Every field error starts with its path, so a user can find it.
        if (!field.empty())
            CHECK(std::string(e.what()).rfind(field + ": ", 0) == 0);
    }
}

/// A scenario with every field away from its default.
Scenario everything_changed()
{
    Scenario s;
    s.title = "all \"fields\"\nchanged \xC3\xA9";
    s.year = 2005;
    s.source = "pagefault scalability (2005)";
    s.description = "First sentence. Second sentence.";
    s.duration_seconds = 2.5;
    s.sample_interval_ms = 250;
    WorkloadSpec& w = s.engine.workload;
    w.pattern = WorkloadPattern::Strided;
    w.access = WorkloadAccess::MmapWrite;
    w.files = FileSharing::Shared;
    w.file_pages = 5000;
    w.stride = 7;
    w.request_pages = 3;
    w.read_fraction = 0.125;
    w.cpus = 3;
    w.seed = 18446744073709551615ull;
    w.operations_per_cpu = 12345;
    w.madvise = MmapHint::Random;
    w.nfiles = 77;
    w.stream_pages = 99999;
    w.write_fraction = 0.25;
    w.fsync_every = 100;
    w.sync_every = 1000;
    s.engine.machine.profile = "altix-2005"; // a modelled machine: its scale and seed apply
    s.engine.machine.latency_scale = 0.5;
    s.engine.machine.schedule_seed = 42;
    s.engine.mmap_sem = true;
    s.engine.mm_struct_2005 = true;
    s.trace.format = "csv";
    s.trace.bad_lines = "skip";
    IndexSpec& i = s.engine.index;
    i.kind = IndexKind::Hash;
    i.scheme = "hashed";
    i.radix_shift = 4;
    i.hash_buckets = 4096;
    i.hash_memory_bytes = std::uint64_t(1) << 30;
    i.hash_order9_cap = true;
    i.hash_function = "mixer";
    i.hash_locks = 16;
    i.skiplist_p = 0.5;
    i.skiplist_max_level = 20;
    i.skiplist_seed = 99;
    s.engine.page_table_lock = PageTable::Scheme::Single;
    s.engine.memory_pages = 40000;
    s.engine.device.request_ns = 123;
    s.engine.device.page_ns = 45;
    s.engine.device.time_scale = 0.3;
    s.engine.device.ra_pages = 64;
    s.engine.readahead = "linux";
    s.engine.page_check_references = false;
    s.engine.fault.fault_around = true;
    s.engine.fault.fault_around_pages = 32;
    s.engine.writeback.dirty_background_ratio = 5;
    s.engine.writeback.dirty_ratio = 40;
    s.engine.writeback.dirty_expire_ms = 1500;
    s.engine.writeback.writeback_interval_ms = 250;
    s.engine.reclaim.kswapd = false;
    s.engine.reclaim.min_free_kbytes = 2048;
    s.engine.reclaim.watermark_scale_factor = 200;
    s.engine.reclaim.percpu_pagelists = false;
    s.engine.ops_per_second = 1500.5;
    s.engine.hold_stretch_ns = 777;
    s.engine.migrate_every = 64;
    s.engine.events = false;
    s.engine.event_ring_capacity = 4096;
    return s;
}

void check_equal(const Scenario& a, const Scenario& b)
{
    CHECK(a.title == b.title);
    CHECK(a.year == b.year);
    CHECK(a.source == b.source);
    CHECK(a.description == b.description);
    CHECK(a.duration_seconds == b.duration_seconds);
    CHECK(a.sample_interval_ms == b.sample_interval_ms);
    const WorkloadSpec &wa = a.engine.workload, &wb = b.engine.workload;
    CHECK(wa.pattern == wb.pattern);
    CHECK(wa.access == wb.access);
    CHECK(wa.files == wb.files);
    CHECK(wa.file_pages == wb.file_pages);
    CHECK(wa.stride == wb.stride);
    CHECK(wa.request_pages == wb.request_pages);
    CHECK(wa.read_fraction == wb.read_fraction);
    CHECK(wa.cpus == wb.cpus);
    CHECK(wa.seed == wb.seed);
    CHECK(wa.operations_per_cpu == wb.operations_per_cpu);
    CHECK(wa.madvise == wb.madvise);
    CHECK(wa.nfiles == wb.nfiles);
    CHECK(wa.stream_pages == wb.stream_pages);
    CHECK(wa.write_fraction == wb.write_fraction);
    CHECK(wa.fsync_every == wb.fsync_every);
    CHECK(wa.sync_every == wb.sync_every);
    CHECK(a.trace.path == b.trace.path);
    CHECK(a.trace.format == b.trace.format);
    CHECK(a.trace.bad_lines == b.trace.bad_lines);
    CHECK(bool(a.engine.trace) == bool(b.engine.trace));
    const IndexSpec &ia = a.engine.index, &ib = b.engine.index;
    CHECK(ia.kind == ib.kind);
    CHECK(ia.scheme == ib.scheme);
    CHECK(ia.radix_shift == ib.radix_shift);
    CHECK(ia.hash_buckets == ib.hash_buckets);
    CHECK(ia.hash_memory_bytes == ib.hash_memory_bytes);
    CHECK(ia.hash_order9_cap == ib.hash_order9_cap);
    CHECK(ia.hash_function == ib.hash_function);
    CHECK(ia.hash_locks == ib.hash_locks);
    CHECK(ia.skiplist_p == ib.skiplist_p);
    CHECK(ia.skiplist_max_level == ib.skiplist_max_level);
    CHECK(ia.skiplist_seed == ib.skiplist_seed);
    CHECK(a.engine.page_table_lock == b.engine.page_table_lock);
    CHECK(a.engine.mmap_sem == b.engine.mmap_sem);
    CHECK(a.engine.mm_struct_2005 == b.engine.mm_struct_2005);
    CHECK(a.engine.machine.profile == b.engine.machine.profile);
    CHECK(a.engine.machine.modelled == b.engine.machine.modelled);
    CHECK(a.engine.machine.latency_scale == b.engine.machine.latency_scale);
    CHECK(a.engine.machine.schedule_seed == b.engine.machine.schedule_seed);
    CHECK(a.engine.memory_pages == b.engine.memory_pages);
    CHECK(a.engine.device.request_ns == b.engine.device.request_ns);
    CHECK(a.engine.device.page_ns == b.engine.device.page_ns);
    CHECK(a.engine.device.time_scale == b.engine.device.time_scale);
    CHECK(a.engine.device.ra_pages == b.engine.device.ra_pages);
    CHECK(a.engine.readahead == b.engine.readahead);
    CHECK(a.engine.page_check_references == b.engine.page_check_references);
    CHECK(a.engine.fault.fault_around == b.engine.fault.fault_around);
    CHECK(a.engine.fault.fault_around_pages == b.engine.fault.fault_around_pages);
    CHECK(a.engine.writeback.dirty_background_ratio == b.engine.writeback.dirty_background_ratio);
    CHECK(a.engine.writeback.dirty_ratio == b.engine.writeback.dirty_ratio);
    CHECK(a.engine.writeback.dirty_expire_ms == b.engine.writeback.dirty_expire_ms);
    CHECK(a.engine.writeback.writeback_interval_ms == b.engine.writeback.writeback_interval_ms);
    CHECK(a.engine.reclaim.kswapd == b.engine.reclaim.kswapd);
    CHECK(a.engine.reclaim.min_free_kbytes == b.engine.reclaim.min_free_kbytes);
    CHECK(a.engine.reclaim.watermark_scale_factor == b.engine.reclaim.watermark_scale_factor);
    CHECK(a.engine.reclaim.percpu_pagelists == b.engine.reclaim.percpu_pagelists);
    CHECK(a.engine.ops_per_second == b.engine.ops_per_second);
    CHECK(a.engine.hold_stretch_ns == b.engine.hold_stretch_ns);
    CHECK(a.engine.migrate_every == b.engine.migrate_every);
    CHECK(a.engine.events == b.engine.events);
    CHECK(a.engine.event_ring_capacity == b.engine.event_ring_capacity);
}

std::string temp_path(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / ("pcl-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

} // namespace

TEST_CASE("scenario: {\"version\": 1} is the default scenario", "[scenario]")
{
    const Scenario s = parse_scenario(R"({"version": 1})");
    check_equal(s, Scenario {});
    CHECK(s.engine.workload.pattern == WorkloadPattern::Sequential);
    CHECK(s.engine.memory_pages == (1u << 18));
    CHECK(s.sample_interval_ms == 100);
    CHECK_NOTHROW(Scenario {}.validate());
}

TEST_CASE("scenario: every field survives a round trip", "[scenario]")
{
    const Scenario s = everything_changed();
    REQUIRE_NOTHROW(s.validate());
    const json::Value doc = scenario_to_json(s);
    check_equal(scenario_from_json(doc), s);
    // Through text as well, and the writer is stable.
    const std::string text = json::write(doc);
    const Scenario back = parse_scenario(text);
    check_equal(back, s);
    CHECK(json::write(scenario_to_json(back)) == text);

    // The defaults are written too, in the documented order.
    const json::Value defaults = scenario_to_json(Scenario {});
    const json::Object& top = defaults.as_object();
    REQUIRE(top.size() == 23);
    CHECK(top[0].first == "version");
    CHECK(top[0].second == json::Value(1));
    CHECK(top.back().first == "trace");
    CHECK(defaults.find("workload")->as_object().size() == 16);
    CHECK(defaults.find("writeback")->find("dirty_ratio")->as_uint() == 20);
    CHECK(defaults.find("reclaim")->find("kswapd")->as_bool());
    CHECK(defaults.find("reclaim")->find("watermark_scale_factor")->as_uint() == 10);
    CHECK(defaults.find("trace")->find("path")->as_string().empty());
    CHECK(defaults.find("index")->as_object().size() == 11);
    CHECK(defaults.find("page_table_lock")->as_string() == "split");
    CHECK_FALSE(defaults.find("mmap_sem")->as_bool());
    CHECK_FALSE(defaults.find("mm_struct_2005")->as_bool());
    CHECK(defaults.find("machine")->find("profile")->as_string() == "host");
    CHECK_FALSE(defaults.find("machine")->find("modelled")->as_bool());
    CHECK(defaults.find("readahead")->as_string() == "none");
    CHECK(defaults.find("page_check_references")->as_bool());
    CHECK(defaults.find("device")->find("ra_pages")->as_uint() == 32);
    check_equal(scenario_from_json(defaults), Scenario {});
}

TEST_CASE("scenario: unknown fields are named with the allowed names", "[scenario]")
{
    expect_error(R"({"version": 1, "cpus": 4})", "cpus", "unknown field; allowed: version, title, year");
    expect_error(R"({"version": 1, "workload": {"patern": "random"}})", "workload.patern",
        "unknown field; allowed: pattern, access, files, file_pages");
    expect_error(R"({"version": 1, "index": {"shift": 4}})", "index.shift", "allowed: kind, scheme, radix_shift");
    expect_error(R"({"version": 1, "events": {"capacity": 4}})", "events.capacity", "allowed: enabled, ring_capacity");
    expect_error(R"({"version": 1, "pacing": {"migrate": 4}})", "pacing.migrate",
        "allowed: ops_per_second, hold_stretch_ns, migrate_every");
}

TEST_CASE("scenario: wrong types and values that do not fit name the field", "[scenario]")
{
    expect_error(R"({"version": 1, "workload": {"file_pages": "many"}})", "workload.file_pages",
        "workload.file_pages: expected an integer, got string");
    expect_error(R"({"version": 1, "workload": 3})", "workload", "workload: expected an object, got integer");
    expect_error(R"({"version": 1, "title": 2002})", "title", "expected a string, got integer");
    expect_error(R"({"version": 1, "events": {"enabled": 1}})", "events.enabled", "expected a boolean, got integer");
    expect_error(
        R"({"version": 1, "device": {"time_scale": "slow"}})", "device.time_scale", "expected a number, got string");
    expect_error(R"({"version": 1, "workload": {"cpus": -1}})", "workload.cpus", "must be in [0, 4294967295], got -1");
    expect_error(R"({"version": 1, "workload": {"cpus": 1.5}})", "workload.cpus",
        "expected an integer in [0, 4294967295], got 1.5");
    expect_error(R"({"version": 1, "workload": {"cpus": 4294967296}})", "workload.cpus", "must be in [0, 4294967295]");
    expect_error(R"({"version": 1, "memory_pages": -5})", "memory_pages", "must be in [0, 18446744073709551615]");
    expect_error(R"([1, 2])", "", "a scenario must be a JSON object, got array");
    // A double field takes an integer.
    CHECK(parse_scenario(R"({"version": 1, "device": {"time_scale": 2}})").engine.device.time_scale == 2.0);
}

TEST_CASE("scenario: the readahead policies' earlier names load as the kernels they stand for", "[scenario]")
{
    CHECK(parse_scenario(R"({"version": 1, "readahead": "ondemand"})").engine.readahead == "linux-2.6.32");
    CHECK(parse_scenario(R"({"version": 1, "readahead": "readaround"})").engine.readahead == "linux-2.6.32");
    CHECK(parse_scenario(R"({"version": 1, "readahead": "morton"})").engine.readahead == "morton-2002");
    CHECK(parse_scenario(R"({"version": 1, "readahead": "linux"})").engine.readahead == "linux");
    // Written back under the new name.
    const Scenario s = parse_scenario(R"({"version": 1, "readahead": "ondemand"})");
    CHECK(scenario_to_json(s).find("readahead")->as_string() == "linux-2.6.32");
}

TEST_CASE("scenario: out-of-range values say what is allowed", "[scenario]")
{
    expect_error(R"({"version": 1, "workload": {"cpus": 0}})", "workload.cpus", "must be in [1, 1024], got 0");
    expect_error(R"({"version": 1, "workload": {"file_pages": 0}})", "workload.file_pages", "must be in [1, 2^40]");
    expect_error(
        R"({"version": 1, "workload": {"read_fraction": 1.5}})", "workload.read_fraction", "must be in [0, 1]");
    expect_error(R"({"version": 1, "memory_pages": 0})", "memory_pages", "memory_pages: must be between 1 and 2^32");
    expect_error(R"({"version": 1, "index": {"radix_shift": 9}})", "index.radix_shift", "must be between 2 and 7");
    expect_error(R"({"version": 1, "index": {"hash_buckets": 3}})", "index.hash_buckets", "power of two");
    expect_error(R"({"version": 1, "index": {"skiplist_p": 1}})", "index.skiplist_p", "must be in (0, 1)");
    expect_error(R"({"version": 1, "device": {"time_scale": -1}})", "device.time_scale", "must be between 0 and");
    expect_error(R"({"version": 1, "device": {"page_ns": 2000000000}})", "device.page_ns", "at most 1 s");
    expect_error(
        R"({"version": 1, "fault": {"fault_around_pages": 0}})", "fault.fault_around_pages", "between 1 and 64");
    expect_error(R"({"version": 1, "pacing": {"ops_per_second": -1}})", "pacing.ops_per_second", "must be between 0");
    expect_error(
        R"({"version": 1, "pacing": {"hold_stretch_ns": 2000000000}})", "pacing.hold_stretch_ns", "must be in [0, ");
    expect_error(R"({"version": 1, "events": {"ring_capacity": 1}})", "events.ring_capacity", "must be in [2, ");
    expect_error(R"({"version": 1, "readahead": "sometimes"})", "readahead",
        "not one of: none, linux, linux-2.6.32, morton-2002");
    expect_error(R"({"version": 1, "device": {"ra_pages": 0}})", "device.ra_pages", "between 1 and");
    expect_error(R"({"version": 1, "duration_seconds": 100000})", "duration_seconds", "must be in [0, 86400]");
    expect_error(R"({"version": 1, "sample_interval_ms": 5})", "sample_interval_ms", "must be in [10, 60000], got 5");
    expect_error(R"({"version": 1, "year": 1789})", "year", "must be 0 (none) or in [1990, 2100], got 1789");
    CHECK(parse_scenario(R"({"version": 1, "year": 0})").year == 0);
}

TEST_CASE("scenario: bad names list the allowed values", "[scenario]")
{
    expect_error(R"({"version": 1, "workload": {"pattern": "zigzag"}})", "workload.pattern",
        "workload.pattern: 'zigzag' is not one of: sequential, reverse, random, strided, interleaved, pft, mixed");
    expect_error(R"({"version": 1, "workload": {"access": "append"}})", "workload.access",
        "is not one of: read, mmap_read, mmap_write, write");
    expect_error(R"({"version": 1, "index": {"kind": "btree"}})", "index.kind", "allowed: radix, hash, skiplist");
    expect_error(R"({"version": 1, "index": {"kind": "hash", "scheme": "rcu"}})", "index.scheme",
        "'rcu' is not a scheme of the hash index; allowed: global, hashed, bucket");
    expect_error(R"({"version": 1, "index": {"scheme": "global"}})", "index.scheme",
        "allowed: spinlock, rwlock, rcu, pernode, optimistic");
    expect_error(
        R"({"version": 1, "index": {"hash_function": "md5"}})", "index.hash_function", "allowed: linux24, mixer");
    expect_error(R"({"version": 1, "page_table_lock": "double"})", "page_table_lock",
        "page_table_lock: 'double' is not one of: single, split");
    CHECK(parse_scenario(R"({"version": 1, "index": {"kind": "skiplist", "scheme": ""}})").engine.index.kind
        == IndexKind::SkipList);
}

TEST_CASE("scenario: the version is required and checked", "[scenario]")
{
    expect_error(R"({})", "version", "version: missing; this build reads scenario files of version 1");
    expect_error(R"({"title": "x"})", "version", "missing");
    expect_error(R"({"version": 2})", "version", "version: this build reads version 1 only, got 2");
    expect_error(R"({"version": "1"})", "version", "this build reads version 1 only, got \"1\"");
    expect_error(R"({"version": 1.5})", "version", "got 1.5");
}

TEST_CASE("scenario: a syntax error names origin, line and column", "[scenario]")
{
    try {
        parse_scenario("{\n  \"version\": 1,\n}\n", "presets/x.json");
        FAIL("parsed");
    } catch (const ScenarioError& e) {
        CHECK(e.field().empty());
        CHECK(std::string(e.what()) == "presets/x.json:2:15: trailing comma before '}'");
    }
    try {
        parse_scenario("{\"version\": 1} extra");
        FAIL("parsed");
    } catch (const ScenarioError& e) {
        CHECK(std::string(e.what()).rfind("scenario:1:16: ", 0) == 0);
    }
}

TEST_CASE("scenario: overrides set fields by path", "[scenario]")
{
    json::Value doc = json::parse(R"({"version": 1})");
    apply_override(doc, "workload.pattern=random");
    apply_override(doc, "workload.cpus=4");
    apply_override(doc, "workload.read_fraction=0.25");
    apply_override(doc, "events.enabled=false");
    apply_override(doc, "title=2002");
    apply_override(doc, "source=\"radix-tree pagecache (2002)\"");
    apply_override(doc, "description=a=b");
    apply_override(doc, "workload.cpus=2"); // the last one wins
    const Scenario s = scenario_from_json(doc);
    CHECK(s.engine.workload.pattern == WorkloadPattern::Random);
    CHECK(s.engine.workload.cpus == 2);
    CHECK(s.engine.workload.read_fraction == 0.25);
    CHECK_FALSE(s.engine.events);
    CHECK(s.title == "2002");
    CHECK(s.source == "radix-tree pagecache (2002)");
    CHECK(s.description == "a=b");

    // The value is checked when the document is read, like any other.
    apply_override(doc, "workload.cpus=many");
    try {
        scenario_from_json(doc);
        FAIL("accepted");
    } catch (const ScenarioError& e) {
        CHECK(e.field() == "workload.cpus");
    }

    const auto expect_override_error
        = [](std::string_view assignment, const std::string& field, const std::string& what) {
              INFO("override: " << assignment);
              json::Value d = json::parse(R"({"version": 1, "workload": 5})");
              try {
                  apply_override(d, assignment);
                  FAIL("accepted");
              } catch (const ScenarioError& e) {
                  INFO("message: " << e.what());
                  CHECK(e.field() == field);
                  CHECK(std::string(e.what()).find(what) != std::string::npos);
              }
          };
    expect_override_error("workload.pattern", "", "expected path=value");
    expect_override_error("=4", "", "expected path=value");
    expect_override_error("cpus=4", "cpus", "cpus: unknown field; allowed: version, title, year, source");
    expect_override_error("workload.patern=random", "workload.patern",
        "workload.patern: unknown field; allowed: pattern, access, files, file_pages, stride");
    expect_override_error("title.x=1", "title", "is a value, not an object");
    expect_override_error("workload.cpus=4", "workload", "workload: expected an object, got integer");
    // A number too large to read is said to be one, not "a string".
    json::Value fresh = json::parse(R"({"version": 1})");
    CHECK_THROWS_WITH(apply_override(fresh, "workload.cpus=99999999999999999999"),
        Catch::Contains("workload.cpus: integer out of range") && Catch::Contains("got 99999999999999999999"));
    CHECK_THROWS_WITH(apply_override(fresh, "machine.latency_scale=1e400"),
        Catch::Contains("machine.latency_scale: number out of range"));
}

TEST_CASE("scenario: save and load through a file", "[scenario]")
{
    const std::string path = temp_path("save.json");
    const Scenario s = everything_changed();
    save_scenario(path, s);
    check_equal(load_scenario(path), s);
    const std::string text = read_file(path);
    CHECK(text.back() == '\n');
    CHECK(text.find("\"hold_stretch_ns\": 777") != std::string::npos);
    std::filesystem::remove(path);

    try {
        load_scenario(path);
        FAIL("loaded a missing file");
    } catch (const ScenarioError& e) {
        CHECK(std::string(e.what()).find(path) != std::string::npos);
        CHECK(std::string(e.what()).find("No such file or directory") != std::string::npos);
    }
    CHECK_THROWS_AS(read_file(path), std::runtime_error);

    // A syntax error in a file names the file.
    write_file_atomically(path, "{\"version\": 1,\n \"title\": 'x'}\n");
    try {
        load_scenario(path);
        FAIL("loaded");
    } catch (const ScenarioError& e) {
        CHECK(std::string(e.what()).rfind(path + ":2:11: ", 0) == 0);
    }
    std::filesystem::remove(path);
}

TEST_CASE("scenario: every bundled preset parses and builds an engine", "[scenario]")
{
    const std::filesystem::path dir = std::filesystem::path(PCL_SOURCE_DIR) / "resources" / "scenarios";
    REQUIRE(std::filesystem::is_directory(dir));
    std::size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        INFO(entry.path().string());
        Scenario s;
        REQUIRE_NOTHROW(s = load_scenario(entry.path().string()));
        CHECK_FALSE(s.title.empty());
        CHECK(s.year >= 1990);
        // The thread it reproduces, by its short name (docs/history.md), a
        // tool whose documented example it reproduces, or a trace.
        static const char* const kThreads[]
            = { "radix-tree pagecache (2002)", "multipage I/O and readahead (2002)", "pagefault scalability (2005)",
                  "concurrent pagecache (2007)", "linear do_move_pages (2008)", "lockstat (/proc/lock_stat)" };
        CHECK((std::find(std::begin(kThreads), std::end(kThreads), s.source) != std::end(kThreads)
            || s.source.rfind("trace ", 0) == 0));
        CHECK_FALSE(s.description.empty());
        // A preset fits its memory unless memory pressure is its subject:
        // readahead thrashing, or writeback.
        const WorkloadSpec& w = s.engine.workload;
        if (w.pattern != WorkloadPattern::Morton && w.access != WorkloadAccess::Write && !s.engine.trace)
            CHECK(std::uint64_t(w.files_needed()) * w.file_pages + w.anon_pages() <= s.engine.memory_pages);
        sync::LockRegistry registry;
        CHECK_NOTHROW(Engine(s.engine, registry));
    }
    CHECK(count >= 8);
}

TEST_CASE(
    "scenario: a trace is read relative to the scenario, and its bad lines stop or are skipped", "[scenario][trace]")
{
    const std::string dir = temp_path("trace-dir");
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir + "/t.csv") << "time_us,tid,op,file,offset,length\n"
                                      << "0,5,read,/data,0,8192\n"
                                      << "1,5,raed,/data,0,8192\n"
                                      << "2,6,read,/data,8192,4096\n";
        std::ofstream(dir + "/s.json") << R"({"version": 1, "trace": {"path": "t.csv"}})";
    }
    try {
        load_scenario(dir + "/s.json");
        FAIL("a bad line under stop must be an error");
    } catch (const ScenarioError& e) {
        CHECK(e.field() == "trace");
        CHECK_THAT(e.what(), Catch::Contains("line 3") && Catch::Contains("raed") && Catch::Contains("bad_lines"));
    }
    {
        std::ofstream(dir + "/s.json") << R"({"version": 1, "trace": {"path": "t.csv", "bad_lines": "skip"}})";
    }
    const Scenario s = load_scenario(dir + "/s.json");
    REQUIRE(s.engine.trace);
    CHECK(s.engine.trace->trace().skipped_lines == 1);
    CHECK(s.engine.trace->trace().errors.at(0).line == 3);
    CHECK(s.engine.workload.cpus == 2); // threads 5 and 6
    CHECK(s.trace.path == dir + "/t.csv");
    // Re-read from its JSON elsewhere, it still finds the trace.
    const Scenario again = scenario_from_json(scenario_to_json(s));
    CHECK(again.engine.trace->trace().events.size() == 2);

    CHECK_THROWS_WITH(parse_scenario(R"({"version": 1, "trace": {"path": "nowhere.csv"}})", dir + "/x.json"),
        Catch::StartsWith("trace.path:") && Catch::Contains("nowhere.csv"));
    CHECK_THROWS_WITH(
        parse_scenario(R"({"version": 1, "trace": {"path": "t.csv", "format": "ltrace"}})", dir + "/x.json"),
        Catch::StartsWith("trace.format:") && Catch::Contains("strace"));
    CHECK_THROWS_WITH(parse_scenario(R"({"version": 1, "trace": {"bad_lines": "ignore"}})"),
        Catch::StartsWith("trace.bad_lines:") && Catch::Contains("skip"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("scenario: a device model is a preset that the file's own figures refine", "[scenario][device]")
{
    const Scenario hdd = parse_scenario(R"({"version": 1, "device": {"model": "hdd"}})");
    const BlockDeviceConfig preset = BlockDeviceConfig::preset("hdd");
    CHECK(hdd.engine.device.model == "hdd");
    CHECK(hdd.engine.device.seek_ns == preset.seek_ns);
    CHECK(hdd.engine.device.rotation_ns == preset.rotation_ns);
    CHECK(hdd.engine.device.queue_depth == 1);
    CHECK_FALSE(hdd.engine.device.nomerges);
    // Written as the model and only what differs from it.
    const json::Value written = scenario_to_json(hdd);
    CHECK(written.find("device")->find("seek_ns") == nullptr);
    CHECK(written.find("device")->find("model")->as_string() == "hdd");

    const Scenario tuned = parse_scenario(R"({"version": 1, "device": {"model": "ssd", "queue_depth": 4}})");
    CHECK(tuned.engine.device.queue_depth == 4);
    CHECK(tuned.engine.device.request_ns == BlockDeviceConfig::preset("ssd").request_ns);
    const json::Value back = scenario_to_json(tuned);
    CHECK(back.find("device")->find("queue_depth")->as_uint() == 4);
    CHECK(scenario_from_json(back).engine.device.queue_depth == 4);

    CHECK_THROWS_WITH(parse_scenario(R"({"version": 1, "device": {"model": "tape"}})"),
        Catch::StartsWith("device.model:") && Catch::Contains("nvme"));
    CHECK_THROWS_WITH(parse_scenario(R"({"version": 1, "device": {"model": "nvme", "queue_depth": 0}})"),
        Catch::StartsWith("device.queue_depth:"));
}

TEST_CASE("scenario: every_field writes a preset device's figures too", "[scenario][device]")
{
    const Scenario hdd = parse_scenario(R"({"version": 1, "device": {"model": "hdd"}})");
    const json::Value full = scenario_to_json(hdd, true);
    CHECK(full.find("device")->find("seek_ns")->as_uint() == BlockDeviceConfig::preset("hdd").seek_ns);
    CHECK(full.find("device")->as_object().size() == 10);
    CHECK(scenario_from_json(full).engine.device.rotation_ns == BlockDeviceConfig::preset("hdd").rotation_ns);
}

TEST_CASE("scenario: a modelled machine's scale and seed are refused on this computer's threads", "[scenario]")
{
    expect_error(R"({"version": 1, "machine": {"latency_scale": 2}})", "machine.latency_scale",
        "scales a modelled machine's transfers");
    expect_error(R"({"version": 1, "machine": {"schedule_seed": 9}})", "machine.schedule_seed",
        "orders a modelled machine's tasks");
    // Their defaults are no request at all, and on a modelled machine both apply.
    CHECK_NOTHROW(parse_scenario(R"({"version": 1, "machine": {"latency_scale": 1, "schedule_seed": 0}})"));
    CHECK_NOTHROW(parse_scenario(
        R"({"version": 1, "machine": {"profile": "altix-2005", "latency_scale": 2, "schedule_seed": 9}})"));
}

TEST_CASE("scenario: a path that is not a regular file is refused, never read forever", "[scenario]")
{
    // A FIFO nobody writes to would block the open; /dev/zero would never end.
    const std::string fifo = temp_path("scenario.fifo");
    std::filesystem::remove(fifo);
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    for (const auto& [path, kind] : { std::pair { fifo, std::string("a FIFO") },
             std::pair { std::string("/dev/zero"), std::string("a character device") },
             std::pair { std::filesystem::temp_directory_path().string(), std::string("a directory") } }) {
        INFO(path);
        CHECK(non_regular_kind(path) == kind);
        CHECK_THROWS_WITH(read_file(path), Catch::Contains("it is " + kind + ", not a regular file"));
        CHECK_THROWS_WITH(load_scenario(path), Catch::Contains("not a regular file"));
    }
    CHECK(non_regular_kind(temp_path("no-such-file.json")).empty());
    std::filesystem::remove(fifo);
}
