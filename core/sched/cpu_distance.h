// How far apart two CPUs of a modelled machine are, and what moving a cache
// line across that distance costs.
//
// The distances are those the published core-to-core measurements
// separate: the other hardware thread of a core, another core of the same
// cache domain (a CCX; a node's front-side bus), another domain of the same
// socket, another socket. On a NUMAlink fat tree (SGI Altix) another node
// is also so many routers away: a router per level up and down, so two
// nodes under one router are 1 hop apart, under one router a level higher
// 3, and so on.
#pragma once

#include "sched/machine_profile.h"

#include <cstdint>
#include <vector>

namespace pcl::sched {

enum class DistanceKind : std::uint8_t { Same, Smt, Domain, Socket, Remote };
inline constexpr std::array<std::string_view, 5> kDistanceKinds = { "same", "smt", "domain", "socket", "remote" };

struct CpuDistance {
    DistanceKind kind = DistanceKind::Same;
    std::uint32_t hops = 0; ///< Remote on a fat tree: routers crossed; otherwise 0
    friend bool operator==(const CpuDistance&, const CpuDistance&) = default;
};

/// The distance from CPU @a to CPU @b of @topology (both below its cpus()).
CpuDistance distance(const MachineTopology& topology, std::uint32_t a, std::uint32_t b) noexcept;

/// The most routers a transfer crosses on @topology (0 without a fat tree).
std::uint32_t max_hops(const MachineTopology& topology) noexcept;

/// A profile's transfer latencies, each multiplied by a scale factor (the
/// sensitivity runs take 0.5 and 2) and rounded to the nanosecond once.
class TransferLatencyTable {
public:
    static constexpr double kMinScale = 0.0;
    static constexpr double kMaxScale = 1000.0;

    /// @profile must be valid; throws FieldError("latency_scale") for a
    /// scale that is not a finite number in [0, 1000].
    TransferLatencyTable(const MachineProfile& profile, double scale);

    const MachineTopology& topology() const noexcept { return topology_; }
    double scale() const noexcept { return scale_; }
    /// The scaled cost of one transfer over @d (0 for Same).
    std::uint64_t latency(CpuDistance d) const noexcept;
    std::uint64_t latency(std::uint32_t from_cpu, std::uint32_t to_cpu) const noexcept
    {
        return latency(distance(topology_, from_cpu, to_cpu));
    }

private:
    MachineTopology topology_;
    double scale_;
    std::array<std::uint64_t, 5> by_kind_ {};   ///< Remote: without routers
    std::vector<std::uint64_t> remote_by_hops_; ///< fat tree: [hops]
};

} // namespace pcl::sched
