#include "cli_machines.h"

#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/report.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"

#include <exception>
#include <ostream>

namespace pcl::cli {

namespace {

/// The profiles, one line each: name, CPUs, description (and the title, in
/// json and csv).
int list_machines(const std::string& format, std::ostream& out, std::ostream& err)
{
    Report table({ "name", "cpus", "description", "title" });
    for (const std::string& name : sched::machine_profile_names()) {
        sched::MachineProfile p;
        try {
            p = sched::load_machine_profile(name);
        } catch (const std::exception& e) {
            // A user's own profile that does not read: say so, list the rest.
            err << kProgram << " machines: " << e.what() << '\n';
            continue;
        }
        table.add_row();
        table.set("name", name);
        table.set("cpus", std::uint64_t(p.max_cpus));
        table.set("description", p.description);
        table.set("title", p.title);
    }
    if (format != "table") {
        print_table(out, table, format);
        return 0;
    }
    Report brief({ "name", "cpus", "description" });
    for (const std::vector<std::string>& row : table.rows()) {
        brief.add_row();
        for (std::size_t i = 0; i < brief.columns().size(); ++i)
            brief.set(brief.columns()[i], row[i]);
    }
    brief.print(out);
    return 0;
}

/// Every parameter of @p. As a table, the sources are numbered below it
/// (the topology's rows share one), so that each row stays one line.
void print_machine(const sched::MachineProfile& p, const std::string& format, std::ostream& out)
{
    const std::vector<sched::MachineParameter> params = sched::machine_parameters(p);
    if (format != "table") {
        Report table({ "parameter", "label", "value", "unit", "basis", "source" });
        for (const sched::MachineParameter& row : params) {
            table.add_row();
            table.set("parameter", row.path);
            table.set("label", std::string(row.label));
            table.set("value", row.value);
            table.set("unit", std::string(row.unit));
            table.set("basis", std::string(row.basis));
            table.set("source", row.source);
        }
        print_table(out, table, format);
        return;
    }
    out << p.name << ": " << p.title << '\n' << p.description << "\n\n";
    Report table({ "parameter", "value", "unit", "basis", "source" });
    std::vector<std::string> sources;
    for (const sched::MachineParameter& row : params) {
        if (row.path == "name" || row.path == "title" || row.path == "description")
            continue;
        table.add_row();
        table.set("parameter", row.path);
        table.set("value", row.value);
        table.set("unit", row.unit.empty() ? std::string("-") : std::string(row.unit));
        table.set("basis", row.basis.empty() ? std::string("-") : std::string(row.basis));
        if (row.source.empty()) {
            table.set("source", std::string("-"));
            continue;
        }
        std::size_t n = 0;
        while (n < sources.size() && sources[n] != row.source)
            ++n;
        if (n == sources.size())
            sources.push_back(row.source);
        table.set("source", "[" + std::to_string(n + 1) + "]");
    }
    table.print(out);
    out << "\nsources:\n";
    for (std::size_t n = 0; n < sources.size(); ++n)
        out << "  [" << n + 1 << "] " << sources[n] << '\n';
}

} // namespace

int run_machines_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("machines");
    p.add_string("format", "table", "F", "table: aligned columns; json: an array of objects; csv: a header and rows");
    p.allow_operands();
    p.describe("[NAME] [--format table|json|csv]",
        "Lists the modelled machines' profiles: each one's name, its most CPUs and what it is.\n"
        "With a NAME, prints every parameter of that profile: the topology, the latency of moving\n"
        "a cache line between two CPUs by their distance, and the cost of each operation on one\n"
        "CPU, each with its unit, its basis (published, derived, calibration, estimate or measured)\n"
        "and its source. The profiles are bundled; others, such as 'host' (which 'calibrate'\n"
        "writes), are read from $XDG_CONFIG_HOME/pagecache-lab/machines/NAME.json (~/.config/...\n"
        "without it).",
        "exit codes: 0 listed or printed, 2 bad command line, an unknown name or a profile that does\n"
        "not read (the message names its field)");
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& a) {
            check_format(a.get_string("format"));
            if (a.operands().size() > 1)
                throw ArgError("one profile at a time, got " + std::to_string(a.operands().size()));
        }))
        return *code;
    const std::string& format = p.get_string("format");
    if (p.operands().empty())
        return list_machines(format, out, err);
    sched::MachineProfile profile;
    try {
        profile = sched::load_machine_profile(p.operands().front());
    } catch (const std::exception& e) {
        err << kProgram << " machines: " << e.what() << '\n';
        return 2;
    }
    print_machine(profile, format, out);
    return 0;
}

} // namespace pcl::cli
