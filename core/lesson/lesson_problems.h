// Every problem of a lesson file, as `pagecache-lab-cli validate` lists
// them: each mistake once, at the path of its own member, in the order the
// format lists the document's members (docs/lesson-format.md) whichever
// check found it.
//
// The reader (lesson.h) and the check of the runs' scenarios
// (experiment.h) add to one list and ask it what has a problem already: a
// check whose finding would only follow from one (a step naming a run
// whose own name was refused) is not made, so that one mistake is one
// line.
#pragma once

#include "lesson/lesson.h"

#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// Whether the JSON path @inner names @outer or something inside it:
/// "runs[1].set[0]" is within "runs[1]" and "runs", not within "runs[10]".
bool json_path_within(std::string_view inner, std::string_view outer) noexcept;

class LessonProblems {
public:
    /// @origin: the file, which each message of add(path, message) starts
    /// with ("" for none).
    explicit LessonProblems(std::string origin = "");

    /// The problem of the member at @path, whose @message starts with the
    /// path ("runs[1].set[2]: ..."), kept as "origin: message" unless one
    /// at @path is kept already: a lesson's quick override that every run
    /// refuses is one mistake.
    void add(const std::string& path, const std::string& message);
    /// @problem as it is (a document that is not JSON names its origin,
    /// line and column itself), unless one at its path is kept already.
    void add(LessonError problem);

    /// A problem at @path.
    bool at(std::string_view path) const;
    /// A problem at @path, inside what it names, or at a member that holds
    /// it ("runs[1]" for "runs[1].scenario"): what is read from there
    /// cannot be checked against anything else.
    bool involves(std::string_view path) const;

    bool empty() const noexcept { return list_.empty(); }
    /// In the format's order: the document's members as the format lists
    /// them, an array's elements by index, and in the order found within one.
    const std::vector<LessonError>& list() const noexcept { return list_; }

private:
    std::string origin_;
    std::vector<LessonError> list_;
};

} // namespace pcl
