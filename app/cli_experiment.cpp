#include "cli_experiment.h"

#include "cli_progress.h"
#include "cli_render.h"
#include "cli_scenarios.h"

#include "lesson/experiment.h"
#include "lesson/lesson_library.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/output_format.h"
#include "lib/report.h"

#include <filesystem>
#include <ostream>

namespace pcl::cli {

namespace {

/// What a probe's parameter may be: "a | b" of its choices, or "1 .. 64".
std::string param_range(const ProbeParam& a)
{
    std::string range;
    for (const std::string& c : a.choices)
        range += (range.empty() ? "" : " | ") + c;
    return a.choices.empty() ? significant(a.min) + " .. " + significant(a.max) : range;
}

/// Every probe a lesson's run may name, with its parameters (range or
/// choices, and the value taken when unset) and its figures.
void print_probes(std::ostream& out)
{
    for (const LessonProbe& probe : lesson_probes()) {
        out << probe.name << ": " << probe.meaning << "\n  parameters:\n";
        for (const ProbeParam& a : probe.params)
            out << "    " << a.name << " (" << param_range(a) << ", default " << a.fallback << "): " << a.meaning
                << '\n';
        out << "  figures:\n";
        for (const ProbeFigure& f : probe.figures)
            out << "    " << f.name << (f.unit.empty() ? "" : " (" + f.unit + ")") << ": " << f.meaning << '\n';
    }
}

/// The probes as JSON: each one's name, meaning, parameters (name, meaning,
/// default, and choices or min and max) and figures (name, unit, meaning).
json::Value probes_json()
{
    json::Array probes;
    for (const LessonProbe& probe : lesson_probes()) {
        json::Array params, figures;
        for (const ProbeParam& a : probe.params) {
            json::Object o { { "name", a.name }, { "meaning", a.meaning }, { "default", a.fallback } };
            if (a.choices.empty()) {
                o.emplace_back("min", a.min);
                o.emplace_back("max", a.max);
            } else {
                json::Array choices(a.choices.begin(), a.choices.end());
                o.emplace_back("choices", std::move(choices));
            }
            params.push_back(std::move(o));
        }
        for (const ProbeFigure& f : probe.figures)
            figures.push_back(json::Object { { "name", f.name }, { "unit", f.unit }, { "meaning", f.meaning } });
        probes.push_back(json::Object { { "name", probe.name }, { "meaning", probe.meaning },
            { "parameters", std::move(params) }, { "figures", std::move(figures) } });
    }
    return json::Value(std::move(probes));
}

/// The probes as one table, a row per parameter and per figure:
/// probe,item (parameter or figure),name,range,default,unit,meaning.
Report probes_table()
{
    Report table({ "probe", "item", "name", "range", "default", "unit", "meaning" });
    for (const LessonProbe& probe : lesson_probes()) {
        for (const ProbeParam& a : probe.params)
            table.add_row({ probe.name, "parameter", a.name, param_range(a), a.fallback, "", a.meaning });
        for (const ProbeFigure& f : probe.figures)
            table.add_row({ probe.name, "figure", f.name, "", "", f.unit, f.meaning });
    }
    return table;
}

} // namespace

int run_experiments_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("experiments");
    p.add_flag("probes",
        "list instead the probes a lesson's run may name (measurements of the structures themselves), "
        "with their parameters and figures");
    p.add_string("format", "table", "F",
        "table: as text; json: an array of objects (name, title, thread, summary; with --probes, name, meaning, "
        "parameters and figures); csv: a header and rows (with --probes, a row per parameter and figure: "
        "probe,item,name,range,default,unit,meaning)");
    p.describe("[--probes] [--format table|json|csv]",
        "Lists the bundled lessons: each one's name, the thread it comes from and what it shows.\n"
        "'experiment NAME' measures a lesson's claims on this machine.",
        "exit codes: 0 listed, 1 a bundled lesson does not read, 2 bad command line");
    if (const auto code = p.parse_command(args, out, err, check_format_option))
        return *code;
    const std::string& format = p.get_string("format");
    if (p.get_flag("probes")) {
        if (format == "table")
            print_probes(out);
        else if (format == "json")
            out << json::write(probes_json()) << '\n';
        else
            print_table(out, probes_table(), format);
        return 0;
    }
    std::vector<Lesson> lessons;
    try {
        lessons = bundled_lessons();
    } catch (const LessonError& e) {
        err << kProgram << " experiments: " << e.what() << '\n';
        return 1;
    }
    if (format != "table") {
        Report table({ "name", "title", "thread", "summary" });
        for (const Lesson& l : lessons)
            table.add_row({ l.name, l.title, l.thread, l.summary });
        print_table(out, table, format);
        return 0;
    }
    std::size_t width = 0;
    for (const Lesson& l : lessons)
        width = std::max(width, l.name.size());
    for (const Lesson& l : lessons)
        out << l.name << std::string(width + 2 - l.name.size(), ' ') << l.title << " - " << l.thread << '\n'
            << std::string(width + 2, ' ') << l.summary << '\n';
    return 0;
}

int run_experiment_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("experiment");
    p.add_flag("quick", "the lesson's scaled-down form: seconds instead of minutes, for a class or CI");
    p.add_uint(
        "repeat", 0, 0, 100, "N", "repeat every claim's runs N times (0: as many times as each claim asks, usually 3)");
    p.add_output("json", "FILE",
        "also write the verdicts as JSON to FILE, atomically: experiment, thread and verdicts (claim, source, "
        "thread_figure, our_figure, values, run_values, over_values, run_wait_ns, over_wait_ns, median, "
        "spread, result, why)");
    p.add_output("csv", "FILE",
        "also write the verdict table as CSV to FILE, atomically: claim, source, thread_figure, our_figure, median, "
        "spread, result, why");
    p.add_string("out", "", "DIR",
        "also write the lesson's report into DIR (created if missing), each atomically: verdicts.json and "
        "verdicts.csv (as --json and --csv write them), report.html (one page: the question, who argued "
        "what, the steps and the verdict table) and report.pdf (the same on A4 pages); a build without "
        "the GUI writes no report");
    p.add_flag("quiet", "no progress lines on stderr");
    p.add_string("format", "table", "F",
        "what is printed: table (the verdicts as text), json (the verdicts as --json writes them) or csv (the "
        "verdict table as --csv writes it); with json or csv, the progress and what was written are said on "
        "stderr, so that stdout holds the verdicts alone");
    p.allow_operands();
    p.describe("NAME|LESSON.json [options]",
        "Runs the measurement of a lesson (a bundled one by name, see 'experiments', or a lesson file):\n"
        "each claim's runs, unpaced and repeated, then prints each claim beside the thread's own figure,\n"
        "ours (the middle repeat's ratio with the two figures it divides) and the verdict: held, did not\n"
        "hold, or inconclusive (the repeats disagreed, a race was never seen, or a claim about more CPUs\n"
        "than this machine has). A claim about its thread's machine (an 8-way Pentium III, a 64-CPU\n"
        "Altix) is measured on a model of that machine as well, its verdict printed below this\n"
        "machine's: one run of each side, the same every time, and again with the model's transfer\n"
        "latencies halved and doubled.",
        "exit codes: 0 the runs worked (whatever the verdicts), 1 a run failed or a file could not be\n"
        "written, 2 bad command line or bad lesson (the message names the member), 130 stopped by\n"
        "Ctrl+C (the verdicts of what was measured are printed and written, marked incomplete)");
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& parser) {
            if (parser.operands().empty())
                throw ArgError("which lesson? ('experiments' lists them)");
            if (parser.operands().size() > 1)
                throw ArgError("unexpected argument '" + parser.operands()[1] + "' (one lesson per run)");
            check_format_option(parser);
            // An output directory that cannot be written fails now, not after minutes of measuring.
            if (const std::string& out = parser.get_string("out"); !out.empty())
                prepare_out_dir(out, "verdicts.json");
        }))
        return *code;

    Lesson lesson;
    try {
        lesson = find_lesson(p.operands()[0]);
        check_lesson_scenarios(lesson, bundled_scenario_text);
    } catch (const LessonError& e) {
        err << kProgram << " experiment: " << e.what() << '\n';
        return 2;
    }
    ExperimentOptions options;
    options.quick = p.get_flag("quick");
    options.repeats = unsigned(p.get_uint("repeat"));
    if (!p.get_flag("quiet"))
        options.progress = [&](const std::string& what) { err << "  " << what << "...\n"; };
    // Ctrl+C: the verdicts of what was measured, marked incomplete, are
    // printed and written, and the exit code says the command was stopped.
    install_interrupt_handler();
    options.cancel = &interrupted();
    ExperimentResult result;
    try {
        result = run_experiment(lesson, bundled_scenario_text, options);
    } catch (const std::exception& e) {
        err << kProgram << " experiment: " << lesson.name << ": " << e.what() << '\n';
        return 1;
    }
    const auto finished = [&] {
        if (!result.incomplete)
            return 0;
        err << kProgram << " experiment: stopped by Ctrl+C; the verdicts above are of what was measured until then\n";
        return kInterruptedExit;
    };
    // An output named "-" takes stdout for itself; the verdicts and the
    // notes then go to stderr. With json or csv the notes go there anyway.
    const bool stdout_taken = p.get_string("json") == kStdoutPath || p.get_string("csv") == kStdoutPath;
    std::ostream& shown = stdout_taken ? err : out;
    const std::string& format = p.get_string("format");
    std::ostream& notes = notes_stream(format, shown, err);
    const std::string json_text = json::write(to_json(result)) + "\n";
    const std::string csv_text = verdicts_csv(result);
    if (format == "table")
        print_verdicts(shown, result);
    else
        shown << (format == "json" ? json_text : csv_text) << std::flush;
    const std::pair<const char*, const std::string*> files[] = { { "json", &json_text }, { "csv", &csv_text } };
    for (const auto& [option, text] : files)
        if (const std::string& file = p.get_string(option); !file.empty()) {
            try {
                write_output(file, *text, out);
                notes << "\nverdicts written to " << output_name(file) << '\n';
            } catch (const std::exception& e) {
                err << kProgram << " experiment: " << e.what() << '\n';
                return 1;
            }
        }
    if (const std::string& dir = p.get_string("out"); !dir.empty()) {
        try {
            write_file_atomically(dir + "/verdicts.json", json_text);
            write_file_atomically(dir + "/verdicts.csv", csv_text);
            notes << "\nverdicts.json, verdicts.csv written to " << dir << '\n';
            if (!can_render()) {
                err << kProgram << " experiment: no report.html nor report.pdf: " << cannot_render_reason() << '\n';
                return finished();
            }
            std::string names;
            for (const std::string& f : write_lesson_report(lesson, result, dir))
                names += (names.empty() ? "" : ", ") + std::filesystem::path(f).filename().string();
            notes << names << " written to " << dir << '\n';
        } catch (const std::exception& e) {
            err << kProgram << " experiment: " << e.what() << '\n';
            return 1;
        }
    }
    return finished();
}

} // namespace pcl::cli
