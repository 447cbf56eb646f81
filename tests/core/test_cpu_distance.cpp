// Distances between the CPUs of the modelled machines and what a transfer
// over each costs: SMT siblings, a CCX, a socket, another socket, the
// routers of the Altix fat tree; the latency scale of the sensitivity runs.
#include <catch2/catch.hpp>

#include "lib/field_error.h"
#include "sched/cpu_distance.h"
#include "sched/machine_profiles.h"

#include <cstdint>

using namespace pcl;
using namespace pcl::sched;

namespace {

CpuDistance at(DistanceKind kind, std::uint32_t hops = 0)
{
    return { kind, hops };
}

} // namespace

TEST_CASE("epyc-2026: threads of a core, cores of a CCX, CCXs of a socket, two sockets", "[machines]")
{
    const MachineTopology t = load_machine_profile("epyc-2026").topology;
    CHECK(distance(t, 5, 5) == at(DistanceKind::Same));
    CHECK(distance(t, 0, 1) == at(DistanceKind::Smt));
    CHECK(distance(t, 1, 0) == at(DistanceKind::Smt));
    CHECK(distance(t, 0, 2) == at(DistanceKind::Domain));
    CHECK(distance(t, 0, 15) == at(DistanceKind::Domain)); // 8 cores x 2 threads a CCX
    CHECK(distance(t, 0, 16) == at(DistanceKind::Socket));
    CHECK(distance(t, 17, 95) == at(DistanceKind::Socket)); // 6 CCXs a socket
    CHECK(distance(t, 0, 96) == at(DistanceKind::Remote));
    CHECK(distance(t, 191, 0) == at(DistanceKind::Remote));
    CHECK(max_hops(t) == 0);

    const TransferLatencyTable table(load_machine_profile("epyc-2026"), 1.0);
    CHECK(table.latency(0, 0) == 0);
    CHECK(table.latency(0, 1) == 8);
    CHECK(table.latency(0, 15) == 23);
    CHECK(table.latency(0, 16) == 107);
    CHECK(table.latency(0, 96) == 197);
}

TEST_CASE("altix-2005: two CPUs a node, nodes 1, 3 or 5 routers apart", "[machines]")
{
    const MachineProfile altix = load_machine_profile("altix-2005");
    const MachineTopology& t = altix.topology;
    CHECK(distance(t, 0, 1) == at(DistanceKind::Domain));
    // Nodes 0-3 (CPUs 0-7) share a router, nodes 0-15 a second-level one.
    CHECK(distance(t, 0, 2) == at(DistanceKind::Remote, 1));
    CHECK(distance(t, 1, 7) == at(DistanceKind::Remote, 1));
    CHECK(distance(t, 0, 8) == at(DistanceKind::Remote, 3));
    CHECK(distance(t, 7, 31) == at(DistanceKind::Remote, 3));
    CHECK(distance(t, 0, 32) == at(DistanceKind::Remote, 5));
    CHECK(distance(t, 63, 0) == at(DistanceKind::Remote, 5));
    CHECK(distance(t, 32, 39) == at(DistanceKind::Remote, 1));
    CHECK(max_hops(t) == 5); // SGI: at most 5 hops

    const TransferLatencyTable table(altix, 1.0);
    CHECK(table.latency(0, 1) == 200);
    CHECK(table.latency(0, 2) == 250 + 1 * 50);
    CHECK(table.latency(0, 8) == 250 + 3 * 50);
    CHECK(table.latency(0, 63) == 250 + 5 * 50);

    // Every pair: symmetric, and at most 5 hops.
    for (std::uint32_t a = 0; a < t.cpus(); ++a)
        for (std::uint32_t b = 0; b < t.cpus(); ++b) {
            REQUIRE(distance(t, a, b) == distance(t, b, a));
            REQUIRE(distance(t, a, b).hops <= 5);
        }
}

TEST_CASE("pentium3-xeon-8way-2002: eight CPUs on one bus, all one distance apart", "[machines]")
{
    const MachineProfile p3 = load_machine_profile("pentium3-xeon-8way-2002");
    const TransferLatencyTable table(p3, 1.0);
    for (std::uint32_t a = 0; a < 8; ++a)
        for (std::uint32_t b = 0; b < 8; ++b)
            CHECK(table.latency(a, b) == (a == b ? 0 : 200));
}

TEST_CASE("the latency scale multiplies every transfer, rounded once", "[machines]")
{
    const MachineProfile epyc = load_machine_profile("epyc-2026");
    const TransferLatencyTable twice(epyc, 2.0), half(epyc, 0.5);
    CHECK(twice.latency(0, 1) == 16);
    CHECK(twice.latency(0, 2) == 46);
    CHECK(twice.latency(0, 16) == 214);
    CHECK(twice.latency(0, 96) == 394);
    CHECK(half.latency(0, 1) == 4);
    CHECK(half.latency(0, 2) == 12);  // 11.5, half away from zero
    CHECK(half.latency(0, 16) == 54); // 53.5
    CHECK(half.latency(0, 96) == 99); // 98.5

    const MachineProfile altix = load_machine_profile("altix-2005");
    CHECK(TransferLatencyTable(altix, 2.0).latency(0, 63) == 2 * (250 + 5 * 50));
    CHECK(TransferLatencyTable(altix, 0.5).latency(0, 8) == (250 + 3 * 50) / 2);

    CHECK_THROWS_AS(TransferLatencyTable(epyc, -1.0), FieldError);
    CHECK_THROWS_WITH(TransferLatencyTable(epyc, 1e9), Catch::StartsWith("latency_scale must be"));
    // The value as the user wrote it, not as std::to_string prints a double.
    CHECK_THROWS_WITH(TransferLatencyTable(epyc, -1.0), Catch::EndsWith("got -1"));
    CHECK_THROWS_WITH(TransferLatencyTable(epyc, 1000.5), Catch::EndsWith("got 1000.5"));
}
