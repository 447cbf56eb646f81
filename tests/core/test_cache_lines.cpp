// The modelled cache lines: a transfer costs the latency from the line's
// owner; sharers read for free; transfers of one line (and, on a shared
// bus, of all lines) are serialised, so k writers at one time arrive at
// t+c, t+2c, ..., t+kc; the count of transfers; the latency scale.
#include <catch2/catch.hpp>

#include "lib/field_error.h"
#include "sched/cache_lines.h"
#include "sched/machine_profiles.h"

#include <cstdint>
#include <stdexcept>

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

TEST_CASE("the old owner keeps a line until a write's request reaches it, half way through the transfer", "[machines]")
{
    CacheLines lines(load_machine_profile("epyc-2026"));
    lines.write(4, 0, 0);
    CHECK(lines.write(4, 96, 1000).cost_ns == 197); // leaves CPU 0 at 1098, arrives at 1197
    CHECK(lines.owner(4) == 96);
    // CPU 0's store before its line leaves hits its own cache, and goes
    // with the line: a lock released there is free when the line arrives.
    CHECK(lines.write(4, 0, 1050) == LineAccess {});
    CHECK(lines.read(4, 0, 1097) == LineAccess {});
    CHECK(lines.owner(4) == 96);
    CHECK(lines.transfers(4) == 1);
    // From 1098 the line is on its way: CPU 0 waits for it to arrive at 96,
    // then for it to come back.
    const LineAccess back = lines.write(4, 0, 1098);
    CHECK(back.wait_ns == 99);
    CHECK(back.cost_ns == 99 + 197);
    CHECK(lines.owner(4) == 0);
    // A read takes nothing away: its owner keeps writing for free.
    CHECK(lines.read(4, 96, 2000).cost_ns == 197);
    CHECK(lines.write(4, 0, 2001) == LineAccess {});
    CHECK(!lines.is_sharer(4, 96));
}

TEST_CASE(
    "writes queued on a line hand it on in turn, each owner keeping it until the next request reaches it", "[machines]")
{
    CacheLines lines(load_machine_profile("epyc-2026"));
    lines.write(5, 0, 0);
    CHECK(lines.write(5, 96, 1000).cost_ns == 197);      // leaves CPU 0 at 1098, at CPU 96 at 1197
    CHECK(lines.write(5, 2, 1001).cost_ns == 196 + 197); // behind it: leaves CPU 96 at 1295, at CPU 2 at 1394
    CHECK(lines.write(5, 0, 1050) == LineAccess {});     // the holder still releases in its own cache
    CHECK(lines.write(5, 96, 1250) == LineAccess {});    // and so does the next, while it has the line
    CHECK(lines.transfers(5) == 2);
    CHECK(lines.owner(5) == 2);
    // Once the last request has reached CPU 96, it waits for the line to
    // arrive at CPU 2 (1394) and to come back.
    const LineAccess back = lines.write(5, 96, 1300);
    CHECK(back.wait_ns == 94);
    CHECK(back.cost_ns == 94 + 197);
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
