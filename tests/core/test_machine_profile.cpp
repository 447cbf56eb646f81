// The modelled machines' profiles: every bundled one loads, prints and
// writes back to itself; a bad file's message names the file and the field,
// whatever is wrong, and nothing crashes; the lookup of a profile by name,
// the user's own ones and the missing host profile; docs/machines.md's
// tables of each profile's figures are the profiles' own.
#include <catch2/catch.hpp>

#include "lib/field_error.h"
#include "lib/file_io.h"
#include "lib/json.h"
#include "sched/machine_profile_fields.h"
#include "sched/machine_profiles.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace pcl;
using namespace pcl::sched;

namespace {

const std::string kLabel = "machines/x.json";

json::Value profile_doc(const std::string& name)
{
    return machine_profile_to_json(load_machine_profile(name));
}

/// The FieldError parsing @doc throws (fails the test if none).
FieldError error_of(const json::Value& doc)
{
    try {
        machine_profile_from_json(doc, kLabel);
    } catch (const FieldError& e) {
        return e;
    }
    FAIL("the profile was accepted");
    throw std::logic_error("unreachable");
}

std::string message_of(const json::Value& doc)
{
    return error_of(doc).what();
}

/// Sets $XDG_CONFIG_HOME to a fresh directory for the test's life.
class ConfigHome {
public:
    ConfigHome()
        : dir_(std::filesystem::temp_directory_path() / ("pcl-machines-" + std::to_string(::getpid())))
    {
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_ / "pagecache-lab/machines");
        if (const char* old = std::getenv("XDG_CONFIG_HOME"))
            saved_ = old;
        ::setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
    }
    ~ConfigHome()
    {
        if (saved_)
            ::setenv("XDG_CONFIG_HOME", saved_->c_str(), 1);
        else
            ::unsetenv("XDG_CONFIG_HOME");
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path machines() const { return dir_ / "pagecache-lab/machines"; }
    void write(const std::string& file, const std::string& text) const { std::ofstream(machines() / file) << text; }

private:
    std::filesystem::path dir_;
    std::optional<std::string> saved_;
};

} // namespace

TEST_CASE("the bundled machine profiles are the three named, and each loads, prints and writes back", "[machines]")
{
    const std::vector<std::string> names = bundled_machine_names();
    REQUIRE(names == std::vector<std::string> { "altix-2005", "epyc-2026", "pentium3-xeon-8way-2002" });
    for (const std::string& name : names) {
        INFO(name);
        const MachineProfile p = load_machine_profile(name);
        CHECK(p.name == name);
        CHECK(p.max_cpus <= p.topology.cpus());
        CHECK(machine_profile_from_json(machine_profile_to_json(p), kLabel) == p);
        const std::vector<MachineParameter> params = machine_parameters(p);
        // name, title, description, max_cpus; the topology's rows; the
        // latencies the topology has; the eight work costs.
        std::size_t latencies = 0;
        for (const MachineParameter& row : params) {
            INFO(row.path);
            CHECK(!row.value.empty());
            if (!row.basis.empty())
                CHECK(!row.source.empty());
            latencies += row.path.starts_with("latency.");
            if (row.path.starts_with("latency.") || row.path.starts_with("work."))
                CHECK(row.unit == "ns");
        }
        CHECK(latencies
            == std::size_t(p.latency.smt.has_value()) + p.latency.domain.has_value() + p.latency.socket.has_value()
                + p.latency.remote.has_value() + p.latency.hop.has_value());
        CHECK(std::count_if(params.begin(), params.end(), [](const auto& r) { return r.path.starts_with("work."); })
            == 10);
    }
}

TEST_CASE("the bundled profiles carry the figures of their sources", "[machines]")
{
    const MachineProfile epyc = load_machine_profile("epyc-2026");
    CHECK(epyc.topology.cpus() == 192);
    CHECK(epyc.latency.domain->ns == 23);
    CHECK(epyc.latency.socket->ns == 107);
    CHECK(epyc.latency.remote->ns == 197);
    CHECK(epyc.latency.smt->ns >= 7);
    CHECK(epyc.latency.smt->ns <= 10);

    const MachineProfile altix = load_machine_profile("altix-2005");
    CHECK(altix.max_cpus == 64);
    CHECK(altix.latency.hop->ns == 50);
    CHECK(altix.latency.hop->basis == FigureBasis::Published);
    // The calibration: one anonymous fault on one CPU costs what Lameter's
    // pft measured, about 91,600 faults per CPU-second.
    const WorkCosts& w = altix.work;
    CHECK(w.minor_fault.basis == FigureBasis::Calibration);
    CHECK(w.minor_fault.ns + w.page_zero.ns + w.pte_install.ns + w.lock_acquire.ns
        == std::uint64_t(std::llround(1e9 / 91600)));

    const MachineProfile p3 = load_machine_profile("pentium3-xeon-8way-2002");
    CHECK(p3.topology.shared_bus);
    CHECK(p3.topology.cpus() == 8);
    CHECK(p3.work.page_copy.ns == 8192ull * 1000 / 800); // 8 KiB over 800 MB/s, in ns
    CHECK(p3.work.page_zero.ns == 4096ull * 1000 / 800);
}

TEST_CASE("a bad machine profile's message names the file and the field", "[machines]")
{
    json::Value doc = profile_doc("altix-2005");

    SECTION("a value out of range")
    {
        doc.find("topology")->set("cores_per_domain", 0);
        CHECK(message_of(doc) == "machines/x.json: topology.cores_per_domain: must be 1 to 256, got 0");
        CHECK(error_of(doc).field() == "topology.cores_per_domain");
    }
    SECTION("a value of the wrong type")
    {
        doc.find("topology")->set("sockets", "32");
        CHECK(message_of(doc) == "machines/x.json: topology.sockets: expected an integer, got string");
    }
    SECTION("a negative figure")
    {
        doc.find("work")->find("page_copy")->set("ns", -5);
        CHECK(error_of(doc).field() == "work.page_copy.ns");
    }
    SECTION("a missing figure")
    {
        std::erase_if(doc.find("work")->as_object(), [](const auto& m) { return m.first == "page_copy"; });
        CHECK(message_of(doc) == "machines/x.json: work.page_copy: missing");
    }
    SECTION("a figure without its source")
    {
        doc.find("latency")->find("hop")->set("source", "");
        CHECK(message_of(doc) == "machines/x.json: latency.hop.source: must not be empty");
    }
    SECTION("a basis that is not one of the five")
    {
        doc.find("work")->find("spin_step")->set("basis", "guess");
        CHECK(message_of(doc)
            == "machines/x.json: work.spin_step.basis: 'guess' is not one of: published, derived, calibration, "
               "estimate, measured");
    }
    SECTION("an unknown member")
    {
        doc.find("topology")->set("cpus_per_node", 2);
        CHECK(error_of(doc).field() == "topology.cpus_per_node");
        CHECK(message_of(doc).starts_with("machines/x.json: topology.cpus_per_node: unknown field; allowed: "));
    }
    SECTION("a latency the topology needs, left out")
    {
        std::erase_if(doc.find("latency")->as_object(), [](const auto& m) { return m.first == "remote"; });
        CHECK(message_of(doc) == "machines/x.json: latency.remote: missing: this topology has CPUs at this distance");
    }
    SECTION("a latency for a distance the topology does not have")
    {
        doc.find("latency")->set("smt", doc.find("latency")->find("hop")->as_object());
        CHECK(message_of(doc) == "machines/x.json: latency.smt: not allowed: cpus_per_core is 1");
    }
    SECTION("a fat tree without its radix")
    {
        std::erase_if(doc.find("topology")->as_object(), [](const auto& m) { return m.first == "router_radix"; });
        CHECK(message_of(doc) == "machines/x.json: topology.router_radix: must be 2 to 64, got 0");
    }
    SECTION("more CPUs than the topology has")
    {
        doc.set("max_cpus", 65);
        CHECK(message_of(doc) == "machines/x.json: max_cpus: must be 1 to 64, got 65");
    }
    SECTION("not JSON")
    {
        try {
            parse_machine_profile("{ \"name\": ", kLabel);
            FAIL("accepted");
        } catch (const FieldError& e) {
            CHECK(e.field().empty());
            CHECK(std::string(e.what()).starts_with("machines/x.json:1:"));
        }
    }
    SECTION("not an object")
    {
        CHECK(message_of(json::Value(json::Array {}))
            == "machines/x.json: a machine profile must be a JSON object, got array");
    }
}

TEST_CASE("any member of a profile set to any wrong type is an error naming it, never a crash", "[machines]")
{
    const std::vector<json::Value> wrong = { json::Value(), json::Value(true), json::Value(-1), json::Value(1.5),
        json::Value("x"), json::Value(json::Array {}), json::Value(json::Object {}), json::Value(1e30) };
    for (const std::string& name : bundled_machine_names()) {
        const json::Value valid = profile_doc(name);
        // Every path to a scalar member, and every object.
        std::vector<std::vector<std::string>> paths;
        for (const auto& [k, v] : valid.as_object()) {
            paths.push_back({ k });
            if (v.is_object())
                for (const auto& [k2, v2] : v.as_object()) {
                    paths.push_back({ k, k2 });
                    if (v2.is_object())
                        for (const auto& [k3, v3] : v2.as_object())
                            paths.push_back({ k, k2, k3 });
                }
        }
        for (const std::vector<std::string>& path : paths)
            for (const json::Value& value : wrong) {
                json::Value doc = valid;
                json::Value* at = &doc;
                for (std::size_t i = 0; i + 1 < path.size(); ++i)
                    at = at->find(path[i]);
                const json::Value* before = at->find(path.back());
                if (*before == value
                    || (before->is_string() && value.is_string() && path.back() != "hop_rule"
                        && path.back() != "basis"))
                    continue; // a string for a string may be valid
                at->set(path.back(), value);
                std::string joined;
                for (const std::string& p : path)
                    joined += (joined.empty() ? "" : ".") + p;
                INFO(name << ": " << joined << " = " << json::write(value, -1));
                try {
                    machine_profile_from_json(doc, kLabel);
                    // Some values are valid for some fields (an integer for a
                    // figure's ns); the ones that are not must be refused.
                    CHECK((value.is_integer() || value.is_bool() || value.type() == json::Value::Type::Double));
                } catch (const FieldError& e) {
                    CHECK(std::string(e.what()).starts_with(kLabel + ": "));
                    CHECK(!e.field().empty());
                    CHECK(e.field().starts_with(path.front()));
                }
            }
    }
}

TEST_CASE("a profile is found bundled, else in the user's configuration directory", "[machines]")
{
    const ConfigHome home;
    CHECK(user_machines_dir() == home.machines().string());

    SECTION("no host profile yet: the message says to run calibrate")
    {
        try {
            load_machine_profile("host");
            FAIL("found a host profile");
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            CHECK(what.find("run `pagecache-lab-cli calibrate`") != std::string::npos);
            CHECK(what.find(home.machines().string() + "/host.json") != std::string::npos);
        }
        CHECK(machine_profile_names() == bundled_machine_names());
    }
    SECTION("a host profile written there is found and listed")
    {
        MachineProfile host = load_machine_profile("epyc-2026");
        host.name = "host";
        host.title = "This machine";
        home.write("host.json", json::write(machine_profile_to_json(host), 2));
        CHECK(load_machine_profile("host") == host);
        const std::vector<std::string> names = machine_profile_names();
        CHECK(std::find(names.begin(), names.end(), "host") != names.end());
        CHECK(names.size() == bundled_machine_names().size() + 1);
    }
    SECTION("a user's profile must be called as its file is")
    {
        MachineProfile other = load_machine_profile("altix-2005");
        other.name = "other";
        home.write("mine.json", json::write(machine_profile_to_json(other), 2));
        try {
            load_machine_profile("mine");
            FAIL("accepted");
        } catch (const FieldError& e) {
            CHECK(std::string(e.what())
                == (home.machines() / "mine.json").string() + ": name: must be 'mine', got 'other'");
        }
    }
    SECTION("a bad user's profile names its file and field")
    {
        home.write("bad.json", "{ \"name\": \"bad\" }");
        try {
            load_machine_profile("bad");
            FAIL("accepted");
        } catch (const FieldError& e) {
            CHECK(std::string(e.what()) == (home.machines() / "bad.json").string() + ": title: missing");
        }
    }
    SECTION("a profile that is a link to a device, a FIFO or a link in a loop is refused at once")
    {
        std::filesystem::create_symlink("/dev/zero", home.machines() / "zero.json");
        CHECK_THROWS_WITH(
            load_machine_profile("zero"), Catch::Contains("it is a character device, not a regular file"));
        REQUIRE(::mkfifo((home.machines() / "fifo.json").c_str(), 0600) == 0);
        CHECK_THROWS_WITH(load_machine_profile("fifo"), Catch::Contains("it is a FIFO, not a regular file"));
        std::filesystem::create_symlink(home.machines() / "loop.json", home.machines() / "loop.json");
        CHECK_THROWS_WITH(load_machine_profile("loop"), Catch::Contains("symbolic links"));
    }
    SECTION("an unknown name lists the bundled ones; a path is not a name")
    {
        CHECK_THROWS_WITH(load_machine_profile("cray-1"),
            Catch::Contains("no machine profile 'cray-1': the bundled ones are altix-2005, epyc-2026, "
                            "pentium3-xeon-8way-2002"));
        CHECK_THROWS_AS(load_machine_profile("../etc/passwd"), std::invalid_argument);
    }
}

TEST_CASE("docs/machines.md gives each bundled profile's figures as the profile has them", "[machines]")
{
    const std::string text = read_file(std::string(PCL_SOURCE_DIR) + "/docs/machines.md");
    // "### `name`" opens a profile's section; its rows "| `work.x` | 1,400 | estimate | ... |".
    std::map<std::string, std::map<std::string, std::pair<std::uint64_t, std::string>>> documented;
    std::istringstream in(text);
    std::string line, profile;
    while (std::getline(in, line)) {
        if (line.starts_with("### `")) {
            profile = line.substr(5, line.find('`', 5) - 5);
            continue;
        }
        if (profile.empty() || !(line.starts_with("| `latency.") || line.starts_with("| `work.")))
            continue;
        std::vector<std::string> cells;
        std::istringstream row(line.substr(1));
        for (std::string cell; std::getline(row, cell, '|');)
            cells.push_back(cell.substr(1, cell.size() >= 2 ? cell.size() - 2 : 0));
        REQUIRE(cells.size() >= 3);
        std::string digits;
        for (const char c : cells[1])
            if (c != ',')
                digits += c;
        documented[profile][cells[0].substr(1, cells[0].size() - 2)] = { std::stoull(digits), cells[2] };
    }
    REQUIRE(documented.size() == bundled_machine_names().size());
    for (const std::string& name : bundled_machine_names()) {
        INFO(name);
        std::map<std::string, std::pair<std::uint64_t, std::string>> actual;
        for (const MachineParameter& row : machine_parameters(load_machine_profile(name)))
            if (row.path.starts_with("latency.") || row.path.starts_with("work."))
                actual[row.path] = { std::stoull(row.value), std::string(row.basis) };
        CHECK(documented[name] == actual);
    }
}
