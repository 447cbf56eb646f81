// The lessons Page Cache Lab ships (resources/lessons, bundled into the
// programs by lib/bundle.h) and the scenarios they run, found by name; and
// a lesson file of the user's own.
#pragma once

#include "lesson/experiment.h"
#include "lesson/lesson.h"

#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// The bundled lessons, ordered by name (which starts with the thread's
/// year). Throws LessonError if one of them does not read.
std::vector<Lesson> bundled_lessons();

/// The bundled lesson @name, or the lesson file at @name when it names a
/// file (ends in ".json"). Throws LessonError: for a file that does not
/// read, and for an unknown name with the names there are.
Lesson find_lesson(const std::string& name);

/// Every problem of the lesson file @text (the contents of @origin, which
/// each message starts with), its runs' and steps' bundled scenarios
/// included: each once, at its own member's path, in the format's order
/// (lesson_problems.h). None for a lesson that reads and whose scenarios
/// validate.
std::vector<LessonError> lesson_file_problems(std::string_view text, const std::string& origin);

/// The text of the bundled scenario @name (ScenarioTexts): throws
/// std::runtime_error listing the names for an unknown one.
std::string bundled_scenario_text(const std::string& name);

} // namespace pcl
