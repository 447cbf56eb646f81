#include "sched/machine_profile.h"

#include "lib/field_table.h"
#include "sched/machine_profile_fields.h"

namespace pcl::sched {

namespace {

void check_range(const std::string& path, std::uint64_t value, std::uint64_t lo, std::uint64_t hi)
{
    if (value < lo || value > hi)
        throw_field_error(
            path, "must be " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(value));
}

void check_text(const std::string& path, const std::string& text)
{
    if (text.empty())
        throw_field_error(path, "must not be empty");
}

void check_figure(const std::string& path, const Figure& f)
{
    check_range(path + ".ns", f.ns, 0, MachineProfile::kMaxFigureNs);
    check_text(path + ".source", f.source);
}

/// A latency is given exactly when the topology has two CPUs that far apart.
void check_latency(const std::string& name, const std::optional<Figure>& f, bool occurs, const char* why_not)
{
    const std::string path = "latency." + name;
    if (occurs && !f)
        throw_field_error(path, "missing: this topology has CPUs at this distance");
    if (!occurs && f)
        throw_field_error(path, std::string("not allowed: ") + why_not);
    if (f)
        check_figure(path, *f);
}

} // namespace

void MachineProfile::validate() const
{
    check_text("name", name);
    check_range("name", name.size(), 1, 64);
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            throw_field_error("name", "must be lower-case letters, digits and '-', got '" + name + "'");
    check_text("title", title);
    check_text("description", description);

    const MachineTopology& t = topology;
    check_range("topology.cpus_per_core", t.cpus_per_core, 1, 8);
    check_range("topology.cores_per_domain", t.cores_per_domain, 1, 256);
    check_range("topology.domains_per_socket", t.domains_per_socket, 1, 64);
    check_range("topology.sockets", t.sockets, 1, 256);
    const std::uint64_t cpus = std::uint64_t(t.cpus_per_core) * t.cores_per_domain * t.domains_per_socket * t.sockets;
    if (cpus > kMaxCpus)
        throw_field_error("topology", "has " + std::to_string(cpus) + " CPUs, more than " + std::to_string(kMaxCpus));
    if (t.hop_rule == HopRule::FatTree)
        check_range("topology.router_radix", t.router_radix, 2, 64);
    else if (t.router_radix != 0)
        throw_field_error("topology.router_radix", "only with hop_rule fat_tree (0 or left out otherwise)");
    if (t.shared_bus && t.sockets > 1)
        throw_field_error("topology.shared_bus", "one bus for every CPU needs sockets 1");
    check_text("topology.source", t.source);
    check_range("max_cpus", max_cpus, 1, cpus);

    check_latency("smt", latency.smt, t.cpus_per_core > 1, "cpus_per_core is 1");
    check_latency("domain", latency.domain, t.cores_per_domain > 1, "cores_per_domain is 1");
    check_latency("socket", latency.socket, t.domains_per_socket > 1, "domains_per_socket is 1");
    check_latency("remote", latency.remote, t.sockets > 1, "sockets is 1");
    check_latency("hop", latency.hop, t.sockets > 1 && t.hop_rule == HopRule::FatTree, "hop_rule is none");

    for (const FigureField<WorkCosts>& f : work_figure_fields())
        check_figure("work." + std::string(f.name), work.*f.figure);
}

} // namespace pcl::sched
