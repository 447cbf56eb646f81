#include "lesson/lesson_library.h"

#include "lesson/lesson_problems.h"
#include "lib/bundle.h"
#include "lib/file_io.h"

#include <stdexcept>

namespace pcl {

namespace {

std::string listed(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

} // namespace

std::vector<Lesson> bundled_lessons()
{
    std::vector<Lesson> lessons;
    for (const std::string& name : bundled_names("lessons")) {
        const std::string path = "lessons/" + name + ".json";
        lessons.push_back(parse_lesson(*bundled_file(path), path));
    }
    return lessons;
}

Lesson find_lesson(const std::string& name)
{
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) {
        std::string text;
        try {
            text = read_file(name);
        } catch (const std::exception& e) {
            throw LessonError("", e.what());
        }
        return parse_lesson(text, name);
    }
    const std::string path = "lessons/" + name + ".json";
    if (const auto text = bundled_file(path))
        return parse_lesson(*text, path);
    throw LessonError("", "no lesson is called '" + name + "'; the lessons are: " + listed(bundled_names("lessons")));
}

std::vector<LessonError> lesson_file_problems(std::string_view text, const std::string& origin)
{
    LessonProblems problems(origin);
    const Lesson lesson = read_lesson(text, origin, problems);
    // The scenarios' problems start with the origin too: the one list reads alike.
    find_scenario_problems(lesson, bundled_scenario_text, problems);
    return problems.list();
}

std::string bundled_scenario_text(const std::string& name)
{
    if (const auto text = bundled_file("scenarios/" + name + ".json"))
        return std::string(*text);
    throw std::runtime_error(
        "no bundled scenario is called '" + name + "'; there are: " + listed(bundled_names("scenarios")));
}

} // namespace pcl
