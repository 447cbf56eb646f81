#include "cli_calibrate.h"

#include "cli_scenarios.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/report.h"
#include "probe/host_profile.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>
#include <ostream>

namespace pcl::cli {

namespace {

/// The fastest and slowest round of a measurement, "12.1-14.8"; "-" for a
/// figure that was not measured round by round.
std::string spread(const std::vector<double>& rounds_ns, double divisor = 1)
{
    if (rounds_ns.empty())
        return "-";
    const auto [lo, hi] = std::minmax_element(rounds_ns.begin(), rounds_ns.end());
    return significant(*lo / divisor) + "-" + significant(*hi / divisor);
}

/// What was measured: every figure of the profile, then the engine's three
/// timings the derived figures come from.
Report measured_table(const Calibration& cal)
{
    const sched::MachineProfile& p = cal.profile;
    const MeasuredWork& w = cal.work;
    Report table({ "parameter", "value", "unit", "basis", "rounds_ns" });
    const auto row = [&](const std::string& name, const std::string& value, std::string_view unit,
                         std::string_view basis, const std::string& rounds) {
        table.add_row();
        table.set("parameter", name);
        table.set("value", value);
        table.set("unit", unit.empty() ? std::string("-") : std::string(unit));
        table.set("basis", basis.empty() ? std::string("-") : std::string(basis));
        table.set("rounds_ns", rounds);
    };
    for (const sched::MachineParameter& m : sched::machine_parameters(p)) {
        if (m.path == "name" || m.path == "title" || m.path == "description")
            continue;
        std::string rounds = "-";
        for (std::size_t k = 1; k < sched::kDistanceKinds.size(); ++k)
            if (m.path == "latency." + std::string(sched::kDistanceKinds[k]) && cal.latencies[k])
                rounds = spread(cal.latencies[k]->rounds_ns);
        if (m.path == "work.page_copy")
            rounds = spread(w.page_copy_cached.rounds_ns);
        else if (m.path == "work.page_zero")
            rounds = spread(w.page_zero.rounds_ns);
        else if (m.path == "work.lock_acquire")
            rounds = spread(w.lock_pair.rounds_ns);
        else if (m.path == "work.spin_step")
            rounds = spread(w.spin_step.rounds_ns);
        else if (m.path == "work.index_level")
            rounds = spread(w.index_lookup.rounds_ns, std::max(w.index_height, 1u));
        else if (m.path == "work.pte_install")
            rounds = spread(w.pte_entry.rounds_ns);
        else if (m.path == "work.io_submit")
            rounds = spread(w.io_submit.rounds_ns);
        else if (m.path == "work.operation")
            rounds = spread(cal.operation.host.rounds_ns);
        else if (m.path == "work.syscall")
            rounds = spread(cal.syscall.host.rounds_ns);
        row(m.path, m.value, m.unit, m.basis, rounds);
    }
    const auto timing = [&](const std::string& name, const MeasuredCost& c) {
        row(name, significant(c.ns), "ns", "measured", spread(c.rounds_ns));
    };
    timing("engine.anon_fault", w.anon_fault);
    timing("engine.index_lookup", w.index_lookup);
    row("engine.index_height", std::to_string(w.index_height), "levels", "measured", "-");
    timing("engine.pte_install_locked", w.pte_install);
    timing("engine.pft_fault", cal.operation.host);
    row("model.pft_fault", significant(cal.operation.modelled_ns), "ns", "modelled", "-");
    timing("engine.read", cal.syscall.host);
    row("model.read", significant(cal.syscall.modelled_ns), "ns", "modelled", "-");
    return table;
}

} // namespace

int run_calibrate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("calibrate");
    p.add_output("out", "FILE",
        "write the profile to FILE instead of $XDG_CONFIG_HOME/pagecache-lab/machines/host.json (~/.config/... "
        "without it), atomically");
    p.add_flag("quick",
        "fewer, shorter rounds (3 of each work cost instead of 9, an eighth as long; 15 ping-pong rounds "
        "instead of 99): a rough profile in about a second");
    p.add_string("format", "table", "F",
        "what is printed: table (the profile's figures and how each round varied), json or csv (the same rows)");
    p.describe("[--out FILE] [--quick] [--format table|json|csv]",
        "Measures this machine and writes its profile, 'host', which a modelled run may then stand\n"
        "for: the topology Linux's sysfs shows (threads a core, cores sharing the last-level cache,\n"
        "sockets); the latency of moving a cache line between two pinned threads on CPUs of each\n"
        "distance the topology has (a ping-pong, half the round trip); and what the engine's own\n"
        "operations cost on one CPU (a 4 KiB page copied and zeroed beyond the cache, a free lock,\n"
        "a spin step, a radix-tree level, a PTE written, an I/O submitted, an anonymous fault);\n"
        "then a one-CPU pft on this computer and on its model, whose difference is what the\n"
        "engine's own work adds to each operation, and one-CPU reads of a cached file the same way,\n"
        "for what a read(2) adds.\n"
        "Each is the median of its rounds; every figure's source says how it was measured.\n"
        "Another program busy on the machine makes the figures slower and the rounds spread:\n"
        "calibrate on an idle machine. A transfer latency more than a quarter away from the profile\n"
        "it replaces is reported on stderr: a virtual machine's vCPUs may have been placed elsewhere\n"
        "between the two, and calibrating again shows which figure repeats.",
        "exit codes: 0 measured and written, 1 could not measure or write (the message says why),\n"
        "2 bad command line");
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& a) {
            check_format(a.get_string("format"));
            if (a.get_string("out") == kStdoutPath)
                throw ArgError("--out: the profile goes to a file; --format json prints the measurements");
        }))
        return *code;
    const std::string& format = p.get_string("format");
    std::string path = p.get_string("out");
    if (path.empty()) {
        const std::string dir = sched::user_machines_dir();
        if (dir.empty()) {
            err << kProgram << " calibrate: neither XDG_CONFIG_HOME nor HOME is set: give --out FILE\n";
            return 2;
        }
        path = dir + "/" + std::string(sched::kHostMachine) + ".json";
    }

    // The profile this one replaces, if it still reads: its latencies are
    // compared with the new ones.
    std::optional<sched::MachineProfile> before;
    std::error_code exists_error;
    if (std::filesystem::is_regular_file(path, exists_error))
        try {
            before = sched::parse_machine_profile(read_file(path), path);
        } catch (const std::exception&) {
        }

    Calibration cal;
    try {
        CalibrateOptions options;
        options.quick = p.get_flag("quick");
        cal = calibrate_host(options, [&](const std::string& what) { err << "measuring " << what << "...\n"; });
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        if (!parent.empty())
            std::filesystem::create_directories(parent);
        write_file_atomically(path, json::write(sched::machine_profile_to_json(cal.profile)) + "\n");
    } catch (const std::exception& e) {
        err << kProgram << " calibrate: " << e.what() << '\n';
        return 1;
    }

    const Report table = measured_table(cal);
    if (format == "table") {
        out << cal.profile.name << ": " << cal.profile.title << '\n' << cal.profile.description << "\n\n";
        table.print(out);
    } else {
        print_table(out, table, format);
    }
    err << "wrote " << path << "; '" << kProgram << " machines " << cal.profile.name
        << "' prints every figure with its source\n";
    if (before)
        for (const std::string& moved : moved_latencies(*before, cal.profile))
            err << kProgram << " calibrate: " << moved << '\n';
    return 0;
}

} // namespace pcl::cli
