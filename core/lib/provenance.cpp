// Where a result comes from (see provenance.h).
#include "lib/provenance.h"

#include "lib/shell_quote.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>

#include <sys/utsname.h>
#include <unistd.h>

namespace pcl {

namespace {

std::mutex g_command_mu;
std::string g_command; // guarded by g_command_mu

std::string utc_now(const char* format)
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, format, &utc);
    return text;
}

} // namespace

HostFacts read_host_facts()
{
    HostFacts f;
    f.date = utc_now("%Y-%m-%d");
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = line.substr(0, colon);
        while (!key.empty() && (key.back() == ' ' || key.back() == '\t'))
            key.pop_back();
        const std::string value = line.substr(std::min(colon + 2, line.size()));
        if (key == "model name" && f.cpu_model.empty())
            f.cpu_model = value;
        if (key == "flags" && (" " + value + " ").find(" hypervisor ") != std::string::npos)
            f.hypervisor = true;
    }
    utsname uts {};
    if (::uname(&uts) == 0)
        f.kernel = std::string(uts.sysname) + " " + uts.release;
    if (const long n = ::sysconf(_SC_NPROCESSORS_ONLN); n > 0)
        f.cpus = unsigned(n);
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        f.memory_bytes = std::uint64_t(pages) * std::uint64_t(page);
    return f;
}

void set_command_line(int argc, const char* const* argv)
{
    std::string command;
    for (int i = 0; i < argc; ++i) {
        // The program by its name, not the path it was started from.
        std::string arg = argv[i];
        if (i == 0)
            arg = arg.substr(arg.rfind('/') == std::string::npos ? 0 : arg.rfind('/') + 1);
        command += (i ? " " : "") + shell_quote(arg);
    }
    const std::lock_guard g(g_command_mu);
    g_command = std::move(command);
}

Provenance make_provenance()
{
    Provenance p;
    p.version = PCL_VERSION;
    p.commit = build_commit();
    {
        const std::lock_guard g(g_command_mu);
        p.command = g_command;
    }
    p.time = utc_now("%Y-%m-%dT%H:%M:%SZ");
    p.host = read_host_facts();
    return p;
}

json::Object provenance_members(const Provenance& p)
{
    return json::Object {
        { "version", p.version },
        { "commit", p.commit },
        { "command", p.command },
        { "time", p.time },
        { "kernel", p.host.kernel },
        { "cpu_model", p.host.cpu_model },
        { "hypervisor", p.host.hypervisor },
        { "cpus", p.host.cpus },
        { "memory_bytes", p.host.memory_bytes },
    };
}

Provenance provenance_from_json(const json::Value& doc)
{
    Provenance p;
    const auto text = [&](const char* name, std::string& to) {
        if (const json::Value* v = doc.find(name); v && v->is_string())
            to = v->as_string();
    };
    text("version", p.version);
    text("commit", p.commit);
    text("command", p.command);
    text("time", p.time);
    text("kernel", p.host.kernel);
    text("cpu_model", p.host.cpu_model);
    if (const json::Value* v = doc.find("hypervisor"); v && v->is_bool())
        p.host.hypervisor = v->as_bool();
    if (const json::Value* v = doc.find("cpus"); v && v->is_integer() && v->as_int() >= 0)
        p.host.cpus = unsigned(v->as_int());
    if (const json::Value* v = doc.find("memory_bytes"); v && v->is_integer() && v->as_int() >= 0)
        p.host.memory_bytes = std::uint64_t(v->as_int());
    return p;
}

std::vector<std::pair<std::string, std::string>> provenance_columns(const Provenance& p)
{
    std::vector<std::pair<std::string, std::string>> columns {
        { "program_version", p.version },
        { "program_commit", p.commit },
        { "command_line", p.command },
        { "made_at", p.time },
        { "host_kernel", p.host.kernel },
        { "host_cpu_model", p.host.cpu_model },
        { "host_cpus", std::to_string(p.host.cpus) },
        { "host_memory_bytes", std::to_string(p.host.memory_bytes) },
    };
    if (p.version.empty()) // no result: no provenance, not zero CPUs
        for (auto& column : columns)
            column.second.clear();
    return columns;
}

std::string host_text(const HostFacts& h)
{
    const double gib = double(h.memory_bytes) / double(1ull << 30);
    char memory[32];
    std::snprintf(memory, sizeof memory, "%.1f GiB", gib);
    return (h.kernel.empty() ? std::string("an unknown kernel") : h.kernel) + ", "
        + (h.cpu_model.empty() ? std::string("an unknown CPU") : h.cpu_model) + " (" + std::to_string(h.cpus)
        + (h.hypervisor ? " vCPUs" : " CPUs") + "), " + memory;
}

} // namespace pcl
