// A modelled machine: its topology, what moving a cache line between two of
// its CPUs costs, and what each operation of the engine costs on one CPU.
//
// Every figure carries where it comes from: a published measurement or
// specification, arithmetic on published figures, a calibration against a
// mailing-list thread's own one-CPU figure (or, for the host profile, the
// engine's own on this machine), an estimate, or a measurement that
// `pagecache-lab-cli calibrate` made on the machine the programs run on. A
// calibration makes the model's one-CPU rate match the thread's; it is an
// input, not a result. The profiles are resources/machines/*.json (docs/machines.md);
// sched/machine_profile_fields.h reads and lists them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcl::sched {

/// Where a figure comes from.
enum class FigureBasis : std::uint8_t {
    Published,   ///< a measurement or specification, cited
    Derived,     ///< arithmetic on published figures, shown
    Calibration, ///< set so that the model's one-CPU rate is a thread's own figure
    Estimate,    ///< no primary source
    Measured,    ///< measured on this machine by calibrate (the host profile)
};
inline constexpr std::array<std::string_view, 5> kFigureBases
    = { "published", "derived", "calibration", "estimate", "measured" };

/// One figure of a profile, in nanoseconds, and its source.
struct Figure {
    std::uint64_t ns = 0;
    FigureBasis basis = FigureBasis::Estimate;
    std::string source;
    friend bool operator==(const Figure&, const Figure&) = default;
};

/// How the sockets (or nodes) of a machine reach each other.
enum class HopRule : std::uint8_t {
    None,    ///< every other socket is one step away (remote)
    FatTree, ///< routers of router_radix ports down: remote + hop x routers crossed
};
inline constexpr std::array<std::string_view, 2> kHopRules = { "none", "fat_tree" };

/// CPUs, numbered densely: a core's hardware threads are neighbours, then
/// a domain's cores, a socket's domains, and the sockets in order.
struct MachineTopology {
    std::uint32_t cpus_per_core = 1;      ///< hardware threads (SMT) of a core
    std::uint32_t cores_per_domain = 1;   ///< cores sharing a cache domain (CCX) or a node's bus
    std::uint32_t domains_per_socket = 1; ///< cache domains of a socket
    std::uint32_t sockets = 1;            ///< sockets, or NUMA nodes
    HopRule hop_rule = HopRule::None;
    std::uint32_t router_radix = 0; ///< fat_tree: sockets (then routers) below one router
    bool shared_bus = false;        ///< every transfer of the machine serialises on one bus
    FigureBasis basis = FigureBasis::Estimate;
    std::string source; ///< where the layout comes from
    friend bool operator==(const MachineTopology&, const MachineTopology&) = default;

    std::uint32_t cpus() const noexcept { return cpus_per_core * cores_per_domain * domains_per_socket * sockets; }
};

/// The latency of moving one cache line from its owner's cache to another
/// CPU's, by how far apart they are. A figure is present exactly when the
/// topology has two CPUs at that distance.
struct TransferLatencies {
    std::optional<Figure> smt;    ///< the other hardware thread of the same core
    std::optional<Figure> domain; ///< another core of the same cache domain or node bus
    std::optional<Figure> socket; ///< another domain of the same socket
    std::optional<Figure> remote; ///< another socket (fat_tree: before the routers)
    std::optional<Figure> hop;    ///< fat_tree: each router crossed
    friend bool operator==(const TransferLatencies&, const TransferLatencies&) = default;
};

/// What the engine's operations cost on one CPU of the machine, with no
/// other CPU in the way (the transfers of contended lines come on top).
struct WorkCosts {
    Figure minor_fault;  ///< a minor fault's trap, walk and return, without the page's zeroing or copy
    Figure index_level;  ///< one level of a page-cache index walked in a lookup
    Figure page_copy;    ///< copying one 4 KiB page
    Figure page_zero;    ///< zeroing one 4 KiB page
    Figure pte_install;  ///< writing one page-table entry
    Figure io_submit;    ///< submitting one I/O request to the block layer
    Figure lock_acquire; ///< taking a free lock whose line the CPU holds
    Figure spin_step;    ///< one step of a spin-wait: a pause and a re-read of the line
    Figure operation;    ///< an operation's own work, besides the kernel work charged for it
    Figure syscall;      ///< a read(2) or write(2) call's own work, besides its pages'
    friend bool operator==(const WorkCosts&, const WorkCosts&) = default;
};

struct MachineProfile {
    static constexpr std::uint32_t kMaxCpus = 1024;
    static constexpr std::uint64_t kMaxFigureNs = 1'000'000'000; ///< one second

    std::string name;        ///< the file's name: "altix-2005"
    std::string title;       ///< "SGI Altix 3000 (Itanium 2, NUMAlink-3), 2005"
    std::string description; ///< one line: what the machine is and why it is here
    std::uint32_t max_cpus = 1;
    MachineTopology topology;
    TransferLatencies latency;
    WorkCosts work;
    friend bool operator==(const MachineProfile&, const MachineProfile&) = default;

    /// Throws FieldError naming the field ("topology.sockets",
    /// "latency.hop") of the first rule broken.
    void validate() const;
};

} // namespace pcl::sched
