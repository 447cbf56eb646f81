// core/lib/arg_parser: the option parser every `pagecache-lab-cli` command
// uses, and the CSV quoting of core/lib/report.
#include "lib/arg_parser.h"
#include "lib/report.h"

#include <catch2/catch.hpp>

#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace pcl;

namespace {

ArgParser sample_parser()
{
    ArgParser p("bench sample");
    p.add_uint("pages", 1u << 20, 1, 64u << 20, "N", "pages in each index");
    p.add_uint("threads", 2, 1, 256, "T", "threads");
    p.add_double("scale", 1.0, 0.01, 100.0, "F", "scale of the run");
    p.add_string("csv", "", "FILE", "CSV output");
    p.add_string("mode", "fast", "MODE", "how to run");
    p.add_flag("quiet", "no progress");
    return p;
}

/// The message of the ArgError that parsing @args throws ("" if none).
std::string error_of(const std::vector<std::string>& args)
{
    ArgParser p = sample_parser();
    try {
        p.parse(args);
    } catch (const ArgError& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("parse_uint reads decimal, binary suffixes and hex", "[bench_args]")
{
    CHECK(parse_uint("0", "--n") == 0);
    CHECK(parse_uint("42", "--n") == 42);
    CHECK(parse_uint("4k", "--n") == 4096);
    CHECK(parse_uint("4K", "--n") == 4096);
    CHECK(parse_uint("1M", "--n") == 1048576);
    CHECK(parse_uint("2G", "--n") == (std::uint64_t(2) << 30));
    CHECK(parse_uint("0x1f", "--n") == 31);
    CHECK(parse_uint("0XFF", "--n") == 255);
    CHECK(parse_uint("18446744073709551615", "--n") == std::numeric_limits<std::uint64_t>::max());
    CHECK(parse_uint("0xffffffffffffffff", "--n") == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("parse_uint rejects malformed and overflowing values, naming the option", "[bench_args]")
{
    for (const char* bad :
        { "", "1.5", "-1", "+1", " 1", "1 ", "1m", "1T", "0x", "0x1k", "k", "12abc", "1kk", "abc" }) {
        INFO("value '" << bad << "'");
        try {
            parse_uint(bad, "--pages");
            FAIL("accepted");
        } catch (const ArgError& e) {
            CHECK(contains(e.what(), "--pages"));
            CHECK(contains(e.what(), "not an unsigned integer"));
        }
    }
    for (const char* big : { "18446744073709551616", "0x10000000000000000", "17179869184G", "99999999999999999999k" }) {
        INFO("value '" << big << "'");
        try {
            parse_uint(big, "--pages");
            FAIL("accepted");
        } catch (const ArgError& e) {
            CHECK(contains(e.what(), "--pages"));
            CHECK(contains(e.what(), "too large"));
        }
    }
}

TEST_CASE("format_uint uses the largest exact suffix and reads back", "[bench_args]")
{
    CHECK(format_uint(0) == "0");
    CHECK(format_uint(1000) == "1000");
    CHECK(format_uint(3072) == "3k");
    CHECK(format_uint(1048576) == "1M");
    CHECK(format_uint(std::uint64_t(5) << 30) == "5G");
    for (std::uint64_t v : { std::uint64_t(1), std::uint64_t(1023), std::uint64_t(1024), std::uint64_t(64) << 20,
             std::uint64_t(12345678901) })
        CHECK(parse_uint(format_uint(v), "--n") == v);
}

TEST_CASE("defaults hold when nothing is given", "[bench_args]")
{
    ArgParser p = sample_parser();
    p.parse({});
    CHECK(p.get_uint("pages") == 1048576);
    CHECK(p.get_uint("threads") == 2);
    CHECK(p.get_double("scale") == 1.0);
    CHECK(p.get_string("csv").empty());
    CHECK(p.get_string("mode") == "fast");
    CHECK_FALSE(p.get_flag("quiet"));
    CHECK_FALSE(p.given("pages"));
    CHECK_FALSE(p.help_requested());
}

TEST_CASE("values are parsed in both spellings and typed", "[bench_args]")
{
    ArgParser p = sample_parser();
    p.parse({ "--pages", "4k", "--threads=8", "--scale", "0.5", "--csv=out.csv", "--mode", "slow", "--quiet" });
    CHECK(p.get_uint("pages") == 4096);
    CHECK(p.get_uint("threads") == 8);
    CHECK(p.get_double("scale") == 0.5);
    CHECK(p.get_string("csv") == "out.csv");
    CHECK(p.get_string("mode") == "slow");
    CHECK(p.get_flag("quiet"));
    CHECK(p.given("pages"));
    CHECK(p.given("quiet"));

    SECTION("hex and exponent forms")
    {
        p.parse({ "--pages", "0x400", "--scale", "1e-2" });
        CHECK(p.get_uint("pages") == 1024);
        CHECK(p.get_double("scale") == Approx(0.01));
    }
    SECTION("the last of a repeated option wins")
    {
        p.parse({ "--threads", "3", "--threads", "5" });
        CHECK(p.get_uint("threads") == 5);
    }
    SECTION("a second parse starts again from the defaults")
    {
        p.parse({ "--threads", "3" });
        CHECK(p.get_uint("pages") == 1048576);
        CHECK_FALSE(p.get_flag("quiet"));
        CHECK_FALSE(p.given("csv"));
    }
    SECTION("a string value may start with a single dash")
    {
        p.parse({ "--csv", "-" });
        CHECK(p.get_string("csv") == "-");
    }
}

TEST_CASE("--help and -h are always accepted", "[bench_args]")
{
    ArgParser p = sample_parser();
    p.parse({ "--threads", "4", "--help" });
    CHECK(p.help_requested());
    p.parse({ "-h" });
    CHECK(p.help_requested());
}

TEST_CASE("unknown options and stray arguments are errors naming them", "[bench_args]")
{
    CHECK(contains(error_of({ "--bogus" }), "unknown option '--bogus'"));
    CHECK(contains(error_of({ "--bogus=3" }), "unknown option '--bogus'"));
    CHECK(contains(error_of({ "-x" }), "unknown option '-x'"));
    CHECK(contains(error_of({ "extra" }), "unexpected argument 'extra'"));
    CHECK(contains(error_of({ "--" }), "unexpected argument '--'"));
}

TEST_CASE("a missing value is an error naming the option", "[bench_args]")
{
    CHECK(contains(error_of({ "--pages" }), "--pages needs a value"));
    CHECK(contains(error_of({ "--csv", "--quiet" }), "--csv needs a value"));
    CHECK(contains(error_of({ "--csv=" }), "--csv needs a value"));
    CHECK(contains(error_of({ "--quiet=yes" }), "--quiet takes no value"));
}

TEST_CASE("out-of-range values name the option and the allowed range", "[bench_args]")
{
    const std::string low = error_of({ "--threads", "0" });
    CHECK(contains(low, "--threads"));
    CHECK(contains(low, "out of range"));
    CHECK(contains(low, "1..256"));
    const std::string high = error_of({ "--pages=65M" });
    CHECK(contains(high, "--pages"));
    CHECK(contains(high, "1..64M"));
    const std::string scale = error_of({ "--scale", "1000" });
    CHECK(contains(scale, "--scale"));
    CHECK(contains(scale, "0.01..100"));
    CHECK(contains(error_of({ "--scale", "1e999" }), "--scale"));
}

TEST_CASE("malformed numbers are errors naming the option", "[bench_args]")
{
    CHECK(contains(error_of({ "--threads", "four" }), "--threads: 'four' is not an unsigned integer"));
    CHECK(contains(error_of({ "--threads", "-1" }), "--threads: '-1' is not an unsigned integer"));
    CHECK(contains(error_of({ "--scale", "fast" }), "--scale: 'fast' is not a number"));
    CHECK(contains(error_of({ "--scale", "nan" }), "--scale"));
    CHECK(contains(error_of({ "--scale", "inf" }), "--scale"));
    CHECK(contains(error_of({ "--scale", "0.5x" }), "--scale"));
}

TEST_CASE("reading an undeclared option or the wrong type is a programming error", "[bench_args]")
{
    ArgParser p = sample_parser();
    p.parse({});
    CHECK_THROWS_AS(p.get_uint("nope"), std::logic_error);
    CHECK_THROWS_AS(p.get_string("pages"), std::logic_error);
    CHECK_THROWS_AS(p.get_flag("csv"), std::logic_error);
    CHECK_THROWS_AS(p.add_uint("pages", 1, 1, 2, "N", "again"), std::logic_error);
    CHECK_THROWS_AS(p.add_uint("bad", 5, 1, 2, "N", "default outside range"), std::logic_error);
}

TEST_CASE("usage lists every option with its default and range", "[bench_args]")
{
    const std::string u = sample_parser().usage();
    CHECK(contains(u, "--pages N"));
    CHECK(contains(u, "default 1M; 1..64M"));
    CHECK(contains(u, "--scale F"));
    CHECK(contains(u, "--csv FILE"));
    CHECK(contains(u, "default fast"));
    CHECK(contains(u, "--quiet"));
    CHECK(contains(u, "--help"));
}

TEST_CASE("report_arg_error prints the command, the message and a hint, and returns 2", "[bench_args]")
{
    ArgParser p = sample_parser();
    std::ostringstream err;
    CHECK(report_arg_error(p, ArgError("unknown option '--x'"), err) == 2);
    CHECK(contains(err.str(), "pagecache-lab-cli bench sample: unknown option '--x'"));
    CHECK(contains(err.str(), "pagecache-lab-cli bench sample --help"));
}

TEST_CASE("check_writable_path rejects missing directories and directories, naming the option", "[bench_args]")
{
    CHECK_NOTHROW(check_writable_path("out.csv", "--csv"));
    CHECK_NOTHROW(check_writable_path("/tmp/pcl-test-out.csv", "--csv"));
    for (const char* bad : { "/nonexistent-pcl-dir/out.csv", "/tmp" }) {
        INFO("path " << bad);
        try {
            check_writable_path(bad, "--csv");
            FAIL("accepted");
        } catch (const ArgError& e) {
            CHECK(contains(e.what(), "--csv"));
            CHECK(contains(e.what(), bad));
        }
    }
}

TEST_CASE("Report CSV quotes commas, quotes and newlines (RFC 4180)", "[bench_args][report]")
{
    Report r({ "name", "value" });
    r.add_row();
    r.set("name", "plain");
    r.set("value", std::uint64_t(7));
    r.add_row();
    r.set("name", "a,b");
    r.set("value", "say \"hi\"");
    r.add_row();
    r.set("name", "two\nlines");
    r.set("value", 1.25, 2);
    CHECK(r.csv() == "name,value\nplain,7\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",1.25\n");
}

TEST_CASE("a list option keeps every value given, in order", "[bench_args]")
{
    ArgParser p("run");
    p.add_list("set", "PATH=VALUE", "override a field");
    p.add_string("json", "", "FILE", "JSON output");
    p.parse({});
    CHECK(p.get_list("set").empty());
    CHECK_FALSE(p.given("set"));

    p.parse({ "--set", "a=1", "--json", "out.json", "--set=b=2", "--set", "c" });
    CHECK(p.get_list("set") == std::vector<std::string> { "a=1", "b=2", "c" });
    CHECK(p.given("set"));
    CHECK(p.get_string("json") == "out.json");

    SECTION("a second parse starts again from an empty list")
    {
        p.parse({ "--set", "d=4" });
        CHECK(p.get_list("set") == std::vector<std::string> { "d=4" });
    }
    SECTION("a missing value is an error naming the option")
    {
        for (const std::vector<std::string>& args : { std::vector<std::string> { "--set" },
                 std::vector<std::string> { "--set=" }, std::vector<std::string> { "--set", "--json", "x" } }) {
            try {
                p.parse(args);
                FAIL("accepted");
            } catch (const ArgError& e) {
                CHECK(contains(e.what(), "--set needs a value (PATH=VALUE)"));
            }
        }
    }
    CHECK_THROWS_AS(p.get_string("set"), std::logic_error);
    CHECK_THROWS_AS(p.get_list("json"), std::logic_error);
    CHECK(contains(p.usage(), "--set PATH=VALUE"));
    CHECK(contains(p.usage(), "(repeatable)"));
}

TEST_CASE("operands are kept in order when the command allows them", "[bench_args]")
{
    ArgParser p("run");
    p.add_string("json", "", "FILE", "JSON output");
    p.add_flag("progress", "progress lines");
    p.allow_operands();
    p.parse({ "a.json", "--json", "out.json", "-", "--progress", "b.json" });
    CHECK(p.operands() == std::vector<std::string> { "a.json", "-", "b.json" });
    CHECK(p.get_string("json") == "out.json");
    CHECK(p.get_flag("progress"));

    p.parse({ "--progress" });
    CHECK(p.operands().empty());

    // Options are still options, and "--" is still refused.
    CHECK_THROWS_WITH(p.parse({ "a.json", "--bogus" }), Catch::Contains("unknown option '--bogus'"));
    CHECK_THROWS_WITH(p.parse({ "-x" }), Catch::Contains("unknown option '-x'"));
    CHECK_THROWS_WITH(p.parse({ "--" }), Catch::Contains("unexpected argument '--'"));
    // Without allow_operands() they are errors (as above, for sample_parser).
    CHECK(contains(error_of({ "a.json" }), "unexpected argument 'a.json'"));
}

TEST_CASE("parse_command prints the help, reports errors with exit code 2, and checks output files", "[bench_args]")
{
    auto parser = [] {
        ArgParser p("bench sample");
        p.add_uint("pages", 16, 1, 64, "N", "pages");
        p.add_output("csv", "FILE", "CSV output");
        p.describe("[options]", "Samples things.", "exit codes: 0 sampled");
        return p;
    };
    std::ostringstream out, err;
    ArgParser p = parser();
    REQUIRE(p.parse_command({ "--help" }, out, err) == std::optional<int>(0));
    CHECK(out.str().starts_with("usage: pagecache-lab-cli bench sample [options]\n\nSamples things.\n\noptions:\n"));
    CHECK(contains(out.str(), "--csv FILE"));
    CHECK(out.str().ends_with("\nexit codes: 0 sampled\n"));
    CHECK(err.str().empty());

    // A bad value, a file that cannot be created and a failed check all exit 2 with the message.
    for (const auto& args : std::vector<std::vector<std::string>> {
             { "--pages", "65" }, { "--csv", "/nonexistent-pcl-dir/out.csv" }, { "--pages", "3" } }) {
        std::ostringstream e;
        ArgParser q = parser();
        const auto code = q.parse_command(args, out, e, [](const ArgParser& a) {
            if (a.get_uint("pages") == 3)
                throw ArgError("--pages: 3 is unlucky");
        });
        REQUIRE(code == std::optional<int>(2));
        CHECK(contains(e.str(), "pagecache-lab-cli bench sample: --"));
        CHECK(contains(e.str(), args[0]));
    }

    // Good arguments: the command goes on, and an output not given is "" and not checked.
    ArgParser ok = parser();
    CHECK(ok.parse_command({ "--pages", "8" }, out, err) == std::nullopt);
    CHECK(ok.get_uint("pages") == 8);
    CHECK(ok.get_string("csv").empty());
}

TEST_CASE("usage wraps long help under its own column", "[bench_args]")
{
    ArgParser p("bench sample");
    // Three words of 30 letters each.
    std::string help;
    for (char c : { 'a', 'b', 'c' })
        help.append(help.empty() ? 0 : 1, ' ').append(30, c);
    p.add_string("mode", "fast", "MODE", help);
    const std::string u = p.usage();
    std::istringstream lines(u);
    std::string line;
    std::vector<std::string> all;
    while (std::getline(lines, line)) {
        CHECK(line.size() <= 100);
        all.push_back(line);
    }
    REQUIRE(all.size() == 3); // the help in two lines, and --help
    CHECK(all[1].find_first_not_of(' ') == all[0].find('a'));
}

TEST_CASE("a line break in an option's help is a space: the wrapping places the breaks", "[bench_args]")
{
    ArgParser p("bench sample");
    p.add_string("out", "", "DIR",
        "write the files of the run into DIR, each atomically, and the charts\nas PNG, SVG and PDF; a line the\n"
        "author broke early");
    std::string text(150, 'x');
    text.append("\nshort line\n").append(60, 'y').append(1, ' ').append(60, 'z');
    p.describe("[options]", text);
    std::istringstream lines(p.help());
    std::string line;
    std::vector<std::string> all;
    while (std::getline(lines, line)) {
        CHECK(line.size() <= 150);
        all.push_back(line);
    }
    // The description: the 150-letter word alone, the short line as given,
    // the two 60-letter words on two lines.
    REQUIRE(all.size() > 5);
    CHECK(all[2] == std::string(150, 'x'));
    CHECK(all[3] == "short line");
    CHECK(all[4] == std::string(60, 'y'));
    CHECK(all[5] == std::string(60, 'z'));
    // The option's help: no line starts at column 0, and none passes 100.
    const std::string u = p.usage();
    std::istringstream usage(u);
    while (std::getline(usage, line)) {
        CHECK(line.size() <= 100);
        CHECK(line.rfind("  ", 0) == 0);
    }
    CHECK(u.find("charts as PNG") != std::string::npos);
}
