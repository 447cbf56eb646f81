// core/lib/output_format and the two texts of a Report's cell: what a
// table shows and what a script reads, as json and csv print it.
#include "lib/arg_parser.h"
#include "lib/json.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"

#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <string>

using namespace pcl;

namespace {

/// A table with a rounded figure, a ratio shown with its "x", a ratio over
/// zero and a figure that was not measured.
Report sample_table()
{
    Report r({ "name", "ns", "ratio", "over zero", "posted" });
    r.add_row();
    r.set("name", "radix");
    r.set("ns", 12.3456789, 1);
    r.set("ratio", fixed(2.0 / 3.0, 2) + "x", 2.0 / 3.0);
    r.set("over zero", "-", std::numeric_limits<double>::infinity());
    r.set_missing("posted");
    return r;
}

} // namespace

TEST_CASE("a table shows its cells rounded, its data holds them at full precision", "[report][output_format]")
{
    const Report r = sample_table();
    CHECK(r.rows()[0] == std::vector<std::string> { "radix", "12.3", "0.67x", "-", "-" });
    CHECK(r.csv() == "name,ns,ratio,over zero,posted\nradix,12.3,0.67x,-,-\n");
    const Report d = r.data();
    CHECK(d.columns() == r.columns());
    CHECK(d.rows()[0][1] == "12.3456789");
    CHECK(std::stod(d.rows()[0][2]) == 2.0 / 3.0);
    // What does not exist is an empty cell, not "-", "inf" nor "null".
    CHECK(d.csv() == "name,ns,ratio,over zero,posted\nradix,12.3456789," + d.rows()[0][2] + ",,\n");
}

TEST_CASE("a row of text cells in the columns' order, the rest empty", "[report]")
{
    Report r({ "a", "b", "c" });
    r.add_row({ "1", "x,y" });
    CHECK(r.csv() == "a,b,c\n1,\"x,y\",\n");
    CHECK(r.data().csv() == r.csv());
}

TEST_CASE("csv_number: a count as an integer, anything else as it reads back, nothing for no value",
    "[report][output_format]")
{
    CHECK(csv_number(42) == "42");
    CHECK(csv_number(-3) == "-3");
    CHECK(std::stod(csv_number(0.1)) == 0.1);
    CHECK(csv_number(std::numeric_limits<double>::infinity()).empty());
    CHECK(csv_number(std::numeric_limits<double>::quiet_NaN()).empty());
}

TEST_CASE("shown_number: a value as a message quotes it, whatever it is", "[report][output_format]")
{
    CHECK(shown_number(-1) == "-1");
    CHECK(shown_number(0.25) == "0.25");
    CHECK(std::stod(shown_number(1.0 / 3)) == 1.0 / 3);
    CHECK(shown_number(std::numeric_limits<double>::infinity()) == "inf");
    CHECK(shown_number(-std::numeric_limits<double>::infinity()) == "-inf");
    CHECK(shown_number(std::numeric_limits<double>::quiet_NaN()) == "nan");
}

TEST_CASE("print_table: json numbers as numbers and what does not exist as null", "[output_format]")
{
    const Report r = sample_table();
    std::ostringstream json_out, csv_out, table_out;
    print_table(json_out, r, "json");
    const json::Value doc = json::parse(json_out.str());
    REQUIRE(doc.as_array().size() == 1);
    const json::Value& row = doc.as_array()[0];
    CHECK(row.find("name")->as_string() == "radix");
    CHECK(row.find("ns")->as_double() == 12.3456789);
    CHECK(row.find("ratio")->as_double() == 2.0 / 3.0);
    CHECK(row.find("over zero")->is_null());
    CHECK(row.find("posted")->is_null());
    print_table(csv_out, r, "csv");
    CHECK(csv_out.str() == r.data().csv());
    print_table(table_out, r, "table");
    std::ostringstream shown;
    r.print(shown);
    CHECK(table_out.str() == shown.str());
}

TEST_CASE("a format is table, json or csv, and with json or csv the notes go to stderr", "[output_format]")
{
    for (const char* ok : { "table", "json", "csv" })
        CHECK_NOTHROW(check_format(ok));
    CHECK_THROWS_AS(check_format("xml"), ArgError);
    std::ostringstream out, err;
    CHECK(&notes_stream("table", out, err) == &out);
    CHECK(&notes_stream("json", out, err) == &err);
    CHECK(&notes_stream("csv", out, err) == &err);
}

TEST_CASE("a count and its noun: one of it, or its plural", "[text]")
{
    CHECK(counted(1, "run") == "1 run");
    CHECK(counted(0, "run") == "0 runs");
    CHECK(counted(5, "page") == "5 pages");
    CHECK(plural(1, "read") == "read");
    CHECK(plural(2, "read") == "reads");
}
