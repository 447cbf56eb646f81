// The JSON parser and writer (see json.h).
//
// The parser is recursive descent over the whole text held in memory. It
// stops at the first error; the position in ParseError is computed from the
// byte offset only then, so the fast path carries no line bookkeeping.
// Columns count characters (UTF-8 code points), as an editor shows them.
#include "lib/json.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_set>

namespace pcl::json {

ParseError::ParseError(const std::string& what, std::size_t line, std::size_t column)
    : std::runtime_error(what)
    , line_(line)
    , column_(column)
{
}

const char* Value::type_name(Type type) noexcept
{
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return "boolean";
    case Type::Int:
    case Type::Uint:
        return "integer";
    case Type::Double:
        return "number";
    case Type::String:
        return "string";
    case Type::Array:
        return "array";
    case Type::Object:
        return "object";
    }
    return "?";
}

namespace {

[[noreturn]] void wrong_type(Value::Type have, const char* want)
{
    throw std::logic_error(std::string("json: expected ") + want + ", have " + Value::type_name(have));
}

} // namespace

bool Value::as_bool() const
{
    if (const bool* b = std::get_if<bool>(&v_))
        return *b;
    wrong_type(type(), "boolean");
}

std::int64_t Value::as_int() const
{
    if (const std::int64_t* i = std::get_if<std::int64_t>(&v_))
        return *i;
    if (const std::uint64_t* u = std::get_if<std::uint64_t>(&v_)) {
        if (*u > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            throw std::out_of_range("json: integer " + std::to_string(*u) + " does not fit in int64");
        return std::int64_t(*u);
    }
    wrong_type(type(), "integer");
}

std::uint64_t Value::as_uint() const
{
    if (const std::uint64_t* u = std::get_if<std::uint64_t>(&v_))
        return *u;
    if (const std::int64_t* i = std::get_if<std::int64_t>(&v_)) {
        if (*i < 0)
            throw std::out_of_range("json: integer " + std::to_string(*i) + " is negative");
        return std::uint64_t(*i);
    }
    wrong_type(type(), "integer");
}

double Value::as_double() const
{
    if (const double* d = std::get_if<double>(&v_))
        return *d;
    if (const std::int64_t* i = std::get_if<std::int64_t>(&v_))
        return double(*i);
    if (const std::uint64_t* u = std::get_if<std::uint64_t>(&v_))
        return double(*u);
    wrong_type(type(), "number");
}

const std::string& Value::as_string() const
{
    if (const std::string* s = std::get_if<std::string>(&v_))
        return *s;
    wrong_type(type(), "string");
}

const Array& Value::as_array() const
{
    if (const Array* a = std::get_if<Array>(&v_))
        return *a;
    wrong_type(type(), "array");
}

Array& Value::as_array()
{
    if (Array* a = std::get_if<Array>(&v_))
        return *a;
    wrong_type(type(), "array");
}

const Object& Value::as_object() const
{
    if (const Object* o = std::get_if<Object>(&v_))
        return *o;
    wrong_type(type(), "object");
}

Object& Value::as_object()
{
    if (Object* o = std::get_if<Object>(&v_))
        return *o;
    wrong_type(type(), "object");
}

const Value* Value::find(std::string_view key) const noexcept
{
    const Object* o = std::get_if<Object>(&v_);
    if (!o)
        return nullptr;
    for (const auto& [k, v] : *o)
        if (k == key)
            return &v;
    return nullptr;
}

Value* Value::find(std::string_view key) noexcept
{
    return const_cast<Value*>(std::as_const(*this).find(key));
}

Value& Value::set(std::string_view key, Value value)
{
    Object& o = as_object();
    for (auto& [k, v] : o)
        if (k == key) {
            v = std::move(value);
            return v;
        }
    o.emplace_back(std::string(key), std::move(value));
    return o.back().second;
}

namespace {

// Deep enough for any real document, shallow enough that the recursion
// (a few hundred bytes of stack per level) cannot exhaust a thread's stack.
constexpr unsigned kMaxDepth = 256;

class Parser {
public:
    explicit Parser(std::string_view text)
        : s_(text)
    {
    }

    Value document()
    {
        skip_space();
        if (pos_ == s_.size())
            fail("empty document: expected a JSON value");
        Value v = value(0);
        skip_space();
        if (pos_ != s_.size())
            fail("unexpected " + describe_here() + " after the end of the document");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }

    [[noreturn]] void fail_at(std::size_t at, const std::string& what) const
    {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(s_[i]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++column;
            }
        }
        throw ParseError(what, line, column);
    }

    /// The character at pos_, for messages: 'x', U+0001 or "end of input".
    std::string describe_here() const
    {
        if (pos_ >= s_.size())
            return "end of input";
        const unsigned char c = static_cast<unsigned char>(s_[pos_]);
        if (c < 0x20 || c == 0x7F) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "U+%04X", unsigned(c));
            return buf;
        }
        if (c >= 0x80)
            return "non-ASCII character"; // "unexpected non-ASCII character: ..." (a byte-order mark, a stray byte)
        return std::string("'") + char(c) + "'";
    }

    void skip_space()
    {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                ++pos_;
            else
                break;
        }
    }

    bool peek_is(char c) const { return pos_ < s_.size() && s_[pos_] == c; }

    Value value(unsigned depth)
    {
        if (pos_ >= s_.size())
            fail("unexpected end of input: expected a value");
        const char c = s_[pos_];
        switch (c) {
        case '{':
            return object(depth + 1);
        case '[':
            return array(depth + 1);
        case '"':
            return Value(string());
        case 't':
            return literal("true", Value(true));
        case 'f':
            return literal("false", Value(false));
        case 'n':
            return literal("null", Value(nullptr));
        case '/':
            fail("comments are not allowed in JSON");
        default:
            if (c == '-' || (c >= '0' && c <= '9'))
                return number();
            if (s_.substr(pos_, 3) == "NaN" || s_.substr(pos_, 8) == "Infinity")
                fail("NaN and Infinity are not JSON numbers");
            fail("unexpected " + describe_here() + ": expected a value");
        }
    }

    Value literal(std::string_view word, Value v)
    {
        const std::size_t start = pos_;
        if (s_.substr(pos_, word.size()) != word)
            fail("invalid literal: expected '" + std::string(word) + "'");
        pos_ += word.size();
        // "trueish" is one bad word, not true followed by garbage.
        if (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_])))
            fail_at(start, "invalid literal: expected '" + std::string(word) + "'");
        return v;
    }

    void enter(unsigned depth) const
    {
        if (depth > kMaxDepth)
            fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
    }

    /// At a ',' just consumed: a closing bracket next is a trailing comma.
    void reject_trailing_comma(std::size_t comma, char close) const
    {
        if (peek_is(close))
            fail_at(comma, std::string("trailing comma before '") + close + "'");
    }

    Value object(unsigned depth)
    {
        enter(depth);
        ++pos_; // '{'
        Object members;
        std::unordered_set<std::string> keys;
        skip_space();
        if (peek_is('}')) {
            ++pos_;
            return Value(std::move(members));
        }
        for (;;) {
            skip_space();
            if (!peek_is('"')) {
                if (peek_is('/'))
                    fail("comments are not allowed in JSON");
                fail("unexpected " + describe_here() + ": expected a member name in double quotes");
            }
            const std::size_t key_at = pos_;
            std::string key = string();
            if (!keys.insert(key).second)
                fail_at(key_at, "duplicate member name \"" + key + "\"");
            skip_space();
            if (!peek_is(':'))
                fail("unexpected " + describe_here() + ": expected ':' after a member name");
            ++pos_;
            skip_space();
            Value v = value(depth);
            members.emplace_back(std::move(key), std::move(v));
            skip_space();
            if (peek_is(',')) {
                const std::size_t comma = pos_++;
                skip_space();
                reject_trailing_comma(comma, '}');
                continue;
            }
            if (peek_is('}')) {
                ++pos_;
                return Value(std::move(members));
            }
            if (peek_is('/'))
                fail("comments are not allowed in JSON");
            fail("unexpected " + describe_here() + ": expected ',' or '}' after an object member");
        }
    }

    Value array(unsigned depth)
    {
        enter(depth);
        ++pos_; // '['
        Array elements;
        skip_space();
        if (peek_is(']')) {
            ++pos_;
            return Value(std::move(elements));
        }
        for (;;) {
            skip_space();
            elements.push_back(value(depth));
            skip_space();
            if (peek_is(',')) {
                const std::size_t comma = pos_++;
                skip_space();
                reject_trailing_comma(comma, ']');
                continue;
            }
            if (peek_is(']')) {
                ++pos_;
                return Value(std::move(elements));
            }
            if (peek_is('/'))
                fail("comments are not allowed in JSON");
            fail("unexpected " + describe_here() + ": expected ',' or ']' after an array element");
        }
    }

    static void put_utf8(std::string& out, char32_t cp)
    {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    /// Four hex digits after "\u" at pos_.
    char32_t hex4()
    {
        char32_t cp = 0;
        for (int i = 0; i < 4; ++i) {
            if (pos_ >= s_.size())
                fail("unterminated \\u escape: expected four hex digits");
            const char c = s_[pos_];
            unsigned d;
            if (c >= '0' && c <= '9')
                d = unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                d = unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                d = unsigned(c - 'A' + 10);
            else
                fail("invalid \\u escape: expected four hex digits");
            cp = cp * 16 + d;
            ++pos_;
        }
        return cp;
    }

    /// One UTF-8 sequence starting at pos_ (a byte >= 0x80), copied to @out.
    void utf8_sequence(std::string& out)
    {
        const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s_[i]); };
        const unsigned char b0 = byte(pos_);
        std::size_t len;
        char32_t cp;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            len = 2;
            cp = b0 & 0x1F;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            len = 3;
            cp = b0 & 0x0F;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            len = 4;
            cp = b0 & 0x07;
        } else {
            fail("invalid UTF-8 in a string");
        }
        if (pos_ + len > s_.size())
            fail("invalid UTF-8 in a string");
        for (std::size_t i = 1; i < len; ++i) {
            const unsigned char b = byte(pos_ + i);
            if ((b & 0xC0) != 0x80)
                fail("invalid UTF-8 in a string");
            cp = (cp << 6) | (b & 0x3F);
        }
        // Overlong forms, UTF-16 surrogates and values above U+10FFFF are not UTF-8.
        const char32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            fail("invalid UTF-8 in a string");
        out.append(s_.substr(pos_, len));
        pos_ += len;
    }

    std::string string()
    {
        const std::size_t open = pos_++;
        std::string out;
        for (;;) {
            if (pos_ >= s_.size())
                fail_at(open, "unterminated string");
            const unsigned char c = static_cast<unsigned char>(s_[pos_]);
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c < 0x20)
                fail("control character " + describe_here() + " in a string: write it as an escape");
            if (c >= 0x80) {
                utf8_sequence(out);
                continue;
            }
            if (c != '\\') {
                out += char(c);
                ++pos_;
                continue;
            }
            const std::size_t escape = pos_++;
            if (pos_ >= s_.size())
                fail_at(open, "unterminated string");
            const char e = s_[pos_++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                char32_t cp = hex4();
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    fail_at(escape, "unpaired low surrogate in a \\u escape");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (s_.substr(pos_, 2) != "\\u")
                        fail_at(escape, "unpaired high surrogate in a \\u escape");
                    const std::size_t second = pos_;
                    pos_ += 2;
                    const char32_t lo = hex4();
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        fail_at(second, "a high surrogate must be followed by a low surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                put_utf8(out, cp);
                break;
            }
            default:
                fail_at(escape, "invalid escape '\\" + std::string(1, e) + "' in a string");
            }
        }
    }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    Value number()
    {
        const std::size_t start = pos_;
        const bool negative = peek_is('-');
        if (negative)
            ++pos_;
        if (pos_ >= s_.size() || !digit(s_[pos_])) {
            if (s_.substr(pos_, 8) == "Infinity")
                fail_at(start, "NaN and Infinity are not JSON numbers");
            fail("invalid number: expected a digit");
        }
        const std::size_t int_start = pos_;
        if (s_[pos_] == '0') {
            ++pos_;
            if (pos_ < s_.size() && digit(s_[pos_]))
                fail_at(int_start, "leading zeros are not allowed in numbers");
        } else {
            while (pos_ < s_.size() && digit(s_[pos_]))
                ++pos_;
        }
        const std::size_t int_digits = pos_ - int_start;
        bool integer = true;
        std::size_t frac_leading_zeros = 0;
        if (peek_is('.')) {
            integer = false;
            ++pos_;
            if (pos_ >= s_.size() || !digit(s_[pos_]))
                fail("invalid number: expected a digit after '.'");
            const std::size_t frac_start = pos_;
            while (pos_ < s_.size() && digit(s_[pos_]))
                ++pos_;
            while (frac_start + frac_leading_zeros < pos_ && s_[frac_start + frac_leading_zeros] == '0')
                ++frac_leading_zeros;
        }
        long long exponent = 0;
        if (peek_is('e') || peek_is('E')) {
            integer = false;
            ++pos_;
            bool exp_negative = false;
            if (peek_is('+') || peek_is('-'))
                exp_negative = s_[pos_++] == '-';
            if (pos_ >= s_.size() || !digit(s_[pos_]))
                fail("invalid number: expected a digit in the exponent");
            while (pos_ < s_.size() && digit(s_[pos_])) {
                if (exponent < 1'000'000'000)
                    exponent = exponent * 10 + (s_[pos_] - '0');
                ++pos_;
            }
            if (exp_negative)
                exponent = -exponent;
        }
        const char* first = s_.data() + start;
        const char* last = s_.data() + pos_;
        if (integer) {
            if (negative) {
                std::int64_t i;
                const auto [ptr, ec] = std::from_chars(first, last, i);
                if (ec == std::errc() && ptr == last)
                    return Value(i);
            } else {
                std::uint64_t u;
                const auto [ptr, ec] = std::from_chars(first, last, u);
                if (ec == std::errc() && ptr == last) {
                    // Int when it fits, so that Value(5) and a parsed 5 compare equal.
                    if (u <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
                        return Value(std::int64_t(u));
                    return Value(u);
                }
            }
            // Silently rounding to a double would break the promise that integers are exact.
            fail_at(start, "integer out of range: integers must be from -2^63 to 2^64-1");
        }
        double d;
        const auto [ptr, ec] = std::from_chars(first, last, d);
        if (ec == std::errc::result_out_of_range) {
            // Too small rounds to zero, as everyone else reads it; too large has no value.
            const bool int_is_zero = int_digits == 1 && s_[int_start] == '0';
            const long long magnitude
                = int_is_zero ? exponent - (long long)frac_leading_zeros - 1 : exponent + (long long)int_digits - 1;
            if (magnitude > 0)
                fail_at(start, "number out of range: its magnitude exceeds that of a double");
            return Value(negative ? -0.0 : 0.0);
        }
        if (ec != std::errc() || ptr != last)
            fail_at(start, "invalid number");
        return Value(d);
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

void write_string(std::string& out, const std::string& s)
{
    out += '"';
    for (const char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void write_double(std::string& out, double d)
{
    if (!std::isfinite(d)) {
        out += "null";
        return;
    }
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, d);
    std::string_view text(buf, std::size_t(ptr - buf));
    out += text;
    // "1" would read back as an integer: keep it a double.
    if (text.find_first_of(".e") == std::string_view::npos)
        out += ".0";
}

void newline(std::string& out, int indent, unsigned depth)
{
    out += '\n';
    out.append(std::size_t(indent) * depth, ' ');
}

void write_value(std::string& out, const Value& v, int indent, unsigned depth)
{
    switch (v.type()) {
    case Value::Type::Null:
        out += "null";
        return;
    case Value::Type::Bool:
        out += v.as_bool() ? "true" : "false";
        return;
    case Value::Type::Int:
        out += std::to_string(v.as_int());
        return;
    case Value::Type::Uint:
        out += std::to_string(v.as_uint());
        return;
    case Value::Type::Double:
        write_double(out, v.as_double());
        return;
    case Value::Type::String:
        write_string(out, v.as_string());
        return;
    case Value::Type::Array: {
        const Array& a = v.as_array();
        if (a.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (i)
                out += indent < 0 ? ", " : ",";
            if (indent >= 0)
                newline(out, indent, depth + 1);
            write_value(out, a[i], indent, depth + 1);
        }
        if (indent >= 0)
            newline(out, indent, depth);
        out += ']';
        return;
    }
    case Value::Type::Object: {
        const Object& o = v.as_object();
        if (o.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        for (std::size_t i = 0; i < o.size(); ++i) {
            if (i)
                out += indent < 0 ? ", " : ",";
            if (indent >= 0)
                newline(out, indent, depth + 1);
            write_string(out, o[i].first);
            out += ": ";
            write_value(out, o[i].second, indent, depth + 1);
        }
        if (indent >= 0)
            newline(out, indent, depth);
        out += '}';
        return;
    }
    }
}

} // namespace

Value parse(std::string_view text)
{
    return Parser(text).document();
}

std::string write(const Value& v, int indent)
{
    std::string out;
    write_value(out, v, indent, 0);
    return out;
}

} // namespace pcl::json
