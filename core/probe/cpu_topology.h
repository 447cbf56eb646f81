// The host's CPU topology, as Linux's sysfs describes it, and the modelled
// machine's topology that stands for it.
//
// Each online CPU's directory /sys/devices/system/cpu/cpuN/ says which CPUs
// are its hardware-thread siblings (topology/thread_siblings_list), its core
// and package (topology/core_id, topology/physical_package_id), and for each
// of its caches which CPUs share it (cache/indexK/shared_cpu_list, with
// level and size). The last-level cache's sharers are a cache domain (an
// AMD CCX; a whole Intel socket). A profile's topology is regular (so many
// threads a core, cores a domain, domains a socket, sockets), so an
// irregular host is rounded down to the largest regular machine it holds,
// and a virtual machine, whose sysfs says what the hypervisor chose to
// show (often no caches at all), is taken as shown: both are said in the
// topology's source.
#pragma once

#include "sched/cpu_distance.h"
#include "sched/machine_profile.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pcl {

/// The CPUs of a sysfs CPU list ("0-3,8-11", "5", "0,2"), sorted and each
/// once. Throws std::invalid_argument quoting @text for anything else.
std::vector<unsigned> parse_cpu_list(std::string_view text);

/// One online CPU of the host, as sysfs shows it.
struct HostCpu {
    unsigned id = 0;
    std::vector<unsigned> threads; ///< its core's hardware threads, itself included
    int core_id = -1;              ///< -1: not shown
    int package_id = -1;           ///< -1: not shown
    std::vector<unsigned> llc;     ///< the CPUs sharing its last-level cache; empty: not shown
    unsigned llc_level = 0;        ///< that cache's level (2, 3); 0: not shown
    std::uint64_t llc_bytes = 0;   ///< its size; 0: not shown
};

/// The host's topology and the profile's topology standing for it.
struct HostTopology {
    std::vector<HostCpu> cpus;       ///< online CPUs, by id
    sched::MachineTopology topology; ///< the regular machine, basis and source filled in
    std::uint64_t llc_bytes = 0;     ///< the largest last-level cache's size; 0: unknown
    /// For each distance (indexed by sched::DistanceKind), two host CPUs
    /// that far apart, both among the CPUs the caller may run on; absent
    /// when the topology has no such pair.
    std::array<std::optional<std::pair<unsigned, unsigned>>, sched::kDistanceKinds.size()> pairs;

    /// How far apart host CPUs @a and @b are, by sysfs: SMT siblings, one
    /// last-level cache (the package when no cache is shown), one package.
    sched::DistanceKind distance(unsigned a, unsigned b) const;
};

/// Reads @cpu_dir (normally /sys/devices/system/cpu): its online list
/// ("online"; without it, every cpuN directory) and each online CPU.
/// @allowed: the CPUs this process may run on (sched_getaffinity); the
/// pairs are chosen among them. Throws std::runtime_error naming the file
/// when no CPU can be read or a list does not parse.
HostTopology read_host_topology(const std::string& cpu_dir, const std::vector<unsigned>& allowed);

/// The CPUs the calling thread may run on (sched_getaffinity); every
/// online CPU if that fails.
std::vector<unsigned> allowed_cpus();

} // namespace pcl
