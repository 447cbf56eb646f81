// The JSON parser and writer: round trips, exact integers, escapes, and every
// rejected input with the line and column it is reported at.
#include "lib/json.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace pcl::json;

namespace {

/// Parses @text expecting an error at @line:@column whose message contains @what.
void expect_error(std::string_view text, std::size_t line, std::size_t column, const std::string& what)
{
    INFO("document: " << text);
    try {
        parse(text);
        FAIL("parsed without error");
    } catch (const ParseError& e) {
        INFO("message: " << e.what());
        CHECK(e.line() == line);
        CHECK(e.column() == column);
        CHECK(std::string(e.what()).find(what) != std::string::npos);
    }
}

} // namespace

TEST_CASE("json: scalars parse to the right types", "[json]")
{
    CHECK(parse("null").is_null());
    CHECK(parse("true").as_bool());
    CHECK_FALSE(parse(" false ").as_bool());
    CHECK(parse("0").type() == Value::Type::Int);
    CHECK(parse("-0").type() == Value::Type::Int);
    CHECK(parse("42").as_int() == 42);
    CHECK(parse("-17").as_int() == -17);
    CHECK(parse("1.5").type() == Value::Type::Double);
    CHECK(parse("1.5").as_double() == 1.5);
    CHECK(parse("1e3").type() == Value::Type::Double);
    CHECK(parse("1E+3").as_double() == 1000.0);
    CHECK(parse("-2.5e-3").as_double() == -0.0025);
    CHECK(parse("\"hi\"").as_string() == "hi");
    CHECK(parse("[]").as_array().empty());
    CHECK(parse("{}").as_object().empty());
    CHECK(Value::type_name(parse("1").type()) == std::string("integer"));
    CHECK(Value::type_name(parse("1.0").type()) == std::string("number"));
}

TEST_CASE("json: integers are exact over the whole 64-bit range", "[json]")
{
    const Value max = parse("18446744073709551615");
    CHECK(max.type() == Value::Type::Uint);
    CHECK(max.as_uint() == std::numeric_limits<std::uint64_t>::max());
    CHECK_THROWS_AS(max.as_int(), std::out_of_range);
    const Value min = parse("-9223372036854775808");
    CHECK(min.as_int() == std::numeric_limits<std::int64_t>::min());
    CHECK_THROWS_AS(min.as_uint(), std::out_of_range);
    CHECK(parse("9223372036854775807").type() == Value::Type::Int);
    CHECK(parse("9223372036854775808").type() == Value::Type::Uint);
    // 2^53 + 1 is not a double: it must survive exactly.
    CHECK(parse("9007199254740993").as_uint() == 9007199254740993ull);
    CHECK(write(parse("18446744073709551615")) == "18446744073709551615");
    CHECK(write(parse("-9223372036854775808")) == "-9223372036854775808");
    expect_error("18446744073709551616", 1, 1, "integer out of range");
    expect_error("[-9223372036854775809]", 1, 2, "integer out of range");
}

TEST_CASE("json: doubles are written with the shortest round-trip digits", "[json]")
{
    for (const double d : { 0.1, 1.0 / 3.0, 1e300, 5e-324, -2.5, 123456789.125, 1e21, 0.0 }) {
        const std::string text = write(Value(d));
        INFO(text);
        const Value back = parse(text);
        CHECK(back.type() == Value::Type::Double);
        CHECK(back.as_double() == d);
    }
    CHECK(write(Value(0.1)) == "0.1");
    CHECK(write(Value(1.0)) == "1.0");
    CHECK(write(Value(0.25)) == "0.25");
    CHECK(write(Value(std::nan(""))) == "null");
    CHECK(write(Value(std::numeric_limits<double>::infinity())) == "null");
    // Too small to represent rounds to zero; too large is an error.
    CHECK(parse("1e-400").as_double() == 0.0);
    CHECK(parse("0.0000001e-400").as_double() == 0.0);
    expect_error("1e400", 1, 1, "out of range");
    expect_error("[0, -1.5e999]", 1, 5, "out of range");
}

TEST_CASE("json: string escapes and UTF-8", "[json]")
{
    CHECK(parse(R"("a\"b\\c\/d\b\f\n\r\t")").as_string() == "a\"b\\c/d\b\f\n\r\t");
    CHECK(parse(R"("\u0041\u00e9\u20AC")").as_string() == "A\xC3\xA9\xE2\x82\xAC");
    // U+1F600 as a surrogate pair.
    CHECK(parse(R"("\uD83D\uDE00")").as_string() == "\xF0\x9F\x98\x80");
    CHECK(parse("\"\xF0\x9F\x98\x80 \xC3\xA9\"").as_string() == "\xF0\x9F\x98\x80 \xC3\xA9");
    CHECK(parse(R"("\u0000")").as_string() == std::string(1, '\0'));

    std::string nasty = "q\"b\\s\n\t\x01\x1f end \xE2\x82\xAC";
    nasty.push_back('\0');
    const std::string text = write(Value(nasty));
    CHECK(text == "\"q\\\"b\\\\s\\n\\t\\u0001\\u001f end \xE2\x82\xAC\\u0000\"");
    CHECK(parse(text).as_string() == nasty);

    expect_error(R"("abc\x")", 1, 5, "invalid escape '\\x'");
    expect_error(R"("\u12G4")", 1, 6, "hex digits");
    expect_error(R"("\uD83D")", 1, 2, "unpaired high surrogate");
    expect_error(R"("\uD83Dx")", 1, 2, "unpaired high surrogate");
    expect_error(R"("\uDE00")", 1, 2, "unpaired low surrogate");
    expect_error(R"("\uD83D\u0041")", 1, 8, "low surrogate");
    expect_error("\"a\tb\"", 1, 3, "control character U+0009");
    expect_error("\"line\nbreak\"", 1, 6, "control character U+000A");
    expect_error("\"abc", 1, 1, "unterminated string");
    expect_error("\"\xC3\x28\"", 1, 2, "invalid UTF-8");
    expect_error("\"\xC0\xAF\"", 1, 2, "invalid UTF-8");         // overlong '/'
    expect_error("\"\xED\xA0\x80\"", 1, 2, "invalid UTF-8");     // encoded surrogate
    expect_error("\"\xF4\x90\x80\x80\"", 1, 2, "invalid UTF-8"); // above U+10FFFF
}

TEST_CASE("json: containers keep document order and round-trip", "[json]")
{
    const std::string text = R"({"z": 1, "a": [true, null, "s", -3, 2.5, {}], "m": {"k": []}})";
    const Value v = parse(text);
    const Object& o = v.as_object();
    REQUIRE(o.size() == 3);
    CHECK(o[0].first == "z");
    CHECK(o[1].first == "a");
    CHECK(o[2].first == "m");
    CHECK(v.find("a")->as_array().size() == 6);
    CHECK(v.find("missing") == nullptr);
    CHECK(parse("3").find("a") == nullptr);

    CHECK(write(v, -1) == text);
    CHECK(parse(write(v)) == v);
    CHECK(parse(write(v, 0)) == v);
    CHECK(parse(write(v, 4)) == v);
    CHECK(write(parse(R"({"a": [1, 2], "b": {}})"), 2) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");

    Value doc = Object {};
    doc.set("x", 1);
    doc.set("y", "two");
    doc.set("x", 3);
    CHECK(write(doc, -1) == R"({"x": 3, "y": "two"})");
    CHECK_THROWS_AS(Value(1).set("x", 2), std::logic_error);
    CHECK_THROWS_AS(Value("s").as_int(), std::logic_error);
    CHECK_THROWS_AS(Value(1).as_string(), std::logic_error);
}

TEST_CASE("json: malformed documents name the line and column", "[json]")
{
    expect_error("", 1, 1, "empty document");
    expect_error("   \n  ", 2, 3, "empty document");
    expect_error("{\"a\": 1,}", 1, 8, "trailing comma");
    expect_error("[1, 2,\n ]", 1, 6, "trailing comma");
    expect_error("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate member name \"a\"");
    expect_error("{\n  // note\n  \"a\": 1\n}", 2, 3, "comments are not allowed");
    expect_error("[1 /* x */]", 1, 4, "comments are not allowed");
    expect_error("NaN", 1, 1, "NaN and Infinity");
    expect_error("[-Infinity]", 1, 2, "NaN and Infinity");
    expect_error("Infinity", 1, 1, "NaN and Infinity");
    expect_error("012", 1, 1, "leading zeros");
    expect_error("[-01]", 1, 3, "leading zeros");
    expect_error("1.", 1, 3, "digit after '.'");
    expect_error(".5", 1, 1, "expected a value");
    expect_error("1e", 1, 3, "exponent");
    expect_error("+1", 1, 1, "expected a value");
    expect_error("{} x", 1, 4, "after the end of the document");
    expect_error("1 2", 1, 3, "after the end of the document");
    expect_error("{\"a\" 1}", 1, 6, "expected ':'");
    expect_error("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'");
    expect_error("[1 2]", 1, 4, "expected ',' or ']'");
    expect_error("{a: 1}", 1, 2, "member name in double quotes");
    expect_error("[tru]", 1, 2, "expected 'true'");
    expect_error("trueish", 1, 1, "expected 'true'");
    expect_error("nul", 1, 1, "expected 'null'");
    expect_error("[1,", 1, 4, "unexpected end of input");
    expect_error("{\"a\":", 1, 6, "unexpected end of input");
    expect_error("'single'", 1, 1, "expected a value");
    // Columns count characters, not bytes.
    expect_error("[\"\xC3\xA9\xC3\xA9\", x]", 1, 8, "expected a value");
    expect_error("{\r\n\"a\": 1,\r\n}", 2, 7, "trailing comma");
}

TEST_CASE("json: nesting is limited so a hostile file cannot exhaust the stack", "[json]")
{
    const auto nested
        = [](std::size_t depth, char open, char close) { return std::string(depth, open) + std::string(depth, close); };
    CHECK_NOTHROW(parse(nested(256, '[', ']')));
    expect_error(nested(257, '[', ']'), 1, 257, "nesting deeper than 256");
    std::string objects;
    for (int i = 0; i < 300; ++i)
        objects += "{\"a\":";
    objects += "1" + std::string(300, '}');
    expect_error(objects, 1, 1 + 256 * 5, "nesting deeper than 256");
    // Far deeper than any stack would hold.
    expect_error(nested(1'000'000, '[', ']'), 1, 257, "nesting deeper");
}
