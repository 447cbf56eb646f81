#include "cli_scenarios.h"

#include "lesson/lesson.h"
#include "lesson/lesson_library.h"
#include "lib/arg_parser.h"
#include "lib/bundle.h"
#include "lib/every_problem.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "lib/report.h"
#include "sim/scenario.h"

#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <sys/stat.h>

namespace pcl::cli {

namespace {

/// Bundled files are named as under the GUI's resources, ":/traces/x".
constexpr std::string_view kBundleRoot = ":/";

/// Reads a file a scenario names: from the bundle for a ":/" path (a
/// preset's trace), else from the file system.
std::string read_scenario_file(const std::string& path)
{
    if (path.starts_with(kBundleRoot)) {
        const std::string inside
            = std::filesystem::path(path.substr(kBundleRoot.size())).lexically_normal().generic_string();
        if (const auto text = bundled_file(inside))
            return std::string(*text);
        throw std::runtime_error(path + ": no such bundled file");
    }
    return read_file(path);
}

bool is_regular_file(const std::string& path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string preset_name(std::string operand)
{
    if (operand.ends_with(".json"))
        operand.resize(operand.size() - 5);
    return operand;
}

std::string join_names(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

/// A lesson, as opposed to a scenario: it asks a question in steps.
bool is_lesson(const json::Value& doc)
{
    return doc.is_object() && (doc.find("steps") || doc.find("claims"));
}

} // namespace

ScenarioInput read_scenario_input(const std::string& operand)
{
    static const bool reader_installed = [] {
        set_scenario_file_reader(read_scenario_file);
        return true;
    }();
    (void)reader_installed;
    ScenarioInput in;
    if (is_regular_file(operand)) {
        in.text = read_file(operand);
        in.origin = operand;
        const std::size_t slash = operand.find_last_of('/');
        in.base_dir = slash == std::string::npos ? std::string(".")
            : slash == 0                         ? std::string("/")
                                                 : operand.substr(0, slash);
        return in;
    }
    const std::string name = preset_name(operand);
    if (name.find('/') == std::string::npos)
        if (const auto text = bundled_file("scenarios/" + name + ".json")) {
            in.text = std::string(*text);
            in.origin = name;
            in.base_dir = std::string(kBundleRoot) + "scenarios";
            in.preset = true;
            return in;
        }
    const std::string kind = non_regular_kind(operand);
    throw std::runtime_error(operand + (kind.empty() ? ": no such file" : ": " + kind + ", not a scenario file")
        + ", and no preset of that name ('" + std::string(kProgram)
        + " presets' lists them: " + join_names(bundled_names("scenarios")) + ")");
}

std::string scenario_name(const ScenarioInput& in)
{
    return in.preset ? in.origin : std::filesystem::path(in.origin).stem().string();
}

ScenarioSource load_scenario_source(const std::string& operand)
{
    ScenarioSource source;
    source.input = read_scenario_input(operand);
    try {
        source.doc = json::parse(source.input.text);
    } catch (const json::ParseError& e) {
        throw std::runtime_error(
            source.input.origin + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.what());
    }
    return source;
}

Scenario build_scenario(const ScenarioSource& source, const std::vector<std::string>& overrides)
{
    try {
        json::Value doc = source.doc;
        for (const std::string& o : overrides)
            apply_override(doc, o);
        // A trace the scenario names is relative to the scenario file (to
        // the bundled scenarios for a preset).
        Scenario s = scenario_from_json(doc, source.input.base_dir);
        s.validate();
        return s;
    } catch (const ScenarioError& e) {
        throw std::runtime_error(source.input.origin + ": " + e.what());
    }
}

void check_overrides(const ArgParser& parser, const char* list)
{
    for (const std::string& o : parser.get_list(list))
        if (o.find('=') == std::string::npos)
            throw ArgError("--" + std::string(list) + ": expected PATH=VALUE, got '" + o + "'");
}

void prepare_out_dir(const std::string& dir, const std::string& first_file)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw ArgError("--out: cannot create directory '" + dir + "': " + ec.message());
    check_writable_path(dir + "/" + first_file, "--out");
}

int run_presets_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("presets");
    p.add_string("format", "table", "F", "table: aligned columns; json: an array of objects; csv: a header and rows");
    p.describe("[--format table|json|csv]",
        "Lists the bundled scenarios: each one's name (what 'run NAME' and 'validate NAME' take), the\n"
        "year of the experiment it reproduces, where it comes from and its title.",
        "exit codes: 0 listed, 2 bad command line");
    if (const auto code
        = p.parse_command(args, out, err, [](const ArgParser& a) { check_format(a.get_string("format")); }))
        return *code;
    const std::string& format = p.get_string("format");
    Report table({ "name", "year", "source", "title", "description" });
    for (const std::string& name : bundled_names("scenarios")) {
        Scenario s;
        try {
            const ScenarioInput in = read_scenario_input(name);
            s = parse_scenario(in.text, in.origin, &in.base_dir);
        } catch (const std::exception& e) {
            // A build whose bundled scenario does not read is broken: say which.
            err << kProgram << " presets: " << name << ": " << e.what() << '\n';
            return 1;
        }
        table.add_row();
        table.set("name", name);
        table.set("year", s.year ? std::to_string(s.year) : std::string("-"));
        table.set("source", s.source);
        table.set("title", s.title);
        table.set("description", s.description);
    }
    if (format == "table") {
        // One line each: the description is for json and csv.
        Report brief({ "name", "year", "source", "title" });
        for (const std::vector<std::string>& row : table.rows()) {
            brief.add_row();
            for (std::size_t i = 0; i < brief.columns().size(); ++i)
                brief.set(brief.columns()[i], row[i]);
        }
        brief.print(out);
    } else {
        print_table(out, table, format);
    }
    return 0;
}

int run_validate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p("validate");
    p.allow_operands();
    p.describe("FILE|PRESET|LESSON...",
        "Checks scenario and lesson files without running them, and reports every problem of each,\n"
        "naming its field (a lesson is a file with steps or claims). A preset's or a lesson's name\n"
        "checks the bundled scenario or lesson.",
        "exit codes: 0 every file is valid, 2 a file has a problem or cannot be read, or bad command line");
    if (const auto code = p.parse_command(args, out, err, [](const ArgParser& a) {
            if (a.operands().empty())
                throw ArgError("which files? (validate FILE...)");
        }))
        return *code;
    bool all_valid = true;
    for (const std::string& operand : p.operands()) {
        ScenarioInput in;
        try {
            in = read_scenario_input(operand);
        } catch (const std::exception& e) {
            // A bundled lesson by its name, as 'experiment NAME' takes it.
            const std::string name = preset_name(operand);
            const auto lesson
                = name.find('/') == std::string::npos ? bundled_file("lessons/" + name + ".json") : std::nullopt;
            if (!lesson) {
                out << e.what() << "; nor is it a lesson ('" << kProgram << " experiments' lists them)\n";
                all_valid = false;
                continue;
            }
            in.text = std::string(*lesson);
            in.origin = name;
            in.base_dir = std::string(kBundleRoot) + "lessons";
            in.preset = true;
        }
        json::Value doc;
        try {
            doc = json::parse(in.text);
        } catch (const json::ParseError& e) {
            out << in.origin << ':' << e.line() << ':' << e.column() << ": " << e.what() << '\n';
            all_valid = false;
            continue;
        }
        std::vector<std::string> problems;
        std::string kind;
        if (is_lesson(doc)) {
            kind = "lesson";
            // The lesson's reader lists every problem itself, the runs' and
            // steps' scenarios included, as experiment checks them.
            const std::string name = std::filesystem::path(in.origin).stem().string();
            for (const LessonError& e : lesson_file_problems(in.text, name)) {
                // The lesson's messages begin with its name; the file is named already.
                const std::string what = e.what();
                problems.push_back(what.starts_with(name + ": ") ? what.substr(name.size() + 2) : what);
            }
        } else {
            kind = "scenario";
            const json::Value valid = scenario_to_json(Scenario {});
            for (const ScenarioError& e : every_problem<ScenarioError>(
                     doc, [&](const json::Value& d) { scenario_from_json(d, in.base_dir); }, &valid))
                problems.push_back(e.what());
        }
        if (problems.empty()) {
            out << in.origin << ": valid " << kind << '\n';
            continue;
        }
        all_valid = false;
        for (const std::string& problem : problems)
            out << in.origin << ": " << problem << '\n';
        out << in.origin << ": " << problems.size() << (problems.size() == 1 ? " problem" : " problems") << '\n';
    }
    return all_valid ? 0 : 2;
}

} // namespace pcl::cli
