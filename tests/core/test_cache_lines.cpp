// The modelled cache lines: a transfer costs the latency from the line's
// owner; sharers read for free; transfers of one line (and, on a shared
// bus, of all lines) are serialised, so k writers at one time arrive at
// t+c, t+2c, ..., t+kc; where a write's request reaches the owner (drawn,
// seeded); the count of transfers; the latency scale.
#include <catch2/catch.hpp>

#include "lib/field_error.h"
#include "sched/cache_lines.h"
#include "sched/machine_profiles.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace pcl;
using namespace pcl::sched;

TEST_CASE("a cross-socket transfer on epyc-2026 costs exactly the profile's figure", "[machines]")
{
    const MachineProfile epyc = load_machine_profile("epyc-2026");
    CacheLines lines(epyc);
    // The first access is free: the line starts in its first user's cache.
    CHECK(lines.write(0, 0, 0).cost_ns == 0);
    CHECK(lines.owner(0) == 0);
    CHECK(lines.transfers() == 0);

    const LineAccess a = lines.write(0, 96, 1000);
    CHECK(a.transfer);
    CHECK(a.cost_ns == epyc.latency.remote->ns);
    CHECK(a.cost_ns == 197);
    CHECK(a.wait_ns == 0);
    CHECK(a.distance == CpuDistance { DistanceKind::Remote, 0 });
    CHECK(lines.owner(0) == 96);
    CHECK(lines.busy_until(0) == 1197);
    CHECK(lines.transfers() == 1);
    CHECK(lines.transfers(DistanceKind::Remote) == 1);

    // Back within the socket: the CCX's and the SMT sibling's figures.
    CHECK(lines.write(0, 97, 2000).cost_ns == 8);
    CHECK(lines.write(0, 98, 3000).cost_ns == 23);
    CHECK(lines.write(0, 112, 4000).cost_ns == 107);
    CHECK(lines.transfers() == 4);
}

TEST_CASE("sharers read for free after a transfer, a write makes the writer the only sharer", "[machines]")
{
    CacheLines lines(load_machine_profile("epyc-2026"));
    lines.write(7, 0, 0);
    CHECK(lines.read(7, 96, 10).cost_ns == 197); // a read miss: from the owner
    CHECK(lines.owner(7) == 0);                  // which keeps the line
    CHECK(lines.is_sharer(7, 96));
    CHECK(lines.read(7, 96, 500) == LineAccess {});
    CHECK(lines.read(7, 0, 500) == LineAccess {});
    CHECK(lines.read(7, 16, 500).cost_ns == 107); // from the owner, CPU 0
    CHECK(lines.transfers(7) == 2);
    CHECK(lines.write(7, 0, 600).cost_ns == 0); // the owner writes: free
    CHECK(!lines.is_sharer(7, 96));
    CHECK(!lines.is_sharer(7, 16));
    CHECK(lines.read(7, 96, 700).cost_ns == 197); // its copy was invalidated
    // A sharer that is not the owner pays to write: from the owner.
    CHECK(lines.write(7, 96, 1000).cost_ns == 197);
    CHECK(lines.owner(7) == 96);
    CHECK(lines.read(7, 16, 2000).cost_ns == 197); // now across the sockets
    CHECK(lines.transfers(7) == 5);
    CHECK(lines.transfers(3) == 0); // lines are apart
    CHECK(lines.owner(3) == -1);
}

TEST_CASE("k CPUs writing one line at one virtual time get it at t+c, t+2c, ..., t+kc", "[machines]")
{
    SECTION("eight CPUs on the Pentium III's bus")
    {
        CacheLines lines(load_machine_profile("pentium3-xeon-8way-2002"));
        lines.write(0, 0, 0);
        for (std::uint32_t k = 1; k < 8; ++k) {
            const LineAccess a = lines.write(0, k, 1000);
            CHECK(a.cost_ns == 200 * k);
            CHECK(a.wait_ns == 200 * (k - 1));
        }
        CHECK(lines.busy_until(0) == 1000 + 7 * 200);
        CHECK(lines.transfers() == 7);
        // Once the line is idle again, a transfer waits for nothing.
        CHECK(lines.write(0, 0, 5000).cost_ns == 200);
    }
    SECTION("sixteen CPUs of epyc-2026 taking the line across the sockets in turn")
    {
        CacheLines lines(load_machine_profile("epyc-2026"));
        lines.write(1, 0, 0);
        for (std::uint32_t k = 1; k <= 16; ++k) {
            const std::uint32_t cpu = k % 2 ? 96 + 2 * k : 2 * k; // the other socket each time
            CHECK(lines.write(1, cpu, 50).cost_ns == 197 * k);
        }
        CHECK(lines.transfers(DistanceKind::Remote) == 16);
    }
    SECTION("a read behind a write waits for it, then comes from the new owner")
    {
        CacheLines lines(load_machine_profile("epyc-2026"));
        lines.write(2, 0, 0);
        CHECK(lines.write(2, 96, 100).cost_ns == 197);
        const LineAccess r = lines.read(2, 2, 100);
        CHECK(r.wait_ns == 197);
        CHECK(r.cost_ns == 197 + 197);
    }
}

TEST_CASE(
    "the old owner keeps a line until a write's request reaches it, at a drawn point of the transfer", "[machines]")
{
    // Each seed draws another point; every one must keep the rules.
    unsigned stores_before = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        INFO("seed " << seed);
        CacheLines lines(load_machine_profile("epyc-2026"), 1.0, seed);
        lines.write(4, 0, 0);
        const LineAccess a = lines.write(4, 96, 1000);
        CHECK(a.cost_ns == 197);
        REQUIRE(a.leaves_ns >= 1000); // a request on its own: anywhere in the transfer
        REQUIRE(a.leaves_ns <= 1197);
        CHECK(lines.owner(4) == 96);
        // CPU 0's store before its line leaves hits its own cache, and goes
        // with the line: a lock released there is free when the line arrives.
        if (a.leaves_ns > 1000) {
            CHECK(lines.write(4, 0, a.leaves_ns - 1) == LineAccess {});
            CHECK(lines.read(4, 0, a.leaves_ns - 1) == LineAccess {});
            ++stores_before;
        }
        CHECK(lines.owner(4) == 96);
        CHECK(lines.transfers(4) == 1);
        // From then on the line is on its way: CPU 0 waits for it to arrive
        // at 96, then for it to come back.
        const LineAccess back = lines.write(4, 0, a.leaves_ns);
        CHECK(back.wait_ns == 1197 - a.leaves_ns);
        CHECK(back.cost_ns == back.wait_ns + 197);
        CHECK(lines.owner(4) == 0);
        // A read takes nothing away: its owner keeps writing for free.
        const LineAccess read = lines.read(4, 96, 5000);
        CHECK(read.cost_ns == 197);
        CHECK(read.leaves_ns == 0);
        CHECK(lines.write(4, 0, 5001) == LineAccess {});
        CHECK(!lines.is_sharer(4, 96));
    }
    CHECK(stores_before >= 195);
}

TEST_CASE(
    "writes queued on a line hand it on in turn, each owner keeping it until the next request reaches it", "[machines]")
{
    unsigned releases_before = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        INFO("seed " << seed);
        CacheLines lines(load_machine_profile("epyc-2026"), 1.0, seed);
        lines.write(5, 0, 0);
        const LineAccess first = lines.write(5, 96, 1000); // at CPU 96 at 1197
        CHECK(first.cost_ns == 197);
        const LineAccess second = lines.write(5, 2, 1001); // behind it: at CPU 2 at 1394
        CHECK(second.cost_ns == 196 + 197);
        CHECK(second.wait_ns == 196);
        // Queued at the home: its probe reaches CPU 96 within the first half
        // of its transfer, after the line CPU 96 waited for has arrived.
        REQUIRE(second.leaves_ns >= 1197);
        REQUIRE(second.leaves_ns <= 1197 + 98);
        // (Accesses in the order of their times: a check only where the
        // drawn point leaves room for it, counted below.)
        if (first.leaves_ns > 1001 && second.leaves_ns > 1197) {
            CHECK(lines.write(5, 0, first.leaves_ns - 1) == LineAccess {});   // the holder releases in its cache
            CHECK(lines.write(5, 96, second.leaves_ns - 1) == LineAccess {}); // and so does the next
            ++releases_before;
        }
        CHECK(lines.transfers(5) == 2);
        CHECK(lines.owner(5) == 2);
        // Once the last request has reached CPU 96, it waits for the line to
        // arrive at CPU 2 and to come back.
        const LineAccess back = lines.write(5, 96, second.leaves_ns);
        CHECK(back.wait_ns == 1394 - second.leaves_ns);
        CHECK(back.cost_ns == back.wait_ns + 197);
    }
    CHECK(releases_before >= 190);
}

TEST_CASE("where requests reach the owner is spread over the transfer and fixed by the seed", "[machines]")
{
    const MachineProfile epyc = load_machine_profile("epyc-2026");
    // Pairs of writes across the sockets: the first on its own (CPU 96),
    // the second queued behind it (CPU 0 or 2, whichever did not have the
    // line). Offsets from when each could first reach the owner, in
    // fractions of the 197 ns transfer.
    const auto draw = [&](std::uint64_t seed) {
        CacheLines lines(epyc, 1.0, seed);
        lines.write(0, 0, 0);
        std::vector<std::uint64_t> leaves;
        double alone_sum = 0, queued_sum = 0;
        std::uint64_t alone_min = 197, alone_max = 0, queued_max = 0;
        constexpr int kPairs = 20'000;
        for (int i = 0; i < kPairs; ++i) {
            const std::uint64_t t = 10'000 * std::uint64_t(i + 1);
            const LineAccess alone = lines.write(0, 96, t);
            const LineAccess queued = lines.write(0, i % 2 ? 0 : 2, t);
            REQUIRE(alone.wait_ns == 0);
            REQUIRE(queued.wait_ns == 197);
            const std::uint64_t a = alone.leaves_ns - t;
            const std::uint64_t q = queued.leaves_ns - (t + 197);
            alone_sum += double(a) / 197.0;
            alone_min = std::min(alone_min, a);
            alone_max = std::max(alone_max, a);
            queued_sum += double(q) / 197.0;
            queued_max = std::max(queued_max, q);
            leaves.push_back(alone.leaves_ns);
            leaves.push_back(queued.leaves_ns);
        }
        // Both ends of each range are drawn (20,000 draws of 198 or 99
        // values: missing one has a chance of about e^-100).
        CHECK(alone_min == 0);
        CHECK(alone_max == 197);
        CHECK(alone_sum / kPairs == Approx(0.5).margin(0.01));
        CHECK(queued_max == 98);
        CHECK(queued_sum / kPairs == Approx(0.25).margin(0.01));
        return leaves;
    };
    const std::vector<std::uint64_t> a = draw(7);
    CHECK(draw(7) == a);
    CHECK(draw(8) != a);
}

TEST_CASE("on one shared bus the transfers of different lines serialise too", "[machines]")
{
    CacheLines bus(load_machine_profile("pentium3-xeon-8way-2002"));
    bus.write(0, 0, 0);
    bus.write(1, 1, 0);
    CHECK(bus.write(0, 2, 1000).cost_ns == 200);
    CHECK(bus.write(1, 3, 1000).cost_ns == 400);
    CHECK(bus.write(0, 4, 1000).cost_ns == 600);

    CacheLines ccx(load_machine_profile("epyc-2026")); // no shared bus
    ccx.write(0, 0, 0);
    ccx.write(1, 1, 0);
    CHECK(ccx.write(0, 96, 1000).cost_ns == 197);
    CHECK(ccx.write(1, 97, 1000).cost_ns == 197);
}

TEST_CASE("a write that waits for the bus alone is not queued behind its line", "[machines]")
{
    // On the Pentium III's bus a write to an idle line waits for another
    // line's transfer: its request was never at the line's home, so it
    // reaches the owner anywhere in its own transfer, not only within its
    // first half.
    std::uint64_t latest = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        CacheLines bus(load_machine_profile("pentium3-xeon-8way-2002"), 1.0, seed);
        bus.write(0, 0, 0);
        bus.write(1, 1, 0);
        REQUIRE(bus.write(0, 2, 1000).cost_ns == 200);
        const LineAccess a = bus.write(1, 3, 1000); // the bus is busy until 1200
        REQUIRE(a.wait_ns == 200);
        REQUIRE(a.leaves_ns >= 1200);
        REQUIRE(a.leaves_ns <= 1400);
        latest = std::max(latest, a.leaves_ns - 1200);
    }
    CHECK(latest > 100);
}

TEST_CASE("the latency scale applies to every transfer", "[machines]")
{
    const MachineProfile epyc = load_machine_profile("epyc-2026");
    CacheLines twice(epyc, 2.0);
    twice.write(0, 0, 0);
    CHECK(twice.write(0, 96, 0).cost_ns == 394);
    CHECK(twice.write(0, 2, 0).cost_ns == 394 + 394); // behind the first
    CacheLines half(epyc, 0.5);
    half.write(0, 0, 0);
    CHECK(half.read(0, 96, 0).cost_ns == 99);
    CHECK(half.read(0, 2, 1000).cost_ns == 12);
    CHECK_THROWS_AS(CacheLines(epyc, -0.5), FieldError);
}

TEST_CASE("an access by a CPU the machine does not have is refused", "[machines]")
{
    CacheLines lines(load_machine_profile("altix-2005"));
    CHECK_THROWS_AS(lines.write(0, 64, 0), std::out_of_range);
    CHECK_THROWS_AS(lines.read(0, 64, 0), std::out_of_range);
    CHECK(lines.transfers() == 0);
    CHECK(lines.write(0, 63, 0).cost_ns == 0);
}

TEST_CASE("every pair of CPUs' transfer costs the latency of the distance between them", "[machines]")
{
    for (const char* name : { "altix-2005", "epyc-2026", "pentium3-xeon-8way-2002" }) {
        INFO(name);
        const MachineProfile profile = load_machine_profile(name);
        CacheLines lines(profile, 2.0);
        const std::uint32_t cpus = profile.topology.cpus();
        std::uint32_t line = 0;
        std::uint64_t now = 0;
        for (std::uint32_t from = 0; from < cpus; ++from)
            for (std::uint32_t to = 0; to < cpus; ++to, ++line) {
                lines.write(line, from, now);
                // Long after any earlier transfer (on a shared bus too).
                now += 1'000'000;
                const LineAccess a = lines.write(line, to, now);
                REQUIRE(a.distance == distance(profile.topology, from, to));
                REQUIRE(a.cost_ns == lines.latencies().latency(from, to));
                REQUIRE(a.transfer == (from != to));
            }
    }
}
