// The words are those of docs/scenario-format.md, so the panel, the file
// format and the error messages describe each field the same way.
#include "run/parameterschema.h"

#include "index/index_factory.h"
#include "sim/scenario.h"
#include "workload/workload.h"

#include <algorithm>
#include <limits>

namespace pcl::ui {

namespace {

using Type = ParameterSpec::Type;
using Apply = ParameterSpec::Apply;

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

ParameterSpec integer(std::string path, QString group, QString label, QString unit, std::uint64_t lo, std::uint64_t hi,
    QString allowed, QString meaning)
{
    ParameterSpec p;
    p.path = std::move(path);
    p.group = std::move(group);
    p.label = std::move(label);
    p.type = Type::Int;
    p.unit = std::move(unit);
    p.minInt = lo;
    p.maxInt = hi;
    p.allowed = std::move(allowed);
    p.meaning = std::move(meaning);
    return p;
}

ParameterSpec powerOfTwo(ParameterSpec p)
{
    p.powerOfTwo = true;
    return p;
}

ParameterSpec real(std::string path, QString group, QString label, QString unit, double lo, double hi, double step,
    QString allowed, QString meaning)
{
    ParameterSpec p;
    p.path = std::move(path);
    p.group = std::move(group);
    p.label = std::move(label);
    p.type = Type::Double;
    p.unit = std::move(unit);
    p.minReal = lo;
    p.maxReal = hi;
    p.step = step;
    p.allowed = std::move(allowed);
    p.meaning = std::move(meaning);
    return p;
}

ParameterSpec boolean(std::string path, QString group, QString label, QString meaning)
{
    ParameterSpec p;
    p.path = std::move(path);
    p.group = std::move(group);
    p.label = std::move(label);
    p.type = Type::Bool;
    p.allowed = QStringLiteral("on or off");
    p.meaning = std::move(meaning);
    return p;
}

template <typename Names> std::vector<std::string> names(const Names& list)
{
    return std::vector<std::string>(list.begin(), list.end());
}

ParameterSpec choice(std::string path, QString group, QString label, std::vector<std::string> choices, QString meaning)
{
    ParameterSpec p;
    p.path = std::move(path);
    p.group = std::move(group);
    p.label = std::move(label);
    p.type = Type::Choice;
    QStringList words;
    for (const auto& c : choices)
        words << QString::fromStdString(c);
    p.allowed = words.join(QStringLiteral(", "));
    p.choices = std::move(choices);
    p.meaning = std::move(meaning);
    return p;
}

ParameterSpec text(std::string path, QString group, QString label, QString meaning)
{
    ParameterSpec p;
    p.path = std::move(path);
    p.group = std::move(group);
    p.label = std::move(label);
    p.type = Type::String;
    p.allowed = QStringLiteral("any text");
    p.meaning = std::move(meaning);
    return p;
}

ParameterSpec live(ParameterSpec p)
{
    p.apply = Apply::Live;
    return p;
}

const QString kWorkload = QStringLiteral("Workload");
const QString kIndex = QStringLiteral("Index");
const QString kMemory = QStringLiteral("Memory & page table");
const QString kDisk = QStringLiteral("Disk");
const QString kFaults = QStringLiteral("Faults");
const QString kPacing = QStringLiteral("Pacing");
const QString kEvents = QStringLiteral("Events");
const QString kRun = QStringLiteral("Run");
const QString kTrace = QStringLiteral("Trace replay");

std::vector<ParameterSpec> build()
{
    std::vector<ParameterSpec> s;
    // clang-format off
    s.push_back(choice("workload.pattern", kWorkload, QStringLiteral("Pattern"), names(kWorkloadPatterns),
        QStringLiteral("The order of the requests: sequential reads the file from 0 in steps of a request, reverse from the end, random at uniform offsets, strided every stride pages, interleaved gives CPU k of n the requests k, k+n, ...; pft is the page-fault test of the pagefault scalability thread (2005); mixed draws read(2) calls and read faults; two_streams interleaves a reader from page 0 with one from the middle; morton is Morton's 2002 thrashing test (2 CPUs: process A reads N files round-robin, process B streams a big file from a second disk).")));
    s.push_back(choice("workload.access", kWorkload, QStringLiteral("Access"), names(kWorkloadAccesses),
        QStringLiteral("read(2) calls, or read or write faults on a mapping; pft and mixed choose their own.")));
    s.push_back(choice("workload.files", kWorkload, QStringLiteral("Files"), { "separate", "shared" },
        QStringLiteral("separate: CPU k uses file k; shared: every CPU uses file 0.")));
    s.push_back(integer("workload.file_pages", kWorkload, QStringLiteral("File size"), QStringLiteral("pages"), 1,
        std::uint64_t(1) << 40, QStringLiteral("1 to 2^40"),
        QStringLiteral("Pages per file; for pft, pages of the anonymous region (at least one per CPU); for interleaved, at least one request per CPU.")));
    s.push_back(integer("workload.stride", kWorkload, QStringLiteral("Stride"), QStringLiteral("pages"), 1,
        std::uint64_t(1) << 40, QStringLiteral("1 to the file size"),
        QStringLiteral("strided only: pages between the starts of two requests.")));
    s.push_back(integer("workload.request_pages", kWorkload, QStringLiteral("Request size"), QStringLiteral("pages"), 1,
        std::uint64_t(1) << 40, QStringLiteral("1 to the file size"),
        QStringLiteral("Pages per read(2); a fault is always one page.")));
    s.push_back(real("workload.read_fraction", kWorkload, QStringLiteral("Read fraction"), QString(), 0, 1, 0.05,
        QStringLiteral("0 to 1"),
        QStringLiteral("mixed only: probability that an operation is a read(2) rather than a fault.")));
    s.push_back(integer("workload.cpus", kWorkload, QStringLiteral("CPUs"), QString(), 1, WorkloadSpec::kMaxCpus,
        QStringLiteral("1 to 1024"), QStringLiteral("Simulated CPUs, each a thread.")));
    s.push_back(integer("workload.seed", kWorkload, QStringLiteral("Seed"), QString(), 0, kU64Max,
        QStringLiteral("0 to 2^64-1"),
        QStringLiteral("Seed of the random draws; the same seed gives the same sequence.")));
    s.push_back(integer("workload.operations_per_cpu", kWorkload, QStringLiteral("Operations per CPU"),
        QStringLiteral("ops"), 1, kU64Max, QStringLiteral("1 to 2^64-1"),
        QStringLiteral("Length of each CPU's sequence (pft stops after its share; morton's process A reads its files to the end).")));
    s.push_back(choice("workload.madvise", kWorkload, QStringLiteral("madvise hint"), names(kWorkloadMadvise),
        QStringLiteral("The hint of every mapping, as the readahead policy sees it on mmap faults: normal (read-around), sequential (MADV_SEQUENTIAL: full windows ahead), random (MADV_RANDOM: no readahead).")));
    s.push_back(integer("workload.nfiles", kWorkload, QStringLiteral("Morton files"), QStringLiteral("files"), 1,
        WorkloadSpec::kMaxMortonFiles, QStringLiteral("1 to 4096"),
        QStringLiteral("morton only: N, the files process A reads round-robin, one request from each in turn (Morton's runtime cliff came between N = 40 and 60).")));
    s.push_back(integer("workload.stream_pages", kWorkload, QStringLiteral("Streamed file"), QStringLiteral("pages"), 1,
        std::uint64_t(1) << 40, QStringLiteral("1 to 2^40"),
        QStringLiteral("morton only: the file process B reads over and over from the second disk (262144 pages = 1 GiB).")));

    s.push_back(choice("index.kind", kIndex, QStringLiteral("Kind"), index_kinds(),
        QStringLiteral("A radix tree per file, one hash table for the machine (Linux 2.4), or a skip list per file.")));
    {
        ParameterSpec scheme = choice("index.scheme", kIndex, QStringLiteral("Locking scheme"), {},
            QStringLiteral("The locking scheme of the index; the kind's default is rcu for the radix tree, global for the hash table and pernode for the skip list."));
        scheme.allowed = QStringLiteral("radix: spinlock, rwlock, rcu, pernode, optimistic; hash: global, hashed, bucket; skiplist: mapping, pernode; or the kind's default");
        s.push_back(std::move(scheme));
    }
    s.push_back(integer("index.radix_shift", kIndex, QStringLiteral("Radix shift"), QStringLiteral("bits"), 2, 7,
        QStringLiteral("2 to 7"),
        QStringLiteral("Radix tree: log2 of the fanout (4 = rat-4, 7 = rat-7, 6 = modern Linux).")));
    s.push_back(powerOfTwo(integer("index.hash_buckets", kIndex, QStringLiteral("Hash buckets"),
        QStringLiteral("buckets"), 0, std::uint64_t(1) << 24, QStringLiteral("0, or a power of two up to 2^24"),
        QStringLiteral("Hash table: bucket count; 0 sizes the table from the memory below, as 2.4 did."))));
    s.push_back(integer("index.hash_memory_bytes", kIndex, QStringLiteral("Hash sized for"), QStringLiteral("bytes"),
        4096, std::uint64_t(1) << 36, QStringLiteral("4096 to 2^36 (when the bucket count is 0)"),
        QStringLiteral("Hash table: the \"physical memory\" the table is sized for.")));
    s.push_back(boolean("index.hash_order9_cap", kIndex, QStringLiteral("Order-9 cap"),
        QStringLiteral("Hash table: cap the table at an order-9 allocation, as __get_free_pages did.")));
    s.push_back(choice("index.hash_function", kIndex, QStringLiteral("Hash function"), { "linux24", "mixer" },
        QStringLiteral("Hash table: 2.4's _page_hashfn, or a strong 64-bit mixer.")));
    s.push_back(powerOfTwo(integer("index.hash_locks", kIndex, QStringLiteral("Hashed locks"), QStringLiteral("locks"),
        1, std::uint64_t(1) << 24, QStringLiteral("a power of two up to the bucket count"),
        QStringLiteral("Hash table: locks of the hashed scheme, each guarding a band of buckets."))));
    s.push_back(real("index.skiplist_p", kIndex, QStringLiteral("Skip-list p"), QString(), 0.05, 0.95, 0.05,
        QStringLiteral("between 0 and 1, both excluded"),
        QStringLiteral("Skip list: probability that a node reaches the next level.")));
    s.push_back(integer("index.skiplist_max_level", kIndex, QStringLiteral("Skip-list levels"),
        QStringLiteral("levels"), 1, 32, QStringLiteral("1 to 32"), QStringLiteral("Skip list: highest level.")));
    s.push_back(integer("index.skiplist_seed", kIndex, QStringLiteral("Skip-list seed"), QString(), 0, kU64Max,
        QStringLiteral("0 to 2^64-1"), QStringLiteral("Skip list: seed of the tower heights.")));

    s.push_back(integer("memory_pages", kMemory, QStringLiteral("Memory"), QStringLiteral("pages"), 1,
        std::uint64_t(1) << 32, QStringLiteral("1 to 2^32"),
        QStringLiteral("Page frames of \"physical memory\" (262144 is 1 GiB of 4 KiB pages). When none is free, reclaim evicts the oldest unused cached pages (two-list LRU); a run fails only when nothing can be evicted.")));
    s.push_back(choice("page_table_lock", kMemory, QStringLiteral("Page-table lock"), { "single", "split" },
        QStringLiteral("single: one mm->page_table_lock for the whole page table; split: one lock per page-table page (Hugh Dickins' split lock, 2005).")));

    s.push_back(choice("device.model", kDisk, QStringLiteral("Device model"), names(BlockDeviceConfig::kModels),
        QStringLiteral("A preset of the figures below: hdd (7200 rpm: a seek and half a turn for every request that does not continue the last, one request at a time), ssd (SATA flash, 32 queued), nvme (20 us, 64 queued); custom keeps the figures as set. Choosing a model sets them.")));
    s.push_back(integer("device.request_ns", kDisk, QStringLiteral("Per request"), QStringLiteral("ns"), 0,
        10'000'000'000ULL, QStringLiteral("0 to 10^10"),
        QStringLiteral("Time per read request (command overhead; the flash read of an SSD).")));
    s.push_back(integer("device.seek_ns", kDisk, QStringLiteral("Seek"), QStringLiteral("ns"), 0, 10'000'000'000ULL,
        QStringLiteral("0 to 10^10"),
        QStringLiteral("Disk arm movement, paid by a request that does not start where the last one ended.")));
    s.push_back(integer("device.rotation_ns", kDisk, QStringLiteral("Rotation"), QStringLiteral("ns"), 0,
        10'000'000'000ULL, QStringLiteral("0 to 10^10"),
        QStringLiteral("Rotational latency paid with a seek: half a revolution on average (4.17 ms at 7200 rpm).")));
    s.push_back(integer("device.queue_depth", kDisk, QStringLiteral("Queue depth"), QStringLiteral("requests"), 1,
        BlockDeviceConfig::kMaxQueueDepth, QStringLiteral("1 to 256"),
        QStringLiteral("Requests the device serves at once; their latencies overlap, their transfers share the bandwidth.")));
    s.push_back(integer("device.max_request_pages", kDisk, QStringLiteral("Largest request"), QStringLiteral("pages"),
        1, BlockDeviceConfig::kMaxRequestPages, QStringLiteral("1 to 65536"),
        QStringLiteral("Merging stops at this size (queue/max_sectors_kb; 128 pages = 512 KiB).")));
    s.push_back(boolean("device.nomerges", kDisk, QStringLiteral("No merging"),
        QStringLiteral("Do not merge a submission into a queued request it continues (queue/nomerges).")));
    s.push_back(integer("device.page_ns", kDisk, QStringLiteral("Per page"), QStringLiteral("ns"), 0, 1'000'000'000ULL,
        QStringLiteral("0 to 10^9"), QStringLiteral("Time per page transferred.")));
    s.push_back(real("device.time_scale", kDisk, QStringLiteral("Time scale"), QStringLiteral("\u00d7"), 0, 1e6, 1,
        QStringLiteral("0 to 10^6"),
        QStringLiteral("Multiplies both times; above 1 slows the disk down for a demonstration, 0 makes it instant.")));

    s.push_back(integer("device.ra_pages", kDisk, QStringLiteral("Readahead maximum"), QStringLiteral("pages"), 1, 65536,
        QStringLiteral("1 to 65536"),
        QStringLiteral("The device's largest readahead window (blockdev --setra; 32 pages = 128 KiB).")));
    s.push_back(choice("readahead", kDisk, QStringLiteral("Readahead policy"), { "none", "ondemand", "readaround", "morton" },
        QStringLiteral("none: read only what was asked; ondemand: Linux 2.6.23+ (windows x4, x2 up to the maximum, "
                       "asynchronous at the PG_readahead marker); readaround: mmap faults read a window centred on "
                       "the fault; morton: 2002's unified readahead, shrinking when read-ahead pages are evicted unused.")));

    s.push_back(boolean("fault.fault_around", kFaults, QStringLiteral("Fault-around"),
        QStringLiteral("On a file fault, also map the cached neighbours (do_fault_around).")));
    s.push_back(integer("fault.fault_around_pages", kFaults, QStringLiteral("Fault-around block"),
        QStringLiteral("pages"), 1, 64, QStringLiteral("1 to 64"),
        QStringLiteral("The aligned block of pages fault-around looks at.")));

    s.push_back(live(real("pacing.ops_per_second", kPacing, QStringLiteral("Speed"), QStringLiteral("ops/s"), 0, 1e9,
        1, QStringLiteral("0 to 10^9 per CPU"),
        QStringLiteral("Demonstration speed, in operations per second per CPU; 0 runs unpaced (benchmark speed)."))));
    s.push_back(live(integer("pacing.hold_stretch_ns", kPacing, QStringLiteral("Lock-hold stretch"),
        QStringLiteral("ns"), 0, 1'000'000'000ULL, QStringLiteral("0 to 10^9"),
        QStringLiteral("Extra time every lock is held before release, so contention is visible at human speed; 0 = none."))));
    s.push_back(integer("pacing.migrate_every", kPacing, QStringLiteral("Migrate every"), QStringLiteral("ops"), 0,
        kU64Max, QStringLiteral("0 to 2^64-1"),
        QStringLiteral("Operations between migrations of each CPU's thread to the next CPU id (the reader that changes CPUs, from the 2002 radix-tree thread); 0 = never.")));

    s.push_back(boolean("events.enabled", kEvents, QStringLiteral("Record events"),
        QStringLiteral("Record the event stream for the views; counters are exact either way.")));
    s.push_back(powerOfTwo(integer("events.ring_capacity", kEvents, QStringLiteral("Ring capacity"),
        QStringLiteral("records"), 2, std::uint64_t(1) << 24, QStringLiteral("2 to 2^24"),
        QStringLiteral("Records per CPU ring, rounded up to a power of two; a full ring drops its oldest records (a sixteenth of the ring at a time) and counts them."))));

    s.push_back(text("trace.path", kTrace, QStringLiteral("Trace file"),
        QStringLiteral("A recorded trace (CSV, or strace -f -tt output) to replay instead of the pattern: one CPU per traced thread. Empty: none.")));
    s.push_back(choice("trace.format", kTrace, QStringLiteral("Format"), { "auto", "csv", "strace" },
        QStringLiteral("auto reads a .csv file as CSV and anything else as strace output.")));
    s.push_back(choice("trace.bad_lines", kTrace, QStringLiteral("Bad lines"), { "stop", "skip" },
        QStringLiteral("stop: a line that cannot be parsed is an error naming it; skip: count it, replay the rest.")));
    s.push_back(text("title", kRun, QStringLiteral("Title"),
        QStringLiteral("Shown in the gallery and in reports, e.g. \"2002: one global hash vs a radix tree per file\".")));
    s.push_back(integer("year", kRun, QStringLiteral("Year"), QString(), 0, 2100, QStringLiteral("0, or 1990 to 2100"),
        QStringLiteral("Year of the experiment it reproduces; 0 = none.")));
    s.push_back(text("source", kRun, QStringLiteral("Source"),
        QStringLiteral("Where it comes from, e.g. \"radix-tree pagecache (2002)\".")));
    s.push_back(text("description", kRun, QStringLiteral("Description"),
        QStringLiteral("Two sentences: what the run shows.")));
    s.push_back(real("duration_seconds", kRun, QStringLiteral("Time limit"), QStringLiteral("s"), 0, 86400, 1,
        QStringLiteral("0 to 86400"),
        QStringLiteral("Wall-clock limit of the run; 0 = until every CPU has done its operations.")));
    s.push_back(integer("sample_interval_ms", kRun, QStringLiteral("Sample interval"), QStringLiteral("ms"), 10, 60000,
        QStringLiteral("10 to 60000"), QStringLiteral("Interval of the metrics time series.")));
    {
        ParameterSpec version = integer("version", kRun, QStringLiteral("Format version"), QString(),
            Scenario::kVersion, Scenario::kVersion, QString::number(Scenario::kVersion),
            QStringLiteral("Format version; this build reads and writes version 1."));
        version.apply = Apply::Fixed;
        s.push_back(std::move(version));
    }
    // clang-format on

    // Defaults are read from a default scenario, not restated here, so they
    // cannot drift from the code.
    const json::Value defaults = scenario_to_json(Scenario {});
    for (ParameterSpec& p : s)
        if (const json::Value* v = valueAt(defaults, p.path))
            p.defaultValue = *v;
    return s;
}

QString escaped(const QString& s)
{
    return s.toHtmlEscaped();
}

} // namespace

QString ParameterSpec::toolTip() const
{
    QString defaultText;
    if (type == Type::Bool)
        defaultText = defaultValue.is_bool() && defaultValue.as_bool() ? QStringLiteral("on") : QStringLiteral("off");
    else if (type == Type::String)
        defaultText = defaultValue.is_string() && defaultValue.as_string().empty() ? QStringLiteral("empty")
                                                                                   : displayText(defaultValue);
    else if (type == Type::Choice && defaultValue.is_string() && defaultValue.as_string().empty())
        defaultText = QStringLiteral("the kind's default");
    else
        defaultText = displayText(defaultValue) + (unit.isEmpty() ? QString() : QStringLiteral(" ") + unit);
    const QString when = apply == Apply::Live ? QStringLiteral("Applies at once, while the run goes on.")
        : apply == Apply::Restart             ? QStringLiteral("Applies to the next run (restart).")
                                              : QStringLiteral("Fixed.");
    return QStringLiteral("<p><b>%1</b> &nbsp;<code>%2</code></p><p>%3</p><p>Allowed: %4<br>Default: %5<br>%6</p>")
        .arg(escaped(label), QString::fromStdString(path), escaped(meaning), escaped(allowed), escaped(defaultText),
            when);
}

const std::vector<ParameterSpec>& parameterSchema()
{
    static const std::vector<ParameterSpec> schema = build();
    return schema;
}

const ParameterSpec* findParameter(const std::string& path)
{
    const auto& schema = parameterSchema();
    const auto it = std::find_if(schema.begin(), schema.end(), [&](const ParameterSpec& p) { return p.path == path; });
    return it == schema.end() ? nullptr : &*it;
}

QStringList parameterGroups()
{
    return { kWorkload, kTrace, kIndex, kMemory, kDisk, kFaults, kPacing, kEvents, kRun };
}

std::vector<std::string> parameterChoices(const ParameterSpec& spec, const json::Value& doc)
{
    if (spec.path != "index.scheme")
        return spec.choices;
    std::vector<std::string> values { "" };
    const json::Value* kind = valueAt(doc, "index.kind");
    if (kind && kind->is_string()) {
        try {
            for (auto& scheme : index_schemes(kind->as_string()))
                values.push_back(std::move(scheme));
        } catch (const std::invalid_argument&) {
            // An unknown kind has no schemes; the kind's own field says why.
        }
    }
    return values;
}

QString choiceText(const ParameterSpec& spec, const std::string& value, const json::Value& doc)
{
    if (spec.path == "index.scheme" && value.empty()) {
        // The defaults of RadixTree, HashIndex and SkipList for an empty scheme.
        const json::Value* kind = valueAt(doc, "index.kind");
        const std::string k = kind && kind->is_string() ? kind->as_string() : std::string();
        const char* name = k == "radix" ? "rcu" : k == "hash" ? "global" : k == "skiplist" ? "pernode" : nullptr;
        return name ? QStringLiteral("default (%1)").arg(QLatin1String(name)) : QStringLiteral("default");
    }
    return QString::fromStdString(value);
}

const json::Value* valueAt(const json::Value& doc, const std::string& path)
{
    const json::Value* v = &doc;
    std::size_t from = 0;
    while (v) {
        const std::size_t dot = path.find('.', from);
        v = v->find(std::string_view(path).substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (dot == std::string::npos)
            return v;
        from = dot + 1;
    }
    return nullptr;
}

void setValueAt(json::Value& doc, const std::string& path, json::Value value)
{
    const std::size_t dot = path.rfind('.');
    if (dot == std::string::npos) {
        doc.set(path, std::move(value));
        return;
    }
    json::Value* parent = &doc;
    std::size_t from = 0;
    while (from < dot) {
        const std::size_t next = path.find('.', from);
        parent = parent->find(std::string_view(path).substr(from, next - from));
        if (!parent)
            throw std::invalid_argument(path + ": no such field");
        from = next + 1;
    }
    parent->set(std::string_view(path).substr(dot + 1), std::move(value));
}

std::vector<std::string> leafPaths(const json::Value& doc)
{
    std::vector<std::string> paths;
    const auto walk = [&](const auto& self, const json::Value& v, const std::string& prefix) -> void {
        if (!v.is_object()) {
            paths.push_back(prefix);
            return;
        }
        for (const auto& [key, member] : v.as_object())
            self(self, member, prefix.empty() ? key : prefix + "." + key);
    };
    walk(walk, doc, std::string());
    return paths;
}

QString displayText(const json::Value& v)
{
    if (v.is_string())
        return QString::fromStdString(v.as_string());
    if (v.is_null())
        return QString();
    return QString::fromStdString(json::write(v, -1));
}

} // namespace pcl::ui
