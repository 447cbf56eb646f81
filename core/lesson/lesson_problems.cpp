#include "lesson/lesson_problems.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace pcl {

namespace {

/// Where a problem at @path comes in the format's order: the rank of its
/// document member (an unknown one first, as the reader finds it), then
/// its element's index.
std::pair<std::size_t, std::size_t> format_place(std::string_view path)
{
    const std::size_t end = std::min(path.find_first_of(".["), path.size());
    const std::vector<std::string_view>& members = lesson_members();
    const auto found = std::find(members.begin(), members.end(), path.substr(0, end));
    const std::size_t rank = found == members.end() ? 0 : std::size_t(found - members.begin()) + 1;
    std::size_t index = 0;
    if (end < path.size() && path[end] == '[')
        std::from_chars(path.data() + end + 1, path.data() + path.size(), index);
    return { rank, index };
}

} // namespace

bool json_path_within(std::string_view inner, std::string_view outer) noexcept
{
    return inner.starts_with(outer)
        && (inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[');
}

LessonProblems::LessonProblems(std::string origin)
    : origin_(std::move(origin))
{
}

void LessonProblems::add(const std::string& path, const std::string& message)
{
    add(LessonError(path, origin_.empty() ? message : origin_ + ": " + message));
}

void LessonProblems::add(LessonError problem)
{
    if (at(problem.field()))
        return;
    const auto place = format_place(problem.field());
    const auto after = std::upper_bound(list_.begin(), list_.end(), place,
        [](const auto& p, const LessonError& e) { return p < format_place(e.field()); });
    list_.insert(after, std::move(problem));
}

bool LessonProblems::at(std::string_view path) const
{
    return std::any_of(list_.begin(), list_.end(), [&](const LessonError& e) { return e.field() == path; });
}

bool LessonProblems::involves(std::string_view path) const
{
    return std::any_of(list_.begin(), list_.end(),
        [&](const LessonError& e) { return json_path_within(e.field(), path) || json_path_within(path, e.field()); });
}

} // namespace pcl
