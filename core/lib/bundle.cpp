#include "lib/bundle.h"

namespace pcl {

std::optional<std::string_view> bundled_file(std::string_view path)
{
    for (const BundledFile& f : bundled_files())
        if (f.path == path)
            return f.text;
    return std::nullopt;
}

std::vector<std::string> bundled_names(std::string_view folder)
{
    constexpr std::string_view kJson = ".json";
    std::vector<std::string> names;
    for (const BundledFile& f : bundled_files()) {
        const std::string_view p = f.path;
        if (p.size() > folder.size() + 1 + kJson.size() && p.substr(0, folder.size()) == folder
            && p[folder.size()] == '/' && p.substr(p.size() - kJson.size()) == kJson)
            names.emplace_back(p.substr(folder.size() + 1, p.size() - folder.size() - 1 - kJson.size()));
    }
    return names;
}

} // namespace pcl
