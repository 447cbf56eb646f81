#include "sched/machine_profiles.h"

#include "lib/bundle.h"
#include "lib/file_io.h"
#include "sched/machine_profile_fields.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace pcl::sched {

namespace {

constexpr std::string_view kMachinesFolder = "machines";

/// A name that is a file name and nothing else: no path may hide in it.
bool plain_name(const std::string& name)
{
    return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

std::string machine_list(const std::vector<std::string>& names)
{
    std::string s;
    for (const std::string& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

/// Checks that the profile read from @label is called @name.
MachineProfile named(MachineProfile p, const std::string& name, const std::string& label)
{
    if (p.name != name)
        throw FieldError(
            "name", "must be the file's name", label + ": name: must be '" + name + "', got '" + p.name + "'");
    return p;
}

} // namespace

std::string user_machines_dir()
{
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg == '/')
        return std::string(xdg) + "/pagecache-lab/machines";
    const char* home = std::getenv("HOME");
    if (home && *home)
        return std::string(home) + "/.config/pagecache-lab/machines";
    return {};
}

std::vector<std::string> bundled_machine_names()
{
    return bundled_names(kMachinesFolder);
}

std::vector<std::string> machine_profile_names()
{
    std::vector<std::string> names = bundled_machine_names();
    const std::string dir = user_machines_dir();
    std::error_code ec;
    if (!dir.empty() && std::filesystem::is_directory(dir, ec))
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::filesystem::path& path = entry.path();
            if (path.extension() == ".json" && plain_name(path.stem().string()))
                names.push_back(path.stem().string());
        }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

MachineProfile load_machine_profile(const std::string& name)
{
    if (!plain_name(name))
        throw std::invalid_argument(
            "'" + name + "' is not a machine profile's name (1 to 64 lower-case letters, digits and '-')");
    const std::string bundled_path = std::string(kMachinesFolder) + "/" + name + ".json";
    if (const std::optional<std::string_view> text = bundled_file(bundled_path))
        return named(parse_machine_profile(*text, bundled_path), name, bundled_path);
    const std::string dir = user_machines_dir();
    const std::string path = dir.empty() ? std::string() : dir + "/" + name + ".json";
    // There, or there but not to be looked at (a link in a loop, a folder
    // without permission): read_file says which.
    std::error_code ec;
    if (!path.empty() && (std::filesystem::exists(path, ec) || ec))
        return named(parse_machine_profile(read_file(path), path), name, path);
    if (name == kHostMachine)
        throw std::invalid_argument("no profile of this machine yet: run `pagecache-lab-cli calibrate` to measure it"
            + (path.empty() ? std::string() : " (it writes " + path + ")"));
    throw std::invalid_argument("no machine profile '" + name + "': the bundled ones are "
        + machine_list(bundled_machine_names()) + (path.empty() ? std::string() : "; others are read from " + path));
}

} // namespace pcl::sched
