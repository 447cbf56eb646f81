// Where a result comes from: the build of the program that made it, the
// command that asked for it, when, and the computer it ran on. Every result
// the programs write carries it (a run's summary.json in its `host`
// section, the sweep, compare and experiment tables as columns and
// members, the reports in their footer), so that a figure attached to a bug
// report or a paper can be traced to how it was made, as perf and fio
// record their version and host beside their output.
#pragma once

#include "lib/json.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pcl {

/// The computer the programs run on, as it describes itself.
struct HostFacts {
    std::string date;               ///< today, "2026-12-05" (UTC)
    std::string cpu_model;          ///< /proc/cpuinfo's model name; empty: not shown
    bool hypervisor = false;        ///< the CPU says it runs under a hypervisor
    std::string kernel;             ///< uname: "Linux 6.1.0-28-amd64"
    unsigned cpus = 0;              ///< CPUs online
    std::uint64_t memory_bytes = 0; ///< physical memory
};

/// The date today (UTC), /proc/cpuinfo's model name and hypervisor flag,
/// the kernel, the CPUs online and the physical memory.
HostFacts read_host_facts();

struct Provenance {
    std::string version; ///< the program's, PCL_VERSION
    std::string commit;  ///< the source's git commit at the build ("" when not built from a git checkout)
    std::string command; ///< the command line, quoted as a shell would take it ("" when not set)
    std::string time;    ///< when the result was made, ISO 8601 UTC: "2026-12-06T11:50:03Z"
    HostFacts host;
};

/// This process's: its build, its command line (set_command_line), now and
/// this computer.
Provenance make_provenance();

/// Records the program's command line for make_provenance(); main() calls it.
void set_command_line(int argc, const char* const* argv);

/// The source's git commit when the program was built: `git describe
/// --always --dirty` ("" when the build had no git checkout).
const char* build_commit();

/// The members a result's provenance is written as, in order: version,
/// commit, command, time, kernel, cpu_model, hypervisor, cpus, memory_bytes.
json::Object provenance_members(const Provenance& p);

/// A provenance as provenance_members() wrote it into @doc (a result's
/// `host` section); a member that is missing or of another type is left empty.
Provenance provenance_from_json(const json::Value& doc);

/// The same as CSV columns (name, text): program_version, program_commit,
/// command_line, made_at, host_kernel, host_cpu_model, host_cpus,
/// host_memory_bytes; all empty for an empty provenance (a run not made).
std::vector<std::pair<std::string, std::string>> provenance_columns(const Provenance& p);

/// The computer in words: "Linux 6.1.0-28-amd64, AMD EPYC 7B13 (2 vCPUs),
/// 23.5 GiB".
std::string host_text(const HostFacts& h);

} // namespace pcl
