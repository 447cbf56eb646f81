#include "probe/cpu_topology.h"

#include "lib/report.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include <sched.h>

namespace pcl {

namespace {

namespace fs = std::filesystem;

/// The first line of @path, without its newline; nullopt when it cannot be
/// read (a file a kernel or a hypervisor does not provide).
std::optional<std::string> first_line(const fs::path& path)
{
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
    return line;
}

std::vector<unsigned> cpu_list_file(const fs::path& path)
{
    const std::optional<std::string> text = first_line(path);
    if (!text)
        return {};
    try {
        return parse_cpu_list(*text);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(path.string() + ": " + e.what());
    }
}

int int_file(const fs::path& path)
{
    const std::optional<std::string> text = first_line(path);
    int v = -1;
    if (!text || std::from_chars(text->data(), text->data() + text->size(), v).ec != std::errc())
        return -1;
    return v;
}

/// A cache's size file: "32768K", "1M"; 0 when not shown.
std::uint64_t size_file(const fs::path& path)
{
    const std::optional<std::string> text = first_line(path);
    std::uint64_t v = 0;
    if (!text)
        return 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc())
        return 0;
    const std::string_view unit(end, std::size_t(text->data() + text->size() - end));
    if (unit == "K")
        return v << 10;
    if (unit == "M")
        return v << 20;
    if (unit == "G")
        return v << 30;
    return unit.empty() ? v : 0;
}

/// The highest-level data or unified cache of @cpu_path: its sharers, level
/// and size.
void read_llc(const fs::path& cpu_path, HostCpu& cpu)
{
    std::error_code ec;
    const fs::path cache = cpu_path / "cache";
    if (!fs::is_directory(cache, ec))
        return;
    for (const fs::directory_entry& entry : fs::directory_iterator(cache, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("index", 0) != 0)
            continue;
        if (first_line(entry.path() / "type").value_or("") == "Instruction")
            continue;
        const int level = int_file(entry.path() / "level");
        if (level <= 0 || unsigned(level) < cpu.llc_level)
            continue;
        std::vector<unsigned> sharers = cpu_list_file(entry.path() / "shared_cpu_list");
        if (sharers.empty())
            continue;
        cpu.llc_level = unsigned(level);
        cpu.llc = std::move(sharers);
        cpu.llc_bytes = size_file(entry.path() / "size");
    }
}

/// Dense numbers for the distinct values of @keys, in order of first
/// appearance.
template <typename K> std::vector<unsigned> dense(const std::vector<K>& keys)
{
    std::map<K, unsigned> seen;
    std::vector<unsigned> out;
    for (const K& k : keys)
        out.push_back(seen.emplace(k, unsigned(seen.size())).first->second);
    return out;
}

/// The fewest and most distinct @inner values found under one @outer value.
std::pair<unsigned, unsigned> per_group(const std::vector<unsigned>& outer, const std::vector<unsigned>& inner)
{
    std::map<unsigned, std::set<unsigned>> groups;
    for (std::size_t i = 0; i < outer.size(); ++i)
        groups[outer[i]].insert(inner[i]);
    unsigned lo = ~0u, hi = 0;
    for (const auto& [key, members] : groups) {
        lo = std::min(lo, unsigned(members.size()));
        hi = std::max(hi, unsigned(members.size()));
    }
    return { lo, hi };
}

std::string plural(unsigned n, const char* one, const char* many)
{
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

/// "2", "1 to 2"; with @noun, "1 core", "2 cores", "1 to 2 cores".
std::string range_text(std::pair<unsigned, unsigned> r, const char* noun = nullptr)
{
    std::string s
        = r.first == r.second ? std::to_string(r.first) : std::to_string(r.first) + " to " + std::to_string(r.second);
    if (noun)
        s += std::string(" ") + noun + (r.second == 1 ? "" : "s");
    return s;
}

} // namespace

std::vector<unsigned> parse_cpu_list(std::string_view text)
{
    const auto bad = [&](const std::string& why) {
        return std::invalid_argument("'" + std::string(text) + "' is not a CPU list (" + why + ")");
    };
    std::set<unsigned> cpus;
    if (text.empty())
        return {};
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        const std::string_view part = text.substr(pos, comma - pos);
        const std::size_t dash = part.find('-');
        unsigned lo = 0, hi = 0;
        const auto number = [&](std::string_view s, unsigned& v) {
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (s.empty() || ec != std::errc() || end != s.data() + s.size())
                throw bad("'" + std::string(part) + "' is not N or N-M");
        };
        number(part.substr(0, dash), lo);
        hi = lo;
        if (dash != std::string_view::npos)
            number(part.substr(dash + 1), hi);
        if (hi < lo)
            throw bad("the range " + std::string(part) + " runs backwards");
        if (hi - lo >= sched::MachineProfile::kMaxCpus * 64)
            throw bad("the range " + std::string(part) + " is too long");
        for (unsigned c = lo; c <= hi; ++c)
            cpus.insert(c);
        pos = comma + 1;
    }
    return { cpus.begin(), cpus.end() };
}

sched::DistanceKind HostTopology::distance(unsigned a, unsigned b) const
{
    const auto find = [&](unsigned id) -> const HostCpu& {
        const auto it
            = std::lower_bound(cpus.begin(), cpus.end(), id, [](const HostCpu& c, unsigned v) { return c.id < v; });
        if (it == cpus.end() || it->id != id)
            throw std::out_of_range("CPU " + std::to_string(id) + " is not online");
        return *it;
    };
    const HostCpu& x = find(a);
    const HostCpu& y = find(b);
    using K = sched::DistanceKind;
    if (a == b)
        return K::Same;
    if (x.threads == y.threads)
        return K::Smt;
    const bool llc_known = !x.llc.empty() && !y.llc.empty();
    if (x.package_id == y.package_id && (!llc_known || x.llc == y.llc))
        return K::Domain;
    return x.package_id == y.package_id ? K::Socket : K::Remote;
}

HostTopology read_host_topology(const std::string& cpu_dir, const std::vector<unsigned>& allowed)
{
    const fs::path root(cpu_dir);
    std::vector<unsigned> online = cpu_list_file(root / "online");
    std::vector<std::string> notes;
    if (online.empty()) {
        std::error_code ec;
        for (const fs::directory_entry& entry : fs::directory_iterator(root, ec)) {
            const std::string name = entry.path().filename().string();
            unsigned id = 0;
            if (name.size() > 3 && name.rfind("cpu", 0) == 0
                && std::from_chars(name.data() + 3, name.data() + name.size(), id).ptr == name.data() + name.size())
                online.push_back(id);
        }
        std::sort(online.begin(), online.end());
        if (!online.empty())
            notes.push_back("no online list: every cpuN directory taken as online");
    }
    if (online.empty())
        throw std::runtime_error(cpu_dir + ": no CPU found (neither an online list nor cpuN directories)");

    HostTopology h;
    bool siblings_missing = false, package_missing = false, llc_missing = false;
    for (const unsigned id : online) {
        const fs::path path = root / ("cpu" + std::to_string(id));
        HostCpu cpu;
        cpu.id = id;
        cpu.threads = cpu_list_file(path / "topology" / "thread_siblings_list");
        if (std::find(cpu.threads.begin(), cpu.threads.end(), id) == cpu.threads.end()) {
            siblings_missing = true;
            cpu.threads = { id };
        }
        cpu.core_id = int_file(path / "topology" / "core_id");
        cpu.package_id = int_file(path / "topology" / "physical_package_id");
        package_missing |= cpu.package_id < 0;
        read_llc(path, cpu);
        llc_missing |= cpu.llc.empty();
        h.llc_bytes = std::max(h.llc_bytes, cpu.llc_bytes);
        h.cpus.push_back(std::move(cpu));
    }
    if (llc_missing)
        for (HostCpu& cpu : h.cpus)
            cpu.llc.clear(); // one rule for all: the package is the domain

    // Dense numbers for each CPU's core, domain and package.
    std::vector<std::vector<unsigned>> core_keys, domain_keys;
    std::vector<int> package_keys;
    for (const HostCpu& cpu : h.cpus) {
        core_keys.push_back(cpu.threads);
        package_keys.push_back(std::max(cpu.package_id, 0));
        domain_keys.push_back(
            cpu.llc.empty() ? std::vector<unsigned> { unsigned(std::max(cpu.package_id, 0)) } : cpu.llc);
    }
    const std::vector<unsigned> core = dense(core_keys);
    const std::vector<unsigned> domain = dense(domain_keys);
    const std::vector<unsigned> package = dense(package_keys);
    std::vector<unsigned> position(h.cpus.size());
    for (std::size_t i = 0; i < position.size(); ++i)
        position[i] = unsigned(i);
    const auto thread_counts = per_group(core, position);
    const auto cores = per_group(domain, core);
    const auto domains = per_group(package, domain);
    const unsigned sockets = per_group(std::vector<unsigned>(h.cpus.size(), 0), package).first;

    sched::MachineTopology& t = h.topology;
    t.cpus_per_core = std::clamp(thread_counts.first, 1u, 8u);
    t.cores_per_domain = std::clamp(cores.first, 1u, 256u);
    t.domains_per_socket = std::clamp(domains.first, 1u, 64u);
    t.sockets = std::clamp(sockets, 1u, 256u);
    while (t.cpus() > sched::MachineProfile::kMaxCpus && t.sockets > 1)
        --t.sockets;
    while (t.cpus() > sched::MachineProfile::kMaxCpus && t.cores_per_domain > 1)
        --t.cores_per_domain;
    t.basis = sched::FigureBasis::Measured;

    std::string s = "Linux sysfs (" + cpu_dir + "): " + plural(unsigned(h.cpus.size()), "online CPU", "online CPUs")
        + "; threads per core from thread_siblings_list (" + range_text(thread_counts) + "), ";
    if (llc_missing)
        s += "no cache shown under cpuN/cache, so each socket is taken as one cache domain ("
            + range_text(cores, "core") + ")";
    else
        s += "cache domains from the L" + std::to_string(h.cpus.front().llc_level) + " cache's shared_cpu_list ("
            + range_text(cores, "core")
            + (h.llc_bytes ? ", " + significant(double(h.llc_bytes) / 1048576.0) + " MiB" : std::string()) + ")";
    s += ", sockets from physical_package_id (" + std::to_string(sockets) + ").";
    if (siblings_missing)
        notes.push_back("a CPU without thread_siblings_list was taken as a core of its own");
    if (package_missing)
        notes.push_back("a CPU without physical_package_id was taken as on socket 0");
    if (thread_counts.first != thread_counts.second || cores.first != cores.second || domains.first != domains.second)
        notes.push_back("the layout is irregular, and a profile's is regular: each count is the smallest found");
    if (t.cpus() != h.cpus.size())
        notes.push_back("the profile's layout holds " + std::to_string(t.cpus()) + " of the "
            + std::to_string(h.cpus.size()) + " CPUs");
    for (const std::string& n : notes)
        s += " Note: " + n + ".";
    t.source = s;

    // A pair of allowed CPUs for each distance the host has.
    std::vector<unsigned> usable;
    for (const HostCpu& cpu : h.cpus)
        if (std::find(allowed.begin(), allowed.end(), cpu.id) != allowed.end())
            usable.push_back(cpu.id);
    for (std::size_t i = 0; i < usable.size(); ++i)
        for (std::size_t j = i + 1; j < usable.size(); ++j) {
            auto& pair = h.pairs[std::size_t(h.distance(usable[i], usable[j]))];
            if (!pair)
                pair = std::pair { usable[i], usable[j] };
        }
    return h;
}

std::vector<unsigned> allowed_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<unsigned> cpus;
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        for (unsigned c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set))
                cpus.push_back(c);
    if (cpus.empty())
        cpus = cpu_list_file("/sys/devices/system/cpu/online");
    return cpus;
}

} // namespace pcl
