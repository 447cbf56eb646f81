// A set of files replaced as one (lib/output_set.h), and the registry of
// paths being written that a second Ctrl+C removes (lib/scratch_paths.h).
#include "lib/file_io.h"
#include "lib/output_set.h"
#include "lib/scratch_paths.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
using namespace pcl;

namespace {

/// A fresh directory of this test's, removed when it goes.
struct ScratchDir {
    fs::path root = fs::temp_directory_path() / ("pcl-output-set-" + std::to_string(::getpid()));
    ScratchDir()
    {
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~ScratchDir() { fs::remove_all(root); }
};

std::vector<std::string> names_in(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
        names.push_back(fs::relative(e.path(), dir).string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

TEST_CASE("a committed set replaces every file of the directory, and leaves nothing beside it")
{
    ScratchDir s;
    const fs::path out = s.root / "out";
    fs::create_directories(out / "charts");
    write_file_atomically((out / "summary.json").string(), "old\n");
    write_file_atomically((out / "charts" / "old.png").string(), "old\n");
    {
        OutputSet set(out.string());
        CHECK(fs::path(set.staging()).parent_path() == s.root);
        write_file_atomically(set.path("summary.json"), "new\n");
        write_file_atomically(set.path("trace.json"), "{}\n");
        // Until the commit, the directory is as it was.
        CHECK(names_in(out) == std::vector<std::string> { "charts", "charts/old.png", "summary.json" });
        set.commit();
    }
    CHECK(names_in(out) == std::vector<std::string> { "summary.json", "trace.json" });
    CHECK(read_file((out / "summary.json").string()) == "new\n");
    CHECK(names_in(s.root) == std::vector<std::string> { "out", "out/summary.json", "out/trace.json" });
}

TEST_CASE("a set given up before its commit leaves the directory as it was")
{
    ScratchDir s;
    const fs::path out = s.root / "out";
    fs::create_directories(out);
    write_file_atomically((out / "summary.json").string(), "old\n");
    {
        OutputSet set((out / ".").string()); // "out/." names the same directory
        write_file_atomically(set.path("summary.json"), "new\n");
    }
    CHECK(read_file((out / "summary.json").string()) == "old\n");
    CHECK(names_in(s.root) == std::vector<std::string> { "out", "out/summary.json" });
}

TEST_CASE("a set needs a directory that exists, and says which")
{
    ScratchDir s;
    const std::string missing = (s.root / "missing").string();
    CHECK_THROWS_WITH(OutputSet(missing), Catch::Contains("cannot write to " + missing));
    write_file_atomically((s.root / "file").string(), "x");
    CHECK_THROWS_WITH(OutputSet((s.root / "file").string()), Catch::Contains("not a directory"));
    CHECK(names_in(s.root) == std::vector<std::string> { "file" });
}

TEST_CASE("foreign entries are the names a set does not write, sorted")
{
    ScratchDir s;
    const fs::path out = s.root / "out";
    CHECK(OutputSet::foreign_entries(out.string(), { "a" }).empty()); // no directory yet
    fs::create_directories(out / "charts");
    for (const char* name : { "summary.json", "zeta.txt", "alpha.txt" })
        write_file_atomically((out / name).string(), "x");
    CHECK(OutputSet::foreign_entries(out.string(), { "summary.json", "charts" })
        == std::vector<std::string> { "alpha.txt", "zeta.txt" });
}

TEST_CASE("remove_scratch_paths removes the registered files and trees, and only those")
{
    ScratchDir s;
    const fs::path tree = s.root / "tree";
    fs::create_directories(tree / "a" / "b");
    for (int k = 0; k < 300; ++k) // more entries than one getdents64 buffer holds
        write_file_atomically((tree / "a" / ("f" + std::to_string(k))).string(), "x");
    write_file_atomically((tree / "a" / "b" / "deep").string(), "x");
    write_file_atomically((s.root / "twin.tmp").string(), "x");
    write_file_atomically((s.root / "kept").string(), "x");
    write_file_atomically((s.root / "released").string(), "x");

    ScratchPath t(tree.string()), f((s.root / "twin.tmp").string()), r((s.root / "released").string()),
        gone((s.root / "never-made").string());
    REQUIRE(t.registered());
    r.release();
    CHECK_FALSE(r.registered());
    remove_scratch_paths();
    CHECK(names_in(s.root) == std::vector<std::string> { "kept", "released" });
}

TEST_CASE("a path leaves the registry with its ScratchPath")
{
    ScratchDir s;
    write_file_atomically((s.root / "file").string(), "x");
    {
        ScratchPath p((s.root / "file").string());
        CHECK(p.registered());
    }
    remove_scratch_paths();
    CHECK(names_in(s.root) == std::vector<std::string> { "file" });
}
