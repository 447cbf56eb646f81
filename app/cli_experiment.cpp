#include "cli_experiment.h"

#include "lesson/experiment.h"
#include "lesson/lesson_library.h"
#include "lib/arg_parser.h"
#include "lib/file_io.h"

#include <ostream>

namespace pcl::cli {

int run_experiments_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("experiments");
    p.describe("",
        "Lists the bundled lessons: each one's name, the thread it comes from and what it shows.\n"
        "'experiment NAME' measures a lesson's claims on this machine.");
    if (const auto code = p.parse_command(args, out, err))
        return *code;
    std::vector<Lesson> lessons;
    try {
        lessons = bundled_lessons();
    } catch (const LessonError& e) {
        err << kProgram << " experiments: " << e.what() << '\n';
        return 1;
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
        "thread_figure, our_figure, spread, result, why)");
    p.add_flag("quiet", "no progress lines on stderr");
    p.allow_operands();
    p.describe("NAME|LESSON.json [options]",
        "Runs the measurement of a lesson (a bundled one by name, see 'experiments', or a lesson file):\n"
        "each claim's runs, unpaced and repeated, then prints each claim beside the thread's own figure,\n"
        "ours (the median of the repeats and their spread) and the verdict: held, did not hold, or\n"
        "inconclusive (repeats spread too wide, or a claim about more CPUs than this machine has).",
        "exit codes: 0 the runs worked (whatever the verdicts), 1 a run failed or a file could not be\n"
        "written, 2 bad command line or bad lesson (the message names the member)");
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& parser) {
            if (parser.operands().empty())
                throw ArgError("which lesson? ('experiments' lists them)");
            if (parser.operands().size() > 1)
                throw ArgError("unexpected argument '" + parser.operands()[1] + "' (one lesson per run)");
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
    ExperimentResult result;
    try {
        result = run_experiment(lesson, bundled_scenario_text, options);
    } catch (const std::exception& e) {
        err << kProgram << " experiment: " << lesson.name << ": " << e.what() << '\n';
        return 1;
    }
    print_verdicts(out, result);
    if (const std::string& file = p.get_string("json"); !file.empty()) {
        try {
            write_file_atomically(file, json::write(to_json(result)) + "\n");
            out << "\nverdicts written to " << file << '\n';
        } catch (const std::exception& e) {
            err << kProgram << " experiment: " << e.what() << '\n';
            return 1;
        }
    }
    return 0;
}

} // namespace pcl::cli
