#include "sched/cpu_distance.h"

#include "lib/field_error.h"
#include "lib/report.h"

#include <cmath>

namespace pcl::sched {

namespace {

/// Levels of routers a fat tree of @radix needs above @sockets nodes.
std::uint32_t fat_tree_levels(std::uint32_t sockets, std::uint32_t radix) noexcept
{
    std::uint32_t levels = 1;
    for (std::uint64_t reach = radix; reach < sockets; reach *= radix)
        ++levels;
    return levels;
}

std::uint64_t scaled_ns(std::uint64_t ns, double scale) noexcept
{
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(ns) * scale));
}

} // namespace

CpuDistance distance(const MachineTopology& t, std::uint32_t a, std::uint32_t b) noexcept
{
    if (a == b)
        return {};
    const std::uint32_t core_a = a / t.cpus_per_core, core_b = b / t.cpus_per_core;
    if (core_a == core_b)
        return { DistanceKind::Smt, 0 };
    const std::uint32_t domain_a = core_a / t.cores_per_domain, domain_b = core_b / t.cores_per_domain;
    if (domain_a == domain_b)
        return { DistanceKind::Domain, 0 };
    std::uint32_t socket_a = domain_a / t.domains_per_socket, socket_b = domain_b / t.domains_per_socket;
    if (socket_a == socket_b)
        return { DistanceKind::Socket, 0 };
    if (t.hop_rule != HopRule::FatTree)
        return { DistanceKind::Remote, 0 };
    // Up to the lowest router above both nodes and down again.
    std::uint32_t level = 1;
    for (socket_a /= t.router_radix, socket_b /= t.router_radix; socket_a != socket_b; ++level) {
        socket_a /= t.router_radix;
        socket_b /= t.router_radix;
    }
    return { DistanceKind::Remote, 2 * level - 1 };
}

std::uint32_t max_hops(const MachineTopology& t) noexcept
{
    if (t.hop_rule != HopRule::FatTree || t.sockets < 2 || t.router_radix < 2)
        return 0;
    return 2 * fat_tree_levels(t.sockets, t.router_radix) - 1;
}

TransferLatencyTable::TransferLatencyTable(const MachineProfile& profile, double scale)
    : topology_(profile.topology)
    , scale_(scale)
{
    if (!std::isfinite(scale) || scale < kMinScale || scale > kMaxScale)
        throw FieldError("latency_scale", "must be a number from 0 to 1000, got " + shown_number(scale));
    const TransferLatencies& l = profile.latency;
    auto ns = [](const std::optional<Figure>& f) { return f ? f->ns : 0; };
    by_kind_[std::size_t(DistanceKind::Smt)] = scaled_ns(ns(l.smt), scale);
    by_kind_[std::size_t(DistanceKind::Domain)] = scaled_ns(ns(l.domain), scale);
    by_kind_[std::size_t(DistanceKind::Socket)] = scaled_ns(ns(l.socket), scale);
    by_kind_[std::size_t(DistanceKind::Remote)] = scaled_ns(ns(l.remote), scale);
    // Scaled after the routers are added, so that 2x doubles the whole path
    // and 0.5x halves it with a single rounding.
    for (std::uint32_t hops = 0, most = max_hops(topology_); hops <= most; ++hops)
        remote_by_hops_.push_back(scaled_ns(ns(l.remote) + hops * ns(l.hop), scale));
}

std::uint64_t TransferLatencyTable::latency(CpuDistance d) const noexcept
{
    if (d.kind == DistanceKind::Remote && d.hops > 0)
        return d.hops < remote_by_hops_.size() ? remote_by_hops_[d.hops] : remote_by_hops_.back();
    return by_kind_[std::size_t(d.kind)];
}

} // namespace pcl::sched
