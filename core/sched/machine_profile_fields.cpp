#include "sched/machine_profile_fields.h"

#include <algorithm>

namespace pcl::sched {

namespace {

using TL = TransferLatencies;
using WC = WorkCosts;

// clang-format off
const FigureField<TL> kLatencyFigures[] = {
    { "smt", "Other thread of the core",
        "A line moving between the two hardware threads of one core.", nullptr, &TL::smt },
    { "domain", "Other core of the domain",
        "A line moving between two cores of one cache domain (a CCX) or of one node's bus.", nullptr, &TL::domain },
    { "socket", "Other domain of the socket",
        "A line moving between two cache domains of one socket.", nullptr, &TL::socket },
    { "remote", "Other socket",
        "A line moving to another socket or node; on a fat tree, before the routers it crosses.", nullptr, &TL::remote },
    { "hop", "Each router crossed",
        "Added to a remote transfer for every router of the fat tree on its way.", nullptr, &TL::hop },
};

const FigureField<WC> kWorkFigures[] = {
    { "minor_fault", "Minor fault",
        "A fault's trap, page-table walk and return, without zeroing or copying the page.", &WC::minor_fault },
    { "index_level", "Index level walked",
        "One level (a hash chain link, a tree node) of a page-cache lookup.", &WC::index_level },
    { "page_copy", "Page copied", "Copying one 4 KiB page (read(2), write(2), a copy-on-write fault).",
        &WC::page_copy },
    { "page_zero", "Page zeroed", "Zeroing one 4 KiB page for an anonymous fault.", &WC::page_zero },
    { "pte_install", "PTE installed", "Writing one page-table entry.", &WC::pte_install },
    { "io_submit", "I/O submitted", "Handing one request to the block layer (the device's time is the device's).",
        &WC::io_submit },
    { "lock_acquire", "Free lock taken",
        "Taking a lock nobody holds whose line this CPU already has; a transfer comes on top otherwise.",
        &WC::lock_acquire },
    { "spin_step", "Spin step", "One step of a spin-wait: a pause and a re-read of the lock's line.",
        &WC::spin_step },
    { "operation", "Operation's own work",
        "What each operation costs besides the kernel work charged for it: the program's own loop, and on a model "
        "of this computer the engine's making and counting of the operation.", &WC::operation },
    { "syscall", "System call's own work",
        "What a read(2) or write(2) call costs besides its pages' lookups, copies and locks: its entry and return "
        "and its loop over the pages.", &WC::syscall },
};

FieldTable<MachineProfile> make_profile_own_table()
{
    using P = MachineProfile;
    return { "", {
        field<&P::name>({ .name = "name", .label = "Name", .allowed = "lower-case letters, digits, '-'",
            .meaning = "The profile's name, its file's name without .json." }),
        field<&P::title>({ .name = "title", .label = "Title", .allowed = "any",
            .meaning = "The machine, in a few words." }),
        field<&P::description>({ .name = "description", .label = "Description", .allowed = "any",
            .meaning = "One line: what the machine is and which thread ran on it." }),
        field<&P::max_cpus>({ .name = "max_cpus", .label = "Most CPUs", .unit = "CPUs", .allowed = "1..the topology's",
            .meaning = "The most CPUs a run on this machine may have.", .min_int = 1, .max_int = P::kMaxCpus }),
    } };
}

FieldTable<MachineTopology> make_topology_table()
{
    using T = MachineTopology;
    return { "topology", {
        field<&T::cpus_per_core>({ .name = "cpus_per_core", .label = "Threads per core", .unit = "CPUs",
            .allowed = "1..8", .meaning = "Hardware threads (SMT) of a core.", .min_int = 1, .max_int = 8 }),
        field<&T::cores_per_domain>({ .name = "cores_per_domain", .label = "Cores per domain", .unit = "cores",
            .allowed = "1..256", .meaning = "Cores sharing a cache domain (a CCX), or a node's front-side bus.",
            .min_int = 1, .max_int = 256 }),
        field<&T::domains_per_socket>({ .name = "domains_per_socket", .label = "Domains per socket",
            .unit = "domains", .allowed = "1..64", .meaning = "Cache domains of a socket.",
            .min_int = 1, .max_int = 64 }),
        field<&T::sockets>({ .name = "sockets", .label = "Sockets or nodes", .unit = "sockets", .allowed = "1..256",
            .meaning = "Sockets, or NUMA nodes.", .min_int = 1, .max_int = 256 }),
        enum_field<&T::hop_rule, kHopRules>({ .name = "hop_rule", .label = "Hop rule",
            .meaning = "none: every other socket is one remote transfer away; fat_tree: plus a hop for every router crossed." }),
        field<&T::router_radix>({ .name = "router_radix", .label = "Router radix", .unit = "ports",
            .allowed = "2..64 with fat_tree, else 0",
            .meaning = "fat_tree: the nodes (then routers) below one router.", .min_int = 0, .max_int = 64 }),
        field<&T::shared_bus>({ .name = "shared_bus", .label = "One shared bus",
            .meaning = "Every transfer of the machine waits for the one bus all CPUs snoop." }),
        enum_field<&T::basis, kFigureBases>({ .name = "basis", .label = "Basis",
            .meaning = "Where the layout comes from: published, derived, calibration, estimate or measured." }),
        field<&T::source>({ .name = "source", .label = "Source", .allowed = "not empty",
            .meaning = "The layout's source." }),
    } };
}

FieldTable<Figure> make_figure_table()
{
    return { "", {
        field<&Figure::ns>({ .name = "ns", .label = "Time", .unit = "ns", .allowed = "0..10^9",
            .meaning = "The figure.", .min_int = 0, .max_int = MachineProfile::kMaxFigureNs }),
        enum_field<&Figure::basis, kFigureBases>({ .name = "basis", .label = "Basis",
            .meaning = "published (a cited measurement or specification), derived (arithmetic on published figures), calibration (set so the model's one-CPU rate is a thread's), estimate (no primary source), measured (on this machine, by calibrate)." }),
        field<&Figure::source>({ .name = "source", .label = "Source", .allowed = "not empty",
            .meaning = "Where the figure comes from, or how it was estimated." }),
    } };
}
// clang-format on

std::string profile_join(const std::vector<std::string_view>& names)
{
    std::string s;
    for (const std::string_view n : names)
        s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

std::string profile_path(const std::string& prefix, std::string_view name)
{
    return prefix.empty() ? std::string(name) : prefix + "." + std::string(name);
}

/// Refuses @v unless it is an object whose members are all in @allowed, and
/// that has every one of @required.
void profile_object(const json::Value& v, const std::string& path, const std::vector<std::string_view>& allowed,
    const std::vector<std::string_view>& required)
{
    if (!v.is_object())
        throw_field_error(path, std::string("expected an object, got ") + json::Value::type_name(v.type()));
    for (const auto& [key, value] : v.as_object())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            throw_field_error(profile_path(path, key), "unknown field; allowed: " + profile_join(allowed));
    for (const std::string_view name : required)
        if (!v.find(name))
            throw_field_error(profile_path(path, name), "missing");
}

template <typename S> std::vector<std::string_view> profile_names(const FieldTable<S>& table)
{
    std::vector<std::string_view> names;
    for (const Field<S>& f : table.fields)
        names.push_back(f.name);
    return names;
}

template <typename S> std::vector<std::string_view> profile_names(std::span<const FigureField<S>> figures)
{
    std::vector<std::string_view> names;
    for (const FigureField<S>& f : figures)
        names.push_back(f.name);
    return names;
}

Figure read_figure(const json::Value& v, const std::string& path)
{
    const FieldTable<Figure>& table = figure_fields();
    const std::vector<std::string_view> names = profile_names(table);
    profile_object(v, path, names, names);
    Figure f;
    table.read(v, f, path);
    return f;
}

json::Value write_figure(const Figure& f)
{
    json::Object out;
    figure_fields().write(f, out);
    return out;
}

MachineProfile read_profile(const json::Value& doc)
{
    if (!doc.is_object())
        throw FieldError(
            "", "", std::string("a machine profile must be a JSON object, got ") + json::Value::type_name(doc.type()));
    std::vector<std::string_view> own = profile_names(machine_profile_own_fields());
    std::vector<std::string_view> members = own;
    members.insert(members.end(), { "topology", "latency", "work" });
    profile_object(doc, "", members, members);

    MachineProfile p;
    machine_profile_own_fields().read(doc, p, "");

    const FieldTable<MachineTopology>& topology = machine_topology_fields();
    std::vector<std::string_view> topology_required = profile_names(topology);
    std::erase(topology_required, "router_radix"); // only for a fat tree
    profile_object(*doc.find("topology"), "topology", profile_names(topology), topology_required);
    topology.read(*doc.find("topology"), p.topology, "topology");

    const json::Value& latency = *doc.find("latency");
    profile_object(latency, "latency", profile_names(latency_figure_fields()), {});
    for (const FigureField<TransferLatencies>& f : latency_figure_fields())
        if (const json::Value* v = latency.find(f.name))
            p.latency.*f.optional = read_figure(*v, "latency." + std::string(f.name));

    const json::Value& work = *doc.find("work");
    const std::vector<std::string_view> work_names = profile_names(work_figure_fields());
    profile_object(work, "work", work_names, work_names);
    for (const FigureField<WorkCosts>& f : work_figure_fields())
        p.work.*f.figure = read_figure(*work.find(f.name), "work." + std::string(f.name));

    p.validate();
    return p;
}

} // namespace

const FieldTable<MachineProfile>& machine_profile_own_fields()
{
    static const FieldTable<MachineProfile> table = make_profile_own_table();
    return table;
}

const FieldTable<MachineTopology>& machine_topology_fields()
{
    static const FieldTable<MachineTopology> table = make_topology_table();
    return table;
}

const FieldTable<Figure>& figure_fields()
{
    static const FieldTable<Figure> table = make_figure_table();
    return table;
}

std::span<const FigureField<TransferLatencies>> latency_figure_fields()
{
    return kLatencyFigures;
}

std::span<const FigureField<WorkCosts>> work_figure_fields()
{
    return kWorkFigures;
}

MachineProfile machine_profile_from_json(const json::Value& doc, const std::string& label)
{
    try {
        return read_profile(doc);
    } catch (const FieldError& e) {
        const std::string where = e.field().empty() ? label : label + ": " + e.field();
        throw FieldError(e.field(), e.reason().empty() ? e.what() : e.reason(),
            where + ": " + (e.reason().empty() ? std::string(e.what()) : e.reason()));
    }
}

MachineProfile parse_machine_profile(std::string_view text, const std::string& label)
{
    json::Value doc;
    try {
        doc = json::parse(text);
    } catch (const json::ParseError& e) {
        // As a compiler says where: "file:line:column: what".
        throw FieldError(
            "", e.what(), label + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
    }
    return machine_profile_from_json(doc, label);
}

json::Value machine_profile_to_json(const MachineProfile& p)
{
    json::Object out;
    machine_profile_own_fields().write(p, out);
    json::Object topology;
    machine_topology_fields().write(p.topology, topology);
    if (p.topology.hop_rule != HopRule::FatTree)
        std::erase_if(topology, [](const auto& m) { return m.first == "router_radix"; });
    out.emplace_back("topology", std::move(topology));
    json::Object latency;
    for (const FigureField<TransferLatencies>& f : latency_figure_fields())
        if (const std::optional<Figure>& figure = p.latency.*f.optional)
            latency.emplace_back(std::string(f.name), write_figure(*figure));
    out.emplace_back("latency", std::move(latency));
    json::Object work;
    for (const FigureField<WorkCosts>& f : work_figure_fields())
        work.emplace_back(std::string(f.name), write_figure(p.work.*f.figure));
    out.emplace_back("work", std::move(work));
    return out;
}

std::vector<MachineParameter> machine_parameters(const MachineProfile& p)
{
    std::vector<MachineParameter> out;
    auto shown = [](const json::Value& v) { return v.is_string() ? v.as_string() : json::write(v, -1); };
    for (const Field<MachineProfile>& f : machine_profile_own_fields().fields)
        out.push_back({ std::string(f.name), f.label, shown(f.get(p)), f.unit, {}, {} });
    for (const Field<MachineTopology>& f : machine_topology_fields().fields) {
        if (f.name == "source" || f.name == "basis"
            || (f.name == "router_radix" && p.topology.hop_rule != HopRule::FatTree))
            continue;
        out.push_back({ "topology." + std::string(f.name), f.label, shown(f.get(p.topology)), f.unit,
            enum_word(kFigureBases, p.topology.basis), p.topology.source });
    }
    for (const FigureField<TransferLatencies>& f : latency_figure_fields())
        if (const std::optional<Figure>& figure = p.latency.*f.optional)
            out.push_back({ "latency." + std::string(f.name), f.label, std::to_string(figure->ns), "ns",
                enum_word(kFigureBases, figure->basis), figure->source });
    for (const FigureField<WorkCosts>& f : work_figure_fields()) {
        const Figure& figure = p.work.*f.figure;
        out.push_back({ "work." + std::string(f.name), f.label, std::to_string(figure.ns), "ns",
            enum_word(kFigureBases, figure.basis), figure.source });
    }
    return out;
}

} // namespace pcl::sched
