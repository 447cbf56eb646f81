// core/workload: seeded operation generators.
#include "workload/workload.h"
#include "workload/workload_fields.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <stdexcept>
#include <vector>

using namespace pcl;

namespace {

WorkloadSpec make_spec(std::string_view pattern, pgoff_t file_pages, pgoff_t request_pages = 1, unsigned cpus = 1)
{
    WorkloadSpec spec;
    spec.pattern = parse_workload_pattern(pattern).value();
    spec.file_pages = file_pages;
    spec.request_pages = request_pages;
    spec.cpus = cpus;
    spec.operations_per_cpu = 1000;
    return spec;
}

std::vector<Operation> take(WorkloadGenerator& gen, std::size_t n)
{
    std::vector<Operation> ops;
    Operation op;
    while (ops.size() < n && gen.next(op))
        ops.push_back(op);
    return ops;
}

std::vector<Operation> take(const WorkloadSpec& spec, unsigned cpu, std::size_t n)
{
    WorkloadGenerator gen(spec, cpu);
    return take(gen, n);
}

/// (index, count) pairs, the part of a read sequence the tests spell out.
std::vector<std::pair<pgoff_t, pgoff_t>> ranges(const std::vector<Operation>& ops)
{
    std::vector<std::pair<pgoff_t, pgoff_t>> out;
    for (const Operation& op : ops)
        out.emplace_back(op.index, op.count);
    return out;
}

std::vector<pgoff_t> indexes(const std::vector<Operation>& ops)
{
    std::vector<pgoff_t> out;
    for (const Operation& op : ops)
        out.push_back(op.index);
    return out;
}

using Ranges = std::vector<std::pair<pgoff_t, pgoff_t>>;
using Offsets = std::vector<pgoff_t>;

std::string message_of(const WorkloadSpec& spec)
{
    try {
        spec.validate();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("sequential walks the file in request steps and wraps", "[workload]")
{
    const auto ops = take(make_spec("sequential", 10, 4), 0, 6);
    CHECK(ranges(ops) == Ranges { { 0, 4 }, { 4, 4 }, { 8, 2 }, { 0, 4 }, { 4, 4 }, { 8, 2 } });
    for (const Operation& op : ops) {
        CHECK(op.kind == OperationKind::Read);
        CHECK(op.file == 0);
        CHECK_FALSE(op.write);
    }
}

TEST_CASE("reverse issues sequential's requests from the end down", "[workload]")
{
    CHECK(
        ranges(take(make_spec("reverse", 10, 4), 0, 5)) == Ranges { { 8, 2 }, { 4, 4 }, { 0, 4 }, { 8, 2 }, { 4, 4 } });
    WorkloadSpec spec = make_spec("reverse", 5, 4);
    spec.access = WorkloadAccess::MmapRead;
    CHECK(indexes(take(spec, 0, 7)) == Offsets { 4, 3, 2, 1, 0, 4, 3 });
}

TEST_CASE("strided starts a request every stride pages", "[workload]")
{
    WorkloadSpec spec = make_spec("strided", 10, 2);
    spec.stride = 3;
    CHECK(ranges(take(spec, 0, 6)) == Ranges { { 0, 2 }, { 3, 2 }, { 6, 2 }, { 9, 1 }, { 0, 2 }, { 3, 2 } });
    spec.access = WorkloadAccess::MmapRead;
    CHECK(ranges(take(spec, 0, 5)) == Ranges { { 0, 1 }, { 3, 1 }, { 6, 1 }, { 9, 1 }, { 0, 1 } });
}

TEST_CASE("interleaved: CPU k of n takes k, k+n, ... of a shared file", "[workload]")
{
    WorkloadSpec spec = make_spec("interleaved", 10, 1, 3);
    spec.files = FileSharing::Shared;
    CHECK(indexes(take(spec, 0, 5)) == Offsets { 0, 3, 6, 9, 0 });
    CHECK(indexes(take(spec, 1, 4)) == Offsets { 1, 4, 7, 1 });
    CHECK(indexes(take(spec, 2, 4)) == Offsets { 2, 5, 8, 2 });
    for (unsigned cpu = 0; cpu < 3; ++cpu)
        for (const Operation& op : take(spec, cpu, 10))
            CHECK(op.file == 0);

    // With larger requests the CPUs interleave whole ranges.
    spec.request_pages = 2;
    CHECK(ranges(take(spec, 0, 3)) == Ranges { { 0, 2 }, { 6, 2 }, { 0, 2 } });
    CHECK(ranges(take(spec, 1, 3)) == Ranges { { 2, 2 }, { 8, 2 }, { 2, 2 } });
    CHECK(ranges(take(spec, 2, 3)) == Ranges { { 4, 2 }, { 4, 2 }, { 4, 2 } });
}

TEST_CASE("pft faults each page of the region exactly once over all CPUs", "[workload][pft]")
{
    WorkloadSpec spec = make_spec("pft", 12, 1, 4);
    spec.operations_per_cpu = 1'000'000;
    CHECK(spec.files_needed() == 0);
    CHECK(spec.anon_pages() == 12);
    std::map<pgoff_t, int> faulted;
    for (unsigned cpu = 0; cpu < 4; ++cpu) {
        WorkloadGenerator gen(spec, cpu);
        const auto ops = take(gen, 100);
        CHECK(indexes(ops) == Offsets { 3 * cpu, 3 * cpu + 1, 3 * cpu + 2 });
        Operation op;
        CHECK_FALSE(gen.next(op));
        CHECK(gen.issued() == 3);
        for (const Operation& o : ops) {
            CHECK(o.kind == OperationKind::AnonFault);
            CHECK(o.count == 1);
            CHECK(o.write);
            ++faulted[o.index];
        }
    }
    REQUIRE(faulted.size() == 12);
    for (const auto& [page, times] : faulted)
        CHECK(times == 1);

    // A region that does not divide evenly leaves its tail unfaulted.
    spec.file_pages = 10;
    spec.cpus = 3;
    CHECK(indexes(take(spec, 2, 100)) == Offsets { 6, 7, 8 });
    // operations_per_cpu still bounds a CPU's share.
    spec.operations_per_cpu = 2;
    CHECK(indexes(take(spec, 1, 100)) == Offsets { 3, 4 });
}

TEST_CASE("mmap access turns requests into one-page faults", "[workload]")
{
    WorkloadSpec spec = make_spec("sequential", 3, 2);
    spec.access = WorkloadAccess::MmapWrite;
    const auto ops = take(spec, 0, 4);
    CHECK(indexes(ops) == Offsets { 0, 1, 2, 0 });
    for (const Operation& op : ops) {
        CHECK(op.kind == OperationKind::FileFault);
        CHECK(op.count == 1);
        CHECK(op.write);
    }
    spec.access = WorkloadAccess::MmapRead;
    for (const Operation& op : take(spec, 0, 4))
        CHECK_FALSE(op.write);
}

TEST_CASE("random: in range, same seed same sequence, other seed or CPU another", "[workload][random]")
{
    WorkloadSpec spec = make_spec("random", 100, 8, 2);
    spec.seed = 42;
    const auto a = take(spec, 0, 500);
    REQUIRE(a.size() == 500);
    for (const Operation& op : a) {
        CHECK(op.index + op.count <= 100);
        CHECK(op.count == 8);
    }
    CHECK(take(spec, 0, 500) == a);
    CHECK(take(spec, 1, 500) != a);
    spec.seed = 43;
    CHECK(take(spec, 0, 500) != a);

    // A CPU's sequence does not depend on how many other CPUs there are.
    spec.seed = 42;
    spec.cpus = 7;
    CHECK(take(spec, 0, 500) == a);
}

TEST_CASE("mixed: reads with probability read_fraction, else read faults", "[workload][mixed]")
{
    WorkloadSpec spec = make_spec("mixed", 64, 4);
    spec.operations_per_cpu = 10'000;
    spec.read_fraction = 0.3;
    const auto ops = take(spec, 0, 10'000);
    REQUIRE(ops.size() == 10'000);
    int reads = 0;
    for (const Operation& op : ops) {
        if (op.kind == OperationKind::Read) {
            ++reads;
            CHECK(op.count == 4);
            CHECK(op.index + 4 <= 64);
        } else {
            CHECK(op.kind == OperationKind::FileFault);
            CHECK(op.count == 1);
            CHECK(op.index < 64);
            CHECK_FALSE(op.write);
        }
    }
    CHECK(reads > 2700);
    CHECK(reads < 3300);
    CHECK(take(spec, 0, 10'000) == ops);

    spec.read_fraction = 0.0;
    for (const Operation& op : take(spec, 0, 200))
        CHECK(op.kind == OperationKind::FileFault);
    spec.read_fraction = 1.0;
    for (const Operation& op : take(spec, 0, 200))
        CHECK(op.kind == OperationKind::Read);
}

TEST_CASE("separate files give each CPU its own, shared gives all one", "[workload]")
{
    WorkloadSpec spec = make_spec("sequential", 16, 1, 4);
    CHECK(spec.files_needed() == 4);
    CHECK(spec.anon_pages() == 0);
    for (unsigned cpu = 0; cpu < 4; ++cpu) {
        CHECK(spec.file_of(cpu) == cpu);
        for (const Operation& op : take(spec, cpu, 5))
            CHECK(op.file == cpu);
    }
    spec.files = FileSharing::Shared;
    CHECK(spec.files_needed() == 1);
    for (unsigned cpu = 0; cpu < 4; ++cpu) {
        CHECK(spec.file_of(cpu) == 0);
        for (const Operation& op : take(spec, cpu, 5))
            CHECK(op.file == 0);
    }
}

TEST_CASE("a sequence has operations_per_cpu operations", "[workload]")
{
    WorkloadSpec spec = make_spec("sequential", 10);
    spec.operations_per_cpu = 7;
    WorkloadGenerator gen(spec, 0);
    CHECK(gen.length() == 7);
    CHECK(take(gen, 100).size() == 7);
    Operation op;
    CHECK_FALSE(gen.next(op));
}

TEST_CASE("validation names the field and what it may be", "[workload][validate]")
{
    CHECK(message_of(make_spec("sequential", 10)).empty());
    for (std::string_view pattern : kWorkloadPatterns) {
        WorkloadSpec ok = make_spec(pattern, 10);
        ok.stride = 3;
        if (pattern == "morton")
            ok.cpus = 2; // process A and process B
        CHECK(message_of(ok) == "");
    }
    // The stride is only checked against the file where it is used.
    CHECK(message_of(make_spec("random", 10)) == "");

    // A word that names no pattern, access or file mode is refused where a
    // file is read, with the field and its choices.
    auto refusal = [](const char* field, const char* word) {
        WorkloadSpec spec = make_spec("random", 10);
        try {
            workload_fields().find(field)->set(spec, json::Value(word), std::string("workload.") + field);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK_THAT(refusal("pattern", "zigzag"),
        Catch::Contains("workload.pattern") && Catch::Contains("zigzag") && Catch::Contains("pft"));
    CHECK_THAT(refusal("access", "append"), Catch::Contains("workload.access") && Catch::Contains("mmap_write"));
    CHECK_THAT(refusal("files", "both"), Catch::Contains("workload.files") && Catch::Contains("separate"));
    CHECK_THAT(message_of(make_spec("random", 0)), Catch::Contains("file_pages"));
    CHECK_THAT(message_of(make_spec("random", (pgoff_t(1) << 40) + 1)), Catch::Contains("file_pages"));
    CHECK_THAT(message_of(make_spec("random", 10, 11)), Catch::Contains("request_pages") && Catch::Contains("[1, "));
    CHECK_THAT(message_of(make_spec("random", 10, 0)), Catch::Contains("request_pages"));
    CHECK_THAT(message_of(make_spec("random", 10, 1, 0)), Catch::Contains("cpus"));
    CHECK_THAT(message_of(make_spec("random", 10, 1, 1025)), Catch::Contains("cpus"));
    WorkloadSpec spec = make_spec("strided", 10);
    spec.stride = 0;
    CHECK_THAT(message_of(spec), Catch::Contains("stride"));
    spec.stride = 11;
    CHECK_THAT(message_of(spec), Catch::Contains("stride") && Catch::Contains("file_pages = 10"));
    spec = make_spec("mixed", 10);
    spec.read_fraction = 1.5;
    CHECK_THAT(message_of(spec), Catch::Contains("read_fraction") && Catch::Contains("[0, 1]"));
    spec.read_fraction = std::nan("");
    CHECK_THAT(message_of(spec), Catch::Contains("read_fraction"));
    spec = make_spec("random", 10);
    spec.operations_per_cpu = 0;
    CHECK_THAT(message_of(spec), Catch::Contains("operations_per_cpu"));
    CHECK_THAT(message_of(make_spec("pft", 3, 1, 4)), Catch::Contains("file_pages") && Catch::Contains("pft"));
    CHECK_THAT(message_of(make_spec("interleaved", 10, 4, 4)),
        Catch::Contains("file_pages") && Catch::Contains("interleaved"));

    // An unknown word never becomes a pattern: the generator gets only the
    // enumeration's values (the file's word is refused by its field, above).
    CHECK_FALSE(parse_workload_pattern("zigzag"));
    CHECK_THROWS_WITH(WorkloadGenerator(make_spec("random", 10, 1, 2), 2), Catch::Contains("cpu"));
}

TEST_CASE("the bounded draw is within range and unbiased", "[workload][random]")
{
    // Chi-square over 10 equal buckets; 9 degrees of freedom put the 0.1%
    // tail at 27.9, so 40 is a generous bound for a fixed seed.
    auto chi_square = [](std::uint64_t bound, std::uint64_t seed) {
        SplitMix64 rng(seed);
        constexpr int kBuckets = 10;
        constexpr int kDraws = 100'000;
        std::vector<double> counts(kBuckets);
        for (int i = 0; i < kDraws; ++i) {
            const std::uint64_t x = rng.below(bound);
            REQUIRE(x < bound);
            // Bucket by position in [0, bound) without overflowing.
            ++counts[std::size_t((long double)x / (long double)bound * kBuckets)];
        }
        double chi = 0;
        const double expected = double(kDraws) / kBuckets;
        for (double c : counts)
            chi += (c - expected) * (c - expected) / expected;
        return chi;
    };
    CHECK(chi_square(10, 1) < 40);
    CHECK(chi_square(1000, 2) < 40);
    // 2/3 of 2^64: a plain `next() % bound` would make the lower half of the
    // range twice as likely as the upper, a chi-square in the thousands.
    CHECK(chi_square(0xAAAAAAAAAAAAAAAAull, 3) < 40);

    SplitMix64 one(7);
    for (int i = 0; i < 100; ++i)
        CHECK(one.below(1) == 0);
    SplitMix64 again(7), same(7);
    for (int i = 0; i < 100; ++i)
        CHECK(again.next() == same.next());
    // splitmix64's published first output for seed 0.
    SplitMix64 zero(0);
    CHECK(zero.next() == 0xe220a8397b1dcdafull);
}

TEST_CASE("two_streams alternates a reader from page 0 and one from the middle", "[workload]")
{
    WorkloadSpec spec = make_spec("two_streams", 8, 1, 1);
    const auto ops = take(spec, 0, 10);
    std::vector<pgoff_t> pages;
    for (const Operation& op : ops)
        pages.push_back(op.index);
    // Stream 0 over [0, 4), stream 1 over [4, 8), taking turns, each wrapping in its half.
    CHECK(pages == std::vector<pgoff_t> { 0, 4, 1, 5, 2, 6, 3, 7, 0, 4 });

    spec = make_spec("two_streams", 10, 3, 1);
    const auto reads = take(spec, 0, 6);
    std::vector<std::pair<pgoff_t, pgoff_t>> spans;
    for (const Operation& op : reads)
        spans.emplace_back(op.index, op.count);
    // 4 requests of 3 pages: the second stream starts at request 2 (page 6); the first stops short of it.
    CHECK(spans
        == std::vector<std::pair<pgoff_t, pgoff_t>> { { 0, 3 }, { 6, 3 }, { 3, 3 }, { 9, 1 }, { 0, 3 }, { 6, 3 } });
    CHECK_THROWS_WITH(make_spec("two_streams", 1).validate(), Catch::Contains("file_pages"));
}

TEST_CASE("morton: process A reads N files round-robin to the end, process B streams in the background", "[workload]")
{
    WorkloadSpec spec = make_spec("morton", 3, 1, 2);
    spec.nfiles = 4;
    spec.stream_pages = 70;
    REQUIRE(spec.files_needed() == 5);
    CHECK(spec.file_size(0) == 3);
    CHECK(spec.file_size(3) == 3);
    CHECK(spec.file_size(4) == 70);
    CHECK(spec.disk_of(3) == 0);
    CHECK(spec.disk_of(4) == 1);

    WorkloadGenerator a(spec, 0);
    CHECK_FALSE(a.background());
    CHECK(a.length() == 12);
    const auto ops = take(a, 100);
    REQUIRE(ops.size() == 12);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        CHECK(ops[i].kind == OperationKind::Read);
        CHECK(ops[i].file == FileId(i % 4));
        CHECK(ops[i].index == pgoff_t(i / 4));
        CHECK(ops[i].count == 1);
    }

    WorkloadGenerator b(spec, 1);
    CHECK(b.background());
    const auto stream = take(b, 4);
    REQUIRE(stream.size() == 4);
    // 32-page reads of a 70-page file, the last cut short, then again from 0.
    CHECK(stream[0].file == 4);
    CHECK(stream[0].index == 0);
    CHECK(stream[0].count == 32);
    CHECK(stream[1].index == 32);
    CHECK(stream[2].index == 64);
    CHECK(stream[2].count == 6);
    CHECK(stream[3].index == 0);

    WorkloadSpec bad = spec;
    bad.cpus = 3;
    CHECK_THROWS_WITH(bad.validate(), Catch::Contains("cpus") && Catch::Contains("morton"));
    bad = spec;
    bad.nfiles = 0;
    CHECK_THROWS_WITH(bad.validate(), Catch::Contains("nfiles"));
    // A hint that is none of madvise's is refused as the file is read.
    bad = spec;
    CHECK_THROWS_WITH(workload_fields().find("madvise")->set(bad, json::Value("willneed"), "workload.madvise"),
        Catch::Contains("madvise") && Catch::Contains("sequential"));
}

TEST_CASE("workload: each madvise hint is read and written by its word", "[workload][fields]")
{
    const Field<WorkloadSpec>* field = workload_fields().find("madvise");
    REQUIRE(field);
    CHECK(field->type == FieldType::Choice);
    CHECK(std::vector<std::string_view>(field->choices.begin(), field->choices.end())
        == std::vector<std::string_view> { "normal", "sequential", "random" });
    CHECK(WorkloadSpec {}.madvise == MmapHint::Normal);
    for (const MmapHint hint : kMmapHints) {
        WorkloadSpec w;
        field->set(w, json::Value(std::string(mmap_hint_name(hint))), "workload.madvise");
        CHECK(w.madvise == hint);
        CHECK(field->get(w).as_string() == std::string(mmap_hint_name(hint)));
    }
    WorkloadSpec w;
    w.madvise = MmapHint::Random;
    CHECK_THROWS_WITH(field->set(w, json::Value("willneed"), "workload.madvise"),
        "workload.madvise: 'willneed' is not one of: normal, sequential, random");
    CHECK_THROWS_WITH(
        field->set(w, json::Value(3), "workload.madvise"), "workload.madvise: expected a string, got integer");
    CHECK(w.madvise == MmapHint::Random); // a refused word leaves the hint as it was
}
