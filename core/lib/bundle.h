// The files Page Cache Lab carries inside its programs: the bundled
// scenarios and lessons of resources/, the traces they replay and the
// modelled machines' profiles, compiled in by core/CMakeLists.txt, so
// that `pagecache-lab-cli experiment` and the tests find them wherever the
// programs are installed or run from.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

struct BundledFile {
    std::string_view path; ///< below resources/: "scenarios/2002-global-hash-lock.json"
    std::string_view text;
};

/// Every bundled file, sorted by path.
std::span<const BundledFile> bundled_files();

/// The text of @path ("lessons/2002-one-global-hash-lock.json"), if bundled.
std::optional<std::string_view> bundled_file(std::string_view path);

/// The names of the bundled files of @folder ("scenarios", "lessons"):
/// their file names without ".json", sorted.
std::vector<std::string> bundled_names(std::string_view folder);

} // namespace pcl
