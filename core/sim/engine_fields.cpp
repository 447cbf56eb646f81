#include "sim/engine_fields.h"

namespace pcl {

namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::string_view kPageTableLocks[] = { "single", "split", "single_walk" };

using E = EngineConfig;

json::Value get_readahead(const E& e)
{
    return e.readahead;
}

void set_readahead(E& e, const json::Value& v, const std::string& path)
{
    // The names of earlier versions load as the policies they stand for.
    std::string name;
    field_io::read(v, path, name);
    const std::string_view policy = canonical_readahead_policy(name);
    if (policy.empty())
        throw_field_error(path,
            "'" + name
                + "' is not one of: none, linux, linux-2.6.32, morton-2002 (ondemand and readaround load as "
                  "linux-2.6.32, morton as morton-2002)");
    e.readahead = std::string(policy);
}

json::Value get_page_table_lock(const E& e)
{
    return std::string(PageTable::scheme_name(e.page_table_lock));
}

void set_page_table_lock(E& e, const json::Value& v, const std::string& path)
{
    std::string name;
    field_io::read(v, path, name);
    try {
        e.page_table_lock = PageTable::parse_scheme(name);
    } catch (const std::invalid_argument&) {
        throw_field_error(path, "'" + name + "' is not one of: single, split, single_walk");
    }
}

FieldTable<E> build_engine()
{
    // clang-format off
    return { "", {
        custom_field<E>({ .name = "page_table_lock", .label = "Page-table lock",
            .meaning = "single: one mm->page_table_lock for the whole page table; split: one lock per page-table page (Hugh Dickins' split lock, 2005); single_walk: the one lock, also held while each fault walks down to its entry, so every fault takes it twice (stock Linux 2.6.13).",
            .type = FieldType::Choice, .choices = kPageTableLocks },
            get_page_table_lock, set_page_table_lock),
        field<&E::mmap_sem>({ .name = "mmap_sem", .label = "mmap_sem in faults",
            .meaning = "true: every fault holds the process's mmap_sem for read, as Linux did until its per-VMA locks (6.4). Readers do not wait for each other, but each writes the semaphore's word, so its cache line moves with every fault on another CPU: what limited Lameter's pft runs once the page-table lock was split. false: faults take no such lock." }),
        field<&E::mm_struct_2005>({ .name = "mm_struct_2005", .label = "2005's mm_struct",
            .meaning = "true: the process's mm_struct as in 2005 (Linux 2.6.10 to 2.6.14): mmap_sem and page_table_lock share one cache line, so every fault's read of mmap_sem moves the line the lock's holder needs, and the count of mapped pages is one word (mm->rss) that every fault writes, under the page-table lock with the single lock and atomically with split locks. false: a modern mm_struct, the count kept per CPU (Linux 6.2). On this computer's own threads the count is one word too; the shared line is a modelled machine's only." }),
        field<&E::memory_pages>({ .name = "memory_pages", .label = "Memory", .unit = "pages", .allowed = "1..2^32",
            .meaning = "Page frames of \"physical memory\" (262144 is 1 GiB of 4 KiB pages). When none is free, reclaim evicts the oldest unused cached pages (two-list LRU); a run fails only when nothing can be evicted.",
            .min_int = 1, .max_int = std::uint64_t(1) << 32 }),
        custom_field<E>({ .name = "readahead", .label = "Readahead policy",
            .meaning = "Whose readahead, for read(2) and mmap faults alike. none: read only what was asked; linux: a modern kernel's (6.16 on: a miss next to the previous read starts a fresh window, context readahead only after a cached run longer than the request, mmap faults read around the fault, asynchronous windows end on the boundaries of growing large folios); linux-2.6.32: ondemand readahead for read(2) (windows x4, x2 up to the maximum, asynchronous at the PG_readahead marker) and read-around for mmap faults; morton-2002: 2002's unified readahead, shrinking when read-ahead pages are evicted unused.",
            .type = FieldType::Choice, .choices = readahead_policy_names() },
            get_readahead, set_readahead),
        field<&E::page_check_references>({ .name = "page_check_references", .label = "Used-once detection",
            .meaning = "true: at the inactive tail a page used once through read(2) or write(2) is reclaimed, and only a mapping's accessed bit earns a second chance (page_check_references, Linux 2.6.34 and later); false: every referenced page gets a second chance, as in the kernels before, those of 2002 included, so a streaming reader's pages push out pages that were read ahead and not yet used." }),
    } };
    // clang-format on
}

FieldTable<E> build_pacing()
{
    // clang-format off
    return { "pacing", {
        field<&E::ops_per_second>({ .name = "ops_per_second", .label = "Speed", .unit = "ops/s",
            .allowed = "0..10^9",
            .meaning = "Demonstration speed, in operations per second per CPU; 0 runs unpaced (benchmark speed).",
            .apply = FieldApply::Live, .min_real = 0, .max_real = 1e9 }),
        field<&E::hold_stretch_ns>({ .name = "hold_stretch_ns", .label = "Lock-hold stretch", .unit = "ns",
            .allowed = "0..10^9",
            .meaning = "Extra time every lock is held before release, so contention is visible at human speed; 0 = none.",
            .apply = FieldApply::Live, .min_int = 0, .max_int = E::kMaxHoldStretchNs }),
        field<&E::migrate_every>({ .name = "migrate_every", .label = "Migrate every", .unit = "ops",
            .allowed = "0..2^64-1; above 0, workload.cpus 2 or more",
            .meaning = "Operations between migrations of each CPU's thread to the next CPU id (the reader that changes CPUs, from the 2002 radix-tree thread); 0 = never. A machine of one CPU has none to move to.",
            .min_int = 0, .max_int = kU64Max }),
    } };
    // clang-format on
}

json::Value get_profile(const MachineSpec& m)
{
    return m.profile;
}

void set_profile(MachineSpec& m, const json::Value& v, const std::string& path)
{
    field_io::read(v, path, m.profile);
    if (m.profile.empty())
        throw_field_error(path, "must name a machine (host, or a profile `pagecache-lab-cli machines` lists)");
}

FieldTable<MachineSpec> build_machine()
{
    // clang-format off
    return { "machine", {
        custom_field<MachineSpec>({ .name = "profile", .label = "Machine",
            .allowed = "host, or a profile `pagecache-lab-cli machines` lists",
            .meaning = "host: this computer's CPUs run the simulated CPUs as threads, in its own time. Any other profile (pentium3-xeon-8way-2002, altix-2005, epyc-2026, ...) is a modelled machine: the same code runs its CPUs as tasks of one deterministic scheduler in virtual time, charged what the profile says each operation and each cache-line transfer costs, the same every time.",
            .type = FieldType::String },
            get_profile, set_profile),
        field<&MachineSpec::modelled>({ .name = "modelled", .label = "Modelled",
            .meaning = "With the host profile: run on the model of this computer that `pagecache-lab-cli calibrate` measured, instead of on its threads. Other profiles are always modelled." }),
        field<&MachineSpec::latency_scale>({ .name = "latency_scale", .label = "Transfer latency scale",
            .allowed = "0..1000",
            .meaning = "Every cache-line transfer latency of the profile multiplied by this: 0.5 and 2 test whether a conclusion depends on the profile's latencies. A modelled machine's only: on this computer's threads anything but 1 is refused.",
            .min_real = 0, .max_real = MachineSpec::kMaxLatencyScale }),
        enum_field<&MachineSpec::schedule, sched::kScheduleStrategies>({ .name = "schedule", .label = "Schedule",
            .meaning = "Which simulated CPU runs next on a modelled machine. virtual_time: the one furthest behind in virtual time, the machine's own order, which models its timing. random and pct explore interleavings to find races: at every point where a CPU works, spins, yields or waits another may run instead, chosen from the seed (random: uniformly; pct: by random priorities that change at depth - 1 random points, Burckhardt et al., ASPLOS 2010). An exploring run's times are not a model of the machine's." }),
        field<&MachineSpec::pct_depth>({ .name = "pct_depth", .label = "PCT depth",
            .allowed = "1..64",
            .meaning = "pct: how many ordering constraints a race it should find needs (d); a run finds one of depth d with probability at least 1/(n k^(d-1)) for n CPUs.",
            .min_int = 1, .max_int = MachineSpec::kMaxPctDepth }),
        field<&MachineSpec::pct_steps>({ .name = "pct_steps", .label = "PCT steps",
            .allowed = "1..2^40",
            .meaning = "pct: the scheduling points its change points fall among (k), about as many as the run makes.",
            .min_int = 1, .max_int = MachineSpec::kMaxPctSteps }),
        field<&MachineSpec::schedule_seed>({ .name = "schedule_seed", .label = "Schedule seed", .allowed = "0..2^64-1",
            .meaning = "The seed of the modelled machine's choices (the order of CPUs at the same time; where in each cache-line transfer the request reaches the line's owner; an exploring schedule's every choice). 0: the workload's seed. The same seed replays the same schedule. A modelled machine's only: on this computer's threads anything but 0 is refused.",
            .min_int = 0, .max_int = std::numeric_limits<std::uint64_t>::max() }),
    } };
    // clang-format on
}

FieldTable<E> build_events()
{
    // clang-format off
    return { "events", {
        field<&E::events>({ .name = "enabled", .label = "Record events",
            .meaning = "Record the event stream for the views; counters are exact either way." }),
        field<&E::event_ring_capacity>({ .name = "ring_capacity", .label = "Ring capacity", .unit = "records",
            .allowed = "2..2^24",
            .meaning = "Records per CPU ring, rounded up to a power of two; a full ring drops its oldest records (a sixteenth of the ring at a time) and counts them.",
            .min_int = 2, .max_int = E::kMaxEventRingCapacity, .power_of_two = true }),
    } };
    // clang-format on
}

} // namespace

const FieldTable<EngineConfig>& engine_fields()
{
    static const FieldTable<EngineConfig> table = build_engine();
    return table;
}

const FieldTable<EngineConfig>& pacing_fields()
{
    static const FieldTable<EngineConfig> table = build_pacing();
    return table;
}

const FieldTable<MachineSpec>& machine_fields()
{
    static const FieldTable<MachineSpec> table = build_machine();
    return table;
}

const FieldTable<EngineConfig>& event_fields()
{
    static const FieldTable<EngineConfig> table = build_events();
    return table;
}

} // namespace pcl
