// The layers of core and of ui: each folder includes only itself and the
// folders below it, in the order docs/architecture.md gives (its lines
// "Layers of core, from the bottom: ..." and "Layers of ui, from the bottom:
// ..."), and core never includes Qt. The order is read from the document, so
// the drawing and the check cannot drift apart. Only files are read: the
// check of ui needs no Qt either.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#ifndef PCL_SOURCE_DIR
#error "PCL_SOURCE_DIR must name the source tree"
#endif

namespace fs = std::filesystem;

namespace {

const fs::path kSource = PCL_SOURCE_DIR;

std::string read_all(const fs::path& path)
{
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The layer names of the architecture page's order line of @tree ("core",
/// "ui"), bottom first.
std::vector<std::string> documented_layers(const std::string& tree)
{
    const std::string doc = read_all(kSource / "docs" / "architecture.md");
    const std::string marker = "Layers of " + tree + ", from the bottom:";
    const std::size_t at = doc.find(marker);
    if (at == std::string::npos)
        return {};
    const std::string line = doc.substr(at + marker.size(), doc.find('\n', at) - at - marker.size());
    std::vector<std::string> layers;
    const std::regex name("`([a-z_]+)`");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), name); it != std::sregex_iterator(); ++it)
        layers.push_back((*it)[1]);
    return layers;
}

struct Include {
    fs::path file;
    int line = 0;
    std::string target; ///< the folder it names (of this tree, of core, or neither)
};

/// Every `#include "folder/file.h"` of each source file under @tree/, by the
/// folder the including file is in.
std::map<std::string, std::vector<Include>> includes_by_folder(const std::string& tree)
{
    std::map<std::string, std::vector<Include>> out;
    const std::regex include(R"(^\s*#\s*include\s*"([a-z_]+)/[^"]+")");
    for (const auto& entry : fs::directory_iterator(kSource / tree)) {
        if (!entry.is_directory())
            continue;
        const std::string folder = entry.path().filename().string();
        auto& list = out[folder];
        for (const auto& file : fs::recursive_directory_iterator(entry.path())) {
            const std::string ext = file.path().extension().string();
            if (ext != ".h" && ext != ".cpp")
                continue;
            std::ifstream in(file.path());
            std::string text;
            for (int n = 1; std::getline(in, text); ++n) {
                std::smatch m;
                if (std::regex_search(text, m, include))
                    list.push_back({ file.path(), n, m[1] });
            }
        }
    }
    return out;
}

/// Every folder of @tree is named once in its order line, and every name
/// there is a folder.
void check_every_folder_in_order(const std::string& tree)
{
    const std::vector<std::string> layers = documented_layers(tree);
    REQUIRE(layers.size() >= 2);
    const auto folders = includes_by_folder(tree);
    for (const auto& [folder, list] : folders) {
        INFO(tree << "/" << folder << "/ is not in the order of docs/architecture.md");
        CHECK(std::count(layers.begin(), layers.end(), folder) == 1);
    }
    for (const std::string& layer : layers) {
        INFO("docs/architecture.md names a layer " << tree << "/" << layer << "/ that does not exist");
        CHECK(folders.count(layer) == 1);
    }
}

/// No folder of @tree includes one of its folders above it; returns how many
/// includes of its own folders were checked.
std::size_t check_no_include_upwards(const std::string& tree)
{
    const std::vector<std::string> layers = documented_layers(tree);
    REQUIRE_FALSE(layers.empty());
    const auto rank
        = [&](const std::string& folder) { return std::find(layers.begin(), layers.end(), folder) - layers.begin(); };
    std::size_t checked = 0;
    for (const auto& [folder, list] : includes_by_folder(tree)) {
        for (const Include& inc : list) {
            if (rank(inc.target) == std::ptrdiff_t(layers.size()))
                continue; // not a folder of this tree (core's from ui, a test's or a system header)
            INFO(fs::relative(inc.file, kSource).string()
                << ":" << inc.line << " includes " << inc.target << "/, a layer above " << folder << "/");
            CHECK(rank(inc.target) <= rank(folder));
            ++checked;
        }
    }
    return checked;
}

} // namespace

TEST_CASE("architecture.md gives the order of core's layers, every folder in it", "[layers]")
{
    check_every_folder_in_order("core");
}

TEST_CASE("no folder of core includes one above it", "[layers]")
{
    CHECK(check_no_include_upwards("core") > 100); // the scan found core's includes
}

TEST_CASE("architecture.md gives the order of ui's layers, every folder in it", "[layers]")
{
    check_every_folder_in_order("ui");
}

TEST_CASE("no folder of ui includes one above it", "[layers]")
{
    CHECK(check_no_include_upwards("ui") > 100); // the scan found ui's includes of its own folders
}

TEST_CASE("core never includes a Qt header", "[layers]")
{
    const std::regex qt(R"(^\s*#\s*include\s*<Q)");
    std::size_t files = 0;
    for (const auto& file : fs::recursive_directory_iterator(kSource / "core")) {
        const std::string ext = file.path().extension().string();
        if (ext != ".h" && ext != ".cpp")
            continue;
        ++files;
        std::ifstream in(file.path());
        std::string text;
        for (int n = 1; std::getline(in, text); ++n) {
            INFO(fs::relative(file.path(), kSource).string() << ":" << n << ": " << text);
            CHECK_FALSE(std::regex_search(text, qt));
        }
    }
    CHECK(files > 50);
}
