// What a result records of where it comes from (lib/provenance.h), and the
// shell quoting its command line uses (lib/shell_quote.h).
#include "lib/provenance.h"
#include "lib/shell_quote.h"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

#include <unistd.h>

using namespace pcl;

TEST_CASE("a provenance names this build, the command, the time and this computer")
{
    const char* argv[] = { "/usr/bin/pagecache-lab-cli", "run", "2002-global-hash-lock", "--set",
        "workload.files=separate", "--out", "my results" };
    set_command_line(7, argv);
    const Provenance p = make_provenance();
    CHECK(p.version == PCL_VERSION);
    CHECK(p.commit == build_commit());
    // The program by its name, and a word with a space quoted as a shell reads it back.
    CHECK(p.command == "pagecache-lab-cli run 2002-global-hash-lock --set workload.files=separate --out 'my results'");
    CHECK(std::regex_match(p.time, std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")));
    CHECK(p.time.substr(0, 10) == p.host.date);
    CHECK(p.host.kernel.rfind("Linux ", 0) == 0);
    CHECK(p.host.cpus == unsigned(::sysconf(_SC_NPROCESSORS_ONLN)));
    CHECK(p.host.memory_bytes == std::uint64_t(::sysconf(_SC_PHYS_PAGES)) * std::uint64_t(::sysconf(_SC_PAGESIZE)));
}

TEST_CASE("a provenance written as JSON reads back the same")
{
    Provenance p;
    p.version = "0.1.0";
    p.commit = "0123456789ab-dirty";
    p.command = "pagecache-lab-cli sweep x --vary 'a=1,2'";
    p.time = "2026-12-06T11:50:03Z";
    p.host = { "2026-12-06", "AMD EPYC 7B13", true, "Linux 6.1.0", 64, 1ull << 40 };
    const json::Value doc = json::Value(provenance_members(p));
    // Every member read back: written again, the same text.
    const Provenance back = provenance_from_json(doc);
    CHECK(json::write(json::Value(provenance_members(back))) == json::write(doc));
    CHECK(back.host.memory_bytes == 1ull << 40);
    CHECK(back.host.hypervisor);
    // A result of an older build has none: empty, not a failure.
    CHECK(provenance_from_json(json::Value(json::Object {})).version.empty());
}

TEST_CASE("provenance columns are the same names always, empty for a run that was not made")
{
    Provenance p;
    p.version = "0.1.0";
    p.host.cpus = 2;
    p.host.memory_bytes = 4096;
    const auto made = provenance_columns(p), none = provenance_columns({});
    REQUIRE(made.size() == 8);
    REQUIRE(none.size() == 8);
    for (std::size_t i = 0; i < made.size(); ++i) {
        CHECK(made[i].first == none[i].first);
        CHECK(none[i].second.empty());
    }
    CHECK(made[0] == std::pair<std::string, std::string> { "program_version", "0.1.0" });
    CHECK(made[6] == std::pair<std::string, std::string> { "host_cpus", "2" });
    CHECK(made[7] == std::pair<std::string, std::string> { "host_memory_bytes", "4096" });
}

TEST_CASE("host_text says the kernel, the CPU and the memory")
{
    HostFacts h { "2026-12-06", "AMD EPYC", true, "Linux 6.1.0", 2, 3ull << 30 };
    CHECK(host_text(h) == "Linux 6.1.0, AMD EPYC (2 vCPUs), 3.0 GiB");
    h.hypervisor = false;
    h.cpu_model.clear();
    CHECK(host_text(h) == "Linux 6.1.0, an unknown CPU (2 CPUs), 3.0 GiB");
}

TEST_CASE("shell_quote leaves safe words bare and quotes the rest as a shell reads them back")
{
    CHECK(shell_quote("workload.cpus=1,2") == "workload.cpus=1,2");
    CHECK(shell_quote("") == "''");
    CHECK(shell_quote("a b") == "'a b'");
    CHECK(shell_quote("it's") == "'it'\\''s'");
    CHECK(shell_quote("$HOME") == "'$HOME'");
}
